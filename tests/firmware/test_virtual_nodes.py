"""Virtual pocket and cue nodes (the real firmware on CPython) publish valid events
through a real Mosquitto."""

from __future__ import annotations

import asyncio
import io
import json
import time
from pathlib import Path

import pytest

from firmware import doubt
from firmware.transport import SerialTransport
from hub.ingest.serial import parse_line
from hub.virtual import traces as tr
from hub.virtual.node import HUB_EPOCH_MS, VirtualNode, VirtualTime
from hub.virtual.table import CueMotion, Pot, Shot, VirtualTable
from luza_wire import protocol
from luza_wire.frame import Rejection
from luza_wire.messages import Event, Status, Telemetry, Topic
from tests.firmware.collect import Collector
from tests.support.broker import Mosquitto

# A ball within this of a node's start is flagged `boot` (firmware/doubt.py RESTART_US: it may be the rest of
# a passage a previous life saw in part); the scenarios here roll theirs later
RESTART_MS = doubt.RESTART_US // 1000

pytestmark = pytest.mark.mosquitto

SCRIPT = [
    Shot(0, "a", balls=(Pot(3, 800, "ivory", rattle=True),)),
    Shot(1500, "b", double_gap_ms=12),
    Shot(3000, "a", peak_g=6.0, balls=(Pot(1, 700), Pot(6, 1400, "yellow"))),
    tr.Hand(3500, pocket=2),
    tr.Rattle(3900, pocket=5),
    CueMotion("b", tr.Knock(4200)),
    CueMotion("a", tr.Touch(4300)),
    Shot(8000, "b", balls=(Pot(4, 600, "red"),)),  # after the cues' 2 s idle: they are asleep and wake on it
]


