"""The input log's rows: the append-only `inputs` table (sensor events keyed by (device, boot, seq), referee
actions), and `action_uids`, the first outcome of each referee action that carries a uid.

Sensor rows carry their natural key (device, boot, seq) under a UNIQUE constraint: appending a redelivered
event returns None instead of a second row. hub/store/inputlog.py is the live hub's one writer on top of this.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from hub.store.columns import dumps

UNREADABLE = "unreadable"  # the `type` of a stored record that cannot be parsed (see InputRepo.rows)
# an input's record as stored: hub.vocab.inputs.input_to_record's JSON (docs/hub.md, "The store"), of any
# hub version, or {"type": "unreadable", "error"}. Any because it is parsed by input_from_record, which checks
# every field, and read key by key (a suspect flag, a new match's cues, the export) by code that checks what
# it reads.
RecordJSON = dict[str, Any]


@dataclass(frozen=True)
class InputRow:
    id: int
    table_id: str
    match_id: int | None
    source: str
    device: str | None
    boot: int | None
    seq: int | None
    at_ms: int
    received_ms: int
    record: RecordJSON


class StoredRefusal(TypedDict):
    """A refused referee action's answer as `action_uids.refusal` keeps it (hub.errors.ErrorBody's fields;
    `RefereeInputError(**refusal)` raises it again)."""

    en: str
    ru: str
    field: str | None
    code: str


@dataclass(frozen=True)
class ActionUid:
    """The first outcome of a referee action with a uid: stored as `cursor` in `match_id`, or refused."""

    match_id: int | None
    cursor: int | None
    refusal: StoredRefusal | None


def _record(text: str) -> RecordJSON:
    """A stored record; one that is not a JSON object comes back as {"type": "unreadable", "error": …}."""
    try:
        rec = json.loads(text)
    except (ValueError, TypeError, RecursionError) as exc:
        return {"type": UNREADABLE, "error": f"not JSON: {exc}"}
    return rec if isinstance(rec, dict) else {"type": UNREADABLE, "error": "not a JSON object"}


class InputRepo:
    """The `inputs` and `action_uids` tables of one connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def last_id(self) -> int:
        """The id of the newest stored input (0: none yet): the hub's cursor over its input log."""
        return int(self.conn.execute("SELECT coalesce(max(id), 0) FROM inputs").fetchone()[0])

    def append_sensor(
        self,
        table_id: str,
        match_id: int | None,
        source: str,
        key: tuple[str, int, int],
        at_ms: int,
        received_ms: int,
        record: Mapping[str, object],
    ) -> int | None:
        """Append a sensor event; returns its cursor, or None if (device, boot, seq) is already stored."""
        cur = self.conn.execute(
            "INSERT INTO inputs(table_id, match_id, source, device, boot, seq, at_ms, received_ms, record) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(device, boot, seq) DO NOTHING",
            (table_id, match_id, source, key[0], key[1], key[2], at_ms, received_ms, dumps(record)),
        )
        return cur.lastrowid if cur.rowcount == 1 else None

    def append_action(
        self,
        table_id: str,
        match_id: int | None,
        at_ms: int,
        received_ms: int,
        record: Mapping[str, object],
        source: str = "referee",
    ) -> int:
        cur = self.conn.execute(
            "INSERT INTO inputs(table_id, match_id, source, at_ms, received_ms, "
            "record) VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, match_id, source, at_ms, received_ms, dumps(record)),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def action_uid(self, table_id: str, uid: str) -> ActionUid | None:
        """What a referee action with this uid got the first time on this table (None: never seen)."""
        row = self.conn.execute(
            "SELECT match_id, cursor, refusal FROM action_uids WHERE table_id = ? AND uid = ?",
            (table_id, uid),
        ).fetchone()
        if row is None:
            return None
        return ActionUid(row[0], row[1], json.loads(row[2]) if row[2] else None)

    def remember_uid(self, table_id: str, uid: str, first: ActionUid, now_ms: int) -> None:
        """Keep the first outcome of an action's uid; (table, uid) is unique, so a second one is an error."""
        self.conn.execute(
            "INSERT INTO action_uids(table_id, uid, match_id, cursor, refusal, "
            "stored_ms) VALUES (?, ?, ?, ?, ?, ?)",
            (
                table_id,
                uid,
                first.match_id,
                first.cursor,
                None if first.refusal is None else dumps(first.refusal),
                now_ms,
            ),
        )

    def has_event(self, key: tuple[str, int, int]) -> bool:
        row = self.conn.execute(
            "SELECT 1 FROM inputs WHERE device = ? AND boot = ? AND seq = ?", key
        ).fetchone()
        return row is not None

    def rows(
        self, match_id: int | None = None, after: int = 0, table_id: str | None = None
    ) -> Iterator[InputRow]:
        """Stored inputs in cursor order, optionally of one match / table and after a cursor."""
        sql = (
            "SELECT id, table_id, match_id, source, device, boot, seq, at_ms, received_ms, record FROM "
            "inputs WHERE id > ?"
        )
        args: list[object] = [after]
        if match_id is not None:
            sql += " AND match_id = ?"
            args.append(match_id)
        if table_id is not None:
            sql += " AND table_id = ?"
            args.append(table_id)
        for r in self.conn.execute(sql + " ORDER BY id", args):
            yield InputRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], _record(r[9]))

    def count(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM inputs").fetchone()[0])

    def last_boot(self, device: str) -> int | None:
        row = self.conn.execute("SELECT max(boot) FROM inputs WHERE device = ?", (device,)).fetchone()
        return row[0]
