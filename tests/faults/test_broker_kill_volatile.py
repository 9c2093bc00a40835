"""Fault: a broker with persistence OFF is SIGKILLed mid-match, twice;
only hub-confirmed delivery saves the events.

A broker that forgets everything on a crash is the worst case for "the broker's PUBACK means delivered":
whatever it acknowledged and had not yet handed to the hub is gone with it. The nodes keep each event until
the hub's `stored` mark covers it (firmware/delivery.py, hub/ingest/delivery.py), so:

1. Live: the broker dies with a shot open; the shot's balls drop while it is dead; it starts again, empty.
2. Hub away: the hub is stopped while two shots are played; the broker acknowledges their events and queues
   them for the hub's session, in memory only; it is SIGKILLed (the queue is lost), started again empty, and a
   new hub comes back on the same database. The nodes had PUBACKs for all of it but no mark: they re-send.

Promise: 0 events lost of N, none stored twice, no `missing_events` alert, and the final score equals the same
match played without a fault. Before hub-confirmed delivery, case 2 lost every event of the two shots.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from hub.service.hub import Hub
from hub.virtual.table import VirtualTable
from tests.faults.conftest import Baseline, wait_stored
from tests.faults.match import events_made, prepare, run_table, score, script, until
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
SEED = 31
HUB_AWAY = 5  # the hub stops after this shot; two shots are played with the hub away, then the broker dies


def pubacked(table: VirtualTable) -> bool:
    """Every node has its events acknowledged by the broker (none waits for a PUBACK)."""
    return all(not n.node.link._inflight for n in table.nodes if n.node is not None)


def unconfirmed(table: VirtualTable) -> int:
    """Events the nodes hold that the hub has not confirmed."""
    return sum(n.node.outbox.depth for n in table.nodes if n.node is not None)


def test_a_broker_without_persistence_killed_mid_match_loses_nothing(
    tmp_path: Path, baseline: Baseline, hubs: Callable[..., Hub]
) -> None:
    broker = Mosquitto(tmp_path / "broker", persistence=False).start()
    try:
        _play(broker, tmp_path, baseline, hubs)
    finally:
        broker.stop()


def _play(broker: Mosquitto, tmp_path: Path, baseline: Baseline, hubs: Callable[..., Hub]) -> None:
    steps = script(SEED)
    kill_live = next(i for i, st in enumerate(steps) if i >= 2 and st.balls)  # dies after this shot's strike
    sc = prepare(broker, tmp_path, SEED, hubs)
    cfg, table, hub = sc.cfg, sc.table, [sc.hub]
    figures: dict[str, int] = {}

    async def fault(k: int, phase: str) -> None:
        if (k, phase) == (kill_live, "strike"):
            await until(lambda: hub[0].stats["accepted"] >= events_made(table), 10, "the strike stored")
            broker.kill()  # the shot is open; its balls drop while the broker is dead
        elif (k, phase) == (kill_live, "balls"):
            figures["buffered"] = unconfirmed(table)
            await asyncio.to_thread(broker.start)
        elif (k, phase) == (HUB_AWAY, "balls"):
            await until(
                lambda: hub[0].stats["accepted"] >= events_made(table) and unconfirmed(table) == 0,
                15,
                "the hub to catch up and confirm",
            )
            await asyncio.to_thread(hub[0].stop)
            figures["before_away"] = events_made(table)
        elif (k, phase) == (HUB_AWAY + 2, "balls"):
            # the broker says it has them all
            await until(lambda: pubacked(table), 10, "the broker's PUBACKs")
            figures["acked_then_lost"] = unconfirmed(table)
            broker.kill()  # ... and forgets them: no persistence
            await asyncio.to_thread(broker.start)
            hub.append(await asyncio.to_thread(hubs, cfg, clock=table.vt.hub_ms))
            hub.pop(0)

    async def confirmed() -> None:
        await until(lambda: unconfirmed(table) == 0, 20, "the hub to confirm every event")

    run_table(table, steps, fault, confirmed)
    made = events_made(table)
    wait_stored(hub[0], made - figures["before_away"])
    assert hub[0].store is not None
    stored = hub[0].store.conn.execute("SELECT count(*) FROM inputs WHERE device IS NOT NULL").fetchone()[0]
    assert figures["buffered"] >= 1 and figures["acked_then_lost"] >= 2
    assert stored == made  # 0 lost, none twice
    state = hub[0].state("t1")
    assert score(state["match"]) == baseline(SEED)
    assert [a["kind"] for a in state["alerts"]] == []  # no missing_events
    print(
        f"\nbroker (no persistence) SIGKILLed twice: {figures['buffered']} events waited for the dead "
        f"broker, {figures['acked_then_lost']} acknowledged by it and lost with it were re-sent; {stored} of "
        f"{made} stored, 0 lost; resent by the nodes: "
        f"{sum(n.node.link.delivery.resent for n in table.nodes if n.node)}"
    )
