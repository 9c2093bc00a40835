"""The statistics of a hub database, recomputed from its stored matches: each ended match's facts come from
its export (the inputs folded through the rules again, hub/export/model.py), kept in `match_facts` keyed by
the match's last input and the facts' version, so the next computation folds only the matches it has not seen.
Dropping the cache (`use_cache=False`) gives the same figures, only slower (tests/stats/test_figures.py).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from hub.export import build, load
from hub.export.model import ExportError
from hub.stats.facts import VERSION, MatchFacts, match_facts
from hub.stats.figures import Figures, figures
from hub.stats.shapes import LeftOut
from hub.store.database import Store
from hub.store.players import MatchPlayers, Players

log = logging.getLogger("luza.stats")
# the cached facts are checked as they are read: a row the code cannot add up (written by hand, damaged) is
# folded again from its match rather than failing every look at the figures
CACHED = TypeAdapter(MatchFacts)


@dataclass(frozen=True)
class Run:
    """What one computation did: matches folded now, taken from the cache, that could not be read."""

    folded: int
    cached: int
    unreadable: list[LeftOut]


def _dumps(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def facts_of(store: Store, match_id: int) -> MatchFacts:
    """The facts of one stored match, made now from its inputs (ExportError if it cannot be read)."""
    return match_facts(build(load(store, match_id)))


def _cached(hit: tuple[int, str] | None, cursor: int) -> MatchFacts | None:
    """The cached facts if they are of the match as it stands (same last input) and readable."""
    if hit is None or hit[0] != cursor:
        return None
    try:
        return CACHED.validate_json(hit[1])
    except ValidationError:
        return None


def _gather(
    db: str, registry: Players, rows: list[MatchPlayers], use_cache: bool
) -> tuple[list[tuple[MatchPlayers, MatchFacts]], Run]:
    cached = registry.cached_facts(VERSION) if use_cache else {}
    out: list[tuple[MatchPlayers, MatchFacts]] = []
    fresh: list[tuple[int, int, int, str]] = []
    unreadable: list[LeftOut] = []
    store: Store | None = None
    try:
        for m in rows:
            hit = _cached(cached.get(m.id), m.cursor)
            if hit is not None:
                out.append((m, hit))
                continue
            store = store or Store(db, readonly=True)
            try:
                f = facts_of(store, m.id)
            except (ExportError, sqlite3.DatabaseError) as exc:  # a damaged match: left out, the rest go on
                en, ru = (exc.en, exc.ru) if isinstance(exc, ExportError) else (str(exc), str(exc))
                unreadable.append({"match": m.id, "reason": "unreadable", "en": en, "ru": ru})
                continue
            out.append((m, f))
            fresh.append((m.id, m.cursor, VERSION, _dumps(f)))
    finally:
        if store is not None:
            store.close()
    if use_cache and fresh and not registry.save_facts(fresh):
        log.info(
            "statistics: the facts of %d match(es) could not be cached now (database busy or read-only)",
            len(fresh),
        )
    return out, Run(len(fresh), len(out) - len(fresh), unreadable)


def compute(db: str | Path, use_cache: bool = True) -> tuple[Figures, Run]:
    """Every registered player's figures from the ended matches of the database at `db`."""
    registry = Players(db)
    rows = registry.matches("ended")
    matches, run = _gather(str(db), registry, rows, use_cache)
    fig = figures(matches, registry.all(include_merged=True), registry.merges())
    return Figures(fig.players, fig.pairs, [*run.unreadable, *fig.left_out], fig.counted), run
