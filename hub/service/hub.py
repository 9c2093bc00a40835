"""The hub service: ingest -> store -> TableSession -> retained state and in-process subscribers.

One worker thread owns the store and the table sessions (its loop: hub.service.worker). Transports (MQTT,
serial) and the web layer only enqueue. The worker takes what has queued up (a batch), and inside ONE
transaction classifies each payload (hub.ingest.intake), appends accepted inputs to the log (a redelivered
event is a unique-key hit and is skipped), stores rejections, device updates and clock offsets, and folds the
inputs into the live sessions.
Only after the commit are the MQTT messages acknowledged, referee calls answered, states published (retained
luza/v1/<table>/state) and subscribers called. While a commit is under way the next batch queues up, so one
fsync covers many events under load (group commit) and costs no wait when idle. If a commit fails, nothing is
acknowledged, the sessions are rebuilt from the store, and the batch is tried again (hub.service.commit).

On start the database is checked (hub.store.integrity: a damaged one is rebuilt, or what cannot be read is set
aside) and every live match is rebuilt by feeding its stored inputs, in cursor order, into a new TableSession.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from typing import Any

from hub.config import Config
from hub.hubclock import HubClock
from hub.ingest.clockmap import ClockMap
from hub.ingest.mqtt import MqttIngest, RawMessage
from hub.ingest.registry import DeviceSnapshot, Registry
from hub.ingest.serial import SerialIngest
from hub.ota.service import Ota
from hub.reconcile.frames import Frames
from hub.reconcile.table import TableSession
from hub.service.batch import Batch, RefereeReply, Replayed
from hub.service.changes import Change, TableStates
from hub.service.commit import Committer
from hub.service.inbox import Inbox, Outstanding
from hub.service.node_commands import NodeCommands
from hub.service.pending import PendingActions
from hub.service.referee import RefereeRequest, answer_caller
from hub.service.router import Router
from hub.service.worker import CONNECTED, RECONNECTED, STOP, Worker
from hub.store import integrity
from hub.store.database import Store
from hub.store.dblock import DbLock
from hub.view.table import TableStateJSON, TableView
from hub.vocab.alerts import DiskAlert, HubWide

log = logging.getLogger("luza.hub")


class Hub:
    """The running hub. `start()`, feed it (`feed`, `submit`), read it (`state`, `subscribe`), `stop()`."""

    def __init__(self, config: Config, clock: Callable[[], int] | None = None, mqtt: bool = True) -> None:
        self.config = config
        # the hub's timeline: steady (a wall-clock step moves nothing), never below the store (hub.hubclock)
        self.clock = HubClock(clock)
        # ingest stamps receipts raw; the worker puts them on the timeline (Router.handle)
        stamp = self.clock.raw
        # received, accepted, duplicates, rejected, updates (status/tele), referee,
        # referee_refused, batches, …
        self.stats: Counter[str] = Counter()
        self._queue = Inbox()  # bounded by a memory budget; telemetry shed first (hub.service.inbox)
        self._router: Router | None = None
        self._pending = Outstanding()  # items handed over and not yet acted on (wait_idle)
        self._taps = PendingActions()  # referee actions not yet answered, by effect
        self._stopping = threading.Event()
        self._worker: threading.Thread | None = None
        self.boot = uuid.uuid4().hex[:12]  # a new id each start: a screen that sees it change reloads
        self.latency_observers: list[Callable[[float], None]] = []  # sensor receive -> commit, seconds
        self.store: Store | None = None
        self._dblock: DbLock | None = None
        self.registry = Registry(config)
        self.clocks = ClockMap()
        self.mqtt = MqttIngest(config.broker, self.feed, self._link_changed, stamp) if mqtt else None
        # telemetry on a connection of its own, so a node's flood never queues ahead
        # of events (hub.ingest.mqtt)
        self.mqtt_tele = (
            MqttIngest(config.broker, self.feed, clock=stamp, telemetry=True)
            if mqtt and config.broker.tele_username is not None
            else None
        )
        self.serial = [
            SerialIngest(url, self.feed, config.ingest.serial_baud, stamp) for url in config.ingest.serial
        ]
        self._states = TableStates(
            self.boot, self.clock, lambda: self._router.cursor if self._router else 0, self.mqtt
        )  # each table's last state, stamped and published
        self.nodes = NodeCommands(config, self.clock, self.mqtt)  # time, stored marks, resend, identify, …
        self._moves = 0  # the timeline's moves already told to the nodes (hub.ingest.timebase)
        self.resync = self.nodes.resync
        # over-the-air updates: push (between matches), serve, the go to swap (hub.ota.service)
        self.ota = Ota(
            config,
            lambda t: self._states.state(t) if self._states.known(t) else {},
            lambda d: self.registry.get(d),
            self.command,
        )

    # ------------------------------------------------------------ lifecycle

    def start(self, connect_timeout: float = 0.0) -> Hub:
        if self.config.store.path != ":memory:":
            self._dblock = DbLock(self.config.store.path).acquire()  # one hub per database (hub.store.dblock)
        try:
            repair = integrity.check_and_repair(self.config.store.path)  # a torn page stops no table
            store = self.store = Store(self.config.store.path, self.config.store.synchronous)
            if repair is not None and repair.action == integrity.DAMAGED:
                integrity.set_aside(store, repair, self.clock())
        except BaseException:
            if self.store is not None:
                self.store.close()
                self.store = None
            if self._dblock is not None:
                self._dblock.release()
            raise
        with store.transaction():
            for t in self.config.tables:
                store.ensure_table(t.id, t.name, self.clock())
        self.registry = Registry(self.config, store.devices(), store.rejected_counts())
        self.clocks = ClockMap(store.clocks())
        router = self._router = Router(
            self.config,
            store,
            self.registry,
            self.clocks,
            self.clock,
            reachable=bool(self.mqtt or self.serial),
        )
        if repair is not None:
            router.notices.append(repair.alert())  # on every table until the hub restarts
        router.load()
        committer = Committer(router, store, self.stats, self._stopping, self._hub_alert, self._committed)
        for t in self.config.tables:
            self._states.stamp(t.id, router.table_state(t.id))
        worker = Worker(
            self.config,
            self.clock,
            self._queue,
            self._pending,
            router,
            store,
            self.registry,
            committer,  # the worker's batches into the store (hub.service.commit)
            self.nodes,
            self.stats,
            self.submit_async,
        )  # the loop of batches and what falls due between them (hub.service.worker)
        self._worker = threading.Thread(target=worker.run, name="luza hub worker", daemon=True)
        self._worker.start()
        if self.mqtt:
            for conn in filter(None, (self.mqtt, self.mqtt_tele)):
                conn.start()
            if connect_timeout and not self.mqtt.wait_connected(connect_timeout):
                log.warning("no broker at %s yet; ingest starts when it answers", self.config.broker.url)
            elif connect_timeout and self.mqtt_tele:
                self.mqtt_tele.wait_connected(connect_timeout)
        for s in self.serial:
            s.start()
        for t in self.config.tables:
            self._states.publish(t.id)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop reading, finish (commit and acknowledge) what has arrived, disconnect, close the store."""
        for s in self.serial:
            s.stop()
        if self.mqtt_tele:
            self.mqtt_tele.stop()
        if self._worker is not None:
            self._stopping.set()  # a batch stuck retrying a failed commit gives up (it stays unacknowledged)
            self._queue.put(STOP)
            self._worker.join(timeout)
            self._worker = None
        if self.mqtt:
            self.mqtt.stop()
        if self.store is not None:
            self.store.close()
            self.store = None
        if self._dblock is not None:
            self._dblock.release()

    def __enter__(self) -> Hub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------ input

    def feed(self, raw: RawMessage) -> None:
        """Hand over one received payload (any thread)."""
        self._pending.add()
        if not self._queue.offer(raw):  # shed (counted, logged): no longer pending
            self._pending.done()

    def _link_changed(self, up: bool) -> None:
        """The broker connection is up again: every node gets the time; if the broker lost our session, nodes
        are asked to re-send."""
        markers = [CONNECTED] if up else []
        if up and self.mqtt is not None and not self.mqtt.session_present:
            markers.append(RECONNECTED)
        # until the worker has acted on them: wait_idle covers the time to all
        self._pending.add(len(markers))
        for m in markers:
            self._queue.put(m)

    def submit_async(self, table_id: str, action: Mapping[str, object]) -> Future[RefereeReply]:
        """Queue a referee action; the future gives the table's state once it is committed, or the
        RefereeInputError that refused it. Never wait on it from a subscriber
        callback (that is the worker)."""
        fut: Future[RefereeReply] = Future()
        # the same effect already waits (hub.service.pending)
        duplicate = self._taps.claim(table_id, action, fut)
        if duplicate is not None:
            self.stats["referee_duplicate_pending"] += 1
            fut.set_exception(duplicate)
            return fut
        self._pending.add()
        self._queue.put(RefereeRequest(table_id, action, fut))
        return fut

    def submit(self, table_id: str, action: Mapping[str, object], timeout: float = 10.0) -> RefereeReply:
        return self.submit_async(table_id, action).result(timeout)

    def new_match(
        self,
        table_id: str,
        variant: str,
        players: tuple[str, str],
        options: Mapping[str, object] | None = None,
        race: Mapping[str, object] | None = None,
        shot_clock: Mapping[str, int] | None = None,
        player_ids: Sequence[int | None] | None = None,
    ) -> RefereeReply:
        """Start a match (`race`: {race_to, break_rule, handicap}, hub/vocab/new_match.py RaceBody;
        `shot_clock`: {limit_s, extensions, extension_s}, ShotClockBody; `player_ids`: the players' registry
        ids, hub/store/players.py)."""
        # the body of a new_match request (hub.vocab.new_match.NewMatchAction checks it in the worker)
        args: dict[str, object] = {"variant": variant, "players": list(players)}
        args["options"] = dict(options or {})
        if race is not None:
            args["race"] = dict(race)
        if shot_clock is not None:
            args["shot_clock"] = dict(shot_clock)
        if player_ids is not None:
            args["player_ids"] = list(player_ids)
        return self.submit(table_id, {"kind": "new_match", "args": args})

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until everything fed so far is committed and applied (tests, benchmarks)."""
        return self._pending.wait(timeout)

    # ------------------------------------------------------------ output

    def state(self, table_id: str) -> TableStateJSON:
        """The last committed state of a table as JSON (what luza/v1/<table>/state carries): `view`'s JSON."""
        return self._states.state(table_id)

    def state_payload(self, table_id: str) -> bytes:
        """`state` encoded, as luza/v1/<table>/state carries it (made once per change)."""
        return self._states.payload(table_id)

    def view(self, table_id: str) -> TableView:
        """The last committed view of a table (hub.view.table.TableView)."""
        return self._states.view(table_id)

    def session(self, table_id: str) -> TableSession | None:
        """The live match's frame in play (a race's earlier frames: `frames`)."""
        live = self._router.matches.live.get(table_id) if self._router else None
        return live.session if live else None

    def frames(self, table_id: str) -> Frames | None:
        """The live match's race (its rules and finished frames), or None with no match."""
        live = self._router.matches.live.get(table_id) if self._router else None
        return live.frames if live else None

    def subscribe(self, callback: Callable[[Change], None]) -> Callable[[], None]:
        """Call `callback(change)` on the worker thread after each commit that changes a table; keep it quick.
        Returns the function that unsubscribes."""
        return self._states.subscribers.add(callback)

    def changes(
        self, loop: asyncio.AbstractEventLoop, maxsize: int = 1000
    ) -> tuple[asyncio.Queue[Change], Callable[[], None]]:
        """An asyncio queue on `loop` fed with every Change
        (oldest dropped when full), and its unsubscribe."""
        return self._states.subscribers.queue(loop, maxsize)

    def devices(self) -> list[DeviceSnapshot]:
        return self.registry.snapshot()

    @property
    def worker_alive(self) -> bool:
        return self._worker is not None and self._worker.is_alive()

    def queue_depth(self) -> int:
        return self._queue.qsize()

    def command(self, device: str, name: str, **args: Any) -> bool:
        """Send a `cmd` (identify, calibrate, …; luza_wire.protocol.COMMANDS) to a configured node, over the
        link it was last seen on. False if there is no way to reach it
        (no broker connection, unknown serial link)."""
        return self.nodes.send(device, name, **args)

    # ------------------------------------------------------------ after a commit (the worker's thread)

    def _committed(self, batch: Batch, states: dict[str, TableView] | None) -> None:
        """A batch went through (`states`: the tables it changed; None for an input kept as a rejection): the
        hub alert is cleared, the batch counted, its states stamped,
        and it is acted on (hub.service.commit)."""
        self.stats.update(batch.counts)
        if states is None:
            self._after_commit(batch)
            return
        self._hub_alert(None, states)
        self.clocks.saved(batch.clocks)
        self.stats["batches"] += 1
        for t, state in states.items():
            self._states.stamp(t, state)
        self._after_commit(batch, set(states))

    @property
    def alerts(self) -> list[HubWide]:
        """Alerts of the whole hub (a full disk; its clock behind the store's timeline), shown on every
        table's state and in /healthz."""
        return [*self._router.hub_alerts, *self._router.timebase.alerts] if self._router else []

    def _hub_alert(self, alert: DiskAlert | None, states: dict[str, TableView] | None = None) -> None:
        """Raise (or with None clear) the hub alert; when it changes, every table's state shows it at once."""
        router = self._router
        assert router is not None
        if router.hub_alerts == ([alert] if alert else []):
            return
        router.hub_alerts = [alert] if alert else []
        if alert:
            log.error("%s", alert.en)
        for t in self.config.tables:
            if states is not None:  # published with this commit's states
                states[t.id] = router.table_state(t.id)
            else:
                self._states.stamp(t.id, router.table_state(t.id))
                self._states.publish(t.id)

    def _after_commit(self, batch: Batch, changed: set[str] | None = None) -> None:
        for ack in batch.acks:
            try:
                ack()
            except Exception:
                log.exception("acknowledging a message failed")
        for t in sorted(changed or ()):  # before the replies: a caller that is answered finds the state out
            self._states.publish(t)
        for fut, result in batch.replies:
            answer_caller(fut, result if isinstance(result, BaseException) else self._reply(result))
        if batch.latencies and self.latency_observers:
            now = self.clock()
            for received in batch.latencies:
                for observe in self.latency_observers:
                    observe(max(0, now - received) / 1000)
        for table_id, device, link in batch.births:
            self.nodes.born(table_id, device, link)
        if self._router is not None and self._router.timebase.moves != self._moves:  # the timeline moved
            self._moves = self._router.timebase.moves
            self.nodes.time_to_all()
        if batch.devices or changed:
            try:
                self.ota.after_commit(batch.devices)  # a staged update's go once no match is in play
            except Exception:
                log.exception("update service failed after a commit")
        if self._router is not None and self.store is not None:  # delivery: stored marks and resend requests
            marks = self._router.evidence.marks
            self.nodes.deliver(
                marks.after_commit(self.store, batch.events, batch.dups)
                if batch.events or batch.dups
                else marks.flush()
            )
        self.nodes.resync_due(batch.devices)

    def _reply(self, result: str | Replayed) -> RefereeReply:
        """A referee caller's answer: the table's state;
        for an action sent again, where the first one went."""
        if isinstance(result, Replayed):
            return result.reply(self._states.state(result.table_id))
        return RefereeReply(self._states.state(result))
