"""Fault injection against `luza serve` and the hub: SIGKILL mid-shot, broker restart mid-match, a node's
60-second outage replayed late. In every case: nothing lost, nothing counted twice, the same state as a
TableSession fed the same facts in order.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from hub.service.hub import Hub
from hub.store.database import Store
from hub.view.build import stored
from hub.view.engine import engine_summary as summary_of
from hub.view.match import MatchView
from hub.vocab.inputs import RefereeAction, input_from_record
from tests.hub.conftest import make_config
from tests.hub.nodes import Clock, Node, expected_board, sensor_input
from tests.hub.service.test_service import (
    PLAYERS,
    T0,
    board,
    facts,
    nodes_for_t1,
    shots,
    start_free_match,
    wait_for,
)
from tests.support.broker import Mosquitto
from tests.support.config import SCRIPTED_T1, write_luza_toml

pytestmark = pytest.mark.mosquitto
ROOT = Path(__file__).resolve().parents[3]


def write_config(path: Path, broker: Mosquitto, db: Path) -> Path:
    """The luza.toml of `luza serve` for the scripted nodes' table t1 (tests/hub/nodes.py)."""
    return write_luza_toml(path, broker.url, db, (SCRIPTED_T1,), client_id="luza-hub-serve")


class Serve:
    """`luza serve` in a child process; `lines` collects its log."""

    def __init__(self, config: Path) -> None:
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hub.cli", "serve", "--config", str(config)],
            cwd=ROOT,
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        threading.Thread(target=self._read, daemon=True).start()
        wait_for(lambda: any("connected to" in ln for ln in self.lines) or self.proc.poll() is not None, 20)
        assert self.proc.poll() is None, "".join(self.lines)

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


def sensor_count(db: Path) -> int:
    s = Store(db, readonly=True)
    try:
        return int(s.conn.execute("SELECT count(*) FROM inputs WHERE device IS NOT NULL").fetchone()[0])
    finally:
        s.close()


def stored_referee(db: Path) -> list[RefereeAction]:
    s = Store(db, readonly=True)
    try:
        out = [input_from_record(r.record) for r in s.inputs() if r.source == "referee"]
    finally:
        s.close()
    return [a for a in out if isinstance(a, RefereeAction) and a.kind != "new_match"]


def retained_state(broker: Mosquitto, table: str = "t1", timeout: float = 5) -> dict[str, Any]:
    got: list[dict[str, Any]] = []
    done = threading.Event()

    def on_message(c: mqtt.Client, u: object, m: mqtt.MQTTMessage) -> None:
        got.append(json.loads(m.payload))
        done.set()

    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"reader-{time.monotonic_ns()}")
    c.on_message = on_message
    c.connect("127.0.0.1", broker.port)
    c.subscribe(f"luza/v1/{table}/state", qos=1)
    c.loop_start()
    try:
        assert done.wait(timeout)
    finally:
        c.loop_stop()
        c.disconnect()
    return got[-1]


