"""Fault: a conflicting duplicate — after a ball of the virtual table is stored, a message with the same
(device, boot, seq) but another pocket arrives (a node that lost its boot counter, a forger), twice.

Promise: the first stored event stays the one in play (the final score equals the same match played without
the fault); the other content is kept once in `conflicts`, counted each time, and the table shows a
`conflicting_event` alert naming the key. tests/hub/ingest/test_conflicts.py checks the same with scripted
nodes, including the alert after a restart and its end with a new match.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from hub.service.hub import Hub
from luza_wire import protocol
from tests.faults.conftest import Baseline, wait_stored
from tests.faults.match import events_made, prepare, run_table, score, script, until
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
SEED = 83


def publish_twice(port: int, topic: str, payload: bytes) -> None:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="conflicting-sender")
    c.connect("127.0.0.1", port)
    c.loop_start()
    for _ in range(2):
        c.publish(topic, payload, qos=1).wait_for_publish(10)
    c.loop_stop()
    c.disconnect()


def test_a_conflicting_duplicate_is_kept_apart_and_the_first_counts(
    mosquitto: Mosquitto, tmp_path: Path, baseline: Baseline, hubs: Callable[..., Hub]
) -> None:
    steps = script(SEED)
    k0 = next(i for i, st in enumerate(steps) if i >= 1 and st.balls)
    sc = prepare(mosquitto, tmp_path, SEED, hubs)
    table, hub = sc.table, sc.hub
    keys: list[tuple[str, int, int]] = []

    async def forge(k: int, phase: str) -> None:
        if (k, phase) != (k0, "balls"):
            return
        await until(lambda: hub.stats["accepted"] >= events_made(table), 10, "the shot's balls stored")
        assert hub.store is not None
        device, boot, seq, t, pocket = hub.store.conn.execute(
            "SELECT device, boot, seq, json_extract(record, '$.t'), json_extract(record, '$.fields.pocket') "
            "FROM inputs WHERE json_extract(record, '$.kind') = 'pocket' ORDER BY id DESC LIMIT 1"
        ).fetchone()
        keys.append((device, boot, seq))
        forged = protocol.encode_event("pocket", device, boot, seq, t + 50, True, p=1 + pocket % 6, c="ivory")
        await asyncio.to_thread(publish_twice, mosquitto.port, protocol.topic("t1", device, "evt"), forged)
        await until(lambda: hub.stats["conflicts"] >= 2, 10, "both copies counted")

    run_table(table, steps, forge)
    wait_stored(hub, events_made(table))
    assert hub.stats["conflicts"] == 2
    state = hub.state("t1")
    assert score(state["match"]) == baseline(SEED)  # the first content counts
    alerts = [a for a in state["alerts"] if a["kind"] == "conflicting_event"]
    assert [a["kind"] for a in state["alerts"]] == ["conflicting_event"]
    assert alerts[0]["keys"] == [list(keys[0])]
    assert hub.store is not None
    assert hub.store.conn.execute("SELECT count(*) FROM conflicts").fetchone()[0] == 1
