"""The export of one match: a JSON document built only from the match's header, its settings snapshot and its
stored inputs, by folding the inputs through a TableSession and replaying the engine log it produces.

Because the whole document is a pure function of (match, settings, inputs), `hub.export.verify` can rebuild it
from a file alone and say where the file departs from what the evidence gives (a tampered score, ball or
reason). The format is `luza-match-export`, version 2; docs/match-export.schema.json describes it, and
hub/export/document.py types its parts. The fold and the derived parts are hub/export/folding.py.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Mapping, Sequence
from typing import cast

from hub.errors import MALFORMED, Refusal
from hub.export.document import (
    Evidence,
    ExportDoc,
    MatchHeader,
    StoredInput,
    Verification,
)
from hub.export.folding import derive, fold
from hub.service.rebuild import stored_differences
from hub.service.snapshot import SettingsSnapshot, hub_version
from hub.store import gaps
from hub.store.database import Store
from hub.store.integrity import is_damage
from hub.store.matches import StoredBoardJSON
from hub.view.build import scoreboard

FORMAT = "luza-match-export"
VERSION = 2  # 2: a match is a race of frames (race, frames, engine_log luza-race, shots[].frame)
# Parts of a document that are not a function of (match, settings, inputs): left out of verification.
VOLATILE = ("generator", "exported_ms", "verification")


class ExportError(Refusal):
    """No such match, or a document that cannot be read or made; `en`/`ru` are one-line messages. `code`:
    malformed | not_found | unavailable (hub.errors)."""

    def __init__(
        self, en: str, ru: str | None = None, code: str = MALFORMED, field: str | None = None
    ) -> None:
        super().__init__(en, ru, field, code)  # code: malformed | not_found | unavailable | damaged


@dataclasses.dataclass(frozen=True)
class Source:
    """What an export is built from: the match header, its settings snapshot, and its stored inputs."""

    match: MatchHeader
    settings: SettingsSnapshot | None
    inputs: list[StoredInput]
    last_state: StoredBoardJSON | None = None  # the hub's stored board (not in the file; for the note)
    # events of the match the hub never stored (hub.store.gaps); None: unknown
    holes: list[gaps.Gap] | None = None


def load(store: Store, match_id: int) -> Source:
    """Read one match from a store; ExportError if there is none, or ("damaged") if a torn page of the
    database holds part of it (hub.store.integrity): one clear line,
    and the other matches export as before."""
    try:
        return _load(store, match_id)
    except sqlite3.DatabaseError as exc:
        if not is_damage(exc):
            raise
        raise ExportError(
            f"match {match_id} cannot be exported: part of it is on a damaged page of the database ({exc}); "
            "the other matches are not affected; restore a backup (luza restore) to get it back",
            f"партию {match_id} нельзя выгрузить: часть её записей на повреждённой странице базы ({exc}); "
            "другие партии не затронуты; чтобы вернуть её, восстановите резервную копию (luza restore)",
            "damaged",
        ) from None


def _load(store: Store, match_id: int) -> Source:
    m = store.match(match_id)
    if m is None:
        raise ExportError(
            f"no match {match_id} in {store.path}", f"партии {match_id} нет в {store.path}", "not_found"
        )
    settings = snapshot_of(m.settings)
    club = settings.get("club") if settings is not None else None
    table = settings.get("table") if settings is not None else None
    stored = store.table_name(m.table_id)
    name = (table.get("name") if table else None) or (m.table_id if stored is None else stored)
    header: MatchHeader = {
        "id": m.id,
        "table": {"id": m.table_id, "name": name},
        "club": club or None,
        "variant": m.variant,
        "players": list(m.players),
        "options": dict(m.options),
        "status": m.status,
        "started_ms": m.started_ms,
        "ended_ms": m.ended_ms,
    }
    if any(i is not None for i in m.player_ids):  # the registry's ids beside the names (hub/store/players.py)
        header["player_ids"] = list(m.player_ids)
    inputs: list[StoredInput] = [
        {
            "cursor": r.id,
            "source": r.source,
            "at_ms": r.at_ms,
            "received_ms": r.received_ms,
            "record": r.record,
        }
        for r in store.inputs(match_id=m.id)
    ]
    return Source(header, settings, inputs, m.last_state, gaps.of_match(store, m.id))


def snapshot_of(stored: Mapping[str, object] | None) -> SettingsSnapshot | None:
    """The settings snapshot as the store keeps it (hub.service.snapshot.settings_snapshot made it; None: a
    match from before snapshots; an older one may lack a member). It goes into the file as stored; the fold
    reads its `settle` and `shot_clock` through stored_settle and ShotClock.of_snapshot, which check what
    they read."""
    return None if stored is None else cast(SettingsSnapshot, stored)


def build(src: Source, exported_ms: int | None = None) -> ExportDoc:
    """The whole export document of a match."""
    folded = fold(src.match, src.settings, src.inputs)
    derived = derive(src.match, src.inputs, folded)
    diffs = None  # a file has no stored state to compare with (only an export from the store has)
    if src.last_state is not None:
        diffs = stored_differences(src.last_state, scoreboard(folded.session, folded.frames))
    verification: Verification = {
        "replayed_inputs": sum(1 for n in folded.notes.values() if n.applied),
        "matches_stored_state": None if diffs is None else not diffs,
        "differences": (diffs or [])[:20],
    }
    if src.holes is not None:
        verification["evidence"] = evidence(src.holes)
    return {
        "format": FORMAT,
        "version": VERSION,
        "generator": {"name": "luza", "version": hub_version()},
        "exported_ms": exported_ms,
        "match": src.match,
        "settings": src.settings,
        **derived,
        "verification": verification,
    }


def evidence(holes: Sequence[gaps.Gap]) -> Evidence:
    """Whether the match's evidence is complete: the holes in its nodes' seqs when
    it was exported, in words."""
    n = sum(last - first + 1 for _, _, first, last in holes)
    out: Evidence = {
        "complete": not holes,
        "missing_events": n,
        "missing": [{"device": d, "boot": b, "first": f, "last": la} for d, b, f, la in holes[:20]],
    }
    if holes:
        more = ", ..." if len(holes) > 20 else ""
        out["en"] = (
            f"evidence incomplete: {n} event(s) never reached the hub "
            f"({', '.join(gaps.describe(g) for g in holes[:20])}{more}); the result is not verified"
        )
        out["ru"] = (
            f"доказательства неполные: {n} событ. не дошло до хаба "
            f"({', '.join(gaps.describe(g, 'ru') for g in holes[:20])}{more}); итог не подтверждён"
        )
    return out
