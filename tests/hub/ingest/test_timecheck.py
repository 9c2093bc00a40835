"""hub.ingest.timecheck.TimeCheck on its own: the per-node step check, and a node's first event of a boot held
against the latest trusted event of the other nodes (a clock that jumped before
its node reported anything)."""

from __future__ import annotations

from hub.ingest.timecheck import STEP_TOLERANCE_MS, TimeCheck
from hub.vocab.inputs import SensorInput
from luza_wire.messages import Event

T0 = 1_800_000_000_000
HOUR = 3_600_000


def event(device: str, seq: int, at_ms: int, received_ms: int, boot: int = 1) -> SensorInput:
    e = Event("pocket", device, boot, seq, at_ms, True, {"pocket": 1})
    return SensorInput(e, "pocket", None, at_ms, received_ms)


def test_a_step_within_a_boot_and_a_first_event_ahead_of_the_other_nodes_are_future() -> None:
    check = TimeCheck()
    assert check.verdict(event("a", 1, T0, T0 + 50), T0 - 1000) is None
    assert check.verdict(event("a", 2, T0 + HOUR, T0 + 2000), T0 - 1000) == "future"  # a's clock stepped
    # b's first, an hour on
    assert check.verdict(event("b", 1, T0 + 1500 + HOUR, T0 + 1600), T0 - 1000) == "future"
    assert check.verdict(event("c", 1, T0 + 3000, T0 + 3100), T0 - 1000) is None  # c's first, in step
    # b re-synced, new boot
    assert check.verdict(event("b", 1, T0 + 4000, T0 + 4100, boot=2), T0 - 1000) is None


def test_time_that_passed_on_the_hub_is_allowed_for() -> None:
    check = TimeCheck()
    assert check.verdict(event("a", 1, T0, T0), None) is None
    later = T0 + 2 * HOUR  # two hours later by the hub's clock too: a node born now is in step
    assert check.verdict(event("b", 1, later + STEP_TOLERANCE_MS // 2, later), None) is None
    assert check.verdict(event("c", 1, later + STEP_TOLERANCE_MS + HOUR, later), None) == "future"
