"""The texts of 100 points with a control ball (docs/rules/hundred.md): its paragraphs and every Reason it
cites (en/ru).

Module constants, so effects are shared and the fold stays fast (docs/rules-engine.md, step 4).
"""

from __future__ import annotations

from .model import Foul
from .outcome import Reason

PARAGRAPHS: dict[str, str] = {
    "1": "12 balls: the yellow cue ball and white 5..15; only the yellow is struck",
    "2": "rack: pyramid of ten, #10 on the centre spot; break from the house, only the safety rule; "
    "spotting by the foot rail",
    "3": "more than 50 points wins; points are the numbers on the shelf",
    "4": "strict call: ball, method, pocket; uncalled or not-as-called balls are spotted; "
    "extras spotted, turn stays",
    "5": "gentleman's supplement: an uncalled directly-struck ball counts; against the call it does not",
    "6": "double call must be fully made",
    "7": "series rule",
    "8": "cue ball in not directly and not as called, or jumped: nothing counts, turn passes, no penalty",
    "9": "cue ball in off a cushion/third ball as called: productive, lowest table ball to the shelf",
    "10": "cue ball in directly with no call: productive, no bonus",
    "11": "called three-cushion carom/rokambol on #10: productive, privilege for the next shot",
    "12": "the cue ball touching #10 while numbered balls remain is a foul "
    "(except the carom and the privilege)",
    "13": "#10 pocketed by a numbered ball (or with the privilege, the cue ball) leaves the game",
    "14": "#10 knocked off goes back to the centre spot; it waits while the spot is taken",
    "15": "after a correct in-off: shooter in hand anywhere; single direct balls and the carom do not count",
    "16": "after an incorrect in-off or a jump: opponent in hand anywhere, no restrictions",
    "17": "after a correct in-off with a failed double call: opponent in hand anywhere, §15 restrictions",
    "18": "penalty: the lowest shelf ball back to the table; an empty shelf makes a debt",
    "19": "the fouls: miss, wrong ball struck, touch, safety rule, double hit/push/press, touching #10",
    "20": "last-ball mode at 50:50; a foul there returns #10 to the centre spot and normal mode",
    "A-100-1": "the ten pyramid balls are the 100, #10 is worth 10; 50:50 starts last-ball mode",
    "A-100-2": "#10 pocketed legally counts 10 and leaves the game",
    "A-100-3": "the 'white' cue ball of §12 is the yellow",
    "A-100-4": "one privilege, for the next shot only",
    "A-100-5": "the §9 bonus excludes #10 while other numbered balls are on the table (option)",
    "A-100-6": "after a foul the opponent plays from the position; cue ball off: "
    "in hand anywhere, no restrictions",
    "A-100-7": "a debt counter (option)",
    "A-100-8": "a called ball on the break counts",
    "A-100-9": "no jump foul; the §19 list is exhaustive (option for jumped numbered balls)",
    "A-100-10": "the method of a call is judged by the referee's as-called verdict",
    "A-100-11": "a foul in last-ball mode: one ball back, #10 to the centre spot, normal mode",
    "A-100-12": "the rack order is not modelled",
}


def _r(paragraph: str, en: str, ru: str, ambiguity: str | None = None) -> Reason:
    return Reason("hundred", paragraph, en, ru, ambiguity)


