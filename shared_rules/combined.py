"""«Комбинированная пирамида» (Combined pyramid, "Moscow"): docs/rules/combined.md, A-D1, A-D4, A-C1.

The yellow (ball 0) is always the cue ball. A legally pocketed cue ball scores through an object ball the
shooter takes off the table, then a premium shot from hand from the house (5.2). On a foul the opponent takes
a penalty ball; if the cue ball fell or jumped, the opponent then plays from hand from the house (7).
"""

from __future__ import annotations

from typing import ClassVar

from . import general as g
from .draft import Draft
from .errors import MalformedInputError
from .model import Foul, InHand, ShotReport
from .outcome import Reason
from .profile import Profile
from .registry import register
from .resolve import ShotFacts
from .state import ChoiceKind, Pending
from .variant import Variant


def _r(paragraph: str, en: str, ru: str, ambiguity: str | None = None) -> Reason:
    return Reason("combined", paragraph, en, ru, ambiguity)


R_GOAL = _r("1", "first to the target (8 points) wins", "первым набравший восемь очков выигрывает")
R_CONCEDE = _r("1", "conceded: the opponent wins", "сдался: победа соперника")
R_CUE = _r("2", "only the yellow ball may be struck with the cue", "кием бьют только по жёлтому шару (битку)")
R_POT = _r(
    "5.1",
    "object ball pocketed: +1, the player shoots again",
    "прицельный шар забит: +1, игрок продолжает",
    "A-D1",
)
R_CUE_POT = _r(
    "5.2",
    "cue ball pocketed: take an object ball of your choice onto your shelf, then a premium shot from hand "
    "from the house",
    "забит биток: снимите прицельный шар по выбору на полку, затем премиальный удар с руки из дома",
    "A-D4",
)
R_CUE_BALL_TAKEN = _r(
    "5.2", "object ball taken for the pocketed cue ball: +1", "шар снят взамен забитого битка: +1"
)
R_PREMIUM = _r(
    "5.2",
    "premium shot: cue ball in hand from the house (general 21; temporary house if every object ball is in "
    "the house)",
    "премиальный удар: биток с руки из дома (п.21; временный дом, если все шары в доме)",
    "A-C1",
)
R_NO_POT = _r("5.3", "nothing pocketed: the turn passes", "ничего не забито: ход переходит к сопернику")
R_PENALTY = _r(
    "7",
    "foul: the opponent takes a penalty ball of their choice from the table (after spotting)",
    "штраф: соперник снимает со стола штрафной шар по выбору (после выставления)",
    "A-D1",
)
R_PENALTY_TAKEN = _r(
    "7",
    "penalty ball taken: +1 to the offender's opponent",
    "штрафной шар снят: +1 сопернику нарушителя",
    "A-D1",
)
R_PENALTY_SHOT = _r(
    "7",
    "the cue ball fell or jumped on the foul: after the penalty ball the opponent "
    "plays from hand from the house",
    "биток забит неправильно или выскочил: после штрафного шара соперник бьёт с руки из дома",
)
R_SPOTTING = _r(
    "8",
    "incorrectly pocketed and jumped object balls are spotted (general 25)",
    "неправильно забитые и выскочившие прицельные шары выставляются (п.25)",
)

PARAGRAPHS: dict[str, str] = {
    "1": "goal: first to 8 points",
    "2": "15 ivory object balls; the yellow is always the cue ball",
    "3": "rack per general 8.1, 8.2",
    "4": "break from hand from the house (general 11, 12)",
    "5.1": "any object ball, or the cue ball off an object ball, may be pocketed",
    "5.2": "cue ball pocketed: take an object ball, premium shot from hand from the house",
    "5.3": "no calls; every ball pocketed on a legal shot counts",
    "5.4": "every shot but the break must be correctly completed (general 20)",
    "6": "+1 per correctly pocketed ball; a foul gives the opponent +1",
    "7": "penalty ball; cue ball pocketed or jumped on a foul: penalty shot from the house",
    "8": "incorrectly pocketed and jumped object balls are spotted (general 25)",
    "A-D1": "the penalty ball is the foul's point: score = shelf",
    "A-D4": "the cue ball pocketed on a correct break: 5.2 applies",
    "A-C1": "premium shot with every object ball in the house: the temporary house",
}


