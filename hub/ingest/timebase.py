"""Keeping the hub's timeline whole: never below the store, joined to it after a restart, and the clock alert.

No step of any clock — the hub's wall clock, forwards or back, at run time or across a restart, or a node's —
may change a score. Node events are placed by the nodes' uptimes (hub/ingest/clockmap.py); what is left is the
hub's own timeline (`hub.hubclock.HubClock`), which dates referee actions and measures the nodes' offsets:

- **At start it never goes below the store's high-water mark** (the hub's timeline at its last commit, kept in
  the store). A clock found behind it — a Raspberry Pi has no real-time clock and boots at its last saved time
  until NTP answers — is moved up to it, and the hub shows the `clock_behind` alert ("clock behind, waiting
  for time sync") for as long as the wall clock stays behind the timeline;
  the timeline is never stepped back to it.
- **After a restart it joins the store's timeline** through a node that stayed up: the store holds that boot's
  offset, measured on the old timeline, and the node's first fresh sample (the telemetry it answers the hub's
  `time` with) gives `received - up - offset` = how far the new timeline is from the old one (plus a LAN
  transit). If that is more than `JOIN_TOL_MS` the timeline moves by it, so a match in play goes on as if the
  hub had never stopped: a shot cut by the restart keeps its true gaps, whatever the wall clock said (−15 s,
  −1 h, +1 h). Until then the store's offsets of those boots take no samples (`ClockMap.freeze`) and referee
  actions wait (`holding`), at most `JOIN_WAIT_S`. This is done only when a match is live and a node the
  store knows was seen recently.
- **With no match live it follows the wall clock forwards**: when the wall clock is more than `WALL_TOL_MS`
  ahead of the timeline and no table has a match in play, the timeline (and every offset) moves up to it —
  nothing in play can change. It never moves back to a wall clock that is behind.

The timeline in force is saved with every commit (`Store.save_high_water`), except while a join is pending.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable

from hub.hubclock import HubClock
from hub.ingest.clockmap import ClockMap, Key
from hub.vocab.alerts import ClockBehind

log = logging.getLogger("luza.hub")

JOIN_TOL_MS = 500  # a surviving node this far off the hub's timeline: the timeline moved across the restart
JOIN_WAIT_S = 5.0  # how long referee actions wait for a surviving node after a start
# the wall clock this far from the timeline: behind (the alert) or ahead (followed when idle)
WALL_TOL_MS = 2000
RECENT_MS = 600_000  # a node seen this close to the store's high-water mark may still be up


class Timebase:
    """The hub's timeline decisions; the worker calls it (one thread)."""

    def __init__(
        self, clock: HubClock, clocks: ClockMap, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.clock, self.clocks, self.monotonic = clock, clocks, monotonic
        self.high_water = 0
        self.behind_at_start = 0  # ms the clock was found behind the store at start (0: it was not)
        self.joined: int | None = None  # ms the timeline moved to join the store's (None: no join was made)
        # how often the timeline moved at run time (the hub then sends every node the time again)
        self.moves = 0
        self._candidates: set[Key] = set()
        self._deadline: float | None = None
        self._alert: ClockBehind | None = None

    # ------------------------------------------------------------ start

    def start(self, high_water: int, seen: Iterable[Key], live: bool, reachable: bool = True) -> None:
        """At hub start: the store's high-water mark, the boots seen shortly before it, whether any match is
        live, and whether the hub can hear nodes at all (no broker nor serial port: nothing to wait for)."""
        self.high_water = high_water
        behind = high_water - self.clock()  # equal is not below: a tie is ordered by the log's cursor
        if behind > 0:
            self.clock.move(behind)
            self.behind_at_start = behind
            log.warning(
                "the hub's clock is %.1f s behind what the store holds: the hub keeps the store's timeline "
                "until the clock catches up (clock_behind: waiting for time sync)",
                behind / 1000,
            )
        self._candidates = {k for k in seen if self.clocks.estimate(*k) is not None}
        if live and reachable and self._candidates:
            self._deadline = self.monotonic() + JOIN_WAIT_S
            self.clocks.freeze(True)
        self.check(live)

    @property
    def pending(self) -> bool:
        """Is the hub still waiting for a node that stayed up, to join the store's timeline?"""
        return self._deadline is not None

    def holding(self) -> bool:
        """Should referee actions wait (a join is pending and its wait has not run out)?"""
        if self._deadline is not None and self.monotonic() >= self._deadline:
            log.info(
                "no node the store knows answered within %.0f s of the start: the hub keeps its timeline",
                JOIN_WAIT_S,
            )
            self._end()
        return self._deadline is not None

    def due_in(self) -> float | None:
        """Seconds until the join's wait runs out (None: nothing pending)."""
        return None if self._deadline is None else max(0.0, self._deadline - self.monotonic())

    def _end(self) -> None:
        self._deadline = None
        self.clocks.freeze(False)

    # ------------------------------------------------------------ samples

    def sample(self, device: str, boot: int, up: int, received_ms: int) -> int:
        """A fresh sample of a node's clock (telemetry: built when sent, and never queued for an absent hub),
        before it is observed. If it is the first from a boot that stayed up across the restart, the timeline
        joins the store's. Returns `received_ms` on the timeline as it is now."""
        key = (device, boot)
        if self._deadline is None or key not in self._candidates:
            return received_ms
        est = self.clocks.estimate(device, boot)
        self._end()
        if est is None:
            return received_ms
        # how far this timeline is from the store's (+ the sample's transit)
        off = received_ms - up - est.offset
        off = min(off, self.clock() - self.high_water)  # never below the store
        if abs(off) <= JOIN_TOL_MS:
            log.info(
                "%s boot %d stayed up: the hub's timeline is the store's (within %+d ms)", device, boot, off
            )
            return received_ms
        self.clock.move(-off)
        self.clocks.rebase(-off)  # offsets measured since the start were on the timeline before the move
        self.joined, self.moves = -off, self.moves + 1
        log.warning(
            "%s boot %d stayed up across the restart: the hub's timeline moved %+.1f s to join the one in "
            "the store (the wall clock had moved meanwhile)",
            device,
            boot,
            -off / 1000,
        )
        return received_ms - off

    # ------------------------------------------------------------ the wall clock

    def check(self, live: bool) -> bool:
        """Compare the wall clock with the timeline: raise or clear `clock_behind`; with no match live, follow
        a wall clock that is ahead. Returns True when the alert changed (every table's state shows it)."""
        ahead = self.clock.wall_ahead()
        if ahead > WALL_TOL_MS and not live and self._deadline is None:
            self.clock.move(ahead)
            self.clocks.rebase(ahead, old_too=True)
            self.moves += 1
            log.warning("no match is live: the hub's timeline moved %+.1f s to the wall clock", ahead / 1000)
            ahead = 0
        alert = behind_alert(-ahead) if ahead < -WALL_TOL_MS else None
        if (alert is None) == (self._alert is None):
            if alert is not None and self._alert is not None:
                self._alert = alert  # the figure moves with the wall clock; not a change of alert
            return False
        self._alert = alert
        if alert is None:
            log.warning("the hub's wall clock caught up with its timeline: clock_behind cleared")
        else:
            log.warning("clock_behind: %s", alert.en)
        return True

    @property
    def alerts(self) -> list[ClockBehind]:
        return [self._alert] if self._alert is not None else []

    def saving(self) -> int | None:
        """The high-water mark to store with this commit
        (None while a join is pending: the timeline may move)."""
        if self._deadline is not None:
            return None
        self.high_water = max(self.high_water, self.clock())
        return self.high_water


def behind_alert(behind_ms: int) -> ClockBehind:
    """The hub alert while the wall clock is behind the hub's timeline
    (shown on every table, not an error)."""
    s = behind_ms // 1000
    return ClockBehind(
        kind="clock_behind",
        severity="warning",
        behind_ms=behind_ms,
        en=f"the hub's clock is behind (by {s} s), waiting for time sync: the hub keeps the timeline of "
        "what it has stored, so scores are not affected; check the network time (NTP)",
        ru=f"часы хаба отстают (на {s} с), ждём синхронизации времени: хаб держит время по уже "
        "сохранённому, счёт не затронут; проверьте сетевое время (NTP)",
    )
