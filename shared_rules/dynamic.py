"""«Динамичная пирамида» (Dynamic pyramid, "Nevsky"): docs/rules/dynamic.md, A-D1..A-D4.

As Combined, but the premium shot after a legally pocketed cue ball is in hand ANYWHERE and may pocket only
object balls (5.2); on a foul the opponent chooses: a ball from the table and play on, or a penalty shot in
hand anywhere (7).
"""

from __future__ import annotations

from typing import ClassVar

from . import general as g
from .combined import CueBallVariant
from .draft import Draft
from .model import Choose, Foul, InHand, ShotReport
from .outcome import Reason
from .profile import Profile
from .registry import register
from .resolve import ShotFacts
from .state import ChoiceKind, Pending
from .variant import Variant

OBJECTS_ONLY = "objects_only"  # 5.2, 7(2): only object balls may be pocketed on this shot


def _r(paragraph: str, en: str, ru: str, ambiguity: str | None = None) -> Reason:
    return Reason("dynamic", paragraph, en, ru, ambiguity)


R_GOAL = _r("1", "first to the target (8 points) wins", "первым набравший восемь очков выигрывает")
R_CONCEDE = _r("1", "conceded: the opponent wins", "сдался: победа соперника")
R_POT = _r(
    "5.1",
    "object ball pocketed: +1, the player shoots again",
    "прицельный шар забит: +1, игрок продолжает",
    "A-D1",
)
R_CUE_POT = _r(
    "5.2",
    "cue ball pocketed: take an object ball of your choice onto your shelf, "
    "then a premium shot in hand anywhere",
    "забит биток: снимите прицельный шар по выбору на полку, затем премиальный удар с руки с любого места",
    "A-D4",
)
R_CUE_BALL_TAKEN = _r(
    "5.2", "object ball taken for the pocketed cue ball: +1", "шар снят взамен забитого битка: +1"
)
R_PREMIUM = _r(
    "5.2",
    "premium shot: cue ball in hand anywhere; only object balls may be pocketed",
    "премиальный удар: биток с руки с любого места; забивать можно только прицельный шар",
)
R_CUE_ON_PREMIUM = _r(
    "5.2",
    "the cue ball fell on a premium or penalty shot: it does not count, no penalty; the opponent plays in "
    "hand anywhere (object balls pocketed with it count)",
    "биток упал при премиальном или штрафном ударе: не засчитывается, штрафа нет; соперник бьёт с руки с "
    "любого места (прицельные шары засчитываются)",
    "A-D3",
)
R_NO_POT = _r("5.3", "nothing pocketed: the turn passes", "ничего не забито: ход переходит к сопернику")
R_PENALTY = _r(
    "7",
    "foul: the opponent chooses (1) a ball from the table and play on from the position, or (2) a penalty "
    "shot in hand anywhere",
    "штраф: соперник выбирает (1) снять шар со стола и продолжить из позиции или "
    "(2) штрафной удар с любого места",
)
R_PENALTY_TAKEN = _r(
    "7",
    "7(1): penalty ball taken, +1; play on from the position",
    "7(1): штрафной шар снят, +1; игра из позиции",
    "A-D1",
)
R_PENALTY_SHOT = _r(
    "7",
    "7(2): penalty shot in hand anywhere; only object balls may be pocketed; no ball is taken, so no point",
    "7(2): штрафной удар с руки с любого места; забивать только прицельный шар; шар не снимается — очка нет",
    "A-D1",
)
R_PENALTY_SHOT_POINT = _r(
    "6",
    "penalty shot chosen: +1 to the offender's opponent (option dynamic_penalty_shot_adds_point)",
    "выбран штрафной удар: +1 сопернику нарушителя (параметр)",
    "A-D1",
)
R_CUE_OUT = _r(
    "7",
    "the cue ball fell or jumped on the foul: the opponent has it in hand anywhere whichever option",
    "биток упал или выскочил при нарушении: соперник бьёт с руки с любого места при любом выборе",
    "A-D2",
)
R_SPOTTING = _r(
    "8",
    "incorrectly pocketed and jumped object balls are spotted (general 25)",
    "неправильно забитые и выскочившие прицельные шары выставляются (п.25)",
)