def test_virtual_table_publishes_events_wire_accepts_with_true_times(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    speed = 4.0
    with Collector(mosquitto.port) as col:
        table = VirtualTable(
            ("127.0.0.1", mosquitto.port),
            tmp_path,
            table="t1",
            speed=speed,
            cue_settings={"sleep_after_s": 2},
            tele_s=1,
        )

        async def scenario() -> float:
            await table.start()
            await table.sync_time()
            await asyncio.sleep(0.05 + RESTART_MS / 1000 / speed)  # past the restart window (see RESTART_MS)
            at = await table.play(SCRIPT)
            await asyncio.sleep(0.2)
            sleeps = [n.node.role.sleeps for n in table.cue_nodes.values() if n.node and n.node.role]
            assert all(s >= 1 for s in sleeps), sleeps  # the cue nodes slept between strikes
            await table.stop()
            return at

        at = asyncio.run(scenario())

        def said_goodbye() -> bool:  # every node's `offline` status has reached the collector
            return sum(b'"offline"' in p for _t, p, _r in col.channel("status")) >= len(table.nodes)

        assert col.wait_for(lambda: len(col.events()) >= 8 and said_goodbye(), 5)
        events = col.unique_events()  # parses every evt; a rejection fails here
        statuses = [protocol.parse("status", p) for _t, p, _r in col.channel("status")]
        teles = [protocol.parse("tele", p) for _t, p, _r in col.channel("tele")]

    pots = sorted((e.get("pocket"), e.get("colour")) for e in events if e.kind == "pocket")
    assert pots == [(1, "ivory"), (3, "ivory"), (4, "red"), (6, "yellow")]  # no hand, no rattle
    strikes = [(e.device, e.get("double")) for e in events if e.kind == "strike"]
    assert strikes == [("cue-a", False), ("cue-b", True), ("cue-a", False), ("cue-b", False)]
    assert len(events) == 8
    truth = {
        (3, "pocket"): 800 + 40,
        (1, "pocket"): 3700 + 34,
        (6, "pocket"): 4400 + 34,
        (4, "pocket"): 8600 + 34,
    }
    for e in events:
        assert e.synced
        rel = e.t - HUB_EPOCH_MS - at
        if e.kind == "pocket":
            assert abs(rel - truth[(e.get("pocket"), "pocket")]) < 30 * speed, (e, rel)
    strike_times = sorted(e.t - HUB_EPOCH_MS - at for e in events if e.kind == "strike")
    for got, want in zip(strike_times, [0, 1500, 3000, 8000], strict=True):
        assert abs(got - want) < 30 * speed, (strike_times,)
    assert all(isinstance(s, Status) for s in statuses)
    assert {s.state for s in statuses if isinstance(s, Status)} >= {"online", "offline"}
    assert teles and all(isinstance(t, Telemetry) for t in teles)
    cue_tele = [t for t in teles if isinstance(t, Telemetry) and t.get("bat") is not None]
    assert cue_tele and all(t.get("bat") == 3.9 for t in cue_tele)


def test_six_single_pocket_nodes_layout(mosquitto: Mosquitto, tmp_path: Path) -> None:
    with Collector(mosquitto.port) as col:
        table = VirtualTable(
            ("127.0.0.1", mosquitto.port),
            tmp_path,
            table="t2",
            speed=4.0,
            pockets=[(p,) for p in range(1, 7)],
            players=("a",),
            colour=False,
        )

        async def scenario() -> None:
            await table.start()
            await table.play([Shot(0, "a", balls=tuple(Pot(p, 300 + 100 * p) for p in range(1, 7)))])
            await table.stop()

        asyncio.run(scenario())
        assert col.wait_for(lambda: len(col.events()) >= 7, 3)
        events = col.unique_events()
    assert sorted((e.device, e.get("pocket")) for e in events if e.kind == "pocket") == [
        (f"pockets-{p}", p) for p in range(1, 7)
    ]
    assert all(not e.synced for e in events)  # no time exchange: uptime stamps, flagged u=1


def test_serial_mode_writes_the_same_payloads_as_json_lines(tmp_path: Path) -> None:
    out = io.StringIO()
    inbox: list[str] = []
    transport = SerialTransport(write=out.write, read_line=lambda: inbox.pop(0) if inbox else None)
    cfg = {
        "role": "pocket",
        "table": "t1",
        "device": "pocket-usb",
        "wifi": {"ssid": ""},
        "serial": {"enabled": True, "baud": 115200},
        "pockets": [{"pocket": 2, "upper": 32, "lower": 33, "colour": False}],
    }
    vt = VirtualTime(speed=2.0)
    node = VirtualNode(cfg, ("unused", 0), tmp_path, vt, transport=transport)
    cmd_topic = protocol.topic("t1", "pocket-usb", "cmd")

    async def scenario() -> None:
        node.start()
        inbox.append(
            json.dumps({"topic": cmd_topic, "payload": {"v": 1, "c": "time", "hub": vt.hub_ms()}}) + "\n"
        )
        inbox.append("garbage that is not json\n")
        deadline = time.monotonic() + 3
        while not (node.node and node.node.clock.synced) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        # past the restart window: a ball within RESTART_US of a node's start is flagged
        # `boot` (docs/firmware.md)
        node.board.play_edges(
            tr.beam_edges([tr.Ball(0, pocket=2), tr.Ball(500, pocket=2)], pockets=(2,)),
            vt.ms() + 50 + RESTART_MS,
        )
        await node.board.idle()
        await asyncio.sleep(0.1)
        assert node.node is not None and node.node.link.rejected == 1
        await node.stop()

    asyncio.run(scenario())
    parsed = []
    for line in out.getvalue().splitlines():
        topic, data = parse_line(line.encode())
        assert topic is not None, (line, data)
        t = protocol.parse_topic(topic)
        assert isinstance(t, Topic)
        parsed.append(protocol.parse(t.channel, data, t.device))
    assert all(not isinstance(p, Rejection) for p in parsed), parsed
    events = [p for p in parsed if isinstance(p, Event)]
    assert [(e.seq, e.get("pocket"), e.synced) for e in events] == [(1, 2, True), (2, 2, True)]
    assert isinstance(parsed[0], Status) and parsed[0].state == "online"


def test_calibrate_command_learns_a_colour_and_saves_it(mosquitto: Mosquitto, tmp_path: Path) -> None:
    with Collector(mosquitto.port) as col:
        table = VirtualTable(("127.0.0.1", mosquitto.port), tmp_path, table="t3", speed=4.0, players=("a",))

        async def scenario() -> None:
            await table.start()
            await table.send("pockets-123", "calibrate", p=2, col="green", n=2)
            await asyncio.sleep(0.1)
            at = RESTART_MS  # past the restart window, as in the serial test above
            await table.play(
                [
                    tr.Ball(at, pocket=2, colour="green"),
                    tr.Ball(at + 400, pocket=2, colour="green"),
                    tr.Ball(at + 800, pocket=2, colour="green"),
                ]
            )  # the third is a normal pot again
            await table.stop()

        asyncio.run(scenario())
        assert col.wait_for(lambda: len(col.events()) >= 3, 3)
        events = col.unique_events()
    assert [(e.kind, e.get("pocket"), e.get("colour")) for e in events] == [
        ("calib", 2, "green"),
        ("calib", 2, "green"),
        ("pocket", 2, "green"),
    ]
    assert all(len(e.get("rgb")) == 4 for e in events[:2])
    saved = json.loads((tmp_path / "pockets-123" / "config.json").read_text())
    rn, gn, bright, spread = saved["colour"]["calibration"]["2"]["green"]
    assert abs(rn - 0.24) < 0.05 and abs(gn - 0.50) < 0.05 and abs(bright - 0.22) < 0.05 and spread > 0
