"""The hub's timeline across a restart, through a real broker and store (hub.ingest.timebase,
hub.ingest.clockmap): a hub started an hour behind keeps the store's timeline and says so, holds the referee's
actions until a node that stayed up has answered its time, then goes on where the store left off; events
are placed by the nodes' uptimes."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from hub import config
from hub.service.hub import Hub
from hub.store import migrations
from hub.store.database import Store
from tests.hub.nodes import Clock, Node
from tests.hub.service.test_service import T0, start_free_match, wait_for
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
HOUR = 3_600_000


def stored_at(hub: Hub, kind: str) -> list[int]:
    assert hub.store is not None
    return [
        r[0]
        for r in hub.store.conn.execute(
            "SELECT at_ms FROM inputs WHERE json_extract(record, '$.kind') = ? ORDER BY id", (kind,)
        )
    ]


def test_a_hub_restarted_an_hour_behind_joins_the_store_timeline_and_holds_the_referee_meanwhile(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    start_free_match(hub, clock)
    head = Node(mosquitto.port, "t1", "p-head", "pocket")
    clock.now = T0 + 1000
    head.tele(up=50_000)  # the node's uptime is 50 s at T0 + 1 s
    wait_for(lambda: hub.clocks.offset("p-head", 1) == T0 + 1000 - 50_000)
    clock.now = T0 + 1600
    head.send(head.event("pocket", T0 + 1500, p=1, c="ivory", up=50_500))
    wait_for(lambda: hub.stats["accepted"] == 1)
    assert hub.wait_idle(5)
    assert stored_at(hub, "pocket") == [T0 + 1500]
    hub.stop()
    head.commands.clear()

    later = Clock(T0 + 10_000 - HOUR)  # 9 s after the node's sample, a power cut: the Pi boots an hour behind
    again = hubs(cfg, clock=later)
    assert again.clock() == T0 + 1600  # never below what the store holds
    assert [a["kind"] for a in again.state("t1")["alerts"]] == ["clock_behind"]
    assert "waiting for time sync" in again.state("t1")["alerts"][0]["en"]
    held = again.submit_async("t1", {"kind": "open_shot"})
    wait_for(lambda: any(c["c"] == "time" for c in head.commands))  # on connecting, the hub asked every node
    time.sleep(0.3)
    assert not held.done()  # the referee's action waits for the timeline to settle
    head.tele(up=59_000)  # the node answers: its uptime says 9 s have passed since its sample at T0 + 1 s
    held.result(5)
    assert again.clock() == T0 + 10_000  # joined: the store's timeline, as if the hub had never stopped
    assert stored_at(again, "open_shot") == [T0 + 10_000]
    later.now += 700
    # its clock took the hub's wrong time
    head.send(head.event("pocket", T0 - HOUR, p=2, c="ivory", up=59_600))
    wait_for(lambda: again.stats["accepted"] == 1)
    assert again.wait_idle(5)
    assert stored_at(again, "pocket") == [T0 + 1500, T0 + 10_600]  # placed by its uptime, not its clock
    assert again.stats["suspect_time"] == 0
    # the wall clock is still behind
    assert [a["kind"] for a in again.state("t1")["alerts"]] == ["clock_behind"]
    head.close()


def test_a_store_of_schema_7_is_migrated_with_its_high_water_mark(tmp_path: object) -> None:
    import sqlite3
    from pathlib import Path

    db = Path(str(tmp_path)) / "old.db"
    conn = sqlite3.connect(db, isolation_level=None)
    for n in range(7):
        conn.executescript(f"BEGIN;\n{migrations.MIGRATIONS[n]}\nPRAGMA user_version = {n + 1};\nCOMMIT;")
    conn.execute("INSERT INTO tables(id, name, created_ms) VALUES ('t1', 't1', 1)")
    conn.execute(
        "INSERT INTO matches(id, table_id, variant, players, options, status, started_ms) "
        "VALUES (1, 't1', 'free', '[\"a\", \"b\"]', '{}', 'live', ?)",
        (T0,),
    )
    conn.execute(
        "INSERT INTO inputs(table_id, match_id, source, at_ms, received_ms, record) "
        "VALUES ('t1', 1, 'referee', ?, ?, '{}')",
        (T0 + 500, T0 + 500),
    )
    conn.execute("INSERT INTO clocks(device, boot, offset_ms, updated_ms) VALUES ('p1', 1, 42, ?)", (T0,))
    conn.close()
    store = Store(db)
    assert migrations.version(store.conn) == migrations.LATEST >= 8  # v8 added the mark; later ones go on
    assert store.high_water() == T0 + 500
    assert store.clocks() == {("p1", 1): (42, None)}  # kept; the sample's uptime unknown before v8
    store.close()
