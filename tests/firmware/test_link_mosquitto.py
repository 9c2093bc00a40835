"""The connection manager against a real Mosquitto: outages, restarts, birth and Last Will, bad commands."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from firmware.clock import Clock
from firmware.link import Link
from firmware.outbox import DirStore, Outbox, next_boot
from firmware.transport import PahoTransport, StaticNet
from hub.virtual import traces as tr
from hub.virtual.node import HUB_EPOCH_MS, VirtualNode, VirtualTime
from luza_wire import protocol
from luza_wire.messages import Status
from tests.firmware.collect import Collector
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto

POCKET_CFG: dict[str, Any] = {
    "role": "pocket",
    "table": "t1",
    "device": "pocket-1",
    "wifi": {"ssid": "club"},
    "pockets": [{"pocket": 1, "upper": 32, "lower": 33, "colour": False}],
    "tele_s": 5,
}


def publish(port: int, topic: str, payloads: list[bytes]) -> None:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="tester")
    c.connect("127.0.0.1", port)
    c.loop_start()
    for p in payloads:
        c.publish(topic, p, qos=1).wait_for_publish(5)
    c.disconnect()
    c.loop_stop()


def retained_status(port: int, device: str = "pocket-1") -> Status | None:
    """What a newcomer sees retained on the device's status topic."""
    got: list[bytes] = []
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="newcomer")
    c.on_message = lambda _c, _u, m: got.append(bytes(m.payload)) if m.retain else None
    c.connect("127.0.0.1", port)
    c.subscribe(protocol.topic("t1", device, "status"), qos=1)
    deadline = time.monotonic() + 3
    while not got and time.monotonic() < deadline:
        c.loop(0.05)
    c.disconnect()
    if not got:
        return None
    st = protocol.parse_status(got[-1])
    assert isinstance(st, Status), st
    return st


