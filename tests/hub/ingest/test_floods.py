"""Floods of bad payloads (issue 12, item 5): every rejection is counted per (device, code) and only a bounded
sample is kept, so the database does not grow with the flood; the counts survive a restart."""

from __future__ import annotations

import os
from pathlib import Path

from hub import configfile
from hub.ingest.mqtt import RawMessage
from hub.service.hub import Hub
from hub.store.database import Store
from hub.store.rejected import MAX_REJECTED_SAMPLES, REJECTED_SAMPLES_PER_KIND
from luza_wire import protocol
from tests.hub.conftest import TABLES

FLOOD = 20_000
BAD = b'{"v": 1, "k": "pocket", ' + b"x" * 5000  # 5 KB, not JSON


def make_hub(db: Path) -> Hub:
    return Hub(configfile.parse({"store": {"path": str(db)}, "tables": TABLES}), mqtt=False).start()


def db_bytes(db: Path) -> int:
    return sum(os.path.getsize(p) for p in (db, Path(f"{db}-wal")) if p.exists())


def _no_ack() -> None:
    pass


def rejected_of(hub: Hub, device: str) -> dict[str, int]:
    return next(d["rejected"] for d in hub.devices() if d["id"] == device)


def test_a_flood_of_invalid_payloads_is_counted_with_a_bounded_sample(tmp_path: Path) -> None:
    db = tmp_path / "luza.db"
    hub = make_hub(db)
    try:
        before = db_bytes(db)
        for i in range(FLOOD):  # QoS 1 (an ack to call), as nodes publish: never shed by the ingest queue
            hub.feed(RawMessage("mqtt", protocol.topic("t1", "p-head", "evt"), BAD, i, _no_ack))
            if i % 2 == 0:  # and as many strangers, each with a name of its own
                hub.feed(RawMessage("mqtt", protocol.topic("t1", f"x{i}", "evt"), BAD, i, _no_ack))
        assert hub.wait_idle(120)
        grown = db_bytes(db) - before
        print(f"\n{FLOOD + FLOOD // 2} rejected payloads of 5 KB: database grew by {grown / 1e6:.2f} MB")
        assert grown < 2_000_000  # the old hub stored every one: 144 MB
        assert sum(rejected_of(hub, "p-head").values()) == FLOOD
    finally:
        hub.stop()
    store = Store(db, readonly=True)
    try:
        samples = store.rejected(limit=10 * MAX_REJECTED_SAMPLES)
        assert len(samples) == 2 * REJECTED_SAMPLES_PER_KIND  # p-head's kind, and the strangers' as one
        counts = store.rejected_counts()
        assert sum(counts["p-head"].values()) == FLOOD and counts[""] == {"unknown_device": FLOOD // 2}
    finally:
        store.close()
    hub = make_hub(db)  # the counts come back after a restart
    try:
        assert sum(rejected_of(hub, "p-head").values()) == FLOOD
    finally:
        hub.stop()


def test_the_sample_is_a_ring_of_bounded_size(tmp_path: Path) -> None:
    store = Store(tmp_path / "luza.db")
    try:
        with store.transaction():
            # many kinds: each one keeps samples, the oldest give way
            for i in range(MAX_REJECTED_SAMPLES + 50):
                store.reject(i, "mqtt", "t", "dev", f"code{i}", "why", b"x")
        rows = store.rejected(limit=10 * MAX_REJECTED_SAMPLES)
        assert len(rows) == MAX_REJECTED_SAMPLES and rows[0].code == "code50"
    finally:
        store.close()