class CueBallVariant(Variant):
    """Shared by Combined and Dynamic: the yellow is the only cue ball; object balls score 1 each."""

    CUE_BALL = 0
    R_POT: ClassVar[Reason] = R_POT
    R_NO_POT: ClassVar[Reason] = R_NO_POT
    R_CUE_POT: ClassVar[Reason] = R_CUE_POT
    R_CUE_BALL_TAKEN: ClassVar[Reason] = R_CUE_BALL_TAKEN
    R_PENALTY_TAKEN: ClassVar[Reason] = R_PENALTY_TAKEN

    def check_options(self) -> None:
        super().check_options()
        if int(self.options["target"]) > 8:  # type: ignore[call-overload]
            raise MalformedInputError(
                f"option 'target' may be at most 8 in {self.name}: with 15 object balls a higher target can "
                "leave a table with no ball to play",
                "параметр 'target' не больше 8: при 15 прицельных шарах партия иначе может зайти в тупик",
            )

    def count_objects(self, d: Draft, s: ShotReport, f: ShotFacts) -> int:
        """5.1/5.3/6: every object ball that fell scores 1 for the shooter."""
        n = 0
        for b in f.pocketed:
            if b != self.CUE_BALL:
                d.to_shelf(s.shooter, b, self.R_POT)
                n += 1
        return n

    def cue_ball_potted(self, d: Draft, s: ShotReport, f: ShotFacts) -> None:
        """5.2: the shooter takes an object ball (the cue ball's point) and gets a premium shot from hand."""
        if any(b != self.CUE_BALL for b in d.on_table):
            self.offer(d, s.shooter, ChoiceKind.CUE_BALL_BALL, ("take_ball",), self.R_CUE_POT)
        self.premium(d, s)
        d.keep_turn(self.R_CUE_POT)

    def premium(self, d: Draft, s: ShotReport) -> None:
        """5.2: the premium shot with the cue ball from hand from the house."""
        d.to_hand(self.CUE_BALL, InHand.HOUSE, s.shooter, R_PREMIUM)

    def on_legal(self, d: Draft, s: ShotReport, f: ShotFacts) -> None:
        potted = self.count_objects(d, s, f)
        if self.CUE_BALL in f.pocketed:
            self.cue_ball_potted(d, s, f)
        elif potted:
            d.keep_turn(self.R_POT)
        else:
            d.pass_turn(1 - s.shooter, self.R_NO_POT)

    def spot_objects(self, d: Draft, f: ShotFacts) -> bool:
        """8 / general 22.3, 25: spot the object balls; True if the cue ball fell or jumped."""
        cue = self.CUE_BALL
        self.spot_incorrect(d, [b for b in f.pocketed if b != cue])
        self.spot(d, [b for b in f.jumped if b != cue])
        return cue in f.pocketed or cue in f.jumped

    def choice_reason(self, p: Pending) -> Reason:
        return self.R_CUE_BALL_TAKEN if p.kind == "cue_ball_ball" else self.R_PENALTY_TAKEN


@register
class Combined(CueBallVariant):
    """Combined pyramid."""

    name = "combined"
    title_en = "Combined pyramid"
    title_ru = "Комбинированная пирамида"
    PROFILE = Profile(cue_ball_pocketed_rule=R_CUE_POT)
    PARAGRAPHS: ClassVar[dict[str, str]] = PARAGRAPHS
    R_GOAL = R_GOAL
    R_CONCEDE = R_CONCEDE
    R_SPOTTING = R_SPOTTING

    def on_foul(self, d: Draft, s: ShotReport, f: ShotFacts, fouls: list[Foul], offender: int) -> None:
        opponent = 1 - offender
        cue_out = self.spot_objects(d, f)
        if any(b != self.CUE_BALL for b in d.on_table):
            self.offer(d, opponent, ChoiceKind.PENALTY_BALL, ("take_ball",), R_PENALTY)
        if cue_out:
            # 7: the penalty shot from hand from the house follows the penalty ball.
            d.to_hand(self.CUE_BALL, InHand.HOUSE, opponent, R_PENALTY_SHOT)
        d.pass_turn(opponent, g.R_FOUL_TURN)