def test_broker_killed_and_restarted_mid_stream_loses_and_duplicates_nothing(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    # A SIGKILLed Mosquitto forgets sessions it had not saved yet, so the collector (standing in for the hub)
    # must be back before the node republishes: it retries every 0.1 s, the node's first retry waits >= 1.1 s.
    with Collector(mosquitto.port, max_delay=0.1) as col:
        store = DirStore(str(tmp_path / "ob"))
        boot = next_boot(store)
        clock = Clock()
        ob = Outbox(store, ram_max=500, now=clock.uptime)
        link = Link(
            PahoTransport(port=mosquitto.port),
            StaticNet(),
            ob,
            clock,
            "t1",
            "n1",
            boot,
            role="pocket",
            fw="test",
            log=lambda _m: None,
            backoff_min=1500,
        )

        async def scenario() -> None:
            task = asyncio.create_task(link.run())
            for seq in range(1, 301):
                ob.put(protocol.encode_event("pocket", "n1", boot, seq, clock.uptime(), synced=False, p=1))
                link.kick()
                await asyncio.sleep(0.002)
                if seq == 120:
                    mosquitto.kill()
                if seq == 200:
                    mosquitto.start()
            for _ in range(1000):
                if ob.depth == 0 and link.up:
                    break
                await asyncio.sleep(0.01)
            link.stop()
            await asyncio.wait_for(task, 5)

        asyncio.run(scenario())
        col.wait_for(lambda: len(col.unique_events()) >= 300, timeout=10)
        unique = col.unique_events()
    missing = sorted(set(range(1, 301)) - {e.seq for e in unique})
    assert not missing, (missing, link.published, len(col.events()))
    assert ob.depth == 0
    assert link.downs >= 1 and link.ups >= 2
    assert [e.seq for e in unique] == list(range(1, 301))  # every event exactly once, in order
    assert {e.boot for e in unique} == {boot}


def test_sixty_second_outage_is_buffered_and_delivered_in_order_with_true_hub_times(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    vt = VirtualTime(speed=30)  # 60 virtual seconds in 2 wall seconds
    with Collector(mosquitto.port) as col:
        # Polling every 2 ms: a command waits at most that long
        # (x30 in virtual time) before the node reads it.
        node = VirtualNode(POCKET_CFG, ("127.0.0.1", mosquitto.port), tmp_path, vt, poll_ms=2)
        balls = [tr.Ball(5000.0 * i, pocket=1, speed=2.0) for i in range(12)]
        edges = tr.beam_edges(balls, pockets=(1,), noise=tr.Noise(jitter_us=100, chatter=0.3), seed=3)

        skew: list[int] = []

        async def scenario() -> float:
            node.start()
            assert await _until(lambda: node.node is not None and node.node.link.up, 3)
            # The hub stamps the exchange as it sends it (a connected client: no connect time in between).
            col.client.publish(
                protocol.topic("t1", "pocket-1", "cmd"),
                protocol.encode_command("time", 1, hub=vt.hub_ms()),
                qos=1,
            )
            assert await _until(lambda: node.node is not None and node.node.clock.synced, 3)
            # A one-way exchange: the node's clock trails the hub by the command's transit, which virtual time
            # multiplies by 30 (5 ms of a busy machine's wall time is 150 virtual ms). Measure it, so the
            # times below check the buffering, not the load on this machine.
            skew.append(node.node.clock.now()[0] - vt.hub_ms())
            mosquitto.stop()
            at = vt.ms() + 500
            node.board.play_edges(edges, at)
            await node.board.idle()  # the whole minute of play happens with the broker down
            n = node.node
            assert n is not None
            # the last ball settles a few ms after its last edge
            await _until(lambda: n.outbox.depth == 12, 2)
            buffered = n.outbox.depth
            flash_writes = n.outbox.writes
            mosquitto.start()
            assert await _until(lambda: node.node is not None and node.node.outbox.depth == 0, 10)
            await node.stop()
            assert buffered == 12
            assert flash_writes > 1  # the outage spilled to flash (the first write is the boot counter)
            return at

        at = asyncio.run(scenario())
        assert col.wait_for(lambda: len(col.unique_events()) >= 12, timeout=5)
        events = col.unique_events()
    assert [e.seq for e in events] == list(range(1, 13))
    for ball, ev in zip(balls, events, strict=True):
        assert ev.synced and ev.kind == "pocket" and ev.get("pocket") == 1
        true_t = HUB_EPOCH_MS + at + ball.t_ms + tr.BALL_MM / ball.speed  # the ball cleared the upper beam
        assert abs(ev.t - skew[0] - true_t) < 150, (ev, true_t, skew)  # virtual ms: poll delay (x30)
    assert -3000 < skew[0] <= 1  # the node's clock may only trail the hub's, by the exchange's transit


def test_birth_and_last_will_are_retained_on_status(mosquitto: Mosquitto, tmp_path: Path) -> None:
    vt = VirtualTime()
    node = VirtualNode(POCKET_CFG, ("127.0.0.1", mosquitto.port), tmp_path, vt)

    async def scenario() -> tuple[Status | None, Status | None]:
        node.start()
        assert await _until(lambda: node.node is not None and node.node.link.up, 3)
        online = retained_status(mosquitto.port)
        await node.power_cut()  # no DISCONNECT: the broker publishes the Will
        await asyncio.sleep(0.3)
        return online, retained_status(mosquitto.port)

    online, lost = asyncio.run(scenario())
    assert online is not None and lost is not None
    assert (online.state, online.boot, online.role, online.ip) == ("online", 1, "pocket", "127.0.0.1")
    assert online.fw
    assert (lost.state, lost.boot) == ("lost", 1)


MALFORMED = [
    b"not json at all",
    b'{"v": 1, "c": "selfdestruct"}',
    b'{"v": 1, "c": "time"}',
    b'{"v": 1, "c": "time", "hub": "noon"}',
    b'{"v": 1, "c": "config", "set": 5}',
    b'{"v": 2, "c": "identify"}',
    b'{"v": 1, "c": "calibrate", "p": 9, "c2": "ivory"}',
    b"[1, 2, 3]",
    b'{"v": 1, "c": "identify", "s": "x"}' + b" " * 1100,
]


def test_malformed_commands_are_rejected_and_counted_and_the_node_keeps_running(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    vt = VirtualTime()
    node = VirtualNode(POCKET_CFG, ("127.0.0.1", mosquitto.port), tmp_path, vt)
    cmd_topic = protocol.topic("t1", "pocket-1", "cmd")

    async def scenario() -> None:
        node.start()
        assert await _until(lambda: node.node is not None and node.node.link.up, 3)
        publish(mosquitto.port, cmd_topic, MALFORMED)
        n = node.node
        assert n is not None
        assert await _until(lambda: n.link.rejected == len(MALFORMED), 3), n.link.rejected
        # valid commands still work afterwards
        publish(
            mosquitto.port,
            cmd_topic,
            [
                protocol.encode_command("time", 2, hub=vt.hub_ms()),
                protocol.encode_command("identify", 3, s=0.5),
                protocol.encode_command("config", 4, set={"tele_s": -5}),  # valid shape, invalid value
                protocol.encode_command("config", 5, set={"tele_s": 7}),
            ],
        )
        assert await _until(lambda: n.clock.synced and n.board.blinks >= 1 and n.cfg["tele_s"] == 7, 3)
        assert n.config_rejected == 1
        assert n.link.up and not n.stopping
        await node.stop()

    asyncio.run(scenario())
    saved = json.loads((tmp_path / "pocket-1" / "config.json").read_text())
    assert saved["tele_s"] == 7


def test_reboot_command_starts_a_new_boot_and_keeps_unsent_events(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    vt = VirtualTime()
    node = VirtualNode(POCKET_CFG, ("127.0.0.1", mosquitto.port), tmp_path, vt)
    with Collector(mosquitto.port) as col:

        async def scenario() -> None:
            node.start()
            assert await _until(lambda: node.node is not None and node.node.link.up, 3)
            first = node.node
            assert first is not None
            first.outbox.put(
                protocol.encode_event("pocket", "pocket-1", first.boot, 99, 5, synced=False, p=1)
            )
            publish(
                mosquitto.port,
                protocol.topic("t1", "pocket-1", "cmd"),
                [protocol.encode_command("reboot", 1)],
            )
            assert await _until(lambda: node.boots == 2 and node.node is not None and node.node.link.up, 5)
            assert node.board.resets == 1
            await node.stop()

        asyncio.run(scenario())

        def boots() -> set[int]:
            return {protocol.parse_status(p).boot for _t, p, _r in col.channel("status")}  # type: ignore[union-attr]

        # the kept event and the second boot's birth reach the collector in their own time on a busy machine
        assert col.wait_for(lambda: any(e.seq == 99 for e in col.events()) and boots() == {1, 2}, 5), boots()


async def _until(pred: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        await asyncio.sleep(0.01)
    return bool(pred())


def test_invalid_config_reports_error_status_and_a_config_fix_reboots_into_the_role(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    bad = {**POCKET_CFG, "pockets": [{"pocket": 1, "upper": 32, "lower": 32, "colour": False}]}
    node = VirtualNode(bad, ("127.0.0.1", mosquitto.port), tmp_path, VirtualTime())

    async def scenario() -> tuple[Status | None, Status | None]:
        node.start()
        assert await _until(lambda: node.node is not None and node.node.link.up, 3)
        assert node.node is not None and node.node.role is None  # detectors off, node reachable
        broken = retained_status(mosquitto.port)
        publish(
            mosquitto.port,
            protocol.topic("t1", "pocket-1", "cmd"),
            [
                protocol.encode_command(
                    "config", 1, set={"pockets": [{"pocket": 1, "upper": 32, "lower": 33, "colour": False}]}
                )
            ],
        )
        assert await _until(lambda: node.boots == 2 and node.node is not None and node.node.link.up, 5)
        assert node.node is not None and node.node.role is not None
        fixed = retained_status(mosquitto.port)
        await node.stop()
        return broken, fixed

    broken, fixed = asyncio.run(scenario())
    assert broken is not None and broken.state == "error"
    assert broken.error is not None and "pockets[0].lower" in broken.error
    assert fixed is not None and (fixed.state, fixed.boot) == ("online", 2)


def test_power_cut_during_outage_keeps_spilled_events_for_the_next_boot(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    vt = VirtualTime(speed=30)
    with Collector(mosquitto.port) as col:
        node = VirtualNode(POCKET_CFG, ("127.0.0.1", mosquitto.port), tmp_path, vt)

        async def scenario() -> None:
            node.start()
            assert await _until(lambda: node.node is not None and node.node.link.up, 3)
            mosquitto.stop()
            early = [tr.Ball(1000.0 * i, pocket=1) for i in range(4)]  # spill to flash after 10 s unacked
            node.board.play_edges(tr.beam_edges(early, pockets=(1,)), vt.ms() + 100)
            await node.board.idle()
            n = node.node
            assert n is not None
            assert await _until(lambda: n.outbox.in_flash >= 1, 3)
            node.board.play_edges(tr.beam_edges([tr.Ball(0, pocket=1)], pockets=(1,)), vt.ms() + 50)
            await node.board.idle()
            assert await _until(lambda: n.outbox.depth == 5, 2)  # 4 in flash, the newest only in RAM
            await node.power_cut()
            mosquitto.start()
            node.boot_again()
            assert await _until(
                lambda: node.node is not None and node.node.link.up and node.node.outbox.depth == 0, 5
            )
            await node.stop()

        asyncio.run(scenario())
        assert col.wait_for(lambda: len(col.unique_events()) >= 4, 3)
        events = col.unique_events()
    assert [(e.boot, e.seq) for e in events] == [(1, 1), (1, 2), (1, 3), (1, 4)]  # the RAM-only 5th died
    assert node.node is not None and node.node.boot == 2
