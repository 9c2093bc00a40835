"""Match history: search the store's matches by table, variant, player, date range and status, with paging.

Read-only; used by `luza matches` and the REST route. A player matches by a case-insensitive part of either
name (Cyrillic too: SQLite's own LIKE folds ASCII only, so the store connection gets a casefold function), in
either alphabet: "ivan" finds "Иван Петров" and "Петров" finds "Ivan Petrov" (hub/translit.py's search key).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hub.errors import MALFORMED, Refusal
from hub.export import text
from hub.names import clean_name
from hub.store.database import Store
from hub.translit import search_key

STATUSES = ("live", "ended")
MAX_LIMIT = 500


@dataclass(frozen=True)
class Query:
    table: str | None = None
    variant: str | None = None
    player: str | None = None
    since_ms: int | None = None  # started at or after
    until_ms: int | None = None  # started before
    status: str | None = None  # live | ended
    limit: int = 50
    offset: int = 0


class QueryError(Refusal):
    """A search the history cannot run; `field` names the parameter at fault."""

    def __init__(self, field: str, en: str, ru: str) -> None:
        super().__init__(en, ru, field, MALFORMED)


def check(q: Query) -> None:
    """QueryError naming the field if the query cannot be run."""
    if q.status is not None and q.status not in STATUSES:
        raise QueryError("status", f"status: one of {', '.join(STATUSES)}, got {q.status!r}",
                         f"status: одно из {', '.join(STATUSES)}, получено {q.status!r}")
    if not 1 <= q.limit <= MAX_LIMIT:
        raise QueryError("limit", f"limit: 1..{MAX_LIMIT}, got {q.limit}", f"limit: от 1 до {MAX_LIMIT}, получено {q.limit}")
    if q.offset < 0:
        raise QueryError("offset", f"offset: 0 or more, got {q.offset}", f"offset: 0 или больше, получено {q.offset}")


def _fold(value: object) -> str | None:
    return value.casefold() if isinstance(value, str) else None


def _key(value: object) -> str | None:
    return search_key(value) if isinstance(value, str) else None


def search(store: Store, q: Query) -> tuple[int, list[dict[str, Any]]]:
    """(total matching, the page of matches newest first as summaries)."""
    check(q)
    store.conn.create_function("luza_fold", 1, _fold, deterministic=True)
    store.conn.create_function("luza_key", 1, _key, deterministic=True)
    where: list[str] = ["1=1"]
    args: list[object] = []
    for col, value in (("table_id", q.table), ("variant", q.variant), ("status", q.status)):
        if value is not None:
            where.append(f"{col} = ?")
            args.append(value)
    if q.since_ms is not None:
        where.append("started_ms >= ?")
        args.append(q.since_ms)
    if q.until_ms is not None:
        where.append("started_ms < ?")
        args.append(q.until_ms)
    if q.player:
        where.append("EXISTS (SELECT 1 FROM json_each(matches.players) "
                     "WHERE instr(luza_fold(value), ?) > 0 OR instr(luza_key(value), ?) > 0)")
        args += [q.player.casefold(), search_key(q.player)]
    cond = " AND ".join(where)
    total = int(store.conn.execute(f"SELECT count(*) FROM matches WHERE {cond}", args).fetchone()[0])
    rows = store.conn.execute(
        "SELECT id, table_id, variant, players, status, started_ms, ended_ms, "
        "json_extract(last_state, '$.scores'), json_extract(last_state, '$.winner'), "
        "json_extract(last_state, '$.provisional') "
        f"FROM matches WHERE {cond} ORDER BY started_ms DESC, id DESC LIMIT ? OFFSET ?", [*args, q.limit, q.offset])
    return total, [_summary(r) for r in rows]


def _summary(r: tuple[Any, ...]) -> dict[str, Any]:
    players = [clean_name(p) if isinstance(p, str) else p for p in json.loads(r[3])]
    return {"id": r[0], "table": r[1], "variant": r[2],
            "title": {"en": text.title(r[2], "en"), "ru": text.title(r[2], "ru")}, "players": players,
            "status": r[4], "started_ms": r[5], "ended_ms": r[6],
            "scores": json.loads(r[7]) if r[7] else None, "winner": r[8], "provisional": bool(r[9])}
