"""The hub service end to end in-process: real Mosquitto, real SQLite, scripted nodes publishing over MQTT.

The hub's state must equal a TableSession fed the same facts directly; duplicates, reordering and rejected
payloads must not change that; a restart must rebuild the same state.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from hub import config
from hub.service.changes import Change
from hub.service.hub import Hub
from hub.store.database import Store
from hub.view.build import stored
from hub.view.match import MatchView
from hub.vocab.checks import RefereeInputError
from hub.vocab.inputs import RefereeAction, SensorInput
from luza_wire import protocol
from tests.hub.nodes import Clock, Node, action, expected_board, sensor_input
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto

T0 = 1_800_000_000_000
PLAYERS = ("Ivan", "Petr")


def wait_for(pred: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.01)


def start_free_match(hub: Hub, clock: Clock) -> tuple[int, list[SensorInput | RefereeAction]]:
    clock.now = T0
    state = hub.new_match("t1", "free", PLAYERS)
    clock.now = T0 + 100
    hub.submit("t1", {"kind": "lag", "winner": 0})
    return state["match_id"], [action({"kind": "lag", "winner": 0}, T0 + 100)]


def shots(cue: Node, pockets: dict[int, Node], n: int, seed: int = 1) -> list[tuple[Node, bytes]]:
    """n shots: a strike, then 0-2 balls into random pockets, 20 s apart (synced device time)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        t = T0 + 1000 + i * 20_000
        out.append((cue, cue.event("strike", t, pk=3.0)))
        for k in range(rng.randint(0, 2)):
            p = rng.randint(1, 6)
            out.append((pockets[p], pockets[p].event("pocket", t + 700 + 300 * k, p=p, c="ivory", cf=0.9)))
    return out


def nodes_for_t1(port: int) -> tuple[Node, dict[int, Node], list[Node]]:
    head = Node(port, "t1", "p-head", "pocket")
    mid = Node(port, "t1", "p-mid", "pocket")
    foot = Node(port, "t1", "p-foot", "pocket")
    cue = Node(port, "t1", "cue-a", "cue")
    return cue, {1: head, 2: head, 3: mid, 4: mid, 5: foot, 6: foot}, [head, mid, foot, cue]


def facts(sent: list[tuple[Node, bytes]]) -> list[SensorInput | RefereeAction]:
    return [sensor_input(p, n.role, 0 if n.role == "cue" else None) for n, p in sent]


def board(hub: Hub, table: str = "t1") -> dict[str, Any]:
    return json.loads(json.dumps(stored(MatchView.model_validate(hub.state(table)["match"]))))


