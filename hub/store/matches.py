"""The tables and matches of the store: a table's name, a match's row (variant, players, options, the
settings in force, the last committed state) from `new_match` to its end, and the matches set aside
(quarantined) because part of them cannot be read.

A match's JSON columns come back as stored, each read by the code that wrote it, which checks what it reads:
the variant checks its options; the readers of a settings snapshot (of any version) check each field; the
stored state is compared key by key with a fresh fold.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hub.names import clean_name
from hub.store import players as players_of_registry
from hub.store.columns import dumps
from hub.store.players import ids_of as players_of

# the stored form of a match view (hub.view.build `stored`, `scoreboard`): SessionView's JSON, the
# session's own questions without their screen labels, kept in the matches' `last_state` column. Any because
# `luza replay`, the exports and hub.service.rebuild.stored_differences read and compare it key by key as
# JSON against a fresh fold, and `luza replay --json` prints it as it is (its shape: SessionView's fields in
# docs/table-view.schema.json).
StoredBoardJSON = dict[str, Any]


@dataclass(frozen=True)
class MatchRow:
    id: int
    table_id: str
    variant: str
    players: tuple[str, str]
    options: Mapping[str, object]  # the variant's options as stored (the variant checks them)
    status: str
    started_ms: int
    ended_ms: int | None
    last_state: StoredBoardJSON | None
    # hub.service.snapshot's SettingsSnapshot as stored (the store sits below hub.service, so it cannot name
    # it): read-only JSON of any hub version, whose readers check each field (None: stored before v2)
    settings: Mapping[str, object] | None = None
    damaged: str | None = None  # why the match row itself cannot be read (it is then quarantined)
    player_ids: tuple[int | None, int | None] = (None, None)  # registry ids (hub/store/players.py), v10


_MATCH_COLS = (
    "id, table_id, variant, players, options, status, started_ms, ended_ms, last_state, settings, player_ids"
)


def _match(row: tuple[Any, ...]) -> MatchRow:
    """A `matches` row (_MATCH_COLS); one that cannot be read comes back `damaged`, with why."""
    try:
        players = json.loads(row[3])
        # stored before hub.names existed
        names = (clean_name(str(players[0])), clean_name(str(players[1])))
        return MatchRow(
            row[0],
            row[1],
            row[2],
            names,
            dict(json.loads(row[4])),
            row[5],
            row[6],
            row[7],
            json.loads(row[8]) if row[8] else None,
            json.loads(row[9]) if row[9] else None,
            player_ids=players_of(row[10]),
        )
    # one damaged row must not stop the others
    except (ValueError, TypeError, IndexError, KeyError) as exc:
        return MatchRow(
            row[0],
            row[1],
            str(row[2]),
            ("?", "?"),
            {},
            row[5],
            row[6],
            row[7],
            None,
            None,
            f"match row {row[0]} cannot be read: {exc}",
        )


class MatchRepo:
    """The `tables`, `matches` and `quarantine` tables of one connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def ensure_table(self, table_id: str, name: str, now_ms: int) -> None:
        self.conn.execute(
            "INSERT INTO tables(id, name, created_ms) VALUES (?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET name = excluded.name",
            (table_id, name, now_ms),
        )

    def table_name(self, table_id: str) -> str | None:
        """The name a table was stored under (None: no such table)."""
        row = self.conn.execute("SELECT name FROM tables WHERE id = ?", (table_id,)).fetchone()
        return str(row[0]) if row else None

    def new(
        self,
        table_id: str,
        variant: str,
        players: Sequence[str],
        options: Mapping[str, object],
        started_ms: int,
        settings: Mapping[str, object] | None = None,
        player_ids: Sequence[int | None] | None = None,
    ) -> int:
        """A new live match; its id."""
        ids = None if player_ids is None or not any(player_ids) else json.dumps(list(player_ids))
        cur = self.conn.execute(
            "INSERT INTO matches(table_id, variant, players, options, status, started_ms, settings, "
            "player_ids) VALUES (?, ?, ?, ?, 'live', ?, ?, ?)",
            (
                table_id,
                variant,
                dumps(list(players)),
                dumps(dict(options)),
                started_ms,
                None if settings is None else dumps(dict(settings)),
                ids,
            ),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def resolve_player(self, player_id: int) -> int | None:
        """The registered player a stored id stands for now (following merges); None: no such player."""
        return players_of_registry.resolve(self.conn, player_id)

    def end(self, match_id: int, ended_ms: int) -> None:
        self.conn.execute(
            "UPDATE matches SET status = 'ended', ended_ms = ? WHERE id = ?", (ended_ms, match_id)
        )

    def save_state(self, match_id: int, state: Mapping[str, object]) -> None:
        self.conn.execute("UPDATE matches SET last_state = ? WHERE id = ?", (dumps(state), match_id))

    def get(self, match_id: int) -> MatchRow | None:
        row = self.conn.execute(f"SELECT {_MATCH_COLS} FROM matches WHERE id = ?", (match_id,)).fetchone()
        return _match(row) if row else None

    def all(self, table_id: str | None = None, live_only: bool = False) -> list[MatchRow]:
        sql = f"SELECT {_MATCH_COLS} FROM matches WHERE 1=1"
        args: list[object] = []
        if table_id is not None:
            sql += " AND table_id = ?"
            args.append(table_id)
        if live_only:
            sql += " AND status = 'live'"
        return [_match(r) for r in self.conn.execute(sql + " ORDER BY id", args)]

    def quarantine(self, match: MatchRow, cursor: int | None, reason: str, now_ms: int) -> None:
        """Set a match aside: ended (its table may start a new one) and listed with why (in the open
        transaction, or in one of its own)."""
        own = not self.conn.in_transaction
        if own:
            self.conn.execute("BEGIN IMMEDIATE")
        try:
            self.conn.execute(
                "UPDATE matches SET status = 'ended', ended_ms = coalesce(ended_ms, ?) WHERE id = ?",
                (now_ms, match.id),
            )
            self.conn.execute(
                "INSERT INTO quarantine(match_id, table_id, cursor, reason, at_ms) VALUES "
                "(?, ?, ?, ?, ?) ON CONFLICT(match_id) DO NOTHING",
                (match.id, match.table_id, cursor, reason[:500], now_ms),
            )
        except BaseException:
            if own:
                self.conn.execute("ROLLBACK")
            raise
        if own:
            self.conn.execute("COMMIT")

    def quarantined(self) -> dict[int, tuple[str, int | None, str, int]]:
        """{match id: (table, first unreadable cursor, reason, when)} of the matches set aside."""
        return {
            m: (t, c, r, a)
            for m, t, c, r, a in self.conn.execute(
                "SELECT match_id, table_id, cursor, reason, at_ms FROM quarantine"
            )
        }
