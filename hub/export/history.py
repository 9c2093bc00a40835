"""Match history: search the store's matches by table, variant, player, date range and status, with paging.

Read-only; used by `luza matches` and the REST route. A player matches by a case-insensitive part of either
name, in either alphabet: "ivan" finds "Иван Петров" and "Петров" finds "Ivan Petrov" (the search itself is
hub/store/history.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from hub.errors import MALFORMED, Refusal
from hub.export import text
from hub.names import clean_name
from hub.store import history
from hub.store.database import Store

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
        raise QueryError(
            "status",
            f"status: one of {', '.join(STATUSES)}, got {q.status!r}",
            f"status: одно из {', '.join(STATUSES)}, получено {q.status!r}",
        )
    if not 1 <= q.limit <= MAX_LIMIT:
        raise QueryError(
            "limit",
            f"limit: 1..{MAX_LIMIT}, got {q.limit}",
            f"limit: от 1 до {MAX_LIMIT}, получено {q.limit}",
        )
    if q.offset < 0:
        raise QueryError(
            "offset", f"offset: 0 or more, got {q.offset}", f"offset: 0 или больше, получено {q.offset}"
        )


class Title(TypedDict):
    en: str
    ru: str


class MatchSummary(TypedDict):
    """One match of GET /api/matches (docs/web-api.md): its header, and from its last stored scoreboard the
    scores, the winner and whether the result is provisional."""

    id: int
    table: str
    variant: str
    title: Title
    players: list[str]
    status: str
    started_ms: int
    ended_ms: int | None
    scores: list[int] | None  # from the last stored scoreboard (None: no input committed yet)
    winner: int | None
    provisional: bool


def search(store: Store, q: Query) -> tuple[int, list[MatchSummary]]:
    """(total matching, the page of matches newest first as summaries)."""
    check(q)
    found = history.MatchFilter(q.table, q.variant, q.status, q.since_ms, q.until_ms, q.player)
    total, lines = history.search(store, found, q.limit, q.offset)
    return total, [_summary(m) for m in lines]


def _summary(m: history.MatchLine) -> MatchSummary:
    players = [clean_name(p) if isinstance(p, str) else p for p in m.players]
    return {
        "id": m.id,
        "table": m.table_id,
        "variant": m.variant,
        "title": {"en": text.title(m.variant, "en"), "ru": text.title(m.variant, "ru")},
        "players": players,
        "status": m.status,
        "started_ms": m.started_ms,
        "ended_ms": m.ended_ms,
        "scores": m.scores,
        "winner": m.winner,
        "provisional": m.provisional,
    }