@register
class Dynamic(CueBallVariant):
    """Dynamic pyramid."""

    name = "dynamic"
    title_en = "Dynamic pyramid"
    title_ru = "Динамичная пирамида"
    PROFILE = Profile(cue_ball_pocketed_rule=R_CUE_POT)
    PARAGRAPHS: ClassVar[dict[str, str]] = {
        "1": "goal: first to 8 points",
        "2": "15 ivory object balls; the yellow is always the cue ball",
        "3": "rack per general 8.1, 8.2",
        "4": "break from hand from the house (general 11, 12)",
        "5.1": "any object ball, or the cue ball off an object ball, may be pocketed",
        "5.2": "cue ball pocketed: take an object ball, premium shot in hand anywhere, objects only",
        "5.3": "no calls; every ball pocketed on a legal shot counts",
        "5.4": "every shot but the break must be correctly completed (general 20)",
        "6": "+1 per correctly pocketed ball; a foul gives the opponent +1",
        "7": "foul: (1) take a ball and play on, or (2) penalty shot in hand anywhere, objects only",
        "8": "incorrectly pocketed and jumped object balls are spotted (general 25)",
        "A-D1": "option (2) adds no point (score = shelf); configurable",
        "A-D2": "cue ball off the table on a foul: in hand anywhere under option (1) too",
        "A-D3": "object and cue ball on a premium/penalty shot: "
        "the object counts, cue ball no penalty, turn passes",
        "A-D4": "the cue ball pocketed on a correct break: 5.2 applies",
    }
    OPTIONS: ClassVar[dict[str, object]] = {**Variant.OPTIONS, "dynamic_penalty_shot_adds_point": False}
    R_GOAL = R_GOAL
    R_CONCEDE = R_CONCEDE
    R_SPOTTING = R_SPOTTING
    R_POT = R_POT
    R_NO_POT = R_NO_POT
    R_CUE_POT = R_CUE_POT
    R_CUE_BALL_TAKEN = R_CUE_BALL_TAKEN
    R_PENALTY_TAKEN = R_PENALTY_TAKEN

    def premium(self, d: Draft, s: ShotReport) -> None:
        """5.2: the premium shot in hand anywhere; only object balls may be pocketed."""
        d.to_hand(self.CUE_BALL, InHand.ANYWHERE, s.shooter, R_PREMIUM, OBJECTS_ONLY)

    def on_legal(self, d: Draft, s: ShotReport, f: ShotFacts) -> None:
        if self.CUE_BALL in f.pocketed and f.hand_rule == OBJECTS_ONLY:
            # 5.2 / A-D3: on a premium or penalty shot the cue ball does not count and is no foul.
            self.count_objects(d, s, f)
            opponent = 1 - s.shooter
            d.to_hand(self.CUE_BALL, InHand.ANYWHERE, opponent, R_CUE_ON_PREMIUM)
            d.pass_turn(opponent, R_CUE_ON_PREMIUM)
            return
        super().on_legal(d, s, f)

    def on_foul(self, d: Draft, s: ShotReport, f: ShotFacts, fouls: list[Foul], offender: int) -> None:
        opponent = 1 - offender
        if self.spot_objects(d, f):
            d.to_hand(self.CUE_BALL, InHand.ANYWHERE, opponent, R_CUE_OUT)  # A-D2
        has_ball = any(b != self.CUE_BALL for b in d.on_table)
        options = ("take_ball", "penalty_shot") if has_ball else ("penalty_shot",)
        self.offer(d, opponent, ChoiceKind.PENALTY_OPTION, options, R_PENALTY)
        d.pass_turn(opponent, g.R_FOUL_TURN)

    def on_choice(self, d: Draft, c: Choose, p: Pending) -> None:
        if p.kind != ChoiceKind.PENALTY_OPTION or c.option == "take_ball":
            super().on_choice(d, c, p)
            return
        # 7(2): the penalty shot; the cue ball comes into hand wherever it is.
        if d.hand is None:
            d.take_from_table(self.CUE_BALL)
        d.to_hand(self.CUE_BALL, InHand.ANYWHERE, c.player, R_PENALTY_SHOT, OBJECTS_ONLY)
        if self.options["dynamic_penalty_shot_adds_point"]:
            d.add_score(c.player, 1, R_PENALTY_SHOT_POINT)

    def choice_reason(self, p: Pending) -> Reason:
        return self.R_CUE_BALL_TAKEN if p.kind == "cue_ball_ball" else self.R_PENALTY_TAKEN
