"""firmware/mqtt.py through a CPython socket against a real Mosquitto; the node's loop gap while the broker
stalls (SIGSTOP: TCP still accepted by the kernel, nothing answered) and while the Wi-Fi is gone."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from firmware.clock import Clock
from firmware.mqtt import MqttTransport
from firmware.node import Node
from firmware.outbox import DirStore
from firmware.transport import StaticNet
from luza_wire import protocol
from tests.firmware.collect import Marks
from tests.firmware.node_scenario import FakeBoard
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto

GAP_LIMIT_MS = 20.0


class Watcher:
    """A paho client that keeps every message of `topics` (retained ones too) in order, and confirms events to
    their node as the hub does (`stored`), so the node's outbox drains."""

    def __init__(self, port: int, *topics: str) -> None:
        self.got: list[tuple[str, bytes, bool]] = []
        self.marks = Marks()
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="watcher")
        self.c.on_message = self._message
        self.c.connect("127.0.0.1", port)
        for t in topics:
            self.c.subscribe(t, qos=1)
        self.c.loop_start()

    def _message(self, client: mqtt.Client, _u: object, m: mqtt.MQTTMessage) -> None:
        self.got.append((m.topic, bytes(m.payload), bool(m.retain)))
        reply = self.marks.observe(m.topic, bytes(m.payload))
        if reply is not None:
            client.publish(reply[0], reply[1], qos=1)

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