def test_state_equals_a_session_fed_the_same_facts_and_survives_restart(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    match_id, referee = start_free_match(hub, clock)
    cue, pockets, all_nodes = nodes_for_t1(mosquitto.port)
    sent = shots(cue, pockets, 6)
    for node, payload in sent:
        node.send(payload)
    wait_for(lambda: hub.stats["accepted"] == len(sent))
    assert hub.wait_idle(5)
    expected = expected_board("free", PLAYERS, {}, match_id, "t1", referee + facts(sent))
    assert board(hub) == expected
    assert expected["shot_count"] == 6
    hub.stop()
    again = hubs(cfg, clock=clock)  # rebuild from the log
    assert board(again) == expected
    for n in all_nodes:
        n.close()


def test_duplicates_and_reordering_give_the_in_order_state(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    match_id, referee = start_free_match(hub, clock)
    cue, pockets, all_nodes = nodes_for_t1(mosquitto.port)
    sent = shots(cue, pockets, 5, seed=2)
    shuffled = sent + random.Random(3).sample(sent, len(sent) // 2)  # half of them twice
    random.Random(4).shuffle(shuffled)
    for node, payload in shuffled:
        node.send(payload)
    wait_for(lambda: hub.stats["accepted"] + hub.stats["duplicates"] == len(shuffled))
    assert hub.wait_idle(5)
    assert hub.stats["accepted"] == len(sent) and hub.stats["duplicates"] == len(shuffled) - len(sent)
    assert board(hub) == expected_board("free", PLAYERS, {}, match_id, "t1", referee + facts(sent))
    assert hub.store is not None and hub.store.count_inputs() == len(sent) + 2  # + new_match, lag
    for n in all_nodes:
        n.close()


def test_rejected_payloads_are_stored_counted_logged_once_and_ingest_goes_on(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="luza.hub")
    hub = hubs(cfg)
    head = Node(mosquitto.port, "t1", "p-head", "pocket")
    stranger = Node(mosquitto.port, "t1", "p-ghost", "pocket")
    wrong = Node(mosquitto.port, "t2", "p-mid", "pocket")  # p-mid is on t1
    for _ in range(3):
        head.raw("evt", b"{not json")
    head.raw("evt", b"\xff\xfe" * 800)  # oversized binary
    head.raw("evt", b'{"v": 7, "k": "pocket"}')
    stranger.send(stranger.event("pocket", T0, p=1))
    wrong.send(wrong.event("pocket", T0, p=3))
    good = head.event("pocket", T0, p=1)
    head.send(good)
    wait_for(lambda: hub.stats["accepted"] == 1 and hub.stats["rejected"] >= 7)
    assert hub.wait_idle(5)
    assert hub.store is not None
    codes = sorted(r.code for r in hub.store.rejected())
    assert codes.count("malformed") == 3 and "oversized" in codes and "bad_version" in codes
    assert "unknown_device" in codes and "wrong_table" in codes
    devices = {d["id"]: d for d in hub.devices()}
    assert devices["p-head"]["rejected"]["malformed"] == 3
    assert devices["p-ghost"]["rejected"] == {"unknown_device": 2}  # its birth and its event
    malformed_logs = [
        r for r in caplog.records if "malformed" in r.getMessage() and "p-head" in r.getMessage()
    ]
    assert len(malformed_logs) == 1
    assert hub.store.has_event(("p-head", 1, 1))
    for n in (head, stranger, wrong):
        n.close()


def test_registry_birth_time_command_telemetry_and_last_will(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    node = Node(mosquitto.port, "t1", "p-foot", "pocket", boot=7, fw="1.4.2")
    cmd = node.wait_command()
    assert cmd is not None and cmd["c"] == "time" and cmd["hub"] == T0
    node.tele(bat=3.85, rssi=-67, ob=3, up=12_345)
    wait_for(lambda: (hub.registry.get("p-foot") or object()).__dict__.get("outbox") == 3)
    d = {x["id"]: x for x in hub.devices()}["p-foot"]
    assert (d["online"], d["boot"], d["fw"], d["battery"], d["rssi"]) == (True, 7, "1.4.2", 3.85, -67)
    node.client.socket().close()  # drop the link without DISCONNECT: the broker sends the Last Will
    node.client.loop_stop()
    wait_for(lambda: {x["id"]: x for x in hub.devices()}["p-foot"]["state"] == "lost", timeout=20)
    hub.stop()
    # persisted: the CLI's view of the store
    store = Store(cfg.store.path, readonly=True)
    assert store.devices()["p-foot"]["state"] == "lost" and store.devices()["p-foot"]["outbox"] == 3


def test_referee_errors_store_nothing(cfg: config.Config, hubs: Callable[..., Hub]) -> None:
    hub = hubs(cfg)
    with pytest.raises(RefereeInputError, match="no table 'nope'"):
        hub.submit("nope", {"kind": "lag", "winner": 0})
    with pytest.raises(RefereeInputError, match="no match is being played"):
        hub.submit("t1", {"kind": "lag", "winner": 0})
    with pytest.raises(RefereeInputError, match="kind: unknown referee action"):
        hub.submit("t1", {"kind": "dance"})
    with pytest.raises(RefereeInputError, match="cannot start the match"):
        hub.new_match("t1", "snooker", PLAYERS)
    assert hub.store is not None and hub.store.count_inputs() == 0
    hub.new_match("t1", "free", PLAYERS)
    with pytest.raises(RefereeInputError, match="end it first"):
        hub.new_match("t1", "free", PLAYERS)
    hub.submit("t1", {"kind": "end_match"})
    assert hub.state("t1")["match"] is None
    assert [m.status for m in hub.store.matches()] == ["ended"]


def test_retained_state_and_in_process_subscriptions(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    hub = hubs(cfg)
    seen: list[Change] = []
    unsubscribe = hub.subscribe(seen.append)
    loop = asyncio.new_event_loop()
    q, unsub_async = hub.changes(loop)
    hub.new_match("t1", "free", PLAYERS)
    hub.submit("t1", {"kind": "lag", "winner": 1})
    assert [c.table_id for c in seen] == ["t1", "t1"] and seen[-1].cursor == 2
    assert seen[-1].state["match"]["to_play"] == hub.state("t1")["match"]["to_play"]
    loop.run_until_complete(asyncio.sleep(0.05))
    assert q.qsize() == 2
    unsubscribe()
    unsub_async()
    loop.close()
    # a screen that connects later gets the retained state of every table at once
    got: dict[str, dict[str, Any]] = {}
    done = threading.Event()

    def on_message(c: mqtt.Client, u: object, m: mqtt.MQTTMessage) -> None:
        got[m.topic] = json.loads(m.payload)
        if len(got) == 2:
            done.set()

    screen = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="screen")
    screen.on_message = on_message
    screen.connect("127.0.0.1", mosquitto.port)
    screen.subscribe("luza/v1/+/state", qos=1)
    screen.loop_start()
    try:
        assert done.wait(5)
    finally:
        screen.loop_stop()
        screen.disconnect()
    assert got["luza/v1/t1/state"]["match"]["players"] == list(PLAYERS)
    assert got["luza/v1/t1/state"]["cursor"] == 2
    assert got["luza/v1/t2/state"]["match"] is None


def test_serial_gateway_into_the_hub(mosquitto: Mosquitto, tmp_path: Any, hubs: Callable[..., Hub]) -> None:
    from tests.hub.conftest import make_config

    master, slave = os.openpty()
    try:
        cfg = make_config(mosquitto, tmp_path / "s.db", ingest={"serial": [os.ttyname(slave)]})
        clock = Clock(T0)
        hub = hubs(cfg, clock=clock)
        assert hub.serial[0].opened.wait(5)
        hub.new_match("t2", "free", PLAYERS)

        def line(channel: str, payload: bytes) -> bytes:
            return (
                json.dumps(
                    {"topic": protocol.topic("t2", "t2-p", channel), "payload": json.loads(payload)}
                ).encode()
                + b"\n"
            )

        os.write(master, line("status", protocol.encode_status("online", 1, role="pocket")))
        os.write(master, line("evt", protocol.encode_event("pocket", "t2-p", 1, 1, T0 + 50, p=4)))
        os.write(master, line("evt", protocol.encode_event("pocket", "t2-p", 1, 1, T0 + 50, p=4)))  # again
        os.write(master, b"garbage\n")
        wait_for(lambda: hub.stats["accepted"] + hub.stats["duplicates"] == 2 and hub.stats["rejected"] == 1)
        reply = b""
        while b"\n" not in reply:  # the time exchange goes back down the same port
            reply += os.read(master, 4096)
        assert json.loads(reply.split(b"\n")[0])["payload"]["c"] == "time"
        assert hub.store is not None and hub.store.has_event(("t2-p", 1, 1))
        assert [r.source for r in hub.store.inputs() if r.device] == ["serial"]
    finally:
        os.close(master)
        os.close(slave)
