"""Small builders that keep the rules tests short and readable."""

from __future__ import annotations

from typing import Any

from shared_rules import EffectKind, Lag, Match, Outcome, Pocket, PocketedBall, ShotReport


def pot(ball: int | None = None, pocket: Pocket = Pocket.FOOT_LEFT, **kw: Any) -> PocketedBall:
    return PocketedBall(pocket, ball=ball, **kw)


def started(variant: str = "free", breaker: int = 0, **options: Any) -> Match:
    """A match after the lag, before the break."""
    m = Match.new(variant, ("Ivan", "Petr"), options or None)
    m.play(Lag(breaker))
    return m


def after_break(variant: str = "free", **options: Any) -> Match:
    """A match after a correct, empty break by player 0: player 1 to play from the position."""
    m = started(variant, **options)
    m.play(ShotReport(0, break_balls_to_cushion=4))
    assert m.state.to_play == 1 and not m.state.is_break
    return m


def cites(out: Outcome, cite: str) -> bool:
    """True if some effect of the outcome cites `cite` (e.g. "general 20")."""
    return any(r.cite() == cite for r in out.reasons)


def kinds(out: Outcome) -> list[EffectKind]:
    return [e.kind for e in out.effects]
