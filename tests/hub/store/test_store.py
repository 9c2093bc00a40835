"""The SQLite store: schema migrations, the append-only log with its natural key,
rejected payloads, devices."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from hub.errors import SchemaError
from hub.store import migrations
from hub.store.database import Store
from hub.store.rejected import MAX_REJECTED_PAYLOAD


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path / "luza.db")
    with s.transaction():
        s.ensure_table("t1", "Table 1", 1)
    return s


def test_fresh_database_is_wal_and_latest_schema(store: Store) -> None:
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert migrations.version(store.conn) == migrations.LATEST
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_reopening_migrates_nothing_and_keeps_rows(tmp_path: Path, store: Store) -> None:
    with store.transaction():
        store.append_action("t1", None, 5, 5, {"type": "referee", "kind": "undo", "args": {}, "at_ms": 5})
    store.close()
    again = Store(tmp_path / "luza.db")
    assert again.count_inputs() == 1


def test_newer_schema_is_refused(tmp_path: Path, store: Store) -> None:
    store.conn.execute(f"PRAGMA user_version = {migrations.LATEST + 1}")
    store.close()
    with pytest.raises(SchemaError, match="newer than this hub"):
        Store(tmp_path / "luza.db")


def test_sensor_key_is_unique(store: Store) -> None:
    with store.transaction():
        a = store.append_sensor("t1", None, "mqtt", ("p1", 3, 7), 100, 101, {"x": 1})
        b = store.append_sensor("t1", None, "mqtt", ("p1", 3, 7), 100, 150, {"x": 1})
        c = store.append_sensor("t1", None, "mqtt", ("p1", 3, 8), 100, 150, {"x": 2})
    assert a is not None and b is None and c is not None and c > a  # the cursor grows (gaps allowed)
    assert store.has_event(("p1", 3, 7)) and not store.has_event(("p1", 4, 7))
    assert [r.seq for r in store.inputs()] == [7, 8]


def test_referee_rows_do_not_collide(store: Store) -> None:
    with store.transaction():
        ids = [store.append_action("t1", None, i, i, {"n": i}) for i in range(3)]
    assert ids == sorted(ids) and len(set(ids)) == 3


def test_log_is_append_only(store: Store) -> None:
    with store.transaction():
        store.append_sensor("t1", None, "mqtt", ("p1", 1, 1), 1, 1, {})
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.conn.execute("UPDATE inputs SET at_ms = 2")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.conn.execute("DELETE FROM inputs")


def test_rolled_back_batch_leaves_nothing(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction():
        store.append_sensor("t1", None, "mqtt", ("p1", 1, 1), 1, 1, {})
        raise RuntimeError("crash inside the batch")
    assert store.count_inputs() == 0


def test_matches_and_inputs_by_match(store: Store) -> None:
    with store.transaction():
        m = store.new_match("t1", "classic", ("Ivan", "Petr"), {"target": 71}, 10)
        store.append_action("t1", m, 10, 10, {"k": "new"})
        store.append_sensor("t1", None, "mqtt", ("p1", 1, 1), 11, 11, {})
        store.append_sensor("t1", m, "mqtt", ("p1", 1, 2), 12, 12, {"k": "pocket"})
        store.save_state(m, {"scores": [1, 0]})
    row = store.match(m)
    assert row is not None and row.players == ("Ivan", "Petr") and row.options == {"target": 71}
    assert row.status == "live" and row.last_state == {"scores": [1, 0]}
    assert [r.record for r in store.inputs(match_id=m)] == [{"k": "new"}, {"k": "pocket"}]
    with store.transaction():
        store.end_match(m, 20)
    assert store.matches(live_only=True) == []
    assert store.match(m).status == "ended"  # type: ignore[union-attr]


def test_rejected_keeps_reason_and_a_bounded_payload(store: Store) -> None:
    big = b"x" * (MAX_REJECTED_PAYLOAD * 3)
    with store.transaction():
        store.reject(1, "mqtt", "luza/v1/t1/p1/evt", "p1", "oversized", "too big", big)
        store.reject(2, "mqtt", "luza/v1/t1/p1/evt", "p1", "malformed", "not JSON", b"{")
        store.reject(3, "serial", None, None, "malformed", "not JSON", b"\xff")
    rows = store.rejected()
    assert rows[0].size == len(big) and len(rows[0].payload) == MAX_REJECTED_PAYLOAD
    assert rows[1].payload == b"{" and rows[1].reason == "not JSON"
    assert store.rejected_counts() == {"p1": {"oversized": 1, "malformed": 1}, "": {"malformed": 1}}


def test_devices_and_clocks_upsert(store: Store) -> None:
    with store.transaction():
        store.save_device("p1", {"table_id": "t1", "state": "online", "fw": "1.0", "battery": 3.9})
        store.save_device("p1", {"state": "lost", "last_seen_ms": 5})
        store.save_clock("p1", 2, 1000, 1)
        store.save_clock("p1", 2, 900, 2, up_ms=4000)
    d = store.devices()["p1"]
    assert (d["state"], d["fw"], d["battery"], d["last_seen_ms"]) == ("lost", "1.0", 3.9, 5)
    assert store.clocks() == {("p1", 2): (900, 4000)}


def test_readonly_reader(tmp_path: Path, store: Store) -> None:
    with store.transaction():
        store.append_action("t1", None, 1, 1, {})
    reader = Store(tmp_path / "luza.db", readonly=True)
    assert reader.count_inputs() == 1
    with pytest.raises(sqlite3.OperationalError):
        reader.conn.execute("INSERT INTO tables VALUES ('x', 'x', 1)")
    with pytest.raises(FileNotFoundError):
        Store(tmp_path / "missing.db", readonly=True)


CRASH = """
import os, sys
from hub.store.database import Store
s = Store(sys.argv[1])
with s.transaction():
    s.ensure_table("t1", "T", 1)
    s.append_sensor("t1", None, "mqtt", ("p1", 1, 1), 1, 1, {"committed": True})
s.conn.execute("BEGIN IMMEDIATE")
s.append_sensor("t1", None, "mqtt", ("p1", 1, 2), 1, 1, {"committed": False})
os.kill(os.getpid(), 9)  # a power cut between receipt and commit
"""


def test_kill_before_commit_keeps_exactly_the_committed_rows(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    proc = subprocess.run([sys.executable, "-c", CRASH, str(db)], timeout=30, check=False)
    assert proc.returncode == -9
    s = Store(db)
    assert [r.record for r in s.inputs()] == [{"committed": True}]