R_CUE_ONLY = _r(
    "1", "only the yellow ball may be struck with the cue", "ударять кием можно только по жёлтому шару"
)
R_BREAK = _r(
    "2",
    "break from hand from the house: only the safety rule applies",
    "начальный удар с руки из дома: достаточно правила отыгрыша",
)
R_BREAK_UNCALLED = _r(
    "2",
    "uncalled ball on the break: does not count, spotted by the foot rail",
    "незаказанный шар при начальном ударе: не засчитывается, выставляется к короткому борту",
)
R_SPOT_RAIL = _r(
    "2",
    "spotted by the foot rail behind the pyramid, as near its middle as possible, touching no ball",
    "выставляется к короткому борту за пирамидой, как можно ближе к середине, не касаясь шаров",
)
R_IDENTIFY = _r(
    "3",
    "all balls are white and a ball's number is its score: the shot is held until the referee names it",
    "все шары белые, номер шара — это очки: удар ждёт, пока судья назовёт номер",
)
R_SPOT_TEN = _r("2", "#10 goes back on the centre spot", "шар №10 выставляется на центральную отметку")
R_GOAL = _r("3", "more than 50 points: the match is won", "набрано более 50 очков: победа", "A-100-1")
R_CONCEDE = _r("3", "conceded: the opponent wins", "сдался: победа соперника")
R_COUNT = _r(
    "4", "pocketed as called: counts its number", "сыгран по заказу: засчитывается по номеру", "A-100-10"
)
R_BREAK_CALLED = _r(
    "2", "called ball on the break: counts", "заказанный шар при начальном ударе засчитывается", "A-100-8"
)
R_NOT_CALLED = _r(
    "4",
    "not called, or not as called: does not count, spotted",
    "сыгран без заказа или не по заказу: не засчитывается, выставляется",
    "A-100-10",
)
R_EXTRA = _r(
    "4",
    "an extra ball besides the called one: does not count, spotted; the turn stays",
    "случайный шар помимо заказного: не засчитывается, выставляется; очередь остаётся",
)
R_GENTLEMAN = _r(
    "5",
    "no call, directly struck: counts as called (gentleman's supplement)",
    "без заказа прямо-летящий: считается сыгранным по заказу (джентльменское дополнение)",
)
R_CUE_AGAINST = _r(
    "5",
    "the cue ball went in directly against the call: the called ball does not count, "
    "the turn passes, no penalty",
    "прямо-летящий биток сыгран не по заказу: заказной шар не засчитывается, ход переходит, без штрафа",
)
R_DOUBLE_FAILED = _r(
    "6",
    "double call not fully made: the ball that fell does not count",
    "двойной заказ не выполнен полностью: сыгранный шар не засчитывается",
)
R_SERIES = _r("7", "productive shot: the same player shoots again", "результативный удар: игрок продолжает")
R_NOT_PRODUCTIVE = _r(
    "7", "not productive: the turn passes", "нерезультативный удар: ход переходит к сопернику"
)
R_CUE_NOT_CALLED = _r(
    "8",
    "the cue ball went in not as called (or jumped): nothing counts, the turn passes, no penalty",
    "биток сыгран не по заказу (или вылетел): шары не засчитываются, ход переходит, без штрафа",
    "A-100-9",
)
R_CUE_CALLED = _r(
    "9", "the cue ball went in as called: productive", "биток сыгран по заказу: результативный удар"
)
R_BONUS = _r(
    "9",
    "bonus for the cue ball in off a cushion or third ball: the lowest-value ball on the table to the shelf",
    "бонус за сыгранный по заказу биток: шар наименьшей стоимости со стола на полку",
    "A-100-5",
)
R_CUE_DIRECT = _r(
    "10",
    "the cue ball went in directly with no call: productive, no bonus",
    "прямо-летящий биток без заказа: результативный удар, шар на полку не снимается",
)
R_CAROM = _r(
    "11",
    "called three-cushion carom/rokambol on #10: productive; the privilege for the next shot",
    "заказной трёхбортный карамболь/рокамболь по №10: результативный удар; "
    "исключительное право на следующий удар",
    "A-100-4",
)
R_TEN_POTTED = _r(
    "13",
    "#10 pocketed legally: 10 points, it leaves the game",
    "№10 сыгран правильно: 10 очков, в игру не возвращается",
    "A-100-2",
)
R_TEN_ILLEGAL = _r(
    "13",
    "#10 pocketed with the cue ball without the privilege: does not count",
    "№10 сыгран битком без права: не засчитывается",
    "A-100-2",
)
R_TEN_BACK = _r(
    "14", "#10 knocked off the centre spot: put back on it", "сбитый №10 возвращается на центральную отметку"
)
R_TEN_WAITS = _r(
    "14",
    "the centre spot is taken: #10 stays where it stopped (even in a pocket) until it is free",
    "центральная отметка занята: №10 остаётся, где оказался (и в лузе), до её освобождения",
)
R_HAND_OWN = _r(
    "15",
    "the cue ball in hand anywhere for the shooter; single directly-struck balls will not "
    "count, nor a carom on #10",
    "биток с руки с любого места; одиночные прямо-летящие шары и карамболь по №10 не засчитываются",
)
R_HAND_FREE = _r(
    "16",
    "the opponent puts the cue ball in play from hand anywhere, with no restrictions",
    "соперник вводит биток с руки с любого места без ограничений",
    "A-100-6",
)
R_HAND_DOUBLE = _r(
    "17",
    "double call failed: the opponent puts the cue ball in play from hand anywhere, "
    "with the §15 restrictions",
    "двойной заказ не выполнен: соперник вводит биток с руки с любого места, с ограничениями п.15",
)
R_RESTRICTED = _r(
    "15",
    "from hand after a correct in-off: a single directly-struck ball does not count and the turn passes",
    "с руки после правильно сыгранного битка: одиночный прямо-летящий шар не засчитывается, ход переходит",
)
R_NO_CAROM = _r(
    "15",
    "from hand after a correct in-off: the carom/rokambol on #10 does not count",
    "с руки: карамболь/рокамболь по №10 не засчитывается",
)
R_PENALTY = _r(
    "18",
    "foul: the lowest-value ball on the offender's shelf goes back to the table",
    "штраф: шар наименьшей стоимости с полки нарушителя выставляется на стол",
)
R_DEBT = _r(
    "18",
    "foul with an empty shelf: the next ball the offender pockets correctly goes back instead (a debt)",
    "штраф при пустой полке: первый правильно сыгранный им шар выставляется на стол (долг)",
    "A-100-7",
)
R_DEBT_PAID = _r(
    "18",
    "debt paid: the correctly pocketed ball goes back to the table",
    "долг погашен: правильно сыгранный шар выставляется на стол",
    "A-100-7",
)
R_FOUL_POTTED = _r(
    "18",
    "pocketed on a foul: does not count, spotted",
    "сыгран при штрафе: не засчитывается, выставляется",
    "A-100-6",
)
R_FOUL_TURN = _r(
    "18",
    "foul: the turn passes to the opponent, who plays from the position",
    "штраф: ход переходит к сопернику, игра с позиции",
    "A-100-6",
)
R_JUMP = _r("2", "jumped: no foul, spotted", "выскочивший шар: без штрафа, выставляется", "A-100-9")
R_LAST = _r(
    "20",
    "all ten pyramid balls played and nobody over 50: play for #10; "
    "touching and returning #10 no longer apply",
    "все десять шаров пирамиды сыграны, никто не набрал более 50: играется №10; "
    "запрет касания и возврат №10 не действуют",
    "A-100-1",
)
R_LAST_FOUL = _r(
    "20",
    "foul in last-ball mode: #10 back on the centre spot, normal mode resumes",
    "штраф в режиме последнего шара: №10 на центральную отметку, игра в основном режиме",
    "A-100-11",
)
R_RERACK_TEN = _r("2", "re-rack: #10 on the centre spot", "перерасстановка: №10 на центральную отметку")

