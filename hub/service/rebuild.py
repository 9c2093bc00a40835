"""Re-deriving a match from its stored log: the hub's start-up rebuild and `luza replay` share this code.

A match is the fold of its inputs, in cursor order, through a new TableSession. `new_match`
rows are the service's routing (it opens the match row), not inputs of the session; `end_match` is both.
"""

from __future__ import annotations

import dataclasses
import logging
import sqlite3
from collections.abc import Mapping
from typing import Any

from hub.config import ShotTiming
from hub.ingest.timecheck import suspect_of
from hub.reconcile.table import TableSession, strict
from hub.service.snapshot import stored_settle
from hub.store.database import UNREADABLE, MatchRow, Store
from hub.store.integrity import is_damage
from hub.vocab.action_types import MatchControl
from hub.vocab.checks import RefereeInputError
from hub.vocab.inputs import RecordError, RefereeAction, input_from_record

log = logging.getLogger("luza.rebuild")



def timing(settle: Mapping[str, float]) -> ShotTiming:
    """The config's [settle] times as a ShotTiming (unknown names were refused by hub.config)."""
    names = {f.name for f in dataclasses.fields(ShotTiming)}
    return ShotTiming(**{k: v for k, v in settle.items() if k in names})  # type: ignore[arg-type]


@dataclasses.dataclass
class Replay:
    session: TableSession
    inputs: int = 0
    refused: list[tuple[int, str]] = dataclasses.field(default_factory=list)  # (cursor, why) not applied
    unreadable: list[tuple[int, str]] = dataclasses.field(default_factory=list)  # (cursor, why) rows not JSON
    suspect: list[tuple[int, str]] = dataclasses.field(default_factory=list)  # (cursor, code): impossible time


class UnreadableMatch(ValueError):
    """A stored row of this match cannot be read: the hub sets the match aside (quarantine), the table goes on."""

    def __init__(self, match: MatchRow, cursor: int | None, reason: str) -> None:
        super().__init__(reason)
        self.match, self.cursor, self.reason = match, cursor, reason


def replay_match(store: Store, match: MatchRow, settle: Mapping[str, float]) -> Replay:
    """Fold a match's stored inputs into a new session; inputs that cannot be applied are listed, not fatal.

    The settle times stored with the match (hub.service.snapshot) win over `settle` (today's config), which is used
    only for matches stored before snapshots existed."""
    settle = stored_settle(match.settings) or settle
    session = TableSession(match.table_id, match.variant, match.players, match.options, timing(settle),
                           match_id=match.id)
    out = Replay(session)
    rows: list[int] = []
    for row in store.inputs(match_id=match.id):
        if row.record.get("type") == UNREADABLE:
            out.unreadable.append((row.id, str(row.record.get("error"))))
        try:
            inp = input_from_record(row.record)
        except RecordError as exc:
            out.refused.append((row.id, f"unreadable record: {exc}"))
            continue
        if isinstance(inp, RefereeAction) and isinstance(inp.action, MatchControl) and inp.action.routed:
            continue
        if (code := suspect_of(row.record)) is not None:  # stored, never folded into play (hub.ingest.timecheck)
            out.suspect.append((row.id, code))
            continue
        out.inputs += 1
        try:
            session.apply(inp)
        except RefereeInputError as exc:
            out.refused.append((row.id, exc.en))
        except Exception as exc:  # a bug the session could not hold itself: listed and logged (raised if strict)
            if strict():
                raise
            log.exception("match %d: input %d failed in the session", match.id, row.id)
            out.refused.append((row.id, f"session error: {exc!r}"))
            session.errors += 1
        finally:
            if len(rows) < len(session.log):
                rows.append(row.id)  # the session's log index -> the stored row
    for index, (shot, why) in sorted(session.faults.items()):  # held with an alert in the session itself
        out.refused.append((rows[index], f"internal error at shot {shot} (scoring held there): {why}"))
    for cursor, why in out.refused:
        log.warning("match %d: stored input %d not applied on replay: %s", match.id, cursor, why)
    return out


def rebuild_session(store: Store, match: MatchRow, settle: Mapping[str, float]) -> TableSession:
    """The live session of a stored match; UnreadableMatch if the match row or one of its inputs is damaged."""
    if match.damaged:
        raise UnreadableMatch(match, None, match.damaged)
    try:
        replay = replay_match(store, match, settle)
    except sqlite3.DatabaseError as exc:  # a torn page under its rows (hub.store.integrity)
        if not is_damage(exc):
            raise
        raise UnreadableMatch(match, None, f"its stored inputs are on a damaged page of the database ({exc})") from None
    if replay.unreadable:
        cursor, why = replay.unreadable[0]
        raise UnreadableMatch(match, cursor, f"stored input {cursor} cannot be read ({why})")
    return replay.session


HEALTH_ALERTS = ("node_offline",)  # alerts about the appliance (device status), not derived from the log


def comparable(board: Mapping[str, Any] | None) -> Any:
    """A scoreboard without what the log cannot re-derive: node-offline alerts come from device status
    messages, which are not match inputs, so a replay cannot (and need not) reproduce them."""
    if not isinstance(board, Mapping):
        return board
    out = dict(board)
    if isinstance(out.get("alerts"), list):
        out["alerts"] = [a for a in out["alerts"]
                         if not (isinstance(a, Mapping) and a.get("kind") in HEALTH_ALERTS)]
    return out


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, as readable paths (for `luza replay` to report)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        out: list[str] = []
        for k in sorted(set(a) | set(b), key=str):
            out += differences(a.get(k), b.get(k), f"{path}.{k}" if path else str(k))
        return out
    if isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += differences(x, y, f"{path}[{i}]")
        return out
    return [] if a == b else [f"{path or '(root)'}: {a!r} != {b!r}"]
