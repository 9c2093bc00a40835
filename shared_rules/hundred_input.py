"""100 points: reading a shot report's calls and unnamed balls, and what the panel must ask (`needs`).

All balls but the yellow are white, so a number that decides the score is never guessed (§3): an unnamed ball
is named only where it is certain — by its colour (the yellow), as the single ball in a called pocket (§4), or
as the only ball left that fits; otherwise the shot is held for the number (held.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .errors import IllegalInputError, MalformedInputError
from .hundred_text import R_BREAK, R_HAND_FREE, R_HAND_OWN
from .model import (
    Colour,
    Declaration,
    DeclarationKind,
    InHand,
    JumpedBall,
    Pocket,
    PocketedBall,
    ShotReport,
    Spot,
)
from .outcome import Need, NeedKind
from .state import Key, Mode, State

TEN = 10  # the control ball (§2)
CUE = 0  # the yellow ball, the only cue ball (§1)
NUMBERED = tuple(range(5, 16))
TOTAL = sum(NUMBERED)  # 110: the pyramid's 100 plus #10 (A-100-1)
LAST_BALL = Mode.LAST_BALL  # mode of §20
# hand rule of §15/§17: single directly-struck balls do not count, no carom privilege
RESTRICTED = "restricted"
# 100 points' extra state (typed keys of State.extra):
PRIVILEGE: Key[bool] = Key("privilege")  # the §11 privilege holds for this shot (A-100-4)
# #10 lies off its spot on the table, waiting for the centre spot (§14)
OFF_SPOT: Key[bool] = Key("ten_off_spot")
RESUME: Key[Mode] = Key("resume_mode")  # the mode to resume after a re-rack's lag (general 27)
FOOT_RAIL = Spot.FOOT_RAIL.value
CENTRE = Spot.CENTRE.value
_POCKETS = frozenset(int(p) for p in Pocket)


def illegal(en: str, ru: str) -> IllegalInputError:
    return IllegalInputError(en, ru)


def check_calls(state: State, calls: Sequence[Declaration]) -> None:
    if len(calls) > 2:
        raise illegal(
            "at most two balls may be called (hundred 6: double call)",
            "заказать можно не более двух шаров (п.6)",
        )
    seen: set[int] = set()
    for i, c in enumerate(calls):
        if type(c) is not Declaration:
            raise MalformedInputError(f"declarations[{i}]: not a Declaration: {c!r}")
        if type(c.pocket) is not Pocket and c.pocket not in _POCKETS:
            raise MalformedInputError(
                f"declarations[{i}].pocket: {c.pocket!r} is not a pocket (1..6)",
                f"declarations[{i}].pocket: {c.pocket!r} — нет такой лузы (1..6)",
            )
        if c.kind is DeclarationKind.CUE_BALL:
            if c.ball != CUE:
                raise illegal(
                    f"declarations[{i}]: a cue-ball call names ball 0",
                    f"declarations[{i}]: заказ битка — шар 0",
                )
        elif c.kind is DeclarationKind.OBJECT:
            if type(c.ball) is not int or c.ball == CUE or c.ball not in state.on_table:
                raise illegal(
                    f"declarations[{i}]: ball {c.ball!r} is not a numbered ball on the table (hundred 4)",
                    f"declarations[{i}]: шар {c.ball!r} — не нумерованный шар на столе (п.4)",
                )
        else:
            raise MalformedInputError(f"declarations[{i}].kind: {c.kind!r} is not a call kind")
        if c.ball in seen:
            raise illegal(
                f"declarations[{i}]: ball {c.ball} is called twice",
                f"declarations[{i}]: шар {c.ball} заказан дважды",
            )
        seen.add(c.ball)


def complete(state: State, s: ShotReport) -> tuple[ShotReport, int | None]:
    """The report with every certain number filled in, and the slot of the first ball whose number is not
    certain (held.py: the shot is then held for it, §3: a number is never guessed)."""
    if all(type(b) is not PocketedBall or b.ball is not None for b in s.pocketed) and all(
        type(b) is not JumpedBall or b.ball is not None for b in s.jumped
    ):
        return s, None  # every ball named (the common case)
    table = [*state.on_table, state.hand] if state.hand is not None else list(state.on_table)
    named: set[int | None] = {b.ball for b in s.pocketed if type(b) is PocketedBall}
    named |= {b.ball for b in s.jumped if type(b) is JumpedBall}
    named.discard(None)
    per_pocket: dict[int, int] = {}
    for pb in s.pocketed:
        if type(pb) is PocketedBall:
            per_pocket[pb.pocket] = per_pocket.get(pb.pocket, 0) + 1
    # a pocket may be called for two balls (§6), e.g. a ball and the cue ball
    called: dict[int, list[int]] = {}
    for c in s.declarations:
        called.setdefault(int(c.pocket), []).append(c.ball)
    missing: int | None = None
    pocketed = list(s.pocketed)
    for i, pb in enumerate(pocketed):
        if type(pb) is PocketedBall and pb.ball is None and pb.pocket in _POCKETS:
            hints = called.get(pb.pocket, []) if per_pocket[pb.pocket] == 1 else []
            ball = _certain(table, pb.colour, named, hints)
            if ball is None:
                missing = i if missing is None else missing
                continue
            pocketed[i] = PocketedBall(pb.pocket, ball, pb.colour, pb.direct)
            named.add(ball)
    jumped = list(s.jumped)
    for i, jb in enumerate(jumped):
        if type(jb) is JumpedBall and jb.ball is None:
            ball = _certain(table, jb.colour, named, [])
            if ball is None:
                missing = len(pocketed) + i if missing is None else missing
                continue
            jumped[i] = JumpedBall(ball, jb.colour)
            named.add(ball)
    return replace(s, pocketed=tuple(pocketed), jumped=tuple(jumped)), missing


def _certain(table: list[int], colour: Colour | None, named: set[int | None], hints: list[int]) -> int | None:
    """The one ball that fits: by colour, the call for its pocket
    (the single ball there), or the only one left.

    `hints` are the balls called into the ball's pocket (§4); with two calls there (§6) the ball is the called
    one only if just one of them still fits — otherwise it is not certain, whatever order the calls came in.
    """
    fits = [
        b for b in table if b not in named and (colour is None or (colour is Colour.YELLOW) == (b == CUE))
    ]
    called = [b for b in hints if b in fits]
    if len(called) == 1:
        return called[0]
    if len(fits) == 1:
        return fits[0]
    return None


def shot_needs(state: State) -> tuple[Need, ...]:
    """The call (§4, before every shot) and the placement from hand. (A ball number is asked only when a shot
    is held for it: held.py.)"""
    p = state.to_play
    if state.is_break:
        en = (
            "Call (optional on the break): ball, how, pocket; "
            "an uncalled ball does not count (hundred 2, A-100-8)"
        )
        ru = (
            "Заказ (при разбое по желанию): шар, способ, луза; "
            "незаказанный шар не засчитывается (п.2, A-100-8)"
        )
    elif state.hand_rule == RESTRICTED:
        en = (
            "Call: ball, how, pocket (hundred 4); from this hand a single directly-struck ball and a carom "
            "on #10 do not count (hundred 15, 17)"
        )
        ru = (
            "Заказ: шар, способ, луза (п.4); одиночный прямо-летящий шар и карамболь по №10 "
            "не засчитываются (п.15, 17)"
        )
    else:
        en = (
            "Call: ball, how, pocket (hundred 4); with no call only a directly-struck ball counts (hundred 5)"
        )
        ru = "Заказ: шар, способ, луза (п.4); без заказа засчитывается только прямо-летящий шар (п.5)"
    callable_ = tuple(str(b) for b in (CUE, *(b for b in state.on_table if b != CUE)))
    out = [Need(NeedKind.DECLARATION, p, en, ru, options=callable_)]
    if state.in_hand is InHand.HOUSE:
        out.append(Need(NeedKind.PLACEMENT, p, R_BREAK.text("en"), R_BREAK.text("ru")))
    elif state.in_hand is InHand.ANYWHERE:
        hand = R_HAND_OWN if state.hand_rule == RESTRICTED else R_HAND_FREE
        out.append(Need(NeedKind.PLACEMENT, p, hand.text("en"), hand.text("ru")))
    return tuple(out)
