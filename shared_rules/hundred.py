"""«Пирамидка 100 очков с контрольным шаром» (100 points with a control ball): docs/rules/hundred.md,
readings A-100-1..12.

Twelve balls: the yellow cue ball (ball 0, worth nothing) and white balls 5..15 worth their numbers; #10, the
control ball, lives on the centre spot. Strict calls (ball, method, pocket) with the gentleman's supplement;
first past 50 wins. The rules cite no МКП paragraph: a club rule set whose own text wins (A-100-9), so the
fouls are exactly §19's list and a jumped ball is no foul. The shot pipeline is the base's; this module
decides what counts (`on_legal`, the cue-ball table of §8–§10 and §15–§17) and the penalty (`on_foul`, §18).

`ShotReport` facts read here: `declarations` (one call, or two = a double call §6), `as_called` (the referee's
verdict on the method, A-100-10; None = as called), `PocketedBall.direct` (None = not directly struck: the
supplement §5, §10 and the §15/§17 restriction apply only to balls the referee marks direct), `carom_on_ten` /
`rokambol_on_ten` (§11, called and made), `touched_ten` (§12), `ten_off_spot` / `centre_spot_taken` (§14).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from . import general as g
from . import hundred_ten as h
from .draft import Draft, effect
from .errors import MalformedInputError
from .hundred_input import (
    CENTRE,
    CUE,
    LAST_BALL,
    NUMBERED,
    OFF_SPOT,
    PRIVILEGE,
    RESTRICTED,
    RESUME,
    TEN,
    TOTAL,
    check_calls,
    complete,
    illegal,
    shot_needs,
)
from .hundred_text import (
    FOUL_REASONS,
    PARAGRAPHS,
    R_BREAK,
    R_CAROM,
    R_CONCEDE,
    R_CUE_NOT_CALLED,
    R_DEBT,
    R_FOUL_POTTED,
    R_FOUL_TURN,
    R_GOAL,
    R_HAND_FREE,
    R_IDENTIFY,
    R_JUMP,
    R_LAST,
    R_LAST_FOUL,
    R_NO_CAROM,
    R_NOT_CALLED,
    R_NOT_PRODUCTIVE,
    R_PENALTY,
    R_RERACK_TEN,
    R_RESTRICTED,
    R_SERIES,
    R_SPOT_RAIL,
    R_SPOT_TEN,
    SECTION19,
)
from .model import (
    Declaration,
    Foul,
    Interference,
    Lag,
    ShotReport,
)
from .opening import HandicapKind
from .outcome import EffectKind, Need, Reason
from .profile import GENERAL_FACTS, GENERAL_FOULS, BallIdentity, Fact, Profile
from .registry import register
from .resolve import ShotFacts
from .state import PLAY, State
from .variant import Variant


@register
class Hundred(Variant):
    """100 points with a control ball: balls 0 (yellow cue ball) and 5..15; #10 is the control ball."""

    name = "hundred"
    title_en = "100 points with a control ball"
    title_ru = "Пирамидка 100 очков с контрольным шаром"
    BALLS = (CUE, *NUMBERED)
    CUE_BALL = CUE
    SPECIAL = CUE
    JUMP_IS_FOUL = False  # A-100-9: §8 and §19 win over general 24.3
    PARAGRAPHS: ClassVar[dict[str, str]] = PARAGRAPHS
    # numbered balls, #10 on the centre spot: points only
    HANDICAPS: ClassVar[frozenset[HandicapKind]] = frozenset({HandicapKind.POINTS})
    OPTIONS: ClassVar[dict[str, object]] = {
        **Variant.OPTIONS,
        "target": 51,  # §3: more than 50 (A-100-1)
        "hundred_bonus_may_take_ten": False,  # A-100-5
        "hundred_debt_counter": True,  # A-100-7: False = at most one debt
        "hundred_jumped_ball_foul": False,  # A-100-9
    }
    R_GOAL = R_GOAL
    R_CONCEDE = R_CONCEDE
    R_SPOTTING = R_SPOT_RAIL
    PROFILE = Profile(
        identity=BallIdentity.NUMBER,
        calls=True,
        facts=GENERAL_FACTS
        | {
            Fact.CUE_BALL,
            Fact.DECLARATIONS,
            Fact.DIRECT,
            Fact.AS_CALLED,
            Fact.CAROM_ON_TEN,
            Fact.ROKAMBOL_ON_TEN,
            Fact.TOUCHED_TEN,
            Fact.TEN_OFF_SPOT,
            Fact.CENTRE_SPOT_TAKEN,
        },
        fouls=(*GENERAL_FOULS, Foul.TEN_TOUCHED),  # §12
        identity_rule=R_IDENTIFY,
        call_mismatch_rule=R_NOT_CALLED,
        cue_ball_pocketed_rule=R_CUE_NOT_CALLED,
    )

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        super().__init__(options)
        self.bonus_ten = bool(self.options["hundred_bonus_may_take_ten"])
        self.debt_counter = bool(self.options["hundred_debt_counter"])
        self.jump_foul = bool(self.options["hundred_jumped_ball_foul"])

    def check_options(self) -> None:
        super().check_options()
        target = self.options["target"]
        if not isinstance(target, int) or target > TOTAL // 2:
            raise MalformedInputError(
                f"option 'target' must be at most {TOTAL // 2} (110 points in play, A-100-1), got {target!r}",
                f"параметр 'target' не больше {TOTAL // 2} (в игре 110 очков, A-100-1), получено {target!r}",
            )

    def initial_state(self) -> State:
        """§2: the pyramid of ten on the table, #10 on the centre spot, the yellow in hand in the house."""
        return super().initial_state()._replace(placed=((TEN, CENTRE),))

    # -- before the shot ----------------------------------------------------------------------------------

    def check_shot(self, state: State, s: ShotReport) -> None:
        super().check_shot(state, s)
        if s.offender is not None and s.offender != s.shooter:
            raise illegal(
                "hundred 19: interfering with the opponent is not a foul here "
                "(the list is exhaustive, A-100-9)",
                "п.19: вмешательство в игру соперника здесь не штраф (перечень исчерпывающий, A-100-9)",
            )
        if s.declarations:
            self.check_calls(state, s.declarations)
        elif s.as_called is not None and not (s.carom_on_ten or s.rokambol_on_ten):
            raise illegal(
                "as_called: no call was declared (hundred 4)", "as_called: заказ не объявлялся (п.4)"
            )
        if (
            s.carom_on_ten or s.rokambol_on_ten or s.touched_ten or s.ten_off_spot
        ) and TEN not in state.on_table:
            raise illegal("#10 is not on the table (hundred 11-14)", "шара №10 нет на столе (п.11-14)")

    def check_calls(self, state: State, calls: Sequence[Declaration]) -> None:
        """§4-§6: one or two numbered balls on the table (or the cue ball, свояк), each once; allowed on the
        break too (§2: a called ball counts there, an uncalled one is spotted)."""
        check_calls(state, calls)

    # -- naming the balls ---------------------------------------------------------------------------------

    def complete(self, state: State, s: ShotReport) -> tuple[ShotReport, int | None]:
        """§3: every pocketed and jumped ball is named where certain;
        the shot is held for the first that is not."""
        return complete(state, s)

    # -- fouls --------------------------------------------------------------------------------------------

    def fouls(self, d: Draft, s: ShotReport, f: ShotFacts) -> list[Foul]:
        """§19 exactly (A-100-9): reported ones from its list, the wrong ball struck,
        the safety rule, #10 touched."""
        found = set(s.fouls)
        for x in found:
            if type(x) is not Foul:
                raise MalformedInputError(
                    f"fouls: {x!r} is not a foul code", f"fouls: {x!r} — нет такого нарушения"
                )
            if x not in SECTION19 and not (x is Foul.JUMPED and self.jump_foul):
                raise illegal(
                    f"fouls: {x.name} is not a foul in 100 points (hundred 19 lists them all, A-100-9)",
                    f"fouls: {x.name} — не штраф в «100 очков» (п.19 — исчерпывающий перечень, A-100-9)",
                )
        if f.wrong_ball:
            found.add(Foul.BAD_CUE_STRIKE)
        if self.jump_foul and any(b != CUE for b in f.jumped):
            found.add(Foul.JUMPED)
        if self.require_completion and not g.correctly_completed(s, bool(f.pocketed)):
            found.add(Foul.NOT_COMPLETED)  # §2 and §19: the safety rule, on the break too
        if h.ten_touched(d, s, f):
            found.add(Foul.TEN_TOUCHED)
        if not found:
            return []
        return sorted(found, key=g.FOUL_ORDER.__getitem__)

    # -- a legal shot -------------------------------------------------------------------------------------

    def on_legal(self, d: Draft, s: ShotReport, f: ShotFacts) -> None:
        """What counts (§2, §4-§17) and who plays next (§7)."""
        priv = bool(d.take(PRIVILEGE))
        if f.was_break and d.effects and d.effects[-1].reason is g.R_BREAK_OK:
            # §2: the safety rule is the break's only requirement
            d.effects[-1] = effect(EffectKind.NOTE, R_BREAK)
        if f.jumped:
            h.spot_shot(d, s, [b for b in f.jumped if b != CUE], R_JUMP)
        if CUE in f.jumped:
            h.spot_shot(d, s, f.pocketed, R_CUE_NOT_CALLED)
            h.cue_to(d, 1 - s.shooter, R_CUE_NOT_CALLED, R_HAND_FREE, "")
        elif (
            f.pocketed and f.hand_rule == RESTRICTED and len(f.pocketed) == 1 and s.pocketed[0].direct is True
        ):
            h.spot_shot(d, s, f.pocketed, R_RESTRICTED)  # §15/§17: a single directly-struck ball
            if f.pocketed[0] == CUE:
                h.cue_to(d, 1 - s.shooter, R_RESTRICTED, R_HAND_FREE, "")
            else:
                d.pass_turn(1 - s.shooter, R_RESTRICTED)
        elif CUE in f.pocketed:
            h.cue_in(d, s, f, priv, self.bonus_ten)
        else:
            productive = h.count(d, s, f, priv) if f.pocketed else False
            if s.carom_on_ten or s.rokambol_on_ten:
                if f.hand_rule == RESTRICTED:
                    d.emit(EffectKind.NOTE, R_NO_CAROM)
                else:
                    productive = True
                    d.set_extra(PRIVILEGE, True)
                    d.emit(EffectKind.NOTE, R_CAROM, player=s.shooter)
            if productive:
                d.keep_turn(R_SERIES)
            else:
                d.pass_turn(1 - s.shooter, R_NOT_PRODUCTIVE)
        h.settle_ten(d, s)

    # -- a foul -------------------------------------------------------------------------------------------

    @classmethod
    def foul_reason(cls, foul: Foul) -> Reason:
        """§19/§12 (A-100-9): this variant's own words for the fouls it lists;
        the general paragraph otherwise."""
        return FOUL_REASONS.get(foul.value) or super().foul_reason(foul)

    def on_foul(self, d: Draft, s: ShotReport, f: ShotFacts, fouls: list[Foul], offender: int) -> None:
        """§18/§19 (A-100-6, A-100-11): nothing counts, the offender pays one ball, the opponent plays."""
        effects = d.effects
        for i, e in enumerate(effects):  # cite §19/§12 instead of the general paragraphs the base recorded
            if e.kind is EffectKind.FOUL and e.detail in FOUL_REASONS:
                effects[i] = effect(
                    EffectKind.FOUL,
                    self.foul_reason(Foul(e.detail)),
                    e.player,
                    e.ball,
                    e.amount,
                    e.spot,
                    e.detail,
                )
        d.take(PRIVILEGE)
        last = d.mode == LAST_BALL
        h.spot_shot(d, s, f.pocketed, R_FOUL_POTTED)
        h.spot_shot(d, s, [b for b in f.jumped if b != CUE], R_JUMP)
        self._penalty(d, offender)
        opponent = 1 - offender
        if CUE in f.pocketed or CUE in f.jumped:
            h.cue_to(d, opponent, R_FOUL_TURN, R_HAND_FREE, "")
        else:
            d.pass_turn(opponent, R_FOUL_TURN)
        if last:
            d.mode = PLAY
            d.emit(EffectKind.MODE, R_LAST_FOUL, detail=PLAY)
            if TEN in d.on_table and not any(p[0] == TEN for p in d.placed):
                d.placed.append((TEN, CENTRE))
                d.emit(EffectKind.SPOT, R_LAST_FOUL, ball=TEN, spot=CENTRE)
        h.settle_ten(d, s)

    def _penalty(self, d: Draft, offender: int) -> None:
        shelf = d.shelves[offender]
        if not shelf:
            if self.debt_counter or d.debts[offender] == 0:
                d.debts[offender] += 1
                d.emit(EffectKind.DEBT, R_DEBT, player=offender, amount=1)
            return
        b = min(shelf)
        shelf.remove(b)
        d.add_score(offender, -h.value(b), R_PENALTY)
        d.emit(EffectKind.TO_TABLE, R_PENALTY, player=offender, ball=b)
        if b == TEN:
            h.ten_home(d, R_SPOT_TEN, False)  # §13: back on the centre spot
        else:
            self.spot(d, (b,))

    # -- after every input --------------------------------------------------------------------------------

    def after(self, d: Draft) -> None:
        super().after(d)
        if d.winner is not None or d.mode != PLAY:
            return
        if any(b != CUE and b != TEN for b in d.on_table):
            return
        if TEN in d.shelves[0] or TEN in d.shelves[1]:
            return
        d.mode = LAST_BALL  # §20: every pyramid ball played, nobody past 50
        d.emit(EffectKind.MODE, R_LAST, detail=LAST_BALL)
        d.set_extra(OFF_SPOT, None)
        if TEN in d.pocketed:
            d.pocketed.remove(TEN)
            h.ten_home(d, R_LAST, False)

    # -- lag and interference -----------------------------------------------------------------------------

    def lag(self, state: State, inp: Lag) -> Draft:
        d = super().lag(state, inp)
        resume = d.take(RESUME)
        if resume == LAST_BALL:
            d.mode = LAST_BALL
        return d

    def interference(self, state: State, inp: Interference) -> Draft:
        """General 27 with §2's rack: #10 (also a waiting #10) on the centre spot;
        the mode resumes after the lag."""
        d = super().interference(state, inp)
        if inp.restore:
            return d
        if TEN in d.pocketed:
            d.pocketed.remove(TEN)
            d.on_table.append(TEN)
        d.placed = [p for p in d.placed if p[0] != TEN]
        if TEN in d.on_table:
            d.placed.append((TEN, CENTRE))
            d.emit(EffectKind.SPOT, R_RERACK_TEN, ball=TEN, spot=CENTRE)
        d.take(PRIVILEGE)
        d.take(OFF_SPOT)
        if state.mode == LAST_BALL:
            d.set_extra(RESUME, LAST_BALL)
        return d

    # -- needs --------------------------------------------------------------------------------------------

    def shot_needs(self, state: State) -> tuple[Need, ...]:
        """The call (§4), the placement from hand (§2, §15-§17): see hundred_input."""
        return shot_needs(state)

    # -- spotting, and what the hub and the screens read (hundred_ten.py) ------------------------------------

    def spot(self, d: Draft, balls: Sequence[int]) -> None:
        """§2/§4: numbered balls by the foot rail behind the pyramid; #10 to the centre spot."""
        h.spot(d, balls)

    def ball_value(self, ball: int) -> int:
        return h.value(ball)

    def board_facts(self, state: State) -> dict[str, Any] | None:
        """§14 where #10 is, §11 the privilege, §20 the last-ball mode, §15/§17 the restricted hand."""
        return h.board_facts(state)

    def scoring_balls(self, state: State, player: int) -> tuple[int, ...]:
        """§12: #10 only once no other numbered ball is on the table (or in last-ball mode, §20)."""
        return h.scoring_balls(state, player)
