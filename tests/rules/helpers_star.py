"""Builders shared by the Star pyramid tests (test_star*.py): colours, balls as the sensor reports them, a
match after the break, and the check that a refused input changes nothing."""

from __future__ import annotations

import pytest

from shared_rules import Colour, IllegalInputError, Match, Pocket, PocketedBall, RulesError, ShotReport
from tests.rules.helpers import started

B, Y, K, G, R, IV = Colour.BLUE, Colour.YELLOW, Colour.BLACK, Colour.GREEN, Colour.RED, Colour.IVORY


def col(colour: Colour, pocket: Pocket = Pocket.FOOT_LEFT) -> PocketedBall:
    """A pocketed ball as the colour sensor reports it: colour, no id."""
    return PocketedBall(pocket, colour=colour)


def broken(breaker: int = 0, **options: object) -> Match:
    """After an empty correct break by `breaker`: the other player to play."""
    m = started("star", breaker, **options)
    m.play(ShotReport(breaker, break_balls_to_cushion=4))
    return m


def pot(m: Match, player: int, *colours: Colour, **kw: object) -> None:
    """`player` pockets balls of these colours with an own-coloured cue ball struck at them (a legal shot)."""
    m.play(ShotReport(player, pocketed=tuple(col(c) for c in colours), **kw))  # type: ignore[arg-type]


def unchanged(
    m: Match, inp: object, error: type[RulesError] = IllegalInputError, match: str | None = None
) -> RulesError:
    before, history = m.state, m.history
    with pytest.raises(error, match=match) as e:
        m.play(inp)  # type: ignore[arg-type]
    assert m.state == before and m.history == history
    assert e.value.en and e.value.ru
    return e.value
