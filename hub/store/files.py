"""The database as a file: what a copy of it holds, a consistent copy of a live one, and the latest time in
it.

These read (or copy) a database file that is not the hub's open `Store`: a backup being checked, the live
database being backed up from a read-only connection while the hub writes, an earlier `luza demo` run's
database. The checks and their wording are the callers' (hub.deploy.backup, hub.demo.terminal); the SQL is
here.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FileSummary:
    """What a database file holds: SQLite's integrity verdict ('ok' or the first problem), its tables, its
    schema version, and its matches and inputs (None when it has no such table). A file that fails the
    integrity check says only that (no tables, schema 0)."""

    integrity: str
    tables: frozenset[str]
    schema: int
    matches: int | None
    inputs: int | None


def summary(path: Path) -> FileSummary:
    """Open `path` read-only and say what it holds (sqlite3.DatabaseError if it is not a database); the rest
    is read only when the integrity check passed."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        ok = str(db.execute("PRAGMA integrity_check").fetchone()[0])
        if ok != "ok":
            return FileSummary(ok, frozenset(), 0, None, None)
        names = frozenset(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
        schema = int(db.execute("PRAGMA user_version").fetchone()[0])
        matches = db.execute("SELECT count(*) FROM matches").fetchone()[0] if "matches" in names else None
        inputs = db.execute("SELECT count(*) FROM inputs").fetchone()[0] if "inputs" in names else None
        return FileSummary(ok, names, schema, matches, inputs)


def snapshot(db: Path, target: Path) -> None:
    """Copy the live database `db` into `target` with SQLite's backup API from a read-only connection: all
    pages in one step (one read transaction, one consistent snapshot while the hub keeps writing), the copy
    switched to a single file (journal_mode DELETE)."""
    with (
        contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")


def latest_ms(db: Path) -> int:
    """The latest time a database file kept (an input's event or receipt time, a match's start or end, the
    hub's timeline high-water mark of schema v8); 0 for a file that is missing, unreadable or holds none."""
    last = 0
    if not db.exists():
        return last
    with contextlib.closing(sqlite3.connect(db, timeout=5)) as conn, contextlib.suppress(sqlite3.Error):
        last = (
            max(
                conn.execute("SELECT max(at_ms), max(received_ms) FROM inputs").fetchone()
                + conn.execute("SELECT max(started_ms), max(ended_ms) FROM matches").fetchone(),
                key=lambda v: v or 0,
            )
            or 0
        )
    with contextlib.closing(sqlite3.connect(db, timeout=5)) as conn, contextlib.suppress(sqlite3.Error):
        row = conn.execute("SELECT value FROM hub_clock WHERE name = 'high_water'").fetchone()
        last = max(last, int(row[0]) if row else 0)
    return last
