"""Fault: a flood of oversized messages (QoS 0, 256 KB each, 256 MB in all) on a node's event topic while the
match is played, through the hub process (tests/faults/hubproc.py).

Promise: every one is rejected as `oversized` and counted, only a bounded sample is kept, the hub's memory and
the database stay within a fixed budget, and the final score equals the same match played without the flood.
(tests/hub/service/test_fault_floods.py floods `luza serve` with 20,000 invalid 5 KB payloads, idle
control-socket connections and a second hub; this adds the oversized ones.)
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from hub.service.hub import Hub
from tests.faults import match as m
from tests.faults.conftest import Baseline
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
SEED = 61
COUNT, SIZE = 1000, 256 * 1024
MAX_RSS_MB = 150
MAX_DB_GROWTH = 5_000_000


def peak_rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(ln.split()[1] for ln in status.splitlines() if ln.startswith("VmHWM:"))) / 1024


def db_bytes(db: Path) -> int:
    return sum(os.path.getsize(p) for p in (db, Path(f"{db}-wal")) if p.exists())


def oversized_counted(db: Path) -> int:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        row = conn.execute(
            "SELECT coalesce(sum(count), 0) FROM rejected_counts WHERE code = 'oversized'"
        ).fetchone()
        return int(row[0])
    finally:
        conn.close()


def flood(port: int, sent: list[int]) -> None:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="oversized-flooder")
    c.connect("127.0.0.1", port)
    c.loop_start()
    payload = b'{"v": 1, "k": "pocket", "x": "' + b"x" * SIZE + b'"}'
    for _ in range(COUNT // 50):  # in bursts of 50 (12.8 MB): as fast as the loopback and the broker go
        infos = [c.publish("luza/v1/t1/pockets-123/evt", payload, qos=0) for _ in range(50)]
        for info in infos:
            info.wait_for_publish(30)
        sent[0] += len(infos)
    c.loop_stop()
    c.disconnect()


def test_a_flood_of_oversized_messages_costs_bounded_memory_and_changes_no_score(
    mosquitto: Mosquitto, tmp_path: Path, baseline: Baseline, hubs: Callable[..., Hub]
) -> None:
    sc = m.prepare(mosquitto, tmp_path, SEED, hubs)
    db, table = sc.db, sc.table
    proc = sc.hand_over()
    rss_before, size_before = peak_rss_mb(proc.pid), db_bytes(db)
    sent = [0]
    flooder = threading.Thread(target=flood, args=(mosquitto.port, sent), daemon=True)

    async def start_flood(k: int, phase: str) -> None:
        if (k, phase) == (1, "strike"):
            flooder.start()

    async def settle() -> None:
        await asyncio.to_thread(flooder.join, 120)
        await m.until(lambda: m.stored_events(db) >= m.events_made(table), 20, "every event stored")
        await m.until(lambda: oversized_counted(db) >= COUNT, 60, "every oversized message counted")

    try:
        m.run_table(table, m.script(SEED), start_flood, settle)
        rss, grown = peak_rss_mb(proc.pid), db_bytes(db) - size_before
    finally:
        assert proc.stop() == 0
    assert sent[0] == COUNT and oversized_counted(db) == COUNT  # QoS 0 on loopback: none lost, all counted
    print(
        f"\n{COUNT} oversized messages ({SIZE // 1024} KB, QoS 0) during the match: hub peak RSS "
        f"{rss_before:.0f} -> {rss:.0f} MB, database +{grown / 1e6:.2f} MB"
    )
    with sc.rebuilt() as after:
        assert m.score(after.state("t1")["match"]) == baseline(SEED)
        assert after.store is not None
        kept = after.store.conn.execute("SELECT count(*) FROM rejected WHERE code = 'oversized'").fetchone()[
            0
        ]
    assert 1 <= kept <= 10  # a bounded sample
    assert rss < MAX_RSS_MB and grown < MAX_DB_GROWTH
