"""The hub service: ingest -> store -> TableSession -> retained state and in-process subscribers.

One worker thread owns the store and the table sessions. Transports (MQTT, serial) and the web layer only
enqueue. The worker takes what has queued up (a batch), and inside ONE transaction classifies each payload
(hub.intake), appends accepted inputs to the log (a redelivered event is a unique-key hit and is skipped),
stores rejections, device updates and clock offsets, and folds the inputs into the live sessions. Only after the
commit are the MQTT messages acknowledged, referee calls answered, states published (retained
luza/v1/<table>/state) and subscribers called. While a commit is under way the next batch queues up, so one
fsync covers many events under load (group commit) and costs no wait when idle. If a commit fails, nothing is
acknowledged, the sessions are rebuilt from the store, and the batch is tried again.

On start every live match is rebuilt by feeding its stored inputs, in cursor order, into a new TableSession.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from hub.clockmap import ClockMap, time_command_args
from hub.config import Config
from hub.ingest_mqtt import MqttIngest, RawMessage, now_ms
from hub.ingest_serial import SerialIngest
from hub.inputs import RefereeAction, RefereeInputError, input_to_record, parse_referee_action
from hub.intake import EventIn, Rejected, StatusIn, TeleIn, classify
from hub.rebuild import rebuild_session, timing
from hub.registry import Registry
from hub.store import MatchRow, Store
from hub.table import TableSession
from shared_rules import wire

log = logging.getLogger("luza.hub")

STATE_VERSION = 1


@dataclass(frozen=True)
class Change:
    """A table's new scoreboard, as published: given to every subscriber after each commit that changed it."""

    table_id: str
    cursor: int  # the last input row id (global cursor) at this state
    state: dict[str, Any]


@dataclass
class _Referee:
    table_id: str
    action: Mapping[str, object]
    future: Future[dict[str, Any]]


@dataclass
class _Live:
    match: MatchRow
    session: TableSession


@dataclass
class _Batch:
    touched: set[str] = field(default_factory=set)
    acks: list[Callable[[], None]] = field(default_factory=list)
    replies: list[tuple[Future[dict[str, Any]], str | BaseException]] = field(default_factory=list)
    births: list[tuple[str, str, Any]] = field(default_factory=list)
    devices: set[str] = field(default_factory=set)
    broken: set[str] = field(default_factory=set)


_STOP = object()


