"""Per-device clock offsets: the least-delayed sample wins; late (buffered) samples cannot spoil it."""

from __future__ import annotations

from hub.ingest.clockmap import ClockMap


def test_synced_time_is_used_as_is() -> None:
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


def test_boots_and_devices_are_separate_and_dirty_reports_changes() -> None:
    c = ClockMap({("p1", 1): 10})
    c.observe("p1", 2, 0, 500)
    c.observe("p2", 1, 0, 700)
    c.observe("p1", 1, 0, 11)  # larger than the known 10: no change
    assert c.dirty() == {("p1", 2): 500, ("p2", 1): 700}
    assert c.dirty() == {("p1", 2): 500, ("p2", 1): 700}  # not committed yet: still dirty
    c.observe("p2", 1, 0, 650)
    c.saved({("p1", 2): 500, ("p2", 1): 700})  # the commit stored p2's older value: p2 stays dirty
    assert c.dirty() == {("p2", 1): 650}
    assert c.offset("p1", 1) == 10
