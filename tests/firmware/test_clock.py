"""Node time: uptime across the ticks wrap, the `cmd` time exchange, stamping of buffered events."""

from __future__ import annotations

import asyncio
import time

import pytest

from firmware.clock import Clock
from luza_wire import protocol
from luza_wire.frame import Rejection
from luza_wire.messages import Command
from tests.firmware import mp
from tests.firmware.outbox_vectors import FakeTime, clock_vectors


def test_unsynced_events_are_restamped_with_true_hub_time_once_synced() -> None:
    t = FakeTime()
    clock = Clock(ticks=t.ticks)
    t.advance(5000)
    up, synced = clock.now()
    assert (up, synced) == (5000, False)
    payload = protocol.encode_event("pocket", "n1", 3, 1, up, synced=False, p=2)
    parsed = protocol.parse_event(payload)
    assert not isinstance(parsed, Rejection) and parsed.synced is False

    t.advance(60_000)  # a minute of outage, then the hub's time exchange arrives
    cmd = protocol.parse_command(protocol.encode_command("time", 1, hub=1_700_000_065_000))
    assert isinstance(cmd, Command)
    clock.sync(cmd.args["hub"])
    late = protocol.parse_event(clock.restamp(payload, boot=3))
    assert not isinstance(late, Rejection)
    assert late.synced is True
    assert late.t == 1_700_000_005_000  # when the ball really dropped, on the hub's clock
    assert late.key == ("n1", 3, 1) and late.get("pocket") == 2


def test_synced_payload_and_other_boot_are_left_alone() -> None:
    clock = Clock(ticks=FakeTime(100).ticks)
    clock.sync(1_000_000)
    synced = protocol.encode_event("strike", "c1", 1, 1, 1_000_500, pk=5.0)
    assert clock.restamp(synced, 1) is synced
    old = protocol.encode_event("pocket", "n1", 1, 1, 40, synced=False, p=1)
    assert clock.restamp(old, boot=2) is old


def test_uptime_survives_many_wraps_when_read_regularly() -> None:
    t = FakeTime(start=(1 << 30) - 10)
    clock = Clock(ticks=t.ticks)
    for _ in range(10):  # 10 x 5 days, read every 5 days (< 2**29 ms)
        t.advance(5 * 86_400_000)
        clock.uptime()
    assert clock.uptime() == 50 * 86_400_000


def test_ticks_going_backwards_do_not_move_uptime() -> None:
    t = FakeTime(1000)
    clock = Clock(ticks=t.ticks)
    t.advance(300)
    assert clock.uptime() == 300
    t.t -= 100
    assert clock.uptime() == 300


def test_sleep_runs_faster_on_a_virtual_clock() -> None:
    clock = Clock(speed=100)
    start = time.monotonic()
    asyncio.run(clock.sleep_ms(2000))
    assert time.monotonic() - start < 0.5


@pytest.mark.micropython
def test_clock_vectors_identical_under_real_micropython() -> None:
    mp.require()
    src = (mp.ROOT / "tests" / "firmware" / "outbox_vectors.py").read_text()
    got = mp.run_json(
        "import outbox_vectors, json\nprint(json.dumps(outbox_vectors.clock_vectors()))",
        mp.FIRMWARE,
        extra={"outbox_vectors.py": src},
    )
    assert got == {k: (list(v) if isinstance(v, tuple) else v) for k, v in clock_vectors().items()}
