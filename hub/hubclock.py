"""The hub's timeline: what it dates referee actions, receipts and the `time` it sends
the nodes with (Unix ms).

`HubClock` is a steady source (`hub.steadyclock.SteadyClock`: the wall clock read once at start, then advanced
by the monotonic clock, so a step of the wall clock at run time moves nothing) plus a `shift` that only the
hub sets, for reasons it can show (hub/ingest/timebase.py): at start, never below what the store already holds
(a Raspberry Pi has no real-time clock and boots at its last saved time); after a restart, joined to the
store's timeline through the nodes that stayed up; with no match live, forward to the wall clock when that is
ahead. Ingest stamps receipts with the raw source (`raw`), and the worker puts them on the timeline when it
handles them (`timeline`), so a shift made meanwhile applies to every message handled after it,
whenever it was received.

Kulkarni et al.'s hybrid logical clocks (2014) are the model: the hub's time never goes below what it has
stored (the store's high-water mark), whatever the physical clock says; only the hub's own evidence moves it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from hub.steadyclock import SteadyClock


class HubClock:
    """A callable giving the hub's timeline (Unix ms): `source() + shift`. `wall()` is the wall clock as it is
    now (what the hub compares its timeline with; for a test clock, the source itself)."""

    def __init__(
        self, source: Callable[[], int] | None = None, wall: Callable[[], int] | None = None
    ) -> None:
        if source is None:
            steady = SteadyClock()
            source = steady
            wall = wall or (lambda: int(steady.wall() * 1000))
        self.raw: Callable[[], int] = source
        self.wall: Callable[[], int] = wall or source
        self.shift = 0
        self._lock = threading.Lock()

    def __call__(self) -> int:
        return self.raw() + self.shift

    def timeline(self, raw_ms: int) -> int:
        """A receipt stamped with `raw` (any time before now), on the timeline as it is now."""
        return raw_ms + self.shift

    def move(self, delta_ms: int) -> None:
        """Move the timeline by `delta_ms` (the hub's own decision: hub/ingest/timebase.py)."""
        with self._lock:
            self.shift += delta_ms

    def wall_ahead(self) -> int:
        """How far the wall clock is ahead of the timeline now (ms; negative: behind)."""
        return int(self.wall()) - self()
