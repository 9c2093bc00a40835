"""Clocks in the store: each node boot's clock offset (hub.ingest.clockmap) with the uptime of the sample it
came from, and the hub's timeline at its last commit (hub.ingest.timebase: the hub's time never starts below
it)."""

from __future__ import annotations

import sqlite3


class ClockRepo:
    """The `clocks` and `hub_clock` tables of one connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def save(self, device: str, boot: int, offset_ms: int, now_ms: int, up_ms: int | None = None) -> None:
        """A boot's clock offset (hub.ingest.clockmap) and the uptime of the sample it came from."""
        self.conn.execute(
            "INSERT INTO clocks(device, boot, offset_ms, updated_ms, up_ms) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT(device, boot) DO UPDATE SET offset_ms = excluded.offset_ms, updated_ms = "
            "excluded.updated_ms, up_ms = excluded.up_ms",
            (device, boot, offset_ms, now_ms, up_ms),
        )

    def all(self) -> dict[tuple[str, int], tuple[int, int | None]]:
        """{(device, boot): (offset, uptime of its sample or None)}."""
        return {
            (d, b): (o, u)
            for d, b, o, u in self.conn.execute("SELECT device, boot, offset_ms, up_ms FROM clocks")
        }

    def high_water(self) -> int:
        """The hub's timeline at its last commit (hub.ingest.timebase):
        the hub's time never starts below it."""
        row = self.conn.execute("SELECT value FROM hub_clock WHERE name = 'high_water'").fetchone()
        return int(row[0]) if row else 0

    def save_high_water(self, ms: int) -> None:
        self.conn.execute(
            "INSERT INTO hub_clock(name, value) VALUES ('high_water', ?) "
            "ON CONFLICT(name) DO UPDATE SET value = max(value, excluded.value)",
            (ms,),
        )
