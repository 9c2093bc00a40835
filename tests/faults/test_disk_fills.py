"""Fault: the hub's disk fills mid-match, then frees: a file-size limit (RLIMIT_FSIZE, set on the running hub
process with prlimit) stands in for the full disk, so SQLite's next write past it fails as a full disk does.

While full, the hub commits nothing and acknowledges nothing (the broker keeps the events for its session),
and every table's state carries a hub alert: SQLite reports a write refused past the limit as a disk I/O error
(EFBIG), not as SQLITE_FULL, so the alert is `disk_error` (hub/vocab/alerts.py), as for a failing SD
card. When the limit is lifted, scoring resumes by itself. Promise: nothing lost, the alert goes, the final
score equals the same match played without the
fault. (tests/hub/service/test_disk_full.py does the same in-process with SQLite's max_page_count.)
"""

from __future__ import annotations

import json
import resource
import threading
import time
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from hub.service.hub import Hub
from tests.faults import match as m
from tests.faults.conftest import Baseline
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
SEED = 53
FULL, FREED = 3, 6  # the disk fills after shot 3's balls, frees after shot 6's


class StateWatch:
    """Every state the hub publishes for table t1 (retained and live), as the wall screens see them."""

    def __init__(self, port: int) -> None:
        self.alerts: list[list[str]] = []
        self.lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"watch-{time.monotonic_ns()}")
        self.client.on_message = self._message
        self.client.on_connect = lambda c, *a: c.subscribe("luza/v1/t1/state", qos=1)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _message(self, c: mqtt.Client, u: object, m: mqtt.MQTTMessage) -> None:
        with self.lock:
            self.alerts.append([a["kind"] for a in json.loads(m.payload).get("alerts") or []])

    def seen(self, kind: str) -> bool:
        with self.lock:
            return any(kind in a for a in self.alerts)

    def last(self) -> list[str] | None:
        with self.lock:
            return self.alerts[-1] if self.alerts else None

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def db_size(db: Path) -> int:
    return max(p.stat().st_size for p in (db, Path(f"{db}-wal")) if p.exists())


def test_a_disk_that_fills_and_frees_pauses_scoring_and_loses_nothing(
    mosquitto: Mosquitto, tmp_path: Path, baseline: Baseline, hubs: Callable[..., Hub]
) -> None:
    sc = m.prepare(mosquitto, tmp_path, SEED, hubs)
    db, table = sc.db, sc.table
    proc = sc.hand_over()
    watch = StateWatch(mosquitto.port)
    figures: dict[str, int] = {}

    async def disk(k: int, phase: str) -> None:
        if (k, phase) == (FULL, "balls"):
            await m.until(lambda: m.stored_events(db) >= m.events_made(table), 10, "the hub to catch up")
            figures["stored"], figures["limit"] = m.stored_events(db), db_size(db) + 1000
            resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (figures["limit"], resource.RLIM_INFINITY))
        elif (k, phase) == (FREED, "balls"):
            await m.until(lambda: watch.seen("disk_error"), 10, "the disk_error alert on the table's state")
            figures["held"] = m.events_made(table) - m.stored_events(db)
            figures["stored_while_full"] = m.stored_events(db) - figures["stored"]
            resource.prlimit(
                proc.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
            )

    async def drained() -> None:
        await m.until(lambda: m.stored_events(db) >= m.events_made(table), 20, "every event stored")
        await m.until(lambda: watch.last() == [], 10, "the alert to clear")

    try:
        m.run_table(table, m.script(SEED), disk, drained)
    finally:
        watch.close()
        assert proc.stop() == 0
    assert figures["held"] >= 3 and figures["stored_while_full"] == 0  # paused: nothing committed while full
    assert m.stored_events(db) == m.events_made(table)
    with sc.rebuilt() as after:
        state = after.state("t1")
        assert m.score(state["match"]) == baseline(SEED)
        assert [a["kind"] for a in state["alerts"] if a["kind"] != "node_offline"] == []
    failures = sum("commit failed" in ln for ln in proc.lines)
    print(
        f"\ndisk full (RLIMIT_FSIZE {figures['limit']} B) for 3 shots: {figures['held']} events held back, "
        f"{failures} failed commits retried, 0 lost"
    )
