"""«Классическая пирамида» (Classic pyramid, 71 points): docs/rules/classic.md, A-C2..A-C7.

Ball 0 is the yellow cue ball, 1..15 the numbered object balls in the fixed rack of §3. A ball scores its
number (the ace 11) when the called ball goes into the called pocket (5.1-5.3); the last object ball adds 10,
once (A-C3). Every shot but the break needs one call (5.2); a ball that falls without the called one is
spotted and the turn passes (5.4). A foul moves 5 points from the offender to the opponent (5.6, negative
scores allowed, A-C6); a pocketed or jumped cue ball is a foul and the opponent plays from hand from the house
(5.5). At 70:70 the last pocketed ball goes back on the foot spot, a lag,
then play from the house until a pot or a foul (5.7, A-C2).

Ball numbers in an incomplete report. A `PocketedBall` with `ball=None` (and not reported yellow) is an object
ball. Its number is worked out only where it is certain: the single ball that fell into the called pocket is
the called ball (5.2), and if as many unnamed balls fell as there are candidates left they are those balls.
Where the number cannot change the result it stays unnamed and the engine picks a stand-in, as in the core: on
a foul (22.3), with no call, or when the call failed (5.4) every ball is spotted whatever it is. Otherwise (a
number decides the score) the shot is held for it (`complete`, the one protocol of held.py): a `BALL_NUMBER`
need, answered by `Identify`.

A shot with no call (a safety, a miss) is a shot without a call: whatever falls is uncalled and spotted,
nothing scores, the turn passes (5.4); the panel never has to invent a call.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar

from . import general as g
from .classic_text import (
    R_ACE,
    R_BREAK_COUNTS,
    R_BREAK_SPOTTED,
    R_CALL,
    R_CALLED,
    R_COMPLETION,
    R_CONCEDE,
    R_CUE_ONLY,
    R_CUE_POCKETED,
    R_DECIDER,
    R_DECIDER_FOUL,
    R_DECIDER_LAG,
    R_DECIDER_POT,
    R_DECIDER_RERACK,
    R_GOAL,
    R_IDENTIFY,
    R_LAST_BALL,
    R_NEGATIVE,
    R_NO_CALL,
    R_NO_POT,
    R_PENALTY,
    R_PENALTY_SHOT,
    R_SPOT_ORDER,
    R_SPOTTING,
    R_UNCALLED,
    R_VALUE,
    R_WITH_CALLED,
)
from .draft import Draft
from .errors import IllegalInputError, MalformedInputError
from .model import (
    Colour,
    Declaration,
    DeclarationKind,
    Foul,
    InHand,
    Interference,
    Lag,
    Pocket,
    ShotReport,
    Spot,
)
from .opening import HandicapKind
from .outcome import EffectKind, Need, NeedKind
from .profile import GENERAL_FACTS, GENERAL_FOULS, BallIdentity, Fact, Profile
from .registry import register
from .resolve import ShotFacts
from .state import LAG, OVER, REFEREE, Key, Mode, State
from .variant import Variant

DECIDER = Mode.DECIDER  # mode of the 70:70 decider (5.7)
# Classic's extra state (typed keys of State.extra):
DECIDER_BALL: Key[int] = Key("decider")  # 5.7: the ball put back on the foot spot for the 70:70 decider
BONUS: Key[bool] = Key("bonus")  # A-C3: the last-ball +10 has been awarded (once)
CUE = 0

# §3: the fixed rack, apex (row 1) on the foot spot, the base (row 5) parallel to the foot rail.
RACK_ROWS: tuple[tuple[int, ...], ...] = ((4,), (5, 6), (7, 15, 8), (9, 14, 13, 10), (2, 1, 12, 11, 3))
RACK_ORDER: tuple[int, ...] = tuple(b for row in RACK_ROWS for b in row)
# 5.1: a ball scores its number, the ace (#1) 11; the fifteen sum to 130.
VALUES: tuple[int, ...] = (0, 11, *range(2, 16))
LAST_BALL_BONUS = 10
FOUL_POINTS = 5
MAX_TARGET = 71  # above 71 all balls can go with nobody at the target and unequal scores: no rule for that


def value(ball: int) -> int:
    """Classic 5.1: the points a correctly pocketed ball scores."""
    return VALUES[ball]


# The FOUL effect of the variant's own foul code cites its paragraph in both languages.
g.FOUL_REASONS[Foul.CUE_BALL_POCKETED] = R_CUE_POCKETED


def _refuse(en: str, ru: str) -> IllegalInputError:
    return IllegalInputError(f"classic {en}", f"classic {ru}")


@register
class Classic(Variant):
    """Classic pyramid (71 points)."""

    name = "classic"
    title_en = "Classic pyramid"
    title_ru = "Классическая пирамида"
    PARAGRAPHS: ClassVar[dict[str, str]] = {
        "1": "goal: the first to reach 71 (the target option; 51 exists) wins",
        "2": "15 numbered object balls and the yellow cue ball, the only ball struck with the cue",
        "3": "fixed rack: 4 / 5 6 / 7 15 8 / 9 14 13 10 / 2 1 12 11 3, "
        "apex on the foot spot; cue ball in the house",
        "4": "break from hand from the house (general 11, 12)",
        "5.1": "a ball scores its number, the ace 11; the last object ball +10",
        "5.2": "before every shot but the break: call an object ball on the table and a pocket",
        "5.3": "the called ball into the called pocket: every ball pocketed on the shot counts",
        "5.4": "an uncalled ball falls without the called one: spotted, no foul, the turn passes",
        "5.5": "cue ball pocketed or jumped: foul; the opponent plays from hand from the house",
        "5.6": "each foul: −5 to the offender, +5 to the opponent (once per shot, general 29.2)",
        "5.7": "70:70: last pocketed ball on the foot spot, lag, from the house, next pot wins, a foul loses",
        "5.8": "every shot but the break correctly completed (general 20); waivable for veterans",
        "6": "incorrectly pocketed, uncalled and jumped object balls are spotted (general 25)",
        "A-C2": "70:70 decider: the scores stay 70:70, the next pot wins, a foul loses",
        "A-C3": "the +10 last-ball bonus is paid once, to the shooter who empties the table",
        "A-C4": "balls pocketed on a correct break count (option classic_break_balls_count)",
        "A-C5": "an uncalled ball that falls with the called one counts",
        "A-C6": "scores may go below zero",
        "A-C7": "several balls spotted at once: the referee chooses the order (pocketing order proposed)",
    }
    # numbered balls in a fixed rack (3): points only
    HANDICAPS: ClassVar[frozenset[HandicapKind]] = frozenset({HandicapKind.POINTS})
    OPTIONS: ClassVar[dict[str, object]] = {
        **Variant.OPTIONS,
        "target": 71,
        "classic_break_balls_count": True,
    }
    R_GOAL = R_GOAL
    R_CONCEDE = R_CONCEDE
    R_SPOTTING = R_SPOTTING
    PROFILE = Profile(
        identity=BallIdentity.NUMBER,
        calls=True,
        facts=GENERAL_FACTS | {Fact.CUE_BALL, Fact.DECLARATIONS},
        fouls=(*GENERAL_FOULS, Foul.CUE_BALL_POCKETED),  # 5.5
        identity_rule=R_IDENTIFY,
        call_mismatch_rule=R_UNCALLED,
        cue_ball_pocketed_rule=R_CUE_POCKETED,
    )

    def check_options(self) -> None:
        super().check_options()
        if int(self.options["target"]) > MAX_TARGET:  # type: ignore[call-overload]
            raise MalformedInputError(
                f"option 'target' may be at most {MAX_TARGET} in classic (71, or 51 by agreement): the balls "
                "are worth 140, and only at 71 does an empty table with no winner mean 70:70 (5.7)",
                f"параметр 'target' не больше {MAX_TARGET} (71 или 51): шары стоят 140 очков, и только "
                "при 71 пустой стол без победителя означает 70:70 (п.5.7)",
            )
        self.break_counts = bool(self.options["classic_break_balls_count"])

    def initial_state(self) -> State:
        """Classic 3: the fixed rack (in `placed`, row by row,
        apex on the foot spot); cue ball in the house."""
        s = super().initial_state()
        placed = ((RACK_ORDER[0], Spot.FOOT.value), *((b, "rack") for b in RACK_ORDER[1:]))
        return s._replace(placed=placed)

    # -- before the shot: the call (5.2) ------------------------------------------------------------------

    def check_shot(self, state: State, s: ShotReport) -> None:
        super().check_shot(state, s)
        if type(s.declarations) is not tuple:
            raise MalformedInputError(f"declarations: expected a tuple, got {s.declarations!r}")
        self.check_calls(state, s.declarations)

    def check_calls(self, state: State, calls: Sequence[Declaration]) -> None:
        """5.2: no call on the break (A-C4); otherwise at most one call, of an object ball on the table."""
        if state.is_break:
            if calls:
                raise _refuse(
                    "5.2: no call is made on the break (A-C4); remove the declaration",
                    "5.2: на начальном ударе заказ не делается (A-C4); уберите заказ",
                )
            return
        if len(calls) > 1:
            raise _refuse(
                f"5.2: call one object ball and one pocket before the shot (got {len(calls)} calls)",
                f"5.2: перед ударом закажите один прицельный шар и лузу (заказов: {len(calls)})",
            )
        if calls:  # no call: a shot without a call (a safety, a miss), 5.4
            self.check_call(state, calls[0])

    def check_call(self, state: State, call: object) -> None:
        """Classic 5.2: one object ball that is on the table, into a real pocket."""
        if type(call) is not Declaration:
            raise MalformedInputError(f"declarations[0]: not a Declaration: {call!r}")
        if call.kind is not DeclarationKind.OBJECT or call.ball == CUE:
            raise _refuse(
                "5.5: the cue ball cannot be called; pocketing it is a foul. Call an object ball",
                "5.5: биток заказывать нельзя, его падение в лузу — штраф. Закажите прицельный шар",
            )
        if type(call.ball) is not int or call.ball not in state.on_table:
            balls = ", ".join(str(b) for b in state.on_table if b != CUE)
            raise _refuse(
                f"5.2: the called ball {call.ball!r} is not on the table; balls on the table: {balls}",
                f"5.2: заказанного шара {call.ball!r} нет на столе; на столе: {balls}",
            )
        if type(call.pocket) is not Pocket:
            try:
                Pocket(call.pocket)
            except (ValueError, TypeError):
                raise MalformedInputError(
                    f"declarations[0].pocket: {call.pocket!r} is not a pocket (1..6)",
                    f"declarations[0].pocket: {call.pocket!r} — нет такой лузы (1..6)",
                ) from None

    def shot_needs(self, state: State) -> tuple[Need, ...]:
        """The placement from hand, and (not on the break) the call: 5.2."""
        base = super().shot_needs(state)
        if state.is_break:
            return base
        balls = tuple(str(b) for b in state.on_table if b != CUE)
        return (
            *base,
            Need(NeedKind.DECLARATION, state.to_play, R_CALL.text("en"), R_CALL.text("ru"), options=balls),
        )

    # -- the shot -------------------------------------------------------------------------------------------

    def complete(self, state: State, s: ShotReport) -> tuple[ShotReport, int | None]:
        """The report with every certain ball number filled in, and the index of the first pocketed ball whose
        number decides the score but is not certain (None if there is none). See the module docstring."""
        pocketed = list(s.pocketed)
        if self.surely_foul(s):
            return s, None  # 22.3: everything that fell is spotted, whichever ball it is
        unknown = [i for i, pb in enumerate(pocketed) if pb.ball is None and pb.colour is not Colour.YELLOW]
        named = {pb.ball for pb in pocketed if pb.ball is not None}
        if state.is_break:
            if not self.break_counts:
                return s, None  # A-C4 off: every ball is spotted
        elif not s.declarations:
            return s, None  # 5.4: no call, every ball is spotted
        else:
            call = s.declarations[0]
            in_call = [i for i, pb in enumerate(pocketed) if pb.pocket == call.pocket]
            if not any(pocketed[i].ball == call.ball for i in in_call):
                if call.ball in named or not any(i in unknown for i in in_call):
                    return s, None  # 5.4: the call failed, every ball is spotted
                if len(in_call) > 1:
                    return s, next(i for i in in_call if i in unknown)
                i = in_call[0]  # 5.2: the one ball that fell into the called pocket is the called ball
                pocketed[i] = dataclasses.replace(pocketed[i], ball=call.ball)
                unknown.remove(i)
                named.add(call.ball)
        if unknown:
            candidates = [b for b in state.on_table if b != CUE and b not in named]
            if len(candidates) != len(unknown):
                return dataclasses.replace(s, pocketed=tuple(pocketed)), unknown[0]
            # all that were left fell: the total is certain
            for i, b in zip(unknown, candidates, strict=True):
                pocketed[i] = dataclasses.replace(pocketed[i], ball=b)
        return dataclasses.replace(s, pocketed=tuple(pocketed)), None

    @staticmethod
    def surely_foul(s: ShotReport) -> bool:
        """A foul whatever the unnamed balls are: reported, a jump (24.3),
        the wrong ball (15), the cue ball (5.5)."""
        if s.fouls or s.jumped or (s.cue_ball is not None and s.cue_ball != CUE):
            return True
        return any(pb.ball == CUE or pb.colour is Colour.YELLOW for pb in s.pocketed)

    def variant_fouls(self, d: Draft, s: ShotReport, f: ShotFacts, found: set[Foul]) -> None:
        if CUE in f.pocketed:
            found.add(Foul.CUE_BALL_POCKETED)  # 5.5

    def on_legal(self, d: Draft, s: ShotReport, f: ShotFacts) -> None:
        shooter = s.shooter
        balls = f.pocketed  # no cue ball here: its pot is a foul (5.5)
        if not balls:
            d.pass_turn(1 - shooter, R_NO_POT)
            return
        if f.was_break:
            counts, reason, why_not = self.break_counts, R_BREAK_COUNTS, R_BREAK_SPOTTED
            called = -1
        elif not s.declarations:
            counts, reason, why_not = False, R_CALLED, R_NO_CALL  # 5.4: a shot without a call
            called = -1
        else:
            call = s.declarations[0]
            called = call.ball
            counts = any(b == called and p == call.pocket for b, p in zip(balls, f.pockets, strict=True))
            reason, why_not = R_CALLED, R_UNCALLED
        if not counts:
            for b in balls:
                d.emit(EffectKind.NOTE, why_not, ball=b)
            self.spot(d, balls)
            d.pass_turn(1 - shooter, why_not)
            return
        for b in balls:
            d.to_shelf(shooter, b, reason if b == called or called < 0 else R_WITH_CALLED, points=0)
            d.add_score(shooter, VALUES[b], R_ACE if b == 1 else R_VALUE)
        if not d.get(BONUS) and not any(b != CUE for b in d.on_table):
            d.add_score(shooter, LAST_BALL_BONUS, R_LAST_BALL)  # A-C3: once, to the shooter
            d.set_extra(BONUS, True)
        d.keep_turn(reason)

    def on_foul(self, d: Draft, s: ShotReport, f: ShotFacts, fouls: list[Foul], offender: int) -> None:
        opponent = 1 - offender
        objects = [b for b in f.pocketed if b != CUE]
        g.incorrectly_pocketed(d, objects)
        self.spot(d, [*objects, *(b for b in f.jumped if b != CUE)])  # 6 / general 22.3, 25
        if f.wrong_ball:
            d.emit(EffectKind.NOTE, R_CUE_ONLY, player=offender)
        if Foul.NOT_COMPLETED in fouls:
            d.emit(EffectKind.NOTE, R_COMPLETION, player=offender)
        d.add_score(offender, -FOUL_POINTS, R_PENALTY)  # 5.6, once per shot (general 29.2)
        d.add_score(opponent, FOUL_POINTS, R_PENALTY)
        if d.scores[offender] < 0:
            d.emit(EffectKind.NOTE, R_NEGATIVE, player=offender, amount=d.scores[offender])
        if CUE in f.pocketed or CUE in f.jumped:
            d.to_hand(CUE, InHand.HOUSE, opponent, R_PENALTY_SHOT)
        d.pass_turn(opponent, g.R_FOUL_TURN)

    def spot(self, d: Draft, balls: Sequence[int]) -> None:
        """Classic 6 / general 25; A-C7: with several balls the referee may reorder
        (pocketing order proposed)."""
        if len(balls) > 1:
            d.emit(EffectKind.NOTE, R_SPOT_ORDER, amount=len(balls))
        g.spot_balls(d, balls, R_SPOTTING)

    def after(self, d: Draft) -> None:
        """Win at the target (1); in the decider a pot wins and a foul loses (5.7); an empty table at 70:70
        starts the decider (5.7: with 140 points in play, no winner and no ball left means 70:70)."""
        if d.mode == OVER or d.mode == REFEREE:
            return
        for p in (d.to_play, 1 - d.to_play):
            if d.scores[p] >= self.target:
                if d.mode == DECIDER:
                    d.win(p, R_DECIDER_FOUL if d.scores[1 - p] < 70 else R_DECIDER_POT)
                else:
                    d.win(p, R_GOAL)
                return
        if not any(b != CUE for b in d.on_table) and d.mode != LAG:
            self.start_decider(d)

    def start_decider(self, d: Draft) -> None:
        """5.7 / A-C2: the last pocketed ball back on the foot spot, the points kept,
        the cue ball in hand, a lag."""
        p = d.to_play  # the shooter of the shot that emptied the table (the series rule kept the turn)
        ball = d.shelves[p].pop()  # pocketed last, so the last on that shelf
        d.on_table.append(ball)
        d.placed.append((ball, Spot.FOOT.value))
        d.emit(EffectKind.SPOT, R_DECIDER, ball=ball, spot=Spot.FOOT.value)
        d.emit(EffectKind.TO_TABLE, R_DECIDER, player=p, ball=ball, spot=Spot.FOOT.value)
        if CUE in d.on_table:
            d.on_table.remove(CUE)
            d.to_hand(CUE, InHand.HOUSE, p, R_DECIDER)
        d.set_extra(DECIDER_BALL, ball)
        d.mode = LAG
        d.is_break = False
        d.emit(EffectKind.MODE, R_DECIDER, detail=LAG)

    # -- the decider's lag and re-racks (5.7) --------------------------------------------------------------

    def lag(self, state: State, inp: Lag) -> Draft:
        if state.get(DECIDER_BALL) is None:
            return g.lag(state, inp)
        if state.mode != LAG:
            raise IllegalInputError("no lag is due now", "розыгрыш сейчас не проводится")
        g.check_player(inp.winner, "Lag.winner")
        d = Draft(state)
        d.mode = DECIDER
        d.is_break = False
        d.pass_turn(inp.winner, R_DECIDER_LAG)
        if d.hand is not None:
            d.to_hand(d.hand, InHand.HOUSE, inp.winner, R_DECIDER_LAG)
        return d

    def interference(self, state: State, inp: Interference) -> Draft:
        d = g.interference(state, inp, self.SPECIAL)
        if not inp.restore and state.get(DECIDER_BALL) is not None:
            d.is_break = False
            d.emit(EffectKind.NOTE, R_DECIDER_RERACK)
        return d

    # -- what the hub and the screens read (profile.py) ------------------------------------------------------

    def unnamed_candidates(self, state: State, colour: Colour | None = None) -> tuple[int, ...]:
        """An unnamed ball not reported yellow is an object ball (module docstring)."""
        return tuple(
            b for b in super().unnamed_candidates(state, colour) if b != CUE or colour is Colour.YELLOW
        )

    def ball_value(self, ball: int) -> int:
        return value(ball)

    def board_facts(self, state: State) -> dict[str, Any] | None:
        """5.7 and A-C3: the decider and its ball, and whether the last-ball bonus was paid."""
        ball = state.get(DECIDER_BALL)
        return {"decider": ball is not None, "decider_ball": ball, "bonus_given": bool(state.get(BONUS))}

    def needs(self, state: State) -> tuple[Need, ...]:
        if state.over:
            return ()
        if state.mode == LAG and state.get(DECIDER_BALL) is not None:
            return (
                Need(
                    NeedKind.LAG,
                    None,
                    "classic 5.7: 70:70 — lag for the decider: who won?",
                    "classic 5.7: 70:70 — розыгрыш права удара: кто выиграл?",
                    options=("0", "1"),
                    blocking=True,
                ),
            )
        return super().needs(state)
