"""The worker's routing of one item inside a batch's transaction: payloads and referee actions -> store +
sessions.

`Router` routes; the parts it routes to each own their state: `Matches` (the live sessions,
hub.service.matches), `RefereeDesk` (referee actions, hub.service.referee), `DeviceDesk` (status, telemetry,
node clocks, hub.service.devices), `EvidenceDesk` (holes, conflicts, impossible times, delivery marks,
hub.service.evidence) and the `InputLog` (the appended inputs and the cursor, hub.store.inputlog). Everything
happens inside the hub's open transaction and is collected in a `Batch`; the hub acknowledges, answers,
publishes and counts only after the commit (see hub.service.hub). A referee action is tried on its session
first, so an impossible one is refused with nothing stored; a sensor input is stored first, then applied (by
contract it never raises).
"""

from __future__ import annotations

import dataclasses
import logging

from hub.config import Config
from hub.errors import UNAVAILABLE
from hub.hubclock import HubClock
from hub.ingest.clockmap import ClockMap
from hub.ingest.intake import AnswerIn, EventIn, Rejected, StatusIn, TeleIn, classify
from hub.ingest.mqtt import RawMessage
from hub.ingest.registry import Registry
from hub.ingest.timebase import Timebase
from hub.reconcile.table import TableSession
from hub.service.batch import Batch
from hub.service.devices import DeviceDesk
from hub.service.evidence import EvidenceDesk
from hub.service.matches import Matches
from hub.service.referee import RefereeDesk, RefereeRequest
from hub.store.database import Store
from hub.store.inputlog import InputLog
from hub.view.build import table_view
from hub.view.table import TableView
from hub.vocab.alerts import DiskAlert, HubAlert, StoreChecked
from hub.vocab.checks import RefereeInputError

log = logging.getLogger("luza.hub")


