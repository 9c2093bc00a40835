"""Per-boot clock offsets: the least-delayed sample wins; late (buffered) samples cannot spoil it; drift is
followed a transit at a time; a node's own order stands;
the hub's timeline moving moves the offsets measured on it."""

from __future__ import annotations

from hub.ingest.clockmap import DRIFT_DIV, ClockMap


def test_synced_time_without_uptime_is_used_as_is() -> None:
    c = ClockMap()
    assert c.to_hub("p1", 1, 1_700_000_000_000, True, 1_700_000_000_020) == 1_700_000_000_000
    assert c.skew("p1") == 20


def test_offset_is_the_minimum_transit() -> None:
    c = ClockMap()
    assert c.to_hub("p1", 1, 1000, False, 50_010) == 50_010  # first sample: offset 49_010
    assert c.to_hub("p1", 1, 2000, False, 51_005) == 51_005  # less delayed: offset 49_005
    assert c.offset("p1", 1) == 49_005
    # a buffered event from 60 s ago arrives late: mapped with the good offset, offset unchanged
    assert c.to_hub("p1", 1, 3000, False, 112_000) == 3000 + 49_005
    assert c.offset("p1", 1) == 49_005


def test_events_are_placed_by_uptime_whatever_the_node_clock_says() -> None:
    c = ClockMap()
    c.observe("p1", 1, 10_000, 1_000_010_000)  # telemetry: offset 1_000_000_000
    at, off = c.place("p1", 1, 12_000, 1_000_012_030)
    assert (at, off) == (1_000_012_000, 1_000_000_000)
    # the node's clock stepping does not reach `place`: only its uptime and the hub's receipt do
    assert c.place("p1", 1, 13_000, 1_000_013_004) == (1_000_013_000, 1_000_000_000)


def test_drift_is_followed_both_ways_one_transit_at_a_time() -> None:
    c = ClockMap()
    c.observe("p1", 1, 0, 1000)  # offset 1000 at uptime 0
    # the node runs slow: an hour later the offset is 250 ms larger
    # (70 ppm) -- a tight sample then replaces it
    hour = 3_600_000
    c.observe("p1", 1, hour, hour + 1000 + 250)
    assert c.offset("p1", 1) == 1250
    # ... but a sample delayed by more than the drift allowance since the best one does not
    c.observe("p1", 1, hour + 10_000, hour + 10_000 + 1250 + 10_000 // DRIFT_DIV + 5)
    assert c.offset("p1", 1) == 1250
    # the node runs fast: a smaller sample wins at once
    c.observe("p1", 1, hour + 20_000, hour + 20_000 + 1200)
    assert c.offset("p1", 1) == 1200


def test_a_node_own_order_stands_when_a_better_sample_lowers_the_offset() -> None:
    c = ClockMap()
    assert c.place("p1", 1, 1000, 6000) == (6000, 5000)  # the boot's first sample: 40 ms of transit in it
    # a tighter sample (40 ms less) for an event recorded 10 ms later: it would land 30 ms before the first
    at, off = c.place("p1", 1, 1010, 5970)
    assert off == 4960 and at == 6000  # not before the event the node recorded earlier
    # an event recorded before both, arriving last, stays before them
    at, _ = c.place("p1", 1, 1005, 9000)
    assert at < 6000


def test_frozen_estimates_from_the_store_take_no_event_samples_until_the_hub_has_joined_its_timeline() -> (
    None
):
    c = ClockMap({("p1", 1): (5000, 1000)})
    c.freeze(True)
    # the hub's clock is 4 s behind: the store's offset maps
    assert c.place("p1", 1, 2000, 3000) == (7000, 5000)
    assert c.offset("p1", 1) == 5000
    assert c.place("p2", 1, 2000, 3000) == (3000, 1000)  # a boot the store does not know is measured as usual
    c.freeze(False)
    c.place("p1", 1, 3000, 7500)
    assert c.offset("p1", 1) == 4500


def test_rebase_moves_the_offsets_measured_on_the_moved_timeline() -> None:
    c = ClockMap({("old", 1): (5000, 1000)})
    c.observe("new", 1, 0, 100)
    c.rebase(-40)
    assert (c.offset("old", 1), c.offset("new", 1)) == (5000, 60)
    c.rebase(10, old_too=True)
    assert (c.offset("old", 1), c.offset("new", 1)) == (5010, 70)


def test_boots_and_devices_are_separate_and_dirty_reports_changes() -> None:
    c = ClockMap({("p1", 1): 10})
    c.observe("p1", 2, 0, 500)
    c.observe("p2", 1, 0, 700)
    c.observe("p1", 1, 0, 11)  # larger than the known 10: no change
    assert c.dirty() == {("p1", 2): (500, 0), ("p2", 1): (700, 0)}
    assert c.dirty() == {("p1", 2): (500, 0), ("p2", 1): (700, 0)}  # not committed yet: still dirty
    c.observe("p2", 1, 0, 650)
    c.saved({("p1", 2): (500, 0), ("p2", 1): (700, 0)})  # the commit stored p2's older value: p2 stays dirty
    assert c.dirty() == {("p2", 1): (650, 0)}
    assert c.offset("p1", 1) == 10


def test_rebase_leaves_the_order_of_boots_placed_by_the_store_offsets_alone() -> None:
    c = ClockMap({("old", 1): (5000, 1000)})
    c.freeze(True)
    assert c.place("old", 1, 2000, 3000) == (7000, 5000)
    c.rebase(9000)  # the hub's timeline joined the store's: the old boot's events were on it already
    c.freeze(False)
    assert c.place("old", 1, 3000, 8010)[0] == 8000  # one second later, not pushed past a moved mark
