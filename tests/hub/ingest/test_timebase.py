"""The hub's timeline (hub.hubclock, hub.ingest.timebase): never below the store, the `clock_behind` alert
until the wall clock catches up, joined to the store's timeline through a node that stayed up, following a
wall clock that is ahead only while no match is live."""

from __future__ import annotations

from hub.hubclock import HubClock
from hub.ingest.clockmap import ClockMap
from hub.ingest.timebase import JOIN_TOL_MS, JOIN_WAIT_S, WALL_TOL_MS, Timebase

HOUR = 3_600_000
STORE = 1_780_000_000_000  # the store's high-water mark: the hub's timeline at its last commit


class Fake:
    """A clock the test sets (ms, or s for a monotonic one)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def hub_clock(steady: int, wall: int) -> tuple[HubClock, Fake, Fake]:
    s, w = Fake(steady), Fake(wall)
    return HubClock(s, w), s, w  # type: ignore[arg-type]


def test_a_clock_behind_the_store_starts_at_the_store_and_shows_the_alert_until_the_wall_clock_catches_up() -> (  # noqa: E501
    None
):
    # a Pi without a real-time clock, after a power cut
    clock, steady, wall = hub_clock(STORE - HOUR, STORE - HOUR)
    tb = Timebase(clock, ClockMap())
    tb.start(STORE, [], live=True)
    assert clock() == STORE and tb.behind_at_start == HOUR
    (alert,) = tb.alerts
    assert alert.kind == "clock_behind" and alert.scope == "hub" and alert.severity == "warning"
    assert "waiting for time sync" in alert.en and "ждём синхронизации времени" in alert.ru
    steady.now += 5000
    wall.now += 5000
    # the timeline goes on at the steady clock's pace
    assert not tb.check(live=True) and clock() == STORE + 5000
    wall.now = STORE + 5000  # NTP answers: the wall clock steps to the truth
    assert tb.check(live=True) and tb.alerts == []  # the alert is gone ...
    assert clock() == STORE + 5000  # ... and the timeline did not step


def test_a_clock_ahead_of_the_store_is_kept_and_no_alert() -> None:
    clock, _, _ = hub_clock(STORE + 60_000, STORE + 60_000)
    tb = Timebase(clock, ClockMap())
    tb.start(STORE, [], live=True)
    assert clock() == STORE + 60_000 and tb.alerts == [] and tb.behind_at_start == 0


def test_the_timeline_joins_the_store_through_a_node_that_stayed_up() -> None:
    # the store measured p1's boot: offset = hub time - uptime = STORE - 100_000
    # (its uptime was 100 s at STORE)
    clocks = ClockMap({("p1", 7): (STORE - 100_000, 100_000), ("p2", 3): (STORE - 50_000, 50_000)})
    # 20 s later, its clock an hour ahead
    clock, _, _ = hub_clock(STORE + 20_000 + HOUR, STORE + 20_000 + HOUR)
    mono = Fake(0.0)
    tb = Timebase(clock, clocks, monotonic=mono)
    tb.start(STORE, [("p1", 7), ("p2", 3)], live=True)
    assert tb.holding()
    # an event of p2 before the join is placed with the store's offset, whatever the hub's clock says
    assert clocks.place("p2", 3, 70_000, clock())[0] == STORE + 20_000
    # p1 answers the time with its uptime, 120 s: 20 s after the store's last commit
    received = tb.sample("p1", 7, 120_000, clock() + 3)  # 3 ms on the wire
    assert tb.joined == -HOUR - 3 and not tb.holding() and tb.moves == 1
    assert clock() == STORE + 20_000 - 3 and received == STORE + 20_000
    clocks.observe("p1", 7, 120_000, received)
    # its events: the store's timeline
    assert clocks.place("p1", 7, 121_000, clock() + 1005)[0] == STORE + 21_000


def test_a_join_within_a_transit_moves_nothing_and_a_join_never_goes_below_the_store() -> None:
    clocks = ClockMap({("p1", 7): (STORE - 100_000, 100_000)})
    clock, _, _ = hub_clock(STORE + 20_000, STORE + 20_000)  # a right clock: the node's sample agrees
    tb = Timebase(clock, clocks)
    tb.start(STORE, [("p1", 7)], live=True)
    tb.sample("p1", 7, 120_000, clock() + JOIN_TOL_MS // 2)
    assert tb.joined is None and clock() == STORE + 20_000 and not tb.holding()
    # a node whose offset says the hub is far ahead, more than the time since the store: stopped at the store
    clocks = ClockMap({("p1", 7): (STORE - 100_000, 100_000)})
    clock, _, _ = hub_clock(STORE + 10_000, STORE + 10_000)
    tb = Timebase(clock, clocks)
    tb.start(STORE, [("p1", 7)], live=True)
    tb.sample("p1", 7, 90_000, clock())  # its uptime says 10 s before the store's last commit: impossible
    assert clock() == STORE


def test_no_join_without_a_live_match_or_a_node_seen_and_the_wait_runs_out() -> None:
    clocks = ClockMap({("p1", 7): (STORE - 100_000, 100_000)})
    clock, _, _ = hub_clock(STORE + 20_000, STORE + 20_000)
    tb = Timebase(clock, clocks)
    tb.start(STORE, [("p1", 7)], live=False)
    assert not tb.holding()
    tb = Timebase(clock, clocks)
    tb.start(STORE, [], live=True)
    assert not tb.holding()
    mono = Fake(100.0)
    tb = Timebase(clock, clocks, monotonic=mono)
    tb.start(STORE, [("p1", 7)], live=True)
    assert tb.holding() and tb.due_in() == JOIN_WAIT_S
    mono.now += JOIN_WAIT_S
    assert not tb.holding() and tb.due_in() is None  # nobody answered: the hub keeps its timeline
    assert tb.sample("p1", 7, 120_000, clock() + HOUR) == clock() + HOUR and tb.joined is None


def test_with_no_match_live_the_timeline_follows_a_wall_clock_ahead_and_moves_every_offset_with_it() -> None:
    clocks = ClockMap({("p1", 7): (STORE - 100_000, 100_000)})
    clock, _, wall = hub_clock(STORE, STORE)
    tb = Timebase(clock, clocks)
    tb.start(STORE, [], live=True)
    wall.now += WALL_TOL_MS * 5  # NTP stepped the wall clock forward
    tb.check(live=True)
    assert clock() == STORE  # a match is live: nothing moves
    tb.check(live=False)
    assert clock() == STORE + WALL_TOL_MS * 5 and tb.moves == 1
    assert clocks.offset("p1", 7) == STORE - 100_000 + WALL_TOL_MS * 5
