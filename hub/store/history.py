"""The history of matches: a search of the `matches` table by table, variant, status, date range and player.

A player matches by a case-insensitive part of either name (Cyrillic too: SQLite's own LIKE folds ASCII only,
so the connection gets a casefold function), in either alphabet (hub/translit.py's search key). The query's
checks and the summaries' wording are hub.export.history's; this module runs the search.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hub.store.database import Store
from hub.translit import search_key


@dataclass(frozen=True)
class MatchFilter:
    """Which matches: each field that is not None must hold (`since_ms` inclusive, `until_ms` exclusive, on
    the start time; `player` a part of either player's name)."""

    table: str | None = None
    variant: str | None = None
    status: str | None = None
    since_ms: int | None = None
    until_ms: int | None = None
    player: str | None = None


@dataclass(frozen=True)
class MatchLine:
    """One match as the history lists it: its stored header and, from its last stored scoreboard, the scores,
    the winner and whether the result is provisional."""

    id: int
    table_id: str
    variant: str
    players: list[Any]
    status: str
    started_ms: int
    ended_ms: int | None
    scores: Any
    winner: Any
    provisional: bool


def _fold(value: object) -> str | None:
    return value.casefold() if isinstance(value, str) else None


def _key(value: object) -> str | None:
    return search_key(value) if isinstance(value, str) else None


def _where(f: MatchFilter) -> tuple[str, list[object]]:
    where: list[str] = ["1=1"]
    args: list[object] = []
    for col, value in (("table_id", f.table), ("variant", f.variant), ("status", f.status)):
        if value is not None:
            where.append(f"{col} = ?")
            args.append(value)
    if f.since_ms is not None:
        where.append("started_ms >= ?")
        args.append(f.since_ms)
    if f.until_ms is not None:
        where.append("started_ms < ?")
        args.append(f.until_ms)
    if f.player:
        where.append(
            "EXISTS (SELECT 1 FROM json_each(matches.players) "
            "WHERE instr(luza_fold(value), ?) > 0 OR instr(luza_key(value), ?) > 0)"
        )
        args += [f.player.casefold(), search_key(f.player)]
    return " AND ".join(where), args


def search(store: Store, f: MatchFilter, limit: int, offset: int) -> tuple[int, list[MatchLine]]:
    """(how many matches pass the filter, the page of them newest first)."""
    store.conn.create_function("luza_fold", 1, _fold, deterministic=True)
    store.conn.create_function("luza_key", 1, _key, deterministic=True)
    cond, args = _where(f)
    total = int(store.conn.execute(f"SELECT count(*) FROM matches WHERE {cond}", args).fetchone()[0])
    rows = store.conn.execute(
        "SELECT id, table_id, variant, players, status, started_ms, ended_ms, "
        "json_extract(last_state, '$.scores'), json_extract(last_state, '$.winner'), "
        "json_extract(last_state, '$.provisional') "
        f"FROM matches WHERE {cond} ORDER BY started_ms DESC, id DESC LIMIT ? OFFSET ?",
        [*args, limit, offset],
    )
    return total, [
        MatchLine(
            r[0],
            r[1],
            r[2],
            json.loads(r[3]),
            r[4],
            r[5],
            r[6],
            json.loads(r[7]) if r[7] else None,
            r[8],
            bool(r[9]),
        )
        for r in rows
    ]
