"""The texts of Star pyramid's decisions (`Reason` constants, English and Russian), for shared_rules/star.py.

Reasons are module constants on purpose: effects are cached by their reason's identity (draft.py) and the fold
must stay above 50,000 shots/s. Each cites a paragraph of docs/rules/star.md and, where the text left a
choice, the reading's id (A-S1..A-S8).
"""

from __future__ import annotations

from .model import Colour
from .outcome import Reason

B, Y, K, G, R, IVORY = Colour.BLUE, Colour.YELLOW, Colour.BLACK, Colour.GREEN, Colour.RED, Colour.IVORY
FIVE = (B, Y, K, G, R)  # star 4.1: everybody's first five (the colours a reason is needed for)

RU_COLOUR = {B: "синий", Y: "жёлтый", K: "чёрный", G: "зелёный", R: "красный", IVORY: "цвета слоновой кости"}
# genitive: «вместо синего шара»
RU_OF = {B: "синего", Y: "жёлтого", K: "чёрного", G: "зелёного", R: "красного"}


def _r(paragraph: str, en: str, ru: str, ambiguity: str | None = None) -> Reason:
    return Reason("star", paragraph, en, ru, ambiguity)


R_IDENTIFY = _r(
    "4.1",
    "a ball counts by its colour: the shot is held until the referee gives it",
    "шар засчитывается по цвету: удар ждёт, пока судья назовёт цвет",
    "A-S1",
)
R_GOAL = _r(
    "1",
    "the first to pocket eight balls by the rules wins",
    "первым забивший восемь шаров по правилам выигрывает",
)
R_CONCEDE = _r("1", "conceded: the opponent wins", "сдался: победа соперника")
R_COUNT = {
    c: _r(
        "4.4",
        f"{c.value} pocketed: the shooter's next playing ball, +1",
        f"забит {RU_COLOUR[c]} шар: следующий игровой шар играющего, +1",
        "A-S3",
    )
    for c in FIVE
}
R_JOKER_COUNT = {
    c: _r(
        "4.1",
        f"the joker pocketed: it stands in for the shooter's {c.value}, +1; it leaves the game",
        f"забит «джокер»: засчитан вместо {RU_OF[c]} шара, +1; из игры выбывает",
        "A-S5",
    )
    for c in FIVE
}
R_BREAK_BLUE = _r(
    "4.2.1",
    "the ivory ball pocketed on the break is the breaker's blue, +1; yellow comes next",
    "забитый при разбое биток засчитывается как синий игровой шар, +1; следующим играется жёлтый",
    "A-S5",
)
R_FIRST_FIVE = _r(
    "4.1",
    "the five colours completed first: this player's last three are blue, yellow, black; the opponent's red, "
    "green, black",
    "первым сыграны пять цветов: этому игроку далее синий, жёлтый, чёрный; "
    "сопернику — красный, зелёный, чёрный",
    "A-S8",
)
R_SERIES = _r(
    "4.4", "a playing ball counted: the same player shoots again", "засчитан игровой шар: игрок продолжает"
)
R_BREAK_OTHER = _r(
    "4.2.1",
    "a ball that is not the breaker's playing ball fell on the break: "
    "it is spotted (6), the turn does not pass",
    "упавший при разбое шар, не являющийся игровым, выставляется (п.6) без перехода удара",
    "A-S4",
)
R_OTHER = _r(
    "4.3.1",
    "another ball was pocketed off a playing ball: it is spotted (6), the turn does not pass",
    "забит другой шар посредством игрового: выставляется (п.6) без перехода удара",
    "A-S4",
)
R_OTHER_PASSES = _r(
    "4.4",
    "only other balls fell: they are spotted and, with this match's option, the turn passes",
    "упали только другие шары: выставляются, и по параметру матча ход переходит к сопернику",
    "A-S4",
)
R_NOTHING = _r(
    "4.4", "no ball pocketed: the turn passes", "ни один шар не забит: ход переходит к сопернику", "A-S4"
)
R_JOKER_GONE = _r(
    "4.3.1",
    "a pocketed joker is not put back on the table",
    "забитый «джокер» на стол не выставляется",
    "A-S5",
)
R_JOKER_SPOTTED = _r(
    "4.3.1",
    "the joker pocketed on a foul is spotted (this match's option)",
    "«джокер», забитый при нарушении, выставляется (параметр матча)",
    "A-S5",
)
R_SNOOKERED = _r(
    "4.5",
    "a snookered playing ball was played: general 20 is suspended, any contact with it is enough",
    "удар по «замазанному» игровому шару: п.20 не действует, достаточно любого касания",
    "A-S7",
)
R_PENALTY = _r(
    "5.1",
    "foul: the opponent may take their next playing ball off the table and play on from the position, or "
    "give the shot back to the offender",
    "штраф: соперник вправе снять со стола свой игровой шар и продолжить из позиции "
    "или передать удар нарушителю",
    "A-S6",
)
R_PENALTY_TAKEN = _r(
    "5.1",
    "own playing ball taken off the table, +1; play on from the position",
    "свой игровой шар снят со стола, +1; игра из сложившейся позиции",
    "A-S6",
)
R_GIVE_BACK = _r("5.1", "the shot is given back to the offender", "удар передан нарушителю")
R_WRONG_OWN_BALL = _r(
    "4.3",
    "foul: the cue ball was not an own playing ball and it did not hit an own playing ball first",
    "штраф: битком был не свой игровой шар, и первым он коснулся не своего игрового шара",
    "A-S2",
)
R_SPOTTING = _r(
    "6.1",
    "incorrectly pocketed and jumped balls are spotted (general 25)",
    "неправильно забитые и выскочившие шары выставляются (п.25)",
)
R_RERACK_BALL = _r(
    "4.2",
    "the joker is out of play: the lowest-numbered ball on the table goes to the house as the cue ball for "
    "the new break",
    "«джокер» выбыл: в дом для нового разбоя ставится шар с наименьшим номером со стола",
    "A-G3",
)