def pump(tr: MqttTransport, until: Callable[[], bool], events: list, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, "condition not met in time"
        events.extend(tr.poll())
        time.sleep(0.002)


def wait(pred: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.01)


def test_publish_subscribe_acks_and_last_will_on_mosquitto(mosquitto: Mosquitto) -> None:
    w = Watcher(mosquitto.port, "t/#")
    try:
        tr = MqttTransport("127.0.0.1", mosquitto.port)
        events: list = []
        tr.connect("node-a", 30, "t/status", b'{"st":"lost"}')
        tr.subscribe("t/cmd")
        birth = tr.publish("t/status", b'{"st":"online"}', True, 1)
        pump(tr, lambda: tr.connected, events)
        pids = [tr.publish("t/evt", b"%d" % i) for i in range(10)]
        pump(tr, lambda: {e[1] for e in events if e[0] == "ack"} >= {birth, *pids}, events)
        wait(lambda: len([g for g in w.got if g[0] == "t/evt"]) == 10)
        assert [g[1] for g in w.got if g[0] == "t/evt"] == [b"%d" % i for i in range(10)]
        w.c.publish("t/cmd", b'{"c":"time"}', qos=1)
        pump(tr, lambda: any(e[0] == "msg" for e in events), events)
        assert [e for e in events if e[0] == "msg"] == [("msg", "t/cmd", b'{"c":"time"}')]
        tr.abort()  # a power cut: the broker publishes the Last Will, retained
        wait(lambda: ("t/status", b'{"st":"lost"}', False) in w.got)
    finally:
        w.close()


def test_wrong_port_and_refused_login_are_oserrors(mosquitto: Mosquitto, tmp_path: Path) -> None:
    from tests.support.broker import free_port

    tr = MqttTransport("127.0.0.1", free_port())
    with pytest.raises(OSError):
        tr.connect("n", 30, None, b"")
        pump(tr, lambda: tr.connected, [], timeout=2)
    assert not tr.connected


class TimedTransport(MqttTransport):
    """The device transport, with the CPU time of every call recorded
    (the part of a loop gap that is ours)."""

    calls: list[float]

    def _timed(self, f: Callable, *args: object) -> object:
        t0 = time.thread_time()
        try:
            return f(*args)
        finally:
            self.calls.append((time.thread_time() - t0) * 1000)

    def connect(self, *args: object) -> None:  # type: ignore[override]
        self._timed(super().connect, *args)

    def publish(self, *args: object) -> object:  # type: ignore[override]
        return self._timed(super().publish, *args)

    def poll(self) -> list:  # type: ignore[override]
        return self._timed(super().poll)  # type: ignore[return-value]


def p99(xs: list[float]) -> float:
    return sorted(xs)[int(len(xs) * 0.99)]


gaps_cpu: list[list[float]] = []


def _pocket_node(root: Path, port: int, ack_ms: int) -> tuple[Node, FakeBoard, StaticNet, list[float]]:
    cfg = {
        "role": "pocket",
        "table": "t1",
        "device": "pocket-4",
        "wifi": {"ssid": "club"},
        "broker": {"host": "127.0.0.1", "port": port, "keepalive": 5},
        "beam": {"poll_ms": 2},
        "pockets": [{"pocket": 4, "upper": 32, "lower": 33, "colour": False}],
    }
    gaps: list[float] = []  # wall ms between detector-loop turns (preemption by other processes included)
    # CPU ms this thread spent between turns: the part of a gap the node's own code makes
    cpu: list[float] = []
    last = [0.0, 0.0]

    class Board(FakeBoard):
        def feed(self) -> None:  # called once per detector-loop turn
            now, spent = time.perf_counter(), time.thread_time()
            if last[0]:
                gaps.append((now - last[0]) * 1000)
                cpu.append((spent - last[1]) * 1000)
            last[0], last[1] = now, spent
            super().feed()

    gaps_cpu.append(cpu)

    board = Board()
    net = StaticNet()
    tr = TimedTransport("127.0.0.1", port, connack_ms=1500, ack_ms=ack_ms, write_ms=1500)
    tr.calls = []
    node = Node(
        board,
        tr,
        net,
        DirStore(str(root / "ob")),
        Clock(),
        cfg=cfg,
        cfg_path=str(root / "config.json"),
        log=lambda m: None,
    )
    return node, board, net, gaps


async def _until(pred: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


def test_loop_never_stalls_during_a_broker_stall_or_a_wifi_outage(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    assert mosquitto.proc is not None
    pid = mosquitto.proc.pid
    w = Watcher(mosquitto.port, "luza/v1/t1/pocket-4/evt")
    report: dict[str, float] = {}

    async def scenario() -> None:
        node, board, net, gaps = _pocket_node(tmp_path, mosquitto.port, ack_ms=1000)
        task = asyncio.create_task(node.run())
        await _until(lambda: node.link.up, 5)
        board.ball(0)
        await _until(lambda: len(w.got) == 1, 5)
        cpu = gaps_cpu[-1]
        # 1. the broker stalls: the link must notice (no PUBACK), keep trying (TCP accepted, no CONNACK)
        gaps.clear()
        cpu.clear()
        os.kill(pid, signal.SIGSTOP)
        try:
            board.ball(0)
            await _until(lambda: node.link.downs == 1, 5)
            board.ball(0)
            await asyncio.sleep(2.0)  # reconnect attempts against the stopped broker meanwhile
            assert node.outbox.depth == 2
        finally:
            os.kill(pid, signal.SIGCONT)
        report["broker_stall_max"] = max(gaps)
        report["broker_stall_p99"] = p99(gaps)
        report["broker_stall_cpu_max"] = max(cpu)
        report["broker_turns"] = len(gaps)
        await _until(lambda: node.link.up and node.outbox.depth == 0, 10)
        # 2. the Wi-Fi goes: the AP vanishes and so do the packets (the broker hears nothing either)
        gaps.clear()
        cpu.clear()
        net.down = True
        os.kill(pid, signal.SIGSTOP)
        try:
            board.ball(0)
            await _until(lambda: node.link.downs == 2, 5)
            await asyncio.sleep(1.5)
        finally:
            os.kill(pid, signal.SIGCONT)
            net.down = False
        await _until(lambda: node.link.up and node.outbox.depth == 0, 10)
        report["wifi_outage_max"] = max(gaps)
        report["wifi_outage_p99"] = p99(gaps)
        report["wifi_outage_cpu_max"] = max(cpu)
        report["wifi_turns"] = len(gaps)
        report["transport_call_max"] = max(node.link.transport.calls)
        node.stop()
        await task

    # The test runner's heap (thousands of tests' objects) is not the node's: a full collection of it inside
    # a detector turn is 20 ms of CPU no ESP32 would spend. Frozen, the collector walks only the node's.
    gc.collect()
    gc.freeze()
    try:
        asyncio.run(scenario())
        wait(lambda: len(w.got) >= 4)
    finally:
        gc.unfreeze()
        w.close()
    seqs = [json.loads(g[1])["s"] for g in w.got]
    # every ball arrived (a re-send may repeat one; the hub de-duplicates)
    assert sorted(set(seqs)) == [1, 2, 3, 4]
    for topic, payload, _ in w.got:
        assert protocol.parse("evt", payload).kind == "pocket", topic
    print("loop gap ms:", json.dumps({k: round(v, 2) for k, v in report.items()}))
    # What the node's own code spends between two detector turns (CPU time: every transport call, the link,
    # the outbox) stays far below the goal whatever the machine's load; the wall-clock gaps are printed (on a
    # quiet machine their max is 6-15 ms) but not asserted, as a busy neighbour can preempt the whole process.
    assert report["transport_call_max"] < GAP_LIMIT_MS, report
    assert report["broker_stall_cpu_max"] < GAP_LIMIT_MS, report
    assert report["wifi_outage_cpu_max"] < GAP_LIMIT_MS, report
