"""The `pins` and `referee_devices` tables (schema v7): per-table PIN hashes and the devices signed in under
them.

A repository over one database file, with a connection per call (any thread, any process: `luza pin set` works
with or without a running hub). The first call brings a database of an older schema up to date. Hashing, the
PIN's format and the lockouts are hub.web.auth's; this module only keeps and reads rows.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from hub.store import migrations


@dataclass(frozen=True)
class PinRow:
    """A stored PIN: its scrypt salt, hash and parameters, and when it was set (ms)."""

    salt: bytes
    hash: bytes
    n: int
    r: int
    p: int
    set_ms: int


class Pins:
    """The PINs and established devices of one database file."""

    def __init__(self, db: str | Path) -> None:
        self.db = str(db)
        self._ready = False

    @contextlib.contextmanager
    def _conn(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        conn = sqlite3.connect(self.db, timeout=5)
        try:
            if (
                not self._ready
            ):  # once per repository: a database of an older schema gets `pins` (v7) and the rest
                if migrations.version(conn) != migrations.LATEST:
                    migrations.migrate(conn)
                self._ready = True
            if write:
                with conn:
                    yield conn
            else:
                yield conn
        finally:
            conn.close()

    def set(self, table: str, row: PinRow) -> None:
        """Keep `row` as the table's PIN (replacing any before it)."""
        with self._conn(write=True) as conn:
            conn.execute(
                "INSERT INTO pins(table_id, salt, hash, n, r, p, set_ms) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(table_id) DO UPDATE SET salt = excluded.salt, hash = excluded.hash, "
                "n = excluded.n, r = excluded.r, p = excluded.p, set_ms = excluded.set_ms",
                (table, row.salt, row.hash, row.n, row.r, row.p, row.set_ms),
            )

    def get(self, table: str) -> PinRow | None:
        """The table's PIN (None: none is set)."""
        with self._conn() as conn:
            row = conn.execute(
                "SELECT salt, hash, n, r, p, set_ms FROM pins WHERE table_id = ?", (table,)
            ).fetchone()
        return None if row is None else PinRow(*row)

    def remember_device(self, table: str, device_hash: str, now_ms: int, keep: int) -> None:
        """A device signed in under the table's current PIN (the `keep` most recently used are kept)."""
        with self._conn(write=True) as conn:
            conn.execute(
                "INSERT INTO referee_devices(table_id, device, pin_set_ms, created_ms, last_ms) "
                "SELECT ?, ?, set_ms, ?, ? FROM pins WHERE table_id = ? ON CONFLICT(table_id, device) "
                "DO UPDATE SET pin_set_ms = excluded.pin_set_ms, last_ms = excluded.last_ms",
                (table, device_hash, now_ms, now_ms, table),
            )
            conn.execute(
                "DELETE FROM referee_devices WHERE table_id = ? AND device NOT IN (SELECT device FROM "
                "referee_devices WHERE table_id = ? ORDER BY last_ms DESC LIMIT ?)",
                (table, table, keep),
            )

    def is_device(self, table: str, device_hash: str) -> bool:
        """Did this device sign in to `table` under its current PIN?"""
        with self._conn() as conn:
            row = conn.execute(
                "SELECT 1 FROM referee_devices d JOIN pins p ON p.table_id = d.table_id "
                "AND p.set_ms = d.pin_set_ms WHERE d.table_id = ? AND d.device = ?",
                (table, device_hash),
            ).fetchone()
        return row is not None

    def forget_device(self, table: str, device_hash: str) -> None:
        with self._conn(write=True) as conn:
            conn.execute(
                "DELETE FROM referee_devices WHERE table_id = ? AND device = ?", (table, device_hash)
            )
