"""The player registry (`players`, schema v10), the players of each match (`matches.player_ids`) and the cache
of each match's statistical facts (`match_facts`).

Two ways in: functions on a connection (the hub's worker resolves a new match's player ids inside its own
transaction, `resolve`), and `Players`, a repository over one database file with a connection per call (the
web app and the CLI, with or without a running hub; the first call brings an older schema up to date, as
hub/store/pins.py does). Checking what a person typed is hub.stats.registry's;
this module keeps and reads rows.

A merge never deletes: the duplicate's row stays with `merged_into` set, every match that named it names the
player it was merged into, and an id ever stored (in an input's record, in an export) still resolves.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hub.store import migrations
from hub.translit import search_key

MAX_MERGE_DEPTH = 64  # a chain of merges longer than this is a damaged registry, not a history


@dataclass(frozen=True)
class PlayerRow:
    """One registered player (`merged_into`: the player this duplicate was merged into, else None)."""

    id: int
    name: str
    name_en: str
    nickname: str
    club: str
    photo: str | None
    created_ms: int
    merged_into: int | None = None


@dataclass(frozen=True)
class MatchPlayers:
    """A match as the statistics read it: its header and its players' ids (None: a name typed, not chosen)."""

    id: int
    variant: str
    status: str
    started_ms: int
    ended_ms: int | None
    names: tuple[str, str]
    ids: tuple[int | None, int | None]
    cursor: int  # the match's last input (0: none)


class MergeRefused(ValueError):
    """A merge the registry cannot make; `reason` is one of:
    same, unknown, merged, opponents (with `match`)."""

    def __init__(self, reason: str, player: int | None = None, match: int | None = None) -> None:
        super().__init__(reason)
        self.reason, self.player, self.match = reason, player, match


_COLS = "id, name, name_en, nickname, club, photo, created_ms, merged_into"


def _row(r: Sequence[Any]) -> PlayerRow:
    return PlayerRow(
        int(r[0]),
        str(r[1]),
        str(r[2]),
        str(r[3] or ""),
        str(r[4] or ""),
        None if r[5] is None else str(r[5]),
        int(r[6]),
        None if r[7] is None else int(r[7]),
    )


def search_text(name: str, name_en: str, nickname: str) -> str:
    """What a search looks in: the alphabet-free keys of the names and the nickname (hub.translit)."""
    return " | ".join(search_key(x) for x in (name, name_en, nickname) if x)


# ---------------------------------------------------------------- on a connection


def get(conn: sqlite3.Connection, player_id: int) -> PlayerRow | None:
    r = conn.execute(f"SELECT {_COLS} FROM players WHERE id = ?", (player_id,)).fetchone()
    return None if r is None else _row(r)


def resolve(conn: sqlite3.Connection, player_id: int) -> int | None:
    """The id a stored id stands for now (following merges); None if there is no such player."""
    seen = 0
    current: int | None = player_id
    while current is not None and seen < MAX_MERGE_DEPTH:
        r = conn.execute("SELECT merged_into FROM players WHERE id = ?", (current,)).fetchone()
        if r is None:
            return None
        if r[0] is None:
            return current
        current, seen = int(r[0]), seen + 1
    return None


def merges(conn: sqlite3.Connection) -> dict[int, int]:
    """{merged id: the id it stands for now} for every merged player."""
    pairs = {
        int(a): int(b)
        for a, b in conn.execute("SELECT id, merged_into FROM players WHERE merged_into IS NOT NULL")
    }
    out: dict[int, int] = {}
    for a in pairs:
        b, n = pairs[a], 0
        while b in pairs and n < MAX_MERGE_DEPTH:
            b, n = pairs[b], n + 1
        out[a] = b
    return out


def ids_of(text: object) -> tuple[int | None, int | None]:
    """The stored `matches.player_ids` (JSON text or NULL) as a pair; anything unreadable as (None, None)."""
    try:
        raw = json.loads(text) if isinstance(text, str) else None
        a, b = raw if isinstance(raw, list) and len(raw) == 2 else (None, None)
        return (a if isinstance(a, int) else None, b if isinstance(b, int) else None)
    except ValueError:
        return (None, None)


def match_players(conn: sqlite3.Connection, status: str | None = "ended") -> list[MatchPlayers]:
    """Every match (of `status`, None: all) with its players' ids and last input,
    in the order they started."""
    sql = (
        "SELECT m.id, m.variant, m.status, m.started_ms, m.ended_ms, m.players, m.player_ids, "
        "(SELECT coalesce(max(i.id), 0) FROM inputs i WHERE i.match_id = m.id) FROM matches m"
    )
    args: list[object] = []
    if status is not None:
        sql += " WHERE m.status = ?"
        args.append(status)
    out = []
    for r in conn.execute(sql + " ORDER BY m.started_ms, m.id", args):
        try:
            names = json.loads(r[5])
            pair = (str(names[0]), str(names[1]))
        except (ValueError, TypeError, IndexError, KeyError):
            pair = ("?", "?")
        out.append(
            MatchPlayers(int(r[0]), str(r[1]), str(r[2]), int(r[3]), r[4], pair, ids_of(r[6]), int(r[7]))
        )
    return out