def test_sigkill_mid_shot_then_restart_same_state_nothing_lost(mosquitto: Mosquitto, tmp_path: Path) -> None:
    db = tmp_path / "luza.db"
    conf = write_config(tmp_path / "luza.toml", mosquitto, db)
    # the referee starts the match (in-process, the same code `luza serve` runs), then the appliance runs
    hub = Hub(make_config(mosquitto, db)).start(connect_timeout=5)
    match_id = hub.new_match("t1", "free", PLAYERS)["match_id"]
    hub.submit("t1", {"kind": "lag", "winner": 0})
    hub.stop()
    serve = Serve(conf)
    cue, pockets, all_nodes = nodes_for_t1(mosquitto.port)
    sent = shots(cue, pockets, 40, seed=5)
    try:
        half = len(sent) // 2
        while sent[half - 1][0] is cue:  # end the first part just after a ball dropped: the shot is open
            half += 1
        for node, payload in sent[:half]:
            node.send(payload)
        wait_for(lambda: sensor_count(db) >= half // 2)
        cut = half + (len(sent) - half) // 2

        def first_part() -> None:
            for n, p in sent[half:cut]:
                n.send(p, wait=False)

        # The hub dies while a burst is arriving: it is frozen (SIGSTOP) once it has committed some of the
        # burst, the rest of the burst then reaches the broker (and the frozen hub's socket) but cannot be
        # committed, and the hub is killed. However fast the hub is,
        # not all is committed; no clock decides it.
        burst = threading.Thread(target=first_part)
        burst.start()
        wait_for(lambda: sensor_count(db) > half)
        serve.proc.send_signal(signal.SIGSTOP)
        burst.join(10)
        for n, p in sent[cut:]:
            n.send(p, wait=False)
        serve.kill()
        for n in all_nodes:  # everything is now with the broker, queued for the hub's persistent session
            wait_for(lambda n=n: not n.client._out_messages, 10)  # type: ignore[attr-defined,misc]
        assert sensor_count(db) < len(sent), "the kill came too late to test anything"
        serve = Serve(conf)
        wait_for(lambda: sensor_count(db) == len(sent), 20)
        expected = expected_board("free", PLAYERS, {}, match_id, "t1", [*stored_referee(db), *facts(sent)])
        wait_for(lambda: retained_state(mosquitto)["cursor"] >= len(sent) + 2, 10)
        assert stored(MatchView.model_validate(retained_state(mosquitto)["match"])) == expected
    finally:
        serve.stop()
        for n in all_nodes:
            n.close()
    replay = subprocess.run(
        [sys.executable, "-m", "hub.cli", "replay", str(db), "--match", str(match_id)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert "verified" in replay.stdout


def test_broker_restart_mid_match_loses_nothing(
    cfg: Any, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    match_id, referee = start_free_match(hub, clock)
    cue, pockets, all_nodes = nodes_for_t1(mosquitto.port)
    sent = shots(cue, pockets, 30, seed=6)
    third = len(sent) // 3
    for node, payload in sent[:third]:
        node.send(payload)
    for node, payload in sent[third : 2 * third]:
        node.send(payload, wait=False)  # in flight while the broker goes down
    mosquitto.restart()
    for node, payload in sent[2 * third :]:
        node.send(payload, wait=False)  # queued by the nodes' clients until they reconnect
    wait_for(lambda: hub.stats["accepted"] == len(sent), 30)
    assert hub.wait_idle(5)
    assert hub.mqtt is not None and hub.mqtt.connects >= 2
    assert board(hub) == expected_board("free", PLAYERS, {}, match_id, "t1", referee + facts(sent))
    for n in all_nodes:
        n.close()


def test_sixty_second_outage_replayed_late_lands_in_the_right_shot(
    cfg: Any, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    match_id, referee = start_free_match(hub, clock)
    cue = Node(mosquitto.port, "t1", "cue-a", "cue")
    head = Node(mosquitto.port, "t1", "p-head", "pocket")
    strikes, drops = [], []
    for i in range(6):  # six shots, 20 s apart (device time), a ball into pocket 1 or 2 in each
        t = T0 + 1000 + i * 20_000
        strikes.append(cue.event("strike", t, pk=3.0))
        drops.append(head.event("pocket", t + 800, p=1 + i % 2, c="ivory", cf=0.9))
    cue.send(strikes[0])
    head.send(drops[0])
    head.client.disconnect()  # the pocket node is cut off for 60 s: shots 2-4 drop balls into its outbox
    head.client.loop_stop()
    for k in (1, 2, 3, 4):
        cue.send(strikes[k])  # the cue node stays online; shot 5 has already begun when the node is back
    wait_for(lambda: hub.stats["accepted"] == 6)
    back = Node(mosquitto.port, "t1", "p-head", "pocket")  # reconnected: the outbox drains, oldest first
    for k in (1, 2, 3):
        back.send(drops[k])
    back.send(drops[4])
    cue.send(strikes[5])
    back.send(drops[5])
    wait_for(lambda: hub.stats["accepted"] == 12)
    assert hub.wait_idle(5)
    session = hub.session("t1")
    assert session is not None
    by_shot = {s.number: [p.id for p in s.pockets] for s in session.shots}
    assert by_shot == {i + 1: [f"p-head/1/{i + 1}"] for i in range(6)}
    assert session.rewinds >= 1  # the late events took the fold back to their place
    in_order = [p for pair in zip(strikes, drops, strict=True) for p in pair]
    facts_in_order = [
        sensor_input(p, "cue" if k % 2 == 0 else "pocket", 0 if k % 2 == 0 else None)
        for k, p in enumerate(in_order)
    ]
    assert board(hub) == expected_board("free", PLAYERS, {}, match_id, "t1", [*referee, *facts_in_order])
    for n in (cue, back):
        n.close()


def test_a_minute_without_broker_virtual_nodes_drain_their_outboxes_into_the_right_shots(
    mosquitto: Mosquitto, tmp_path: Path, hubs: Callable[..., Hub]
) -> None:
    """The real firmware's outbox: the broker is down for a minute of play (virtual time), every node
    buffers, and on its return the nodes drain in whatever order they reconnect."""
    import asyncio

    from hub.virtual.table import Pot, Shot, VirtualTable
    from tests.hub.reconcile.test_variants import engine_summary, table_config

    table = VirtualTable(("127.0.0.1", mosquitto.port), tmp_path / "nodes", table="t1", speed=30.0)
    hub = hubs(table_config(mosquitto, tmp_path / "luza.db"), clock=table.vt.hub_ms)
    hub.new_match("t1", "free", PLAYERS)
    hub.submit("t1", {"kind": "lag", "winner": 0})
    pots: list[tuple[str, int | None]] = [("ivory", None)] * 8
    shots_ = [Shot(i * 10_000.0, "a", balls=(Pot(1 + i % 6, 800, c),)) for i, (c, _) in enumerate(pots)]

    buffered: list[int] = []

    async def run() -> None:
        await table.start()
        await table.synced()  # births, and the hub's time exchange
        await table.play(shots_[:2])
        deadline = asyncio.get_running_loop().time() + 10
        while any(n.node is None or n.node.outbox.depth for n in table.nodes):  # the hub has confirmed them
            assert asyncio.get_running_loop().time() < deadline, "the hub did not confirm the first shots"
            await asyncio.sleep(0.02)
        await asyncio.to_thread(mosquitto.stop)
        await table.play(shots_[2:8])  # 60 s of play with no broker: all of it goes to the outboxes
        await asyncio.sleep(0.05)
        buffered.append(sum(n.node.outbox.depth for n in table.nodes if n.node is not None))
        await asyncio.to_thread(mosquitto.start)
        deadline = asyncio.get_running_loop().time() + 15
        while any(n.node is None or n.node.outbox.depth for n in table.nodes):
            assert asyncio.get_running_loop().time() < deadline, "outboxes did not drain"
            await asyncio.sleep(0.05)
        await table.stop()

    asyncio.run(run())
    assert buffered == [12]  # six strikes and six balls waited in the nodes' outboxes
    wait_for(lambda: hub.stats["accepted"] >= 16, 15)
    assert hub.wait_idle(5)
    hub.submit("t1", {"kind": "close_shot"})
    session = hub.session("t1")
    assert session is not None
    assert [len(s.pockets) for s in session.shots] == [1] * 8  # each ball in its own shot
    assert json.loads(json.dumps(summary_of(session.match))) == engine_summary("free", pots)