class Router:
    """Routes one item of a batch to the part that handles it, and builds a table's state from their parts."""

    def __init__(
        self,
        config: Config,
        store: Store,
        registry: Registry,
        clocks: ClockMap,
        clock: HubClock,
        reachable: bool = True,
    ) -> None:
        self.config, self.store, self.registry, self.clocks, self.clock = (
            config,
            store,
            registry,
            clocks,
            clock,
        )
        self.reachable = (
            reachable  # the hub hears nodes (a broker or a serial port): a restart can join their clocks
        )
        self.timebase = Timebase(clock, clocks)  # never below the store, joined to it after a restart
        self.inputs = InputLog(store)
        self.evidence = EvidenceDesk(store)
        self.devices = DeviceDesk(config, store, registry, clocks, clock, self.timebase)
        self.matches = Matches(config, store, self.inputs, registry, self.devices, self.evidence, clock)
        self.referee = RefereeDesk(config, store, self.inputs, self.matches, self.evidence, clock)
        self.hub_alerts: list[DiskAlert] = []  # alerts of the whole hub (disk full), on every table
        # what the start-up check did to a damaged store, on every table
        self.notices: list[StoreChecked] = []

    @property
    def cursor(self) -> int:
        """How far the input log goes: every published state carries it."""
        return self.inputs.cursor

    # ------------------------------------------------------------ payloads

    def handle(self, item: object, batch: Batch) -> None:
        if isinstance(item, RefereeRequest):
            self.referee.handle(item, batch)
            return
        assert isinstance(item, RawMessage)
        batch.counts["received"] += 1
        if item.ack:
            batch.acks.append(item.ack)
        item = dataclasses.replace(
            item, received_ms=self.clock.timeline(item.received_ms)
        )  # stamped raw by ingest
        result = classify(
            item, self.config, self.registry, self.clocks, self.config.ingest.late_window_s * 1000
        )
        if isinstance(result, Rejected):
            self._reject(item, result, batch)
        elif isinstance(result, StatusIn):
            self.devices.status(item, result, self._session(result.device.table), batch)
        elif isinstance(result, TeleIn):
            self.devices.tele(item, result, self._session(result.device.table), batch)
        elif isinstance(result, EventIn):
            self._sensor(item, result, batch)
        elif isinstance(result, AnswerIn):
            live = self.matches.live.get(result.device.table)
            self.evidence.answer(item, result, live.match.id if live else None, batch)

    def _session(self, table: str) -> TableSession | None:
        live = self.matches.live.get(table)
        return live.session if live is not None else None

    def _reject(self, raw: RawMessage, r: Rejected, batch: Batch) -> None:
        known = r.device if r.device and self.config.device(r.device) else None  # strangers counted as one
        self.store.reject(
            raw.received_ms,
            raw.source,
            raw.topic or None,
            r.device,
            r.code,
            r.reason,
            raw.payload,
            size=raw.size,
            counted_as=known or "",
        )
        batch.counts["rejected"] += 1
        if r.key is not None:  # refused for what it says: it would be refused again, so it is settled
            self.evidence.settle(*r.key)
            batch.events.add(r.key[:2])
        if self.registry.on_rejected(r.device, r.code):
            log.warning(
                "rejected %s payload from %s on %r: %s (%s); further ones of this kind are only counted",
                raw.source,
                r.device or "unknown device",
                raw.topic,
                r.reason,
                r.code,
            )

    def _sensor(self, raw: RawMessage, e: EventIn, batch: Batch) -> None:
        inp, table = e.input, e.device.table
        live = self.matches.live.get(table)
        if live is not None and inp.role == "cue" and inp.event.device in live.cues:
            inp = dataclasses.replace(inp, seat=live.cues[inp.event.device])  # this match's cue pairing
        match_id = live.match.id if live else None
        suspect = self.evidence.verdict(inp, live.match.started_ms if live else None)
        row = self.inputs.append_sensor(table, match_id, raw.source, inp, suspect)
        self.registry.on_event(e.device.id, inp.event.boot, raw.received_ms)
        batch.devices.add(e.device.id)
        batch.events.add((e.device.id, inp.event.boot))
        if row is None:
            batch.dups.add((e.device.id, inp.event.boot))
            batch.counts["duplicates"] += 1
            self.evidence.duplicate(table, match_id, inp, raw.received_ms, batch)
            return
        batch.counts["accepted"] += 1
        batch.latencies.append(inp.received_ms)
        if live is None:
            return  # kept in the log (nothing accepted is lost), but there is no match to count it in
        batch.touched.add(table)
        self.evidence.stored(table, live.match.id, inp.event.key)
        if suspect is not None:  # stored, never folded into play (hub.ingest.timecheck)
            batch.counts["suspect_time"] += 1
            log.warning(
                "table %s: %s boot %d seq %d is dated impossibly (%s); stored, not counted",
                table,
                *inp.event.key,
                suspect,
            )
            self.evidence.suspect(table, live.match.id, inp, suspect)
            return
        self.matches.apply(table, live, inp, batch)

    def quarantine(self, item: object, exc: Exception, batch: Batch) -> None:
        """An item the store refuses every time (a bug, not a full disk): keep it as a rejection, go on."""
        if isinstance(item, RefereeRequest):
            batch.replies.append(
                (
                    item.future,
                    RefereeInputError(
                        f"the hub could not store this action ({exc}); nothing was changed",
                        f"хаб не смог сохранить действие ({exc}); ничего не изменено",
                        None,
                        UNAVAILABLE,
                    ),
                )
            )
            return
        assert isinstance(item, RawMessage)
        if item.ack:
            batch.acks.append(item.ack)
        self._reject(item, Rejected("store_error", f"the store refused this payload: {exc}", None), batch)

    # ------------------------------------------------------------ start, rollback, save

    def load(self) -> None:
        """Rebuild every live match of a configured table from the log (hub start), after the timeline is
        set."""
        self.evidence.load()
        live = self.store.matches(live_only=True)
        self.timebase.start(self.store.high_water(), self.devices.seen_boots(), bool(live), self.reachable)
        self.matches.load(live)

    def rewind(self, cursor: int, tables: set[str]) -> None:
        """After a rolled-back transaction: the log's cursor as it was before, and these tables' sessions and
        every live one folded again from the log."""
        self.inputs.rewind(cursor)
        self.matches.rebuild(tables | set(self.matches.live))

    def recover(self) -> None:
        """After a failed batch whose start is not known: the cursor as stored, every table's session
        again."""
        self.inputs.reread()
        self.matches.rebuild({t.id for t in self.config.tables})

    def save(self, batch: Batch, states: dict[str, TableView]) -> None:
        """Inside the transaction: devices, clocks, and each touched table's new state (kept for `luza
        replay`)."""
        if batch.broken:
            self.matches.rebuild(batch.broken)
        batch.counts["session_errors"] += self.matches.take_errors()
        for table in self.devices.save(batch):  # a device change is pushed to its table's screens
            if table not in states:
                states[table] = self.table_state(table)
        high = self.timebase.saving()
        if high is not None:
            self.store.save_high_water(high)
        if self.timebase.check(bool(self.matches.live)):  # the clock alert came or went: every table shows it
            batch.touched.update(t.id for t in self.config.tables)
        for t in batch.touched:
            view = states[t] = self.table_state(t)
            self.matches.save(t, view.match)

    def table_state(self, table_id: str) -> TableView:
        """The table's view (hub.view): its live match, the last one's final board, the hub's alerts, its
        devices; the hub stamps it with its revision when it publishes it."""
        quarantined = self.matches.quarantined.get(table_id)
        alerts: list[HubAlert] = [
            *self.hub_alerts,
            *self.timebase.alerts,
            *self.notices,
            *([quarantined] if quarantined else []),
            *self.evidence.of(table_id),
        ]
        return table_view(
            self.config,
            self.registry,
            table_id,
            self.inputs.cursor,
            self.matches.current(table_id),
            self.matches.last.get(table_id),
            alerts,
            self.clock(),
        )