def facts(conn: sqlite3.Connection, version: int) -> dict[int, tuple[int, str]]:
    """{match id: (cursor, facts JSON)} of the cached facts made by code of `version`."""
    return {
        int(m): (int(c), str(f))
        for m, c, f in conn.execute(
            "SELECT match_id, cursor, facts FROM match_facts WHERE version = ?", (version,)
        )
    }


def save_facts(conn: sqlite3.Connection, rows: Iterable[tuple[int, int, int, str]]) -> None:
    """Keep (match id, cursor, version, facts JSON) rows, replacing older ones of the same match."""
    conn.executemany(
        "INSERT INTO match_facts(match_id, cursor, version, facts) VALUES (?, ?, ?, ?) ON CONFLICT(match_id) "
        "DO UPDATE SET cursor = excluded.cursor, version = excluded.version, facts = excluded.facts",
        list(rows),
    )


# ---------------------------------------------------------------- the repository


class Players:
    """The player registry of one database file (a connection per call: any thread, any process)."""

    def __init__(self, db: str | Path) -> None:
        self.db = str(db)
        self._ready = False

    @contextlib.contextmanager
    def conn(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        """A connection to the database (in a transaction if `write`), brought up to date on first use."""
        c = sqlite3.connect(self.db, timeout=5)
        try:
            if not self._ready:
                if migrations.version(c) != migrations.LATEST:
                    migrations.migrate(c)
                self._ready = True
            c.execute("PRAGMA busy_timeout=5000")
            if write:
                c.execute("BEGIN IMMEDIATE")
                try:
                    yield c
                    c.execute("COMMIT")
                except BaseException:
                    if c.in_transaction:
                        c.execute("ROLLBACK")
                    raise
            else:
                yield c
        finally:
            c.close()

    def add(
        self, name: str, name_en: str, nickname: str, club: str, photo: str | None, now_ms: int
    ) -> PlayerRow:
        """Register a player (already checked); the new row."""
        with self.conn(write=True) as c:
            cur = c.execute(
                "INSERT INTO players(name, name_en, nickname, club, photo, search, created_ms) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (name, name_en, nickname, club, photo, search_text(name, name_en, nickname), now_ms),
            )
            row = get(c, int(cur.lastrowid or 0))
        assert row is not None
        return row

    def get(self, player_id: int) -> PlayerRow | None:
        with self.conn() as c:
            return get(c, player_id)

    def resolve(self, player_id: int) -> int | None:
        with self.conn() as c:
            return resolve(c, player_id)

    def all(self, include_merged: bool = False) -> list[PlayerRow]:
        """Every player by name (the merged duplicates too if asked)."""
        where = "" if include_merged else " WHERE merged_into IS NULL"
        with self.conn() as c:
            return [_row(r) for r in c.execute(f"SELECT {_COLS} FROM players{where} ORDER BY name, id")]

    def search(self, query: str, limit: int = 20) -> list[PlayerRow]:
        """Players (not merged) whose names or nickname hold every word of `query`, in either alphabet: "ivan"
        and "Петров" both find "Иван Петров"; those that start with the first word come first."""
        words = [search_key(w) for w in query.split() if search_key(w)]
        if not words:
            return []
        cond = " AND ".join("instr(search, ?) > 0" for _ in words)
        with self.conn() as c:
            rows = c.execute(
                f"SELECT {_COLS} FROM players WHERE merged_into IS NULL AND {cond} "
                "ORDER BY instr(' ' || search, ' ' || ?) > 0 DESC, name, id LIMIT ?",
                [*words, words[0], limit],
            )
            return [_row(r) for r in rows]

    def merge(self, duplicate: int, into: int, now_ms: int) -> int:
        """Merge `duplicate` into `into`: every match that names the duplicate names `into` (the number of
        such matches is returned); the duplicate's row stays, `merged_into` set.
        MergeRefused if it cannot be."""
        if duplicate == into:
            raise MergeRefused("same", duplicate)
        with self.conn(write=True) as c:
            for pid in (duplicate, into):
                row = get(c, pid)
                if row is None:
                    raise MergeRefused("unknown", pid)
                if row.merged_into is not None:
                    raise MergeRefused("merged", pid)
            moved = []
            for m in match_players(c, status=None):
                if duplicate in m.ids:
                    if into in m.ids:
                        raise MergeRefused("opponents", into, m.id)
                    moved.append((json.dumps([into if i == duplicate else i for i in m.ids]), m.id))
            c.executemany("UPDATE matches SET player_ids = ? WHERE id = ?", moved)
            c.execute(
                "UPDATE players SET merged_into = ?, merged_ms = ? WHERE id = ?", (into, now_ms, duplicate)
            )
            c.execute("UPDATE players SET merged_into = ? WHERE merged_into = ?", (into, duplicate))
        return len(moved)

    def matches(self, status: str | None = "ended") -> list[MatchPlayers]:
        with self.conn() as c:
            return match_players(c, status)

    def merges(self) -> dict[int, int]:
        with self.conn() as c:
            return merges(c)

    def cached_facts(self, version: int) -> dict[int, tuple[int, str]]:
        with self.conn() as c:
            return facts(c, version)

    def save_facts(self, rows: Sequence[tuple[int, int, int, str]]) -> bool:
        """Cache facts; False (nothing kept) if the database cannot be written now (read-only, busy)."""
        if not rows:
            return True
        try:
            with self.conn(write=True) as c:
                save_facts(c, rows)
        except sqlite3.OperationalError:
            return False
        return True
