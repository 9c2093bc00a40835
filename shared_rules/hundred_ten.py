"""100 points: the control ball #10 (§11-§14, §20), the cue ball in a pocket (§5, §6, §8-§10, §15-§17) and
what the screens show: the helpers `Hundred` (hundred.py) calls.

#10 lives on the centre spot. The cue ball may touch it only inside a productive called carom or with the §11
privilege (§12); knocked off or pocketed without counting it goes back to the centre spot after the shot, and
waits (off its spot, or in the pocket) while that spot is taken (§14);
in last-ball mode (§20) none of this holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .draft import Draft
from .hundred_input import CENTRE, CUE, FOOT_RAIL, LAST_BALL, OFF_SPOT, PRIVILEGE, RESTRICTED, TEN
from .hundred_text import (
    R_BONUS,
    R_BREAK_CALLED,
    R_BREAK_UNCALLED,
    R_COUNT,
    R_CUE_AGAINST,
    R_CUE_CALLED,
    R_CUE_DIRECT,
    R_CUE_NOT_CALLED,
    R_DEBT_PAID,
    R_DOUBLE_FAILED,
    R_EXTRA,
    R_GENTLEMAN,
    R_HAND_DOUBLE,
    R_HAND_FREE,
    R_HAND_OWN,
    R_NOT_CALLED,
    R_SERIES,
    R_SPOT_RAIL,
    R_SPOT_TEN,
    R_TEN_BACK,
    R_TEN_ILLEGAL,
    R_TEN_POTTED,
    R_TEN_WAITS,
)
from .model import DeclarationKind, InHand, ShotReport
from .outcome import EffectKind, Reason
from .resolve import ShotFacts
from .state import State


def value(ball: int) -> int:
    """Points a ball is worth on a shelf: its number; the yellow cue ball 0 (§3, A-100-1)."""
    return 0 if ball == CUE else ball


def ten_touched(d: Draft, s: ShotReport, f: ShotFacts) -> bool:
    """§12 (A-100-3): the cue ball touched #10 while other numbered balls are on the table, not excused."""
    if d.mode == LAST_BALL or d.get(PRIVILEGE):
        return False  # §20; the privilege of §11/§12(b)
    # a carom on #10 is the cue ball hitting #10: a touch whether or not `touched_ten` was also set
    touched = s.touched_ten or s.carom_on_ten or s.first_contact == TEN
    if not touched and TEN in f.pocketed:
        touched = s.pocketed[f.pocketed.index(TEN)].direct is True  # driven in by the cue ball
    if not touched or (s.carom_on_ten and f.hand_rule != RESTRICTED):
        return False  # §12(a): inside a productive called carom (from §15/§17 hand it is not productive)
    return any(b != CUE and b != TEN for b in (*d.on_table, *f.pocketed, *f.jumped))


# -- spotting -----------------------------------------------------------------------------------------


def spot(d: Draft, balls: Sequence[int]) -> None:
    """§2/§4: numbered balls by the foot rail behind the pyramid; #10 to the centre spot."""
    for b in balls:
        if b == TEN:
            ten_home(d, R_SPOT_TEN, False)
        else:
            d.on_table.append(b)
            d.placed.append((b, FOOT_RAIL))
            d.emit(EffectKind.SPOT, R_SPOT_RAIL, ball=b, spot=FOOT_RAIL)


def ten_home(d: Draft, reason: Reason, taken: bool) -> None:
    """#10 (off the table) to the centre spot; §14: while the spot is taken it waits in the pocket."""
    if taken and d.mode != LAST_BALL:
        d.pocketed.append(TEN)
        d.emit(EffectKind.NOTE, R_TEN_WAITS, ball=TEN)
        return
    d.on_table.append(TEN)
    d.placed.append((TEN, CENTRE))
    d.set_extra(OFF_SPOT, None)  # back on its spot: nothing waits any more (§14)
    d.emit(EffectKind.SPOT, reason, ball=TEN, spot=CENTRE)