class Hub:
    """The running hub. `start()`, feed it (`feed`, `submit`), read it (`state`, `subscribe`), `stop()`."""

    def __init__(self, config: Config, clock: Callable[[], int] = now_ms, mqtt: bool = True) -> None:
        self.config = config
        self.clock = clock
        self.stats: dict[str, int] = {"accepted": 0, "duplicates": 0, "rejected": 0, "referee": 0, "batches": 0,
                                      "commit_failures": 0}
        self._queue: queue.Queue[object] = queue.Queue()
        self._live: dict[str, _Live] = {}
        self._states: dict[str, Change] = {}
        self._subscribers: list[Callable[[Change], None]] = []
        self._sub_lock = threading.Lock()
        self._idle = threading.Condition()
        self._pending = 0
        self._cursor = 0
        self._worker: threading.Thread | None = None
        self.store: Store | None = None
        self.registry = Registry(config)
        self.clocks = ClockMap()
        self.mqtt = MqttIngest(config.broker, self.feed, clock=clock) if mqtt else None
        self.serial = [SerialIngest(url, self.feed, config.ingest.serial_baud, clock)
                       for url in config.ingest.serial]

    # ------------------------------------------------------------ lifecycle

    def start(self, connect_timeout: float = 0.0) -> Hub:
        store = self.store = Store(self.config.store.path, self.config.store.synchronous)
        with store.transaction():
            for t in self.config.tables:
                store.ensure_table(t.id, t.name, self.clock())
        self.registry = Registry(self.config, store.devices(), store.rejected_counts())
        self.clocks = ClockMap(store.clocks())
        self._cursor = self._last_cursor(store)
        for m in store.matches(live_only=True):
            if self.config.table(m.table_id) is None:
                log.warning("match %d is on table %r, which is no longer in the config; left as it is", m.id,
                            m.table_id)
                continue
            self._live[m.table_id] = _Live(m, self._session(m))
        for t in self.config.tables:
            self._states[t.id] = Change(t.id, self._cursor, self._table_state(t.id))
        self._worker = threading.Thread(target=self._run, name="luza hub worker", daemon=True)
        self._worker.start()
        if self.mqtt:
            self.mqtt.start()
            if connect_timeout and not self.mqtt.wait_connected(connect_timeout):
                log.warning("no broker at %s yet; ingest starts when it answers", self.config.broker.url)
        for s in self.serial:
            s.start()
        for t in self.config.tables:
            self._publish(self._states[t.id])
        return self

    @staticmethod
    def _last_cursor(store: Store) -> int:
        row = store.conn.execute("SELECT max(id) FROM inputs").fetchone()
        return int(row[0] or 0)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop reading, finish (commit and acknowledge) what has arrived, disconnect, close the store."""
        for s in self.serial:
            s.stop()
        if self._worker is not None:
            self._queue.put(_STOP)
            self._worker.join(timeout)
            self._worker = None
        if self.mqtt:
            self.mqtt.stop()
        if self.store is not None:
            self.store.close()
            self.store = None

    def __enter__(self) -> Hub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------ input

    def feed(self, raw: RawMessage) -> None:
        """Hand over one received payload (any thread)."""
        with self._idle:
            self._pending += 1
        self._queue.put(raw)

    def submit_async(self, table_id: str, action: Mapping[str, object]) -> Future[dict[str, Any]]:
        """Queue a referee action; the future gives the table's state once it is committed, or the
        RefereeInputError that refused it. Never wait on it from a subscriber callback (that is the worker)."""
        fut: Future[dict[str, Any]] = Future()
        with self._idle:
            self._pending += 1
        self._queue.put(_Referee(table_id, action, fut))
        return fut

    def submit(self, table_id: str, action: Mapping[str, object], timeout: float = 10.0) -> dict[str, Any]:
        return self.submit_async(table_id, action).result(timeout)

    def new_match(self, table_id: str, variant: str, players: tuple[str, str],
                  options: Mapping[str, object] | None = None) -> dict[str, Any]:
        return self.submit(table_id, {"kind": "new_match", "args": {"variant": variant, "players": list(players),
                                                                    "options": dict(options or {})}})

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until everything fed so far is committed and applied (tests, benchmarks)."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while self._pending:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True

    # ------------------------------------------------------------ output

    def state(self, table_id: str) -> dict[str, Any]:
        """The last committed state of a table (what luza/v1/<table>/state carries)."""
        return self._states[table_id].state

    def session(self, table_id: str) -> TableSession | None:
        live = self._live.get(table_id)
        return live.session if live else None

    def subscribe(self, callback: Callable[[Change], None]) -> Callable[[], None]:
        """Call `callback(change)` on the worker thread after each commit that changes a table; keep it quick.
        Returns the function that unsubscribes."""
        with self._sub_lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._sub_lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def changes(self, loop: asyncio.AbstractEventLoop, maxsize: int = 1000
                ) -> tuple[asyncio.Queue[Change], Callable[[], None]]:
        """An asyncio queue on `loop` fed with every Change (oldest dropped when full), and its unsubscribe."""
        q: asyncio.Queue[Change] = asyncio.Queue(maxsize)

        def put(change: Change) -> None:
            if q.full():
                q.get_nowait()  # a slow reader gets the newest state; states are whole, not deltas
            q.put_nowait(change)

        return q, self.subscribe(lambda change: loop.call_soon_threadsafe(put, change))

    def devices(self) -> list[dict[str, Any]]:
        return self.registry.snapshot()

    # ------------------------------------------------------------ the worker

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            items = [first]
            wait = self.config.store.group_commit_ms / 1000
            deadline = time.monotonic() + wait
            while len(items) < self.config.store.max_batch and items[-1] is not _STOP:
                try:
                    left = deadline - time.monotonic()
                    items.append(self._queue.get(timeout=left) if left > 0 else self._queue.get_nowait())
                except queue.Empty:
                    break
            stop = items[-1] is _STOP
            work = [i for i in items if i is not _STOP]
            if work:
                self._commit_batch(work)
                with self._idle:
                    self._pending -= len(work)
                    self._idle.notify_all()
            if stop:
                return

    def _commit_batch(self, items: list[object]) -> None:
        delay = 0.05
        while True:
            batch = _Batch()
            assert self.store is not None
            try:
                with self.store.transaction():
                    for item in items:
                        self._handle(item, batch)
                    self._save_batch(batch)
                break
            except sqlite3.Error as exc:
                self.stats["commit_failures"] += 1
                log.error("commit failed (%s); nothing acknowledged, retrying in %.2f s", exc, delay)
                self._rebuild(batch.touched)
                time.sleep(delay)
                delay = min(delay * 2, 2.0)
        self.stats["batches"] += 1
        self._after_commit(batch)

    def _handle(self, item: object, batch: _Batch) -> None:
        if isinstance(item, _Referee):
            self._referee(item, batch)
            return
        assert isinstance(item, RawMessage)
        if item.ack:
            batch.acks.append(item.ack)
        result = classify(item, self.config, self.registry, self.clocks, self.config.ingest.late_window_s * 1000)
        if isinstance(result, Rejected):
            self._reject(item, result)
        elif isinstance(result, StatusIn):
            st = result.status
            if self.registry.on_status(result.device.id, st.state, st.boot, st.fw, st.ip, st.error, item.received_ms):
                batch.births.append((result.device.table, result.device.id, item.link))
            batch.devices.add(result.device.id)
            live = self._live.get(result.device.table)
            if live is not None:
                live.session.device_status(result.device.id, result.device.role, st.state == "online")
                batch.touched.add(result.device.table)
        elif isinstance(result, TeleIn):
            tele = result.tele
            self.registry.on_tele(result.device.id, tele.boot, tele.fields, item.received_ms)
            if "up" in tele.fields and isinstance(tele.fields["up"], int):
                self.clocks.observe(result.device.id, tele.boot, tele.fields["up"], item.received_ms)
            batch.devices.add(result.device.id)
        elif isinstance(result, EventIn):
            self._sensor(item, result, batch)

    def _reject(self, raw: RawMessage, r: Rejected) -> None:
        assert self.store is not None
        self.store.reject(raw.received_ms, raw.source, raw.topic or None, r.device, r.code, r.reason, raw.payload)
        self.stats["rejected"] += 1
        if self.registry.on_rejected(r.device, r.code):
            log.warning("rejected %s payload from %s on %r: %s (%s); further ones of this kind are only counted",
                        raw.source, r.device or "unknown device", raw.topic, r.reason, r.code)

    def _sensor(self, raw: RawMessage, e: EventIn, batch: _Batch) -> None:
        assert self.store is not None
        inp = e.input
        live = self._live.get(e.device.table)
        row = self.store.append_sensor(e.device.table, live.match.id if live else None, raw.source, inp.event.key,
                                       inp.at_ms, inp.received_ms, input_to_record(inp))
        self.registry.on_event(e.device.id, inp.event.boot, raw.received_ms)
        batch.devices.add(e.device.id)
        if row is None:
            self.stats["duplicates"] += 1
            return
        self.stats["accepted"] += 1
        self._cursor = row
        if live is None:
            return  # kept in the log (nothing accepted is lost), but no match to count it in
        batch.touched.add(e.device.table)
        try:
            live.session.apply(inp)
        except Exception:  # a sensor input never raises by contract; if it does, the log stays the truth
            log.exception("table %s: session failed on %s; rebuilding it from the log", e.device.table,
                          inp.event)
            batch.broken.add(e.device.table)

    def _referee(self, item: _Referee, batch: _Batch) -> None:
        assert self.store is not None
        now = self.clock()
        try:
            if self.config.table(item.table_id) is None:
                raise RefereeInputError(f"table: no table {item.table_id!r} in luza.toml",
                                        f"table: стола {item.table_id!r} нет в luza.toml", "table")
            action = parse_referee_action(item.action, now)
            if action.kind == "new_match":
                self._new_match(item.table_id, action, now)
            elif action.kind == "end_match":
                self._end_match(item.table_id, action, now)
            else:
                live = self._live.get(item.table_id)
                if live is None:
                    raise RefereeInputError(f"no match is being played on table {item.table_id!r}; start one",
                                            f"на столе {item.table_id!r} нет партии; начните новую", "table")
                live.session.apply(action)  # refuses an impossible action before anything is stored
                self._cursor = self.store.append_action(item.table_id, live.match.id, now, now,
                                                        input_to_record(action))
        except RefereeInputError as exc:
            log.info("table %s: referee action refused: %s", item.table_id, exc.en)
            batch.replies.append((item.future, exc))
            return
        self.stats["referee"] += 1
        batch.touched.add(item.table_id)
        batch.replies.append((item.future, item.table_id))

    def _new_match(self, table_id: str, action: RefereeAction, now: int) -> None:
        assert self.store is not None
        old = self._live.get(table_id)
        if old is not None:
            if not old.session.match.state.over:
                raise RefereeInputError(
                    f"table {table_id!r} has match {old.match.id} in play; end it first (end_match)",
                    f"на столе {table_id!r} идёт партия {old.match.id}; сначала завершите её (end_match)", "table")
            self._end_match(table_id, RefereeAction("end_match", {"reason": "new match"}, now), now)
        a = action.args
        variant, players, options = str(a["variant"]), a["players"], a.get("options") or {}
        assert isinstance(players, list) and isinstance(options, Mapping)
        try:
            session = TableSession(table_id, variant, (players[0], players[1]), options, timing(self.config.settle))
            self._health(table_id, session)
        except (ValueError, KeyError) as exc:  # RulesError is a ValueError: unknown variant, bad option
            en = getattr(exc, "en", str(exc))
            raise RefereeInputError(f"cannot start the match: {en}", f"нельзя начать партию: "
                                    f"{getattr(exc, 'ru', en)}", "variant") from exc
        match_id = self.store.new_match(table_id, variant, players, options, now)
        session.match_id = match_id
        self._cursor = self.store.append_action(table_id, match_id, now, now, input_to_record(action))
        match = self.store.match(match_id)
        assert match is not None
        self._live[table_id] = _Live(match, session)

    def _end_match(self, table_id: str, action: RefereeAction, now: int) -> None:
        assert self.store is not None
        live = self._live.get(table_id)
        if live is None:
            raise RefereeInputError(f"no match is being played on table {table_id!r}",
                                    f"на столе {table_id!r} нет партии", "table")
        live.session.apply(action)  # closes the open shot; refuses if the session cannot end here
        self._cursor = self.store.append_action(table_id, live.match.id, now, now, input_to_record(action))
        self.store.save_state(live.match.id, live.session.scoreboard())
        self.store.end_match(live.match.id, now)
        del self._live[table_id]

    def _save_batch(self, batch: _Batch) -> None:
        """Inside the transaction: devices, clocks and each touched match's state (for `luza replay`)."""
        assert self.store is not None
        if batch.broken:
            self._rebuild(batch.broken)
        for dev in batch.devices:
            self.store.save_device(dev, self.registry.row(dev))
        for (dev, boot), offset in self.clocks.dirty().items():
            self.store.save_clock(dev, boot, offset, self.clock())
        for t in batch.touched:
            live = self._live.get(t)
            self._states[t] = Change(t, self._cursor, self._table_state(t))
            if live is not None:
                self.store.save_state(live.match.id, self._states[t].state["match"])

    def _after_commit(self, batch: _Batch) -> None:
        for ack in batch.acks:
            ack()
        for fut, result in batch.replies:
            if isinstance(result, BaseException):
                fut.set_exception(result)
            else:
                fut.set_result(self._states[result].state)
        for table_id, device, link in batch.births:
            self._send_time(table_id, device, link)
        for t in batch.touched:
            self._publish(self._states[t])

    def _session(self, match: MatchRow) -> TableSession:
        assert self.store is not None
        session = rebuild_session(self.store, match, self.config.settle)
        self._health(match.table_id, session)
        return session

    def _health(self, table_id: str, session: TableSession) -> None:
        """Tell a new or rebuilt session which of its table's nodes are down (not in the log: appliance health)."""
        t = self.config.table(table_id)
        for d in t.devices if t else ():
            dev = self.registry.get(d.id)
            if dev is not None and dev.state in ("lost", "offline", "error"):
                session.device_status(d.id, d.role, False)

    def _rebuild(self, tables: set[str]) -> None:
        """Throw away the in-memory sessions of these tables and fold them again from the committed log."""
        assert self.store is not None
        for t in tables:
            self._live.pop(t, None)
            for m in self.store.matches(table_id=t, live_only=True):
                self._live[t] = _Live(m, self._session(m))

    def _table_state(self, table_id: str) -> dict[str, Any]:
        t = self.config.table(table_id)
        live = self._live.get(table_id)
        return {"v": STATE_VERSION, "table": table_id, "name": t.name if t else table_id, "club": self.config.club,
                "cursor": self._cursor, "match_id": live.match.id if live else None,
                "match": live.session.scoreboard() if live else None}

    def _publish(self, change: Change) -> None:
        if self.mqtt:
            self.mqtt.publish(wire.state_topic(change.table_id), _json(change.state), qos=1, retain=True)
        with self._sub_lock:
            subs = list(self._subscribers)
        for cb in subs:
            try:
                cb(change)
            except Exception:  # one broken subscriber must not stop the others or the hub
                log.exception("state subscriber %r failed", cb)

    def _send_time(self, table_id: str, device: str, link: Any) -> None:
        payload = wire.encode_command("time", self.clock() % 2**31, **time_command_args(self.clock()))
        topic = wire.topic(table_id, device, "cmd")
        if isinstance(link, SerialIngest):
            link.send(topic, payload)
        elif self.mqtt:
            self.mqtt.publish(topic, payload, qos=1)


def _json(obj: object) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()
