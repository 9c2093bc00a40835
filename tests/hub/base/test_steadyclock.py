"""The hub's steady clock: a step of the wall clock is logged and moves nothing (hub.steadyclock)."""

from __future__ import annotations

import logging

import pytest

from hub.steadyclock import SteadyClock


def test_a_wall_clock_step_is_logged_once_and_changes_nothing(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="luza.hub")
    wall, mono = [1_800_000_000.0], [50.0]
    clock = SteadyClock(lambda: wall[0], lambda: mono[0])
    assert clock() == 1_800_000_000_000
    wall[0] += 10.0005
    mono[0] += 10.0
    assert clock() == 1_800_000_010_000 and not caplog.records  # a slew of half a millisecond: nothing to say
    wall[0] += 3601.0  # a second passes and the wall clock steps +1 h
    mono[0] += 1.0
    assert clock() == 1_800_000_011_000 and clock() == 1_800_000_011_000
    assert [r.getMessage() for r in caplog.records] == [
        "the hub's wall clock stepped by +3600.0 s; inputs keep the steady timeline (it follows a wall clock "
        "ahead only while no match is live)"
    ]
    wall[0] -= 3600.0  # stepped back
    assert clock() == 1_800_000_011_000 and "back on the steady timeline" in caplog.records[-1].getMessage()


def test_a_referee_call_keeps_its_place_across_a_wall_clock_step() -> None:
    """Two instants 20 s apart on the monotonic clock stay 20 s apart whatever the wall clock did between."""
    wall, mono = [1_800_000_000.0], [0.0]
    clock = SteadyClock(lambda: wall[0], lambda: mono[0])
    before = clock()
    wall[0] += 3620.0
    mono[0] += 20.0
    assert clock() - before == 20_000
