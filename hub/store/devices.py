"""The `devices` table: the last the hub knew of each node (hub.ingest.registry keeps it live and saves a
node's row after each batch that changed it; a new hub starts from what is stored here).

`DeviceRow` is the one list of the stored fields: the SQL here and the registry's save and restore both read
it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import TypedDict, cast


class DeviceRow(TypedDict):
    """A node's row as stored (every column but `id`; any may be NULL in a row an older hub wrote)."""

    table_id: str | None
    role: str | None
    state: str | None  # online | lost | offline | error | unknown
    boot: int | None
    fw: str | None
    ip: str | None
    error: str | None
    last_seen_ms: int | None
    battery: float | None
    rssi: float | None
    outbox: int | None
    dropped: int | None
    uptime_ms: int | None
    heap: int | None
    ota: str | None  # JSON text of the node's update status (hub.ingest.registry.OtaStatus), or NULL


DEVICE_FIELDS: tuple[str, ...] = tuple(DeviceRow.__annotations__)  # the columns, in the table's order


class DeviceRepo:
    """The `devices` table of one connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def save(self, device_id: str, row: DeviceRow) -> None:
        """Insert or update a node's row (only the columns `row` has are set)."""
        fields: Mapping[str, object] = row
        cols = [k for k in DEVICE_FIELDS if k in fields]
        values = [fields[k] for k in cols]
        sets = ", ".join(f"{c} = excluded.{c}" for c in cols) or "id = excluded.id"
        self.conn.execute(
            f"INSERT INTO devices(id{''.join(', ' + c for c in cols)}) VALUES (?{', ?' * len(cols)}) "
            f"ON CONFLICT(id) DO UPDATE SET {sets}",
            [device_id, *values],
        )

    def all(self) -> dict[str, DeviceRow]:
        """{device id: its row}, by id."""
        cols = ", ".join(DEVICE_FIELDS)
        return {
            # the columns are DEVICE_FIELDS, which are DeviceRow's keys
            r[0]: cast(DeviceRow, dict(zip(DEVICE_FIELDS, r[1:], strict=True)))
            for r in self.conn.execute(f"SELECT id, {cols} FROM devices ORDER BY id")
        }