def spot_shot(d: Draft, s: ShotReport, balls: Sequence[int], reason: Reason) -> None:
    """Balls of the shot that do not count, noted with `reason` and spotted (#10 waits while its spot is
    taken, §14)."""
    for b in balls:
        if b == TEN:
            d.emit(EffectKind.NOTE, reason, ball=b)
            ten_home(d, R_SPOT_TEN, s.centre_spot_taken)
        elif b != CUE:
            d.emit(EffectKind.NOTE, reason, ball=b)
            spot(d, (b,))


def settle_ten(d: Draft, s: ShotReport) -> None:
    """§14 after every shot: #10 knocked off, or waiting, goes back when the centre spot is free."""
    if d.mode == LAST_BALL or TEN not in d.on_table:
        d.set_extra(OFF_SPOT, None)  # §14 waits only while #10 lies on the table off its spot
    if d.mode == LAST_BALL:
        return
    if TEN in d.on_table and (s.ten_off_spot or d.get(OFF_SPOT)) and not any(p[0] == TEN for p in d.placed):
        if s.centre_spot_taken:
            if not d.get(OFF_SPOT):
                d.emit(EffectKind.NOTE, R_TEN_WAITS, ball=TEN)
            d.set_extra(OFF_SPOT, True)
        else:
            d.set_extra(OFF_SPOT, None)
            d.placed.append((TEN, CENTRE))
            d.emit(EffectKind.SPOT, R_TEN_BACK, ball=TEN, spot=CENTRE)
    elif TEN in d.pocketed and not s.centre_spot_taken and TEN not in d.on_table:
        d.pocketed.remove(TEN)
        ten_home(d, R_TEN_BACK, False)


# -- what counts: the calls, the supplement, the cue ball in a pocket ----------------------------------------


def calls_made(s: ShotReport, f: ShotFacts) -> bool:
    """Every called ball fell into its called pocket, and the referee says the method was as called."""
    if s.as_called is False:
        return False
    for c in s.declarations:
        if c.ball not in f.pocketed or f.pockets[f.pocketed.index(c.ball)] != c.pocket:
            return False
    return True


def count(d: Draft, s: ShotReport, f: ShotFacts, priv: bool) -> bool:
    """Object balls pocketed with the cue ball still on the table; True if any counted (§4, §5, §6, §2)."""
    if s.declarations:
        if not calls_made(s, f):
            reason = R_DOUBLE_FAILED if len(s.declarations) == 2 else R_NOT_CALLED
            spot_shot(d, s, f.pocketed, reason)
            return False
        called = {c.ball for c in s.declarations}
        good = [b for b in f.pocketed if b in called]
        spot_shot(d, s, [b for b in f.pocketed if b not in called], R_EXTRA)
        why = R_BREAK_CALLED if f.was_break else R_COUNT
        return credit_all(d, s, f, good, why, priv)
    if f.was_break:  # §2 (A-100-8): no supplement on the break
        spot_shot(d, s, f.pocketed, R_BREAK_UNCALLED)
        return False
    good = [b for i, b in enumerate(f.pocketed) if s.pocketed[i].direct is True]
    spot_shot(d, s, [b for b in f.pocketed if b not in good], R_NOT_CALLED)
    return credit_all(d, s, f, good, R_GENTLEMAN, priv) if good else False


def credit_all(d: Draft, s: ShotReport, f: ShotFacts, balls: Sequence[int], why: Reason, priv: bool) -> bool:
    """Credit the called (or supplement) `balls` citing `why`; True if any counted (#10 struck directly
    without the privilege does not, §13)."""
    counted = False
    for b in balls:
        if b == TEN and d.mode != LAST_BALL and not priv and s.pocketed[f.pocketed.index(TEN)].direct is True:
            spot_shot(d, s, (TEN,), R_TEN_ILLEGAL)  # §13: only with the privilege by the cue ball
            continue
        credit(d, s.shooter, b, R_TEN_POTTED if b == TEN else why)
        counted = True
    return counted


def credit(d: Draft, player: int, ball: int, reason: Reason) -> None:
    """A correctly pocketed ball: to the shelf for its number, or back to the table to pay a debt (§18)."""
    if d.debts[player] > 0:
        d.debts[player] -= 1
        d.emit(EffectKind.DEBT, R_DEBT_PAID, player=player, ball=ball, amount=-1)
        spot(d, (ball,))
        return
    d.to_shelf(player, ball, reason, points=value(ball))


