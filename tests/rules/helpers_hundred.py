"""Builders shared by the 100 points tests (test_hundred*.py): calls, pockets, matches at a given point."""

from __future__ import annotations

from shared_rules import (
    Declaration,
    DeclarationKind,
    EffectKind,
    Lag,
    Match,
    Pocket,
    PocketedBall,
    ShotReport,
)
from shared_rules.hundred_input import RESTRICTED

L, R = Pocket.FOOT_LEFT, Pocket.FOOT_RIGHT
CUE_CALL = DeclarationKind.CUE_BALL


def call(ball: int, pocket: Pocket = L, kind: DeclarationKind = DeclarationKind.OBJECT) -> Declaration:
    return Declaration(ball, pocket, kind)


def pot(ball: int | None, pocket: Pocket = L, direct: bool | None = None, **kw: object) -> PocketedBall:
    return PocketedBall(pocket, ball=ball, direct=direct, **kw)  # type: ignore[arg-type]


def started(**options: object) -> Match:
    m = Match.new("hundred", ("Ivan", "Petr"), options or None)
    m.play(Lag(0))
    return m


def broken(**options: object) -> Match:
    """Player 0 broke correctly and pocketed nothing: player 1 plays from the position."""
    m = started(**options)
    m.play(ShotReport(0, cushions=2))
    assert m.state.to_play == 1
    return m


def run(m: Match, player: int, balls: list[int], pocket: Pocket = L) -> None:
    """`player` calls and pockets `balls` one a shot (the ball reported unnamed in its called pocket)."""
    for b in balls:
        m.play(ShotReport(player, declarations=(call(b, pocket),), pocketed=(pot(None, pocket),)))
        assert m.state.to_play == player or m.state.over


def safety(m: Match, player: int) -> None:
    m.play(ShotReport(player, cushions=2))


def foul_reasons(out: object) -> list[str]:
    return [e.reason.cite() for e in out.of_kind(EffectKind.FOUL)]  # type: ignore[attr-defined]


def last_ball_match() -> Match:
    """50:50 with every pyramid ball on a shelf: last-ball mode (§20)."""
    m = broken()
    run(m, 1, [5, 6, 7, 9, 11, 12])
    safety(m, 1)
    run(m, 0, [15, 14, 13, 8])
    return m


def restricted() -> Match:
    """Player 1 put the cue ball in directly without a call (§10): in hand, restricted (§15)."""
    m = broken()
    m.play(ShotReport(1, pocketed=(pot(0, R, direct=True),)))  # §10: in hand anywhere for the shooter
    assert m.state.hand_rule == RESTRICTED
    return m
