"""The hub's SQLite store (WAL): the append-only input log, matches, tables, devices,
rejected payloads, clocks.

One `Store` belongs to one writer thread (the hub's worker); it groups many appends into one transaction with
`transaction()` so one fsync covers a batch ("group commit"), and the caller acknowledges the inputs only
after that block has returned. Readers (CLI, web layer) open their own `Store(..., readonly=True)`.

Sensor rows carry their natural key (device, boot, seq) under a UNIQUE constraint: appending a redelivered
event returns None instead of a second row.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hub.errors import SchemaError
from hub.names import clean_name
from hub.store import migrations
from hub.store import players as players_of_registry
from hub.store.players import ids_of as players_of

MAX_REJECTED_PAYLOAD = 4096  # bytes of a rejected payload kept for inspection; its full size is recorded
REJECTED_SAMPLES_PER_KIND = 10  # rejected payloads kept per (device, code); the rest are only counted
MAX_REJECTED_SAMPLES = 1000  # rows of `rejected` at most (the oldest gives way)


@dataclass(frozen=True)
class MatchRow:
    id: int
    table_id: str
    variant: str
    players: tuple[str, str]
    options: dict[str, Any]
    status: str
    started_ms: int
    ended_ms: int | None
    last_state: dict[str, Any] | None
    # hub.service.snapshot at new_match (None for matches stored before v2)
    settings: dict[str, Any] | None = None
    damaged: str | None = None  # why the match row itself cannot be read (it is then quarantined)
    player_ids: tuple[int | None, int | None] = (None, None)  # registry ids (hub/store/players.py), v10


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
    record: dict[str, Any]


@dataclass(frozen=True)
class RejectedRow:
    id: int
    received_ms: int
    source: str
    topic: str | None
    device: str | None
    code: str
    reason: str
    size: int
    payload: bytes


@dataclass(frozen=True)
class ActionUid:
    """The first outcome of a referee action with a uid: stored as `cursor` in `match_id`, or refused."""

    match_id: int | None
    cursor: int | None
    refusal: dict[str, Any] | None


DEVICE_FIELDS = (
    "table_id",
    "role",
    "state",
    "boot",
    "fw",
    "ip",
    "error",
    "last_seen_ms",
    "battery",
    "rssi",
    "outbox",
    "dropped",
    "uptime_ms",
    "heap",
    "ota",
)  # ota: JSON text (hub.ingest.registry)


UNREADABLE = "unreadable"  # the `type` of a stored record that cannot be parsed (see Store.inputs)


def _record(text: str) -> dict[str, Any]:
    """A stored record; one that is not a JSON object comes back as {"type": "unreadable", "error": …}."""
    try:
        rec = json.loads(text)
    except (ValueError, TypeError, RecursionError) as exc:
        return {"type": UNREADABLE, "error": f"not JSON: {exc}"}
    return rec if isinstance(rec, dict) else {"type": UNREADABLE, "error": "not a JSON object"}


def _dumps(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


class Store:
    """The database of one hub. Not thread-safe: one thread writes, as the hub's worker does."""

    def __init__(self, path: str | Path, synchronous: str = "full", readonly: bool = False) -> None:
        self.path = str(path)
        if readonly:
            if not Path(self.path).exists():
                raise FileNotFoundError(f"no database at {self.path!r}")
            uri = Path(self.path).resolve().as_uri() + "?mode=ro"
            self.conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        else:
            self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute(f"PRAGMA synchronous={'FULL' if synchronous == 'full' else 'NORMAL'}")
            migrations.migrate(self.conn)
        self.conn.execute("PRAGMA foreign_keys=ON")
        self.conn.execute("PRAGMA busy_timeout=5000")
        if readonly and migrations.version(self.conn) != migrations.LATEST:
            raise SchemaError(
                f"{self.path!r} has schema v{migrations.version(self.conn)}, this hub reads "
                f"v{migrations.LATEST}; start `luza serve` on it once to migrate"
            )

    def close(self) -> None:
        self.conn.close()

    # ------------------------------------------------------------ transactions

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One atomic, durable batch: everything inside commits together (one fsync) or not at all."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:  # a failed COMMIT (disk full, I/O) may leave it open
                self.conn.execute("ROLLBACK")
            raise

    # ------------------------------------------------------------ tables and matches

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

    def last_input_id(self) -> int:
        """The id of the newest stored input (0: none yet): the hub's cursor over its input log."""
        return int(self.conn.execute("SELECT coalesce(max(id), 0) FROM inputs").fetchone()[0])

    def new_match(
        self,
        table_id: str,
        variant: str,
        players: Sequence[str],
        options: Mapping[str, Any],
        started_ms: int,
        settings: Mapping[str, Any] | None = None,
        player_ids: Sequence[int | None] | None = None,
    ) -> int:
        ids = None if player_ids is None or not any(player_ids) else json.dumps(list(player_ids))
        cur = self.conn.execute(
            "INSERT INTO matches(table_id, variant, players, options, status, started_ms, settings, "
            "player_ids) VALUES (?, ?, ?, ?, 'live', ?, ?, ?)",
            (
                table_id,
                variant,
                _dumps(list(players)),
                _dumps(dict(options)),
                started_ms,
                None if settings is None else _dumps(dict(settings)),
                ids,
            ),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def resolve_player(self, player_id: int) -> int | None:
        """The registered player a stored id stands for now (following merges); None: no such player."""
        return players_of_registry.resolve(self.conn, player_id)

    def end_match(self, match_id: int, ended_ms: int) -> None:
        self.conn.execute(
            "UPDATE matches SET status = 'ended', ended_ms = ? WHERE id = ?", (ended_ms, match_id)
        )

    def save_state(self, match_id: int, state: Mapping[str, Any]) -> None:
        self.conn.execute("UPDATE matches SET last_state = ? WHERE id = ?", (_dumps(state), match_id))

    def _match(self, row: tuple[Any, ...]) -> MatchRow:
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

    _MATCH_COLS = (
        "id, table_id, variant, players, options, status, started_ms, ended_ms, last_state, settings, "
        "player_ids"
    )

    def match(self, match_id: int) -> MatchRow | None:
        row = self.conn.execute(
            f"SELECT {self._MATCH_COLS} FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
        return self._match(row) if row else None

    def matches(self, table_id: str | None = None, live_only: bool = False) -> list[MatchRow]:
        sql = f"SELECT {self._MATCH_COLS} FROM matches WHERE 1=1"
        args: list[object] = []
        if table_id is not None:
            sql += " AND table_id = ?"
            args.append(table_id)
        if live_only:
            sql += " AND status = 'live'"
        return [self._match(r) for r in self.conn.execute(sql + " ORDER BY id", args)]

    # ------------------------------------------------------------ the input log

    def append_sensor(
        self,
        table_id: str,
        match_id: int | None,
        source: str,
        key: tuple[str, int, int],
        at_ms: int,
        received_ms: int,
        record: Mapping[str, Any],
    ) -> int | None:
        """Append a sensor event; returns its cursor, or None if (device, boot, seq) is already stored."""
        cur = self.conn.execute(
            "INSERT INTO inputs(table_id, match_id, source, device, boot, seq, at_ms, received_ms, record) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(device, boot, seq) DO NOTHING",
            (table_id, match_id, source, key[0], key[1], key[2], at_ms, received_ms, _dumps(record)),
        )
        return cur.lastrowid if cur.rowcount == 1 else None

    def append_action(
        self,
        table_id: str,
        match_id: int | None,
        at_ms: int,
        received_ms: int,
        record: Mapping[str, Any],
        source: str = "referee",
    ) -> int:
        cur = self.conn.execute(
            "INSERT INTO inputs(table_id, match_id, source, at_ms, received_ms, "
            "record) VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, match_id, source, at_ms, received_ms, _dumps(record)),
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
                None if first.refusal is None else _dumps(first.refusal),
                now_ms,
            ),
        )

    def has_event(self, key: tuple[str, int, int]) -> bool:
        row = self.conn.execute(
            "SELECT 1 FROM inputs WHERE device = ? AND boot = ? AND seq = ?", key
        ).fetchone()
        return row is not None

    def inputs(
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

    def quarantine_match(self, match: MatchRow, cursor: int | None, reason: str, now_ms: int) -> None:
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

    def count_inputs(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM inputs").fetchone()[0])

    def last_boot(self, device: str) -> int | None:
        row = self.conn.execute("SELECT max(boot) FROM inputs WHERE device = ?", (device,)).fetchone()
        return row[0]

    # ------------------------------------------------------------ rejected payloads

    def reject(
        self,
        received_ms: int,
        source: str,
        topic: str | None,
        device: str | None,
        code: str,
        reason: str,
        payload: bytes,
        counted_as: str | None = None,
        size: int | None = None,
    ) -> int | None:
        """Count a rejected payload under (counted_as or device, code); keep it as a sample (returns its id)
        only while that kind has fewer than REJECTED_SAMPLES_PER_KIND, the oldest sample giving way beyond
        MAX_REJECTED_SAMPLES rows. A flood of bad payloads costs one counter update each, not a row. `size`:
        the payload's size as received, when `payload` is already a cut sample of it."""
        key = (counted_as if counted_as is not None else device) or ""
        (n,) = self.conn.execute(
            "INSERT INTO rejected_counts(device, code, count, last_ms) VALUES (?, ?, 1, ?) ON "
            "CONFLICT(device, code) DO UPDATE SET count = count + 1, "
            "last_ms = excluded.last_ms RETURNING count",
            (key, code, received_ms),
        ).fetchone()
        if n > REJECTED_SAMPLES_PER_KIND:
            return None
        if self.conn.execute("SELECT count(*) FROM rejected").fetchone()[0] >= MAX_REJECTED_SAMPLES:
            self.conn.execute("DELETE FROM rejected WHERE id = (SELECT min(id) FROM rejected)")
        cur = self.conn.execute(
            "INSERT INTO rejected(received_ms, source, topic, device, code, reason, size, payload) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                received_ms,
                source,
                topic,
                device,
                code,
                reason,
                size if size is not None else len(payload),
                bytes(payload[:MAX_REJECTED_PAYLOAD]),
            ),
        )
        return cur.lastrowid

    def rejected(self, device: str | None = None, limit: int = 1000) -> list[RejectedRow]:
        sql = "SELECT id, received_ms, source, topic, device, code, reason, size, payload FROM rejected"
        args: list[object] = []
        if device is not None:
            sql += " WHERE device = ?"
            args.append(device)
        return [RejectedRow(*r) for r in self.conn.execute(sql + " ORDER BY id LIMIT ?", [*args, limit])]

    def rejected_counts(self) -> dict[str, dict[str, int]]:
        """{device (or "" for none): {code: count}}."""
        out: dict[str, dict[str, int]] = {}
        for dev, code, n in self.conn.execute("SELECT device, code, count FROM rejected_counts"):
            out.setdefault(dev or "", {})[code] = n
        return out

    # ------------------------------------------------------------ devices and clocks

    def save_device(self, device_id: str, fields: Mapping[str, Any]) -> None:
        cols = [k for k in DEVICE_FIELDS if k in fields]
        values = [fields[k] for k in cols]
        sets = ", ".join(f"{c} = excluded.{c}" for c in cols) or "id = excluded.id"
        self.conn.execute(
            f"INSERT INTO devices(id{''.join(', ' + c for c in cols)}) VALUES (?{', ?' * len(cols)}) "
            f"ON CONFLICT(id) DO UPDATE SET {sets}",
            [device_id, *values],
        )

    def devices(self) -> dict[str, dict[str, Any]]:
        cols = ", ".join(DEVICE_FIELDS)
        return {
            r[0]: dict(zip(DEVICE_FIELDS, r[1:], strict=True))
            for r in self.conn.execute(f"SELECT id, {cols} FROM devices ORDER BY id")
        }

    def save_clock(
        self, device: str, boot: int, offset_ms: int, now_ms: int, up_ms: int | None = None
    ) -> None:
        """A boot's clock offset (hub.ingest.clockmap) and the uptime of the sample it came from."""
        self.conn.execute(
            "INSERT INTO clocks(device, boot, offset_ms, updated_ms, up_ms) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT(device, boot) DO UPDATE SET offset_ms = excluded.offset_ms, updated_ms = "
            "excluded.updated_ms, up_ms = excluded.up_ms",
            (device, boot, offset_ms, now_ms, up_ms),
        )

    def clocks(self) -> dict[tuple[str, int], tuple[int, int | None]]:
        """{(device, boot): (offset, uptime of its sample or None)}."""
        return {
            (d, b): (o, u)
            for d, b, o, u in self.conn.execute("SELECT device, boot, offset_ms, up_ms FROM clocks")
        }

    def high_water(self) -> int:
        """The hub's timeline at its last commit (hub.ingest.timebase):
        the hub's time never starts below it."""
        row = self.conn.execute("SELECT value FROM hub_clock WHERE name = 'high_water'").fetchone()
        return int(row[0]) if row else 0

    def save_high_water(self, ms: int) -> None:
        self.conn.execute(
            "INSERT INTO hub_clock(name, value) VALUES ('high_water', ?) "
            "ON CONFLICT(name) DO UPDATE SET value = max(value, excluded.value)",
            (ms,),
        )