def cue_in(d: Draft, s: ShotReport, f: ShotFacts, priv: bool, bonus_ten: bool) -> None:
    """The cue ball fell (§5, §6, §8, §9, §10, §15, §17); `bonus_ten`: option `hundred_bonus_may_take_ten`."""
    shooter = s.shooter
    i = f.pocketed.index(CUE)
    direct = s.pocketed[i].direct is True
    objects = [b for b in f.pocketed if b != CUE]
    cue_called = any(c.kind is DeclarationKind.CUE_BALL for c in s.declarations)
    if cue_called and calls_made(s, f):
        called = {c.ball for c in s.declarations}
        spot_shot(d, s, [b for b in objects if b not in called], R_EXTRA)
        credit_all(d, s, f, [b for b in objects if b in called], R_COUNT, priv)
        d.emit(EffectKind.NOTE, R_CUE_CALLED, player=shooter)
        if not direct:
            bonus(d, shooter, bonus_ten)
        cue_to(d, shooter, R_SERIES, R_HAND_OWN, RESTRICTED)
    elif (
        cue_called
        and s.as_called is not False
        and f.pockets[i] == next(c.pocket for c in s.declarations if c.kind is DeclarationKind.CUE_BALL)
    ):
        spot_shot(d, s, objects, R_DOUBLE_FAILED)  # §6/§17: the cue ball as called, the other call failed
        cue_to(d, 1 - shooter, R_DOUBLE_FAILED, R_HAND_DOUBLE, RESTRICTED)
    elif direct and not s.declarations and not (s.carom_on_ten or s.rokambol_on_ten) and not f.was_break:
        good = [b for b in objects if s.pocketed[f.pocketed.index(b)].direct is True]
        spot_shot(d, s, [b for b in objects if b not in good], R_NOT_CALLED)
        credit_all(d, s, f, good, R_GENTLEMAN, priv)
        d.emit(EffectKind.NOTE, R_CUE_DIRECT, player=shooter)
        cue_to(d, shooter, R_SERIES, R_HAND_OWN, RESTRICTED)
    else:
        reason = R_CUE_AGAINST if direct and s.declarations else R_CUE_NOT_CALLED
        spot_shot(d, s, objects, reason)
        cue_to(d, 1 - shooter, reason, R_HAND_FREE, "")


def cue_to(d: Draft, player: int, turn: Reason, hand: Reason, rule: str) -> None:
    """The cue ball (off the table) in hand anywhere for `player`, who plays next."""
    if player == d.to_play:
        d.keep_turn(turn)
    else:
        d.pass_turn(player, turn)
    d.to_hand(CUE, InHand.ANYWHERE, player, hand, rule)


def bonus(d: Draft, player: int, bonus_ten: bool) -> None:
    """§9 (A-100-5): the lowest-value numbered ball on the table to the shelf;
    #10 only if alone (or option)."""
    pool = [b for b in d.on_table if b != CUE and (b != TEN or bonus_ten)]
    if not pool and TEN in d.on_table:
        pool = [TEN]
    if not pool:
        return
    b = min(pool)
    d.on_table.remove(b)
    d.to_shelf(player, b, R_BONUS, points=value(b))


# -- what the hub and the screens read (`Hundred.board_facts`, `scoring_balls`) ------------------------------


def board_facts(state: State) -> dict[str, Any] | None:
    """§14 where #10 is, §11 the privilege, §20 the last-ball mode, §15/§17 the restricted hand."""
    place = state.place_of(TEN)
    if place == "table" and state.get(OFF_SPOT):
        place = "off_spot"  # §14: #10 waits off its spot for the centre spot
    privilege = bool(state.get(PRIVILEGE))
    return {
        "ten": place,
        "privilege": privilege,
        "control_ball": state.to_play if privilege else None,
        "last_ball": state.mode == LAST_BALL,
        "restricted": state.hand_rule == RESTRICTED,
    }


def scoring_balls(state: State, player: int) -> tuple[int, ...]:
    """§12: #10 only once no other numbered ball is on the table (or in last-ball mode, §20)."""
    balls = [b for b in state.on_table if b != CUE]
    if any(b != TEN for b in balls):
        balls = [b for b in balls if b != TEN]
    return tuple(balls)
