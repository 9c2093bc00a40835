"""«Свободная пирамида» (Free pyramid): docs/rules/free.md, readings A-F1..A-F3, A-D1.

Any ball may be the cue ball (except on the break, which the coloured ball plays, A-F3); no calls; every ball
pocketed on a legal shot scores 1; on a foul the opponent takes a penalty ball of
their choice, after spotting.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from . import general as g
from .draft import Draft
from .errors import IllegalInputError
from .model import Choose, Foul, InHand, RefereeDecision, ShotReport
from .opening import open_frame
from .outcome import EffectKind, Need, NeedKind, Reason
from .profile import GENERAL_FACTS, Fact, Profile
from .registry import register
from .resolve import ShotFacts
from .state import LAG, OVER, REFEREE, ChoiceKind, Pending, State
from .variant import Variant


def _r(paragraph: str, en: str, ru: str, ambiguity: str | None = None) -> Reason:
    return Reason("free", paragraph, en, ru, ambiguity)


R_GOAL = _r("1", "first to the target (8 points) wins", "первым набравший восемь очков выигрывает")
R_CONCEDE = _r("1", "conceded: the opponent wins", "сдался: победа соперника")
R_CUE_ANY = _r("5.1", "choose the cue ball: any ball on the table", "выбор битка: любой шар на столе")
R_AGAIN = _r("5.2", "a ball pocketed: the same player shoots again", "шар забит: игрок продолжает")
R_NO_POT = _r("5.3", "nothing pocketed: the turn passes", "ничего не забито: ход переходит к сопернику")
R_COUNT = _r("6", "correctly pocketed: +1", "правильно забитый шар: +1 очко", "A-D1")
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
R_SPOTTING = _r(
    "8",
    "incorrectly pocketed and jumped balls are spotted (general 25)",
    "неправильно забитые и выскочившие шары выставляются (п.25)",
)
R_DEAD_END = _r(
    "A-F1",
    "one ball left and no winner: no shot is possible (a shot needs two balls); the referee decides",
    "на столе один шар и нет победителя: удар невозможен; решает судья",
    "A-F1",
)
R_REPLAY = _r(
    "A-F1", "referee: the frame is replayed from a new rack", "судья: партия переигрывается", "A-F1"
)
R_AWARD = _r("A-F1", "referee: the frame is awarded", "судья: победа присуждена", "A-F1")
R_DRAW = _r("A-F1", "referee: the frame is drawn", "судья: ничья", "A-F1")

DECISIONS = ("replay_frame", "award", "draw")


@register
class Free(Variant):
    """Free pyramid. Ball 0 is the coloured ball; 1..15 ivory; every ball may be a cue ball (5.1)."""

    name = "free"
    title_en = "Free pyramid"
    title_ru = "Свободная пирамида"
    CUE_BALL = None  # free 2: no fixed cue ball
    PROFILE = Profile(fixed_cue_ball=False, facts=GENERAL_FACTS | {Fact.CUE_BALL})
    PARAGRAPHS: ClassVar[dict[str, str]] = {
        "1": "goal: first to 8 points",
        "2": "16 balls; any ball on the table may be the cue ball",
        "3": "rack per general 8.1, 8.2",
        "4": "break from hand from the house (general 11, 12)",
        "5.1": "the player chooses the cue ball before every shot but the break",
        "5.2": "a ball pocketed on a legal shot: shoot again",
        "5.3": "nothing pocketed: the turn passes; on a foul general 10",
        "5.4": "any object ball, and the cue ball off an object ball, may be pocketed",
        "5.5": "no calls; every ball pocketed on a legal shot counts",
        "5.6": "every shot but the break must be correctly completed (general 20)",
        "6": "+1 per correctly pocketed ball; a foul gives the opponent +1",
        "7": "penalty ball: the opponent takes any ball from the table, after spotting",
        "8": "incorrectly pocketed and jumped balls are spotted (general 25)",
        "A-F1": "7:7 dead end: one ball left, the referee decides",
        "A-F2": "after a foul the opponent plays from the position left",
        "A-F3": "the coloured ball breaks",
    }
    R_GOAL = R_GOAL
    R_CONCEDE = R_CONCEDE
    R_SPOTTING = R_SPOTTING

    def takeable(self, ball: int) -> bool:
        return True  # free 7: «любой шар», the coloured ball too

    def on_legal(self, d: Draft, s: ShotReport, f: ShotFacts) -> None:
        # free 5.4/5.5/6: every ball that fell counts, the cue ball too («свояк»).
        for b in f.pocketed:
            d.to_shelf(s.shooter, b, R_COUNT)
        if f.pocketed:
            d.keep_turn(R_AGAIN)
        else:
            d.pass_turn(1 - s.shooter, R_NO_POT)

    def on_foul(self, d: Draft, s: ShotReport, f: ShotFacts, fouls: list[Foul], offender: int) -> None:
        # free 8 / general 22.3, 25: spot first; free 7: then the penalty ball; A-F2:
        # play on from the position.
        self.spot_incorrect(d, f.pocketed)
        self.spot(d, f.jumped)
        opponent = 1 - offender
        if d.on_table:
            self.offer(d, opponent, ChoiceKind.PENALTY_BALL, ("take_ball",), R_PENALTY)
        d.pass_turn(opponent, g.R_FOUL_TURN)

    def choice_reason(self, p: Pending) -> Reason:
        return R_PENALTY_TAKEN

    def on_choice(self, d: Draft, c: Choose, p: Pending) -> None:
        super().on_choice(d, c, p)
        d.placed = [x for x in d.placed if x[0] in d.on_table]

    def after(self, d: Draft) -> None:
        super().after(d)
        # A-F1: a shot needs a cue ball and an object ball; with one ball (or none) left and no winner, stop.
        if d.mode != OVER and d.pending is None and len(d.on_table) + (d.hand is not None) <= 1:
            d.mode = REFEREE
            d.decision = "A-F1"
            d.emit(EffectKind.MODE, R_DEAD_END, detail=REFEREE)

    # -- the referee decision (A-F1) --------------------------------------------------------------------

    def decision_options(self, state: State) -> tuple[str, ...]:
        return DECISIONS

    def decision_text(self, state: State) -> tuple[str, str]:
        return (
            R_DEAD_END.text("en") + ": replay the frame, award it, or draw",
            R_DEAD_END.text("ru") + ": переиграть, присудить победу или ничья",
        )

    def on_decision(self, d: Draft, r: RefereeDecision) -> None:
        if r.option == "award":
            if r.winner is None:
                raise IllegalInputError(
                    "award: name the winner (0 or 1)", "присуждение: укажите победителя (0 или 1)"
                )
            g.check_player(r.winner, "RefereeDecision.winner")
            d.win(r.winner, R_AWARD)
        elif r.option == "draw":
            d.draw = True
            d.mode = OVER
            d.emit(EffectKind.DRAWN, R_DRAW)
        else:
            self.replay_frame(d)
        d.decision = None

    def replay_frame(self, d: Draft) -> None:
        """A new rack of all 16 balls, scores 0:0 (or the handicap again), a new lag."""
        fresh = self.initial_state()
        d.on_table = list(fresh.on_table)
        d.shelves = [[], []]
        d.scores = [0, 0]
        d.pocketed, d.off_table = [], []
        d.hand, d.in_hand, d.hand_rule = fresh.hand, InHand.HOUSE, ""
        d.placed = list(fresh.placed)
        d.mode = LAG
        d.is_break = True
        d.frame += 1
        d.emit(EffectKind.RACK, R_REPLAY, amount=len(d.on_table), detail="full")
        # the handicap is given again (general A-G5); the new frame opens with a lag
        if not self.opening.plain:
            open_frame(d, replace(self.opening, breaker=None), self.handicap_balls, self.ball_value)

    def shot_needs(self, state: State) -> tuple[Need, ...]:
        if state.is_break or state.in_hand is not InHand.NONE:
            return super().shot_needs(state)
        return (
            Need(
                NeedKind.CUE_BALL,
                state.to_play,
                R_CUE_ANY.text("en"),
                R_CUE_ANY.text("ru"),
                options=tuple(str(b) for b in state.on_table),
            ),
        )
