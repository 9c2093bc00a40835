"""The pocket role end to end on CPython: a reboot with a ball in the throat, and flags/outs on the wire."""

from __future__ import annotations

import asyncio
from pathlib import Path

from firmware.clock import Clock
from firmware.compat import ticks_add, ticks_us
from firmware.node import Node
from firmware.outbox import DirStore
from firmware.transport import StaticNet
from luza_wire import protocol
from luza_wire.messages import Event
from tests.firmware.node_scenario import FakeBoard, LoopTransport

CFG = {
    "role": "pocket",
    "table": "t1",
    "device": "pocket-4",
    "wifi": {"ssid": "club"},
    "pockets": [{"pocket": 4, "upper": 32, "lower": 33, "colour": False}],
}


async def _until(pred, s: float = 3.0) -> None:  # type: ignore[no-untyped-def]
    for _ in range(int(s / 0.005)):
        if pred():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("condition not met in time")


def events(tr: LoopTransport) -> list[Event]:
    out = [protocol.parse("evt", p) for t, p, _r in tr.sent if t.endswith("/evt")]
    assert all(isinstance(e, Event) for e in out), out
    return out  # type: ignore[return-value]


def test_a_reboot_with_a_ball_between_the_beams_still_counts_it_and_says_so(tmp_path: Path) -> None:
    async def run() -> list[Event]:
        board = FakeBoard()
        board.beam_levels = lambda slot: (1, 1)  # type: ignore[attr-defined]  # both beams blocked at boot
        tr = LoopTransport()
        node = Node(
            board,
            tr,
            StaticNet(),
            DirStore(str(tmp_path / "ob")),
            Clock(speed=20),
            cfg=CFG,
            cfg_path=str(tmp_path / "config.json"),
            log=lambda m: None,
        )
        task = asyncio.create_task(node.run())
        await _until(lambda: node.link.up)
        now = ticks_us()
        board.ring.put(0 << 1 | 0, ticks_add(now, 1000))  # the ball leaves the upper beam...
        board.ring.put(1 << 1 | 0, ticks_add(now, 20000))  # ...and the lower one, downwards
        await _until(lambda: len(events(tr)) == 3)
        node.stop()
        await task
        return events(tr)

    got = asyncio.run(run())
    assert [(e.kind, e.get("why"), e.get("beam")) for e in got] == [
        ("flag", "boot", 0),
        ("flag", "boot", 1),
        ("pocket", None, None),
    ]


def test_an_upward_passage_is_an_out_event(tmp_path: Path) -> None:
    async def run() -> list[Event]:
        board = FakeBoard()
        tr = LoopTransport()
        node = Node(
            board,
            tr,
            StaticNet(),
            DirStore(str(tmp_path / "ob")),
            Clock(speed=20),
            cfg=CFG,
            cfg_path=str(tmp_path / "config.json"),
            log=lambda m: None,
        )
        task = asyncio.create_task(node.run())
        await _until(lambda: node.link.up)
        t0 = ticks_add(ticks_us(), -100000)
        # lower first: rising
        for beam, level, dt in ((1, 1, 0), (0, 1, 15000), (1, 0, 34000), (0, 0, 49000)):
            board.ring.put(beam << 1 | level, ticks_add(t0, dt))
        await _until(lambda: len(events(tr)) == 1)
        node.stop()
        await task
        return events(tr)

    (e,) = asyncio.run(run())
    assert (e.kind, e.get("pocket"), e.get("beam"), e.get("dur")) == ("out", 4, 0, 49)


def test_after_dead_a_ball_on_the_working_beam_is_a_pocket_event_marked_single_beam(tmp_path: Path) -> None:
    """Issue 19, item 2: the lower receiver is dead; five upper-only passages as short as a fall: four asked
    (`single`), the fifth declares the lower beam `dead` and is counted,
    its `pocket` event carrying `bm` 1."""

    async def run() -> list[Event]:
        board = FakeBoard()
        tr = LoopTransport()
        node = Node(
            board,
            tr,
            StaticNet(),
            DirStore(str(tmp_path / "ob")),
            Clock(speed=20),
            cfg=CFG,
            cfg_path=str(tmp_path / "config.json"),
            log=lambda m: None,
        )
        task = asyncio.create_task(node.run())
        await _until(lambda: node.link.up)
        t0 = ticks_add(ticks_us(), -6_000_000)
        for i in range(5):
            board.ring.put(0 << 1 | 1, ticks_add(t0, 1_000_000 * i))
            board.ring.put(0 << 1 | 0, ticks_add(t0, 1_000_000 * i + 40_000))
        await _until(lambda: len(events(tr)) == 6)
        node.stop()
        await task
        return events(tr)

    got = asyncio.run(run())
    assert [(e.kind, e.get("why"), e.get("beam")) for e in got] == [
        *[("flag", "single", 1)] * 4,
        ("flag", "dead", 1),
        ("pocket", None, 1),
    ]
    assert got[-1].get("dur") == 40 and got[-1].get("pocket") == 4
