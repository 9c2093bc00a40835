"""The hub's SQLite store (WAL): one connection, its transactions, and the repositories of its aggregates.

One `Store` belongs to one writer thread (the hub's worker); it groups many appends into one transaction with
`transaction()` so one fsync covers a batch ("group commit"), and the caller acknowledges the inputs only
after that block has returned. Readers (CLI, web layer) open their own `Store(..., readonly=True)`.

The SQL of each aggregate lives in its own module, a repository over this connection: tables and matches
(hub/store/matches.py), the input log (hub/store/inputs.py), rejected payloads (hub/store/rejected.py),
devices (hub/store/devices.py) and clocks (hub/store/clocks.py). `Store`'s methods are the one face the rest
of the hub calls; each passes the call to its repository.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from hub.errors import SchemaError
from hub.store import migrations
from hub.store.clocks import ClockRepo
from hub.store.devices import DeviceRepo, DeviceRow
from hub.store.inputs import ActionUid, InputRepo, InputRow
from hub.store.matches import MatchRepo, MatchRow
from hub.store.rejected import RejectedRepo, RejectedRow


def _connect(path: str, synchronous: str, readonly: bool) -> sqlite3.Connection:
    """A connection to the database at `path`: migrated to the latest schema, or (readonly) refused unless
    it is at it."""
    if readonly:
        if not Path(path).exists():
            raise FileNotFoundError(f"no database at {path!r}")
        uri = Path(path).resolve().as_uri() + "?mode=ro"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    else:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={'FULL' if synchronous == 'full' else 'NORMAL'}")
        migrations.migrate(conn)
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=5000")
    if readonly and migrations.version(conn) != migrations.LATEST:
        raise SchemaError(
            f"{path!r} has schema v{migrations.version(conn)}, this hub reads "
            f"v{migrations.LATEST}; start `luza serve` on it once to migrate"
        )
    return conn


class Store:
    """The database of one hub. Not thread-safe: one thread writes, as the hub's worker does."""

    def __init__(self, path: str | Path, synchronous: str = "full", readonly: bool = False) -> None:
        self.path = str(path)
        self.conn = _connect(self.path, synchronous, readonly)
        self._matches = MatchRepo(self.conn)
        self._inputs = InputRepo(self.conn)
        self._rejected = RejectedRepo(self.conn)
        self._devices = DeviceRepo(self.conn)
        self._clocks = ClockRepo(self.conn)

    def close(self) -> None:
        self.conn.close()

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

    # ------------------------------------------------------------ tables and matches (hub/store/matches.py)

    def ensure_table(self, table_id: str, name: str, now_ms: int) -> None:
        self._matches.ensure_table(table_id, name, now_ms)

    def table_name(self, table_id: str) -> str | None:
        """The name a table was stored under (None: no such table)."""
        return self._matches.table_name(table_id)

    def new_match(
        self,
        table_id: str,
        variant: str,
        players: Sequence[str],
        options: Mapping[str, object],
        started_ms: int,
        settings: Mapping[str, object] | None = None,
        player_ids: Sequence[int | None] | None = None,
    ) -> int:
        return self._matches.new(table_id, variant, players, options, started_ms, settings, player_ids)

    def resolve_player(self, player_id: int) -> int | None:
        """The registered player a stored id stands for now (following merges); None: no such player."""
        return self._matches.resolve_player(player_id)

    def end_match(self, match_id: int, ended_ms: int) -> None:
        self._matches.end(match_id, ended_ms)

    def save_state(self, match_id: int, state: Mapping[str, object]) -> None:
        self._matches.save_state(match_id, state)

    def match(self, match_id: int) -> MatchRow | None:
        return self._matches.get(match_id)

    def matches(self, table_id: str | None = None, live_only: bool = False) -> list[MatchRow]:
        return self._matches.all(table_id, live_only)

    def quarantine_match(self, match: MatchRow, cursor: int | None, reason: str, now_ms: int) -> None:
        """Set a match aside: ended (its table may start a new one) and listed with why (in the open
        transaction, or in one of its own)."""
        self._matches.quarantine(match, cursor, reason, now_ms)

    def quarantined(self) -> dict[int, tuple[str, int | None, str, int]]:
        """{match id: (table, first unreadable cursor, reason, when)} of the matches set aside."""
        return self._matches.quarantined()

    # ------------------------------------------------------------ the input log (hub/store/inputs.py)

    def last_input_id(self) -> int:
        """The id of the newest stored input (0: none yet): the hub's cursor over its input log."""
        return self._inputs.last_id()

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
        return self._inputs.append_sensor(table_id, match_id, source, key, at_ms, received_ms, record)

    def append_action(
        self,
        table_id: str,
        match_id: int | None,
        at_ms: int,
        received_ms: int,
        record: Mapping[str, object],
        source: str = "referee",
    ) -> int:
        return self._inputs.append_action(table_id, match_id, at_ms, received_ms, record, source)

    def action_uid(self, table_id: str, uid: str) -> ActionUid | None:
        """What a referee action with this uid got the first time on this table (None: never seen)."""
        return self._inputs.action_uid(table_id, uid)

    def remember_uid(self, table_id: str, uid: str, first: ActionUid, now_ms: int) -> None:
        """Keep the first outcome of an action's uid; (table, uid) is unique, so a second one is an error."""
        self._inputs.remember_uid(table_id, uid, first, now_ms)

    def has_event(self, key: tuple[str, int, int]) -> bool:
        return self._inputs.has_event(key)

    def inputs(
        self, match_id: int | None = None, after: int = 0, table_id: str | None = None
    ) -> Iterator[InputRow]:
        """Stored inputs in cursor order, optionally of one match / table and after a cursor."""
        return self._inputs.rows(match_id, after, table_id)

    def count_inputs(self) -> int:
        return self._inputs.count()

    def last_boot(self, device: str) -> int | None:
        return self._inputs.last_boot(device)

    # ------------------------------------------------------------ rejected payloads (hub/store/rejected.py)

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
        """Count a rejected payload and keep a bounded sample of its kind (RejectedRepo.reject)."""
        return self._rejected.reject(
            received_ms, source, topic, device, code, reason, payload, counted_as, size
        )

    def rejected(self, device: str | None = None, limit: int = 1000) -> list[RejectedRow]:
        return self._rejected.samples(device, limit)

    def rejected_counts(self) -> dict[str, dict[str, int]]:
        """{device (or "" for none): {code: count}}."""
        return self._rejected.counts()

    # ------------------------------------------------------------ devices and clocks

    def save_device(self, device_id: str, fields: DeviceRow) -> None:
        self._devices.save(device_id, fields)

    def devices(self) -> dict[str, DeviceRow]:
        return self._devices.all()

    def save_clock(
        self, device: str, boot: int, offset_ms: int, now_ms: int, up_ms: int | None = None
    ) -> None:
        """A boot's clock offset (hub.ingest.clockmap) and the uptime of the sample it came from."""
        self._clocks.save(device, boot, offset_ms, now_ms, up_ms)

    def clocks(self) -> dict[tuple[str, int], tuple[int, int | None]]:
        """{(device, boot): (offset, uptime of its sample or None)}."""
        return self._clocks.all()

    def high_water(self) -> int:
        """The hub's timeline at its last commit (hub.ingest.timebase):
        the hub's time never starts below it."""
        return self._clocks.high_water()

    def save_high_water(self, ms: int) -> None:
        self._clocks.save_high_water(ms)
