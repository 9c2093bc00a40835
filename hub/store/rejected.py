"""Rejected payloads: every one counted per (device, code) in `rejected_counts`, a bounded sample of them kept
in `rejected` for inspection (a flood of bad payloads costs one counter update each, not a row)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

MAX_REJECTED_PAYLOAD = 4096  # bytes of a rejected payload kept for inspection; its full size is recorded
REJECTED_SAMPLES_PER_KIND = 10  # rejected payloads kept per (device, code); the rest are only counted
MAX_REJECTED_SAMPLES = 1000  # rows of `rejected` at most (the oldest gives way)


@dataclass(frozen=True)
class RejectedRow:
    id: int
    received_ms: int
    source: str
    topic: str | None
    device: str | None
    code: str
    reason: str
    size: int
    payload: bytes


class RejectedRepo:
    """The `rejected` and `rejected_counts` tables of one connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def reject(
        self,
        received_ms: int,
        source: str,
        topic: str | None,
        device: str | None,
        code: str,
        reason: str,
        payload: bytes,
        counted_as: str | None = None,
        size: int | None = None,
    ) -> int | None:
        """Count a rejected payload under (counted_as or device, code); keep it as a sample (returns its id)
        only while that kind has fewer than REJECTED_SAMPLES_PER_KIND, the oldest sample giving way beyond
        MAX_REJECTED_SAMPLES rows. `size`: the payload's size as received, when `payload` is already a cut
        sample of it."""
        key = (counted_as if counted_as is not None else device) or ""
        (n,) = self.conn.execute(
            "INSERT INTO rejected_counts(device, code, count, last_ms) VALUES (?, ?, 1, ?) ON "
            "CONFLICT(device, code) DO UPDATE SET count = count + 1, "
            "last_ms = excluded.last_ms RETURNING count",
            (key, code, received_ms),
        ).fetchone()
        if n > REJECTED_SAMPLES_PER_KIND:
            return None
        if self.conn.execute("SELECT count(*) FROM rejected").fetchone()[0] >= MAX_REJECTED_SAMPLES:
            self.conn.execute("DELETE FROM rejected WHERE id = (SELECT min(id) FROM rejected)")
        cur = self.conn.execute(
            "INSERT INTO rejected(received_ms, source, topic, device, code, reason, size, payload) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                received_ms,
                source,
                topic,
                device,
                code,
                reason,
                size if size is not None else len(payload),
                bytes(payload[:MAX_REJECTED_PAYLOAD]),
            ),
        )
        return cur.lastrowid

    def samples(self, device: str | None = None, limit: int = 1000) -> list[RejectedRow]:
        """The kept samples, oldest first (of one device, if given)."""
        sql = "SELECT id, received_ms, source, topic, device, code, reason, size, payload FROM rejected"
        args: list[object] = []
        if device is not None:
            sql += " WHERE device = ?"
            args.append(device)
        return [RejectedRow(*r) for r in self.conn.execute(sql + " ORDER BY id LIMIT ?", [*args, limit])]

    def counts(self) -> dict[str, dict[str, int]]:
        """{device (or "" for none): {code: count}}."""
        out: dict[str, dict[str, int]] = {}
        for dev, code, n in self.conn.execute("SELECT device, code, count FROM rejected_counts"):
            out.setdefault(dev or "", {})[code] = n
        return out
