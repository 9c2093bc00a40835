"""Connectivity figures: `python -m tests.bench.link` (about 20 s; starts its own Mosquitto).

1. Edge-to-publish latency: a virtual pocket node (the real firmware on CPython, paho to a real Mosquitto on
   loopback) gets balls through its beams; for each ball, the time from the edge that decides it (the upper
   beam clearing, put into the node's edge ring as the IRQ would) to a subscriber receiving the `evt`. It
   includes the detector's 2 ms debounce, the node's poll, outbox, link, broker and subscriber.
2. Outbox path alone: `outbox.put` + `link.kick()` to the subscriber receiving it.
3. Outbox flash writes per hour of simulated play (deterministic, no network): a pocket node's events at a
   club's pace, acknowledged within milliseconds, except during the outages of each scenario.
Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import asyncio
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from firmware.clock import Clock
from firmware.outbox import DirStore, Outbox, next_boot
from hub.deploy.broker import Mosquitto
from hub.virtual import traces as tr
from hub.virtual.node import VirtualNode, VirtualTime
from luza_wire import protocol
from luza_wire.messages import Event
from tests.firmware.outbox_vectors import FakeTime

BALLS = 150
GAP_MS = 60.0


class Stamps:
    """A subscriber that notes when each (device, seq) arrived."""

    def __init__(self, port: int) -> None:
        self.got: dict[int, float] = {}
        self.lock = threading.Lock()
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-sub")
        self.c.on_socket_open = lambda _c, _u, s: s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.c.on_message = self._msg
        self.c.connect("127.0.0.1", port)
        self.c.subscribe("luza/v1/+/+/evt", qos=1)
        self.c.loop_start()
        time.sleep(0.2)

    def _msg(self, _c: Any, _u: Any, m: mqtt.MQTTMessage) -> None:
        now = time.monotonic()
        ev = protocol.parse_event(m.payload)
        if isinstance(ev, Event):
            with self.lock:
                self.got.setdefault(ev.seq, now)

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _report(name: str, ms: list[float]) -> None:
    print(
        f"  {name}: n={len(ms)} p50={statistics.median(ms):.2f} ms p99={_pct(ms, 0.99):.2f} ms "
        f"max={max(ms):.2f} ms"
    )


async def edge_to_publish(port: int, work: Path) -> list[float]:
    cfg = {
        "role": "pocket",
        "table": "bench",
        "device": "pocket-1",
        "wifi": {"ssid": "bench"},
        "pockets": [{"pocket": 1, "upper": 32, "lower": 33, "colour": False}],
    }
    sub = Stamps(port)
    node = VirtualNode(cfg, ("127.0.0.1", port), work, VirtualTime())
    node.board.edge_log = []
    node.start()
    while not (node.node and node.node.link.up):
        await asyncio.sleep(0.01)
    balls = [tr.Ball(GAP_MS * i, pocket=1, speed=2.0) for i in range(BALLS)]
    node.board.play_edges(tr.beam_edges(balls, pockets=(1,)), node.vt.ms() + 50)
    await node.board.idle()
    await asyncio.sleep(0.3)
    await node.stop()
    sub.close()
    decisive = [t for code, t in node.board.edge_log if code == 0]  # slot 0, upper beam, level 0: clears
    return [(sub.got[i + 1] - t) * 1000 for i, t in enumerate(decisive) if i + 1 in sub.got]


async def outbox_path(port: int, work: Path) -> list[float]:
    from firmware.link import Link
    from firmware.transport import PahoTransport, StaticNet

    sub = Stamps(port)
    store = DirStore(str(work / "ob-path"))
    boot = next_boot(store)
    clock = Clock()
    ob = Outbox(store, now=clock.uptime)
    link = Link(PahoTransport(port=port), StaticNet(), ob, clock, "bench", "n2", boot, log=lambda _m: None)
    task = asyncio.create_task(link.run())
    while not link.up:
        await asyncio.sleep(0.01)
    put: dict[int, float] = {}
    for seq in range(1, 501):
        put[seq] = time.monotonic()
        ob.put(protocol.encode_event("pocket", "n2", boot, seq, clock.uptime(), synced=False, p=1))
        link.kick()
        await asyncio.sleep(0.005)
    await asyncio.sleep(0.3)
    link.stop()
    await task
    sub.close()
    return [(sub.got[s] - t) * 1000 for s, t in put.items() if s in sub.got]


def flash_per_hour(outages: list[tuple[float, float]], events_per_hour: int = 600) -> tuple[int, int, int]:
    """(flash writes, entries dropped, max depth) for one hour; `outages` = [(start s, length s)]."""
    with tempfile.TemporaryDirectory() as d:
        ft = FakeTime()
        clock = Clock(ticks=ft.ticks)
        store = DirStore(d)
        next_boot(store)
        ob = Outbox(store, ram_max=200, seg_entries=100, seg_max=20, spill_ms=10000, now=clock.uptime)
        every_ms = 3_600_000 // events_per_hour
        depth = 0
        seq = 0
        for ms in range(0, 3_600_000, 100):  # 100 ms steps
            down = any(a * 1000 <= ms < (a + n) * 1000 for a, n in outages)
            if ms % every_ms == 0:
                seq += 1
                ob.put(vectors_ev(seq, clock.uptime()))
            if not down:
                for oid, _ in ob.window(16):
                    ob.ack(oid)  # acknowledged within the 100 ms step
            if ms % 1000 == 0:
                ob.maintain()
            depth = max(depth, ob.depth)
            ft.advance(100)
        return store.writes, ob.dropped, depth


def vectors_ev(seq: int, t: int) -> bytes:
    return protocol.encode_event(
        "pocket", "pocket-1", 1, seq, t, synced=False, p=3, dur=34, c="ivory", cf=0.97
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        broker = Mosquitto(work / "broker")
        broker.start()
        try:
            print("Edge-to-publish through Mosquitto (loopback, one virtual pocket node, speed 1):")
            _report(
                "upper beam clears -> subscriber has the evt", asyncio.run(edge_to_publish(broker.port, work))
            )
            _report("outbox.put -> subscriber has the evt", asyncio.run(outbox_path(broker.port, work)))
        finally:
            broker.stop()
    print("Outbox flash writes per hour of play (600 events/h; boot counter write included):")
    scenarios = {
        "no outage": [],
        "three 60 s Wi-Fi drops": [(600, 60), (1800, 60), (3000, 60)],
        "broker down 10 min": [(1200, 600)],
        "broker down all hour": [(0, 3600)],
    }
    for name, outages in scenarios.items():
        writes, dropped, depth = flash_per_hour(outages)
        print(f"  {name}: {writes} flash writes, max depth {depth}, dropped {dropped}")


if __name__ == "__main__":
    main()