FOUL_REASONS: dict[str, Reason] = {
    Foul.MISS.value: _r("19", "foul: a miss", "штраф: промах по шару", "A-100-9"),
    Foul.BAD_CUE_STRIKE.value: _r(
        "19",
        "foul: a ball other than the yellow struck with the cue",
        "штраф: удар кием не по битку",
        "A-100-9",
    ),
    Foul.TOUCH.value: _r("19", "foul: a ball touched (туш)", "штраф: туш шара", "A-100-9"),
    Foul.NOT_COMPLETED.value: _r(
        "19",
        "foul: the safety rule not met (two cushions, or a cushion and a crossing)",
        "штраф: нарушение требований отыгрыша (два борта или борт с перекатом)",
        "A-100-9",
    ),
    Foul.DOUBLE_HIT.value: _r(
        "19", "foul: forbidden stroke (double hit)", "штраф: запрещённый удар (двойной удар)", "A-100-9"
    ),
    Foul.PUSH.value: _r(
        "19", "foul: forbidden stroke (push or press)", "штраф: запрещённый удар (пропих, нажим)", "A-100-9"
    ),
    Foul.TEN_TOUCHED.value: _r(
        "12",
        "foul: the cue ball touched #10 while other numbered balls are on the table",
        "штраф: касание битком шара №10 при наличии других нумерованных шаров на столе",
        "A-100-3",
    ),
    Foul.JUMPED.value: _r(
        "19",
        "foul: a numbered ball jumped (club option)",
        "штраф: выскочил нумерованный шар (параметр клуба)",
        "A-100-9",
    ),
}
SECTION19 = frozenset(
    {
        Foul.MISS,
        Foul.BAD_CUE_STRIKE,
        Foul.TOUCH,
        Foul.NOT_COMPLETED,
        Foul.DOUBLE_HIT,
        Foul.PUSH,
        Foul.TEN_TOUCHED,
    }
)
