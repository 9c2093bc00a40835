"""The hub's clock for dating inputs: wall time read once at start, then advanced by the monotonic clock.

Referee actions are dated with the hub's clock and sensor events with the nodes' clocks, which the hub sets
(`time` commands); shots are cut by comparing the two. If the hub followed the wall clock, a step of it
(an operator's `date -s`, an NTP step after a long outage) would date the referee's calls an hour away from
the balls they concern and move fouls onto other shots. `SteadyClock` keeps one timeline instead: it only
moves at the monotonic clock's rate (which NTP slews, so it keeps real time's pace), and a step of the wall
clock is logged (once per step, with its size) and changes nothing. It is the source of the hub's timeline
(`hub.hubclock.HubClock`), which follows a wall clock that stepped ahead only while no match is live, never
one that stepped back, and never goes below what the store holds (hub/ingest/timebase.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

log = logging.getLogger("luza.hub")

STEP_MS = 2000  # a wall clock this far from the steady timeline has stepped (NTP slews stay far below)


class SteadyClock:
    """A callable giving Unix ms on a timeline that a step of the wall clock does not move."""

    def __init__(
        self, wall: Callable[[], float] = time.time, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.wall, self.monotonic = wall, monotonic
        self._anchor_ms = wall() * 1000 - monotonic() * 1000
        self._logged_step = 0  # the step last logged (ms, rounded to STEP_MS): each new step once

    def __call__(self) -> int:
        now = int(self._anchor_ms + self.monotonic() * 1000)
        self._check(now)
        return now

    def _check(self, now: int) -> None:
        step = int(self.wall() * 1000) - now
        rounded = round(step / STEP_MS) * STEP_MS if abs(step) >= STEP_MS else 0
        if rounded != self._logged_step:
            self._logged_step = rounded
            if rounded:
                log.warning(
                    "the hub's wall clock stepped by %+.1f s; inputs keep the steady timeline (it follows "
                    "a wall clock ahead only while no match is live)",
                    step / 1000,
                )
            else:
                log.warning("the hub's wall clock is back on the steady timeline")
