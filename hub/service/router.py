"""The worker's routing of one item inside a batch's transaction: payloads and referee actions -> store + sessions.

`Router` owns the live TableSessions. Everything it does happens inside the hub's open transaction and is
collected in a `Batch`; the hub acknowledges, answers, publishes and counts only after the commit (see
hub.service.hub). A referee action is tried on its session first, so an impossible one is refused with nothing
stored; a sensor input is stored first, then applied (by contract it never raises).
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from hub.config import Config
from hub.errors import UNAVAILABLE
from hub.hubclock import HubClock
from hub.ingest import timecheck
from hub.ingest.clockmap import ClockMap
from hub.ingest.delivery import Marks
from hub.ingest.devices import table_devices
from hub.ingest.intake import AnswerIn, EventIn, Rejected, StatusIn, TeleIn, classify
from hub.ingest.mqtt import RawMessage
from hub.ingest.registry import Registry
from hub.ingest.suspects import SuspectBalls
from hub.ingest.timebase import RECENT_MS, Timebase
from hub.reconcile.board import enrich
from hub.reconcile.checks import RefereeInputError
from hub.reconcile.inputs import RefereeAction, SensorInput, input_to_record
from hub.reconcile.table import TableSession, strict
from hub.service.batch import Batch
from hub.service.matches import Live, MatchDesk, RefereeRequest
from hub.service.rebuild import UnreadableMatch, rebuild_session
from hub.store import conflicts, gaps
from hub.store.database import MatchRow, Store
from luza_wire import protocol

__all__ = ["Router", "quarantine_alert"]

log = logging.getLogger("luza.hub")



class Router(MatchDesk):
    """Routes one item of a batch: payloads to the store and the sessions (referee actions: `MatchDesk`)."""

    def __init__(self, config: Config, store: Store, registry: Registry, clocks: ClockMap, clock: HubClock,
                 reachable: bool = True) -> None:
        self.config, self.store, self.registry, self.clocks, self.clock = config, store, registry, clocks, clock
        self.reachable = reachable  # the hub hears nodes (a broker or a serial port): a restart can join their clocks
        self.timebase = Timebase(clock, clocks)  # never below the store, joined to it after a restart
        self.live: dict[str, Live] = {}
        self.last: dict[str, dict[str, Any]] = {}  # table -> final scoreboard of its last match, until a new one
        self.plain: dict[str, dict[str, Any]] = {}  # table -> the session's scoreboard as stored (luza replay)
        self.cursor = store.last_input_id()
        self.quarantined: dict[str, dict[str, Any]] = {}  # table -> alert of its last match, set aside
        self.hub_alerts: list[dict[str, Any]] = []  # alerts of the whole hub (disk full), on every table
        self.notices: list[dict[str, Any]] = []  # what the start-up check did to a damaged store, on every table
        self.holes = gaps.Holes()  # seqs of a node never stored (hub.store.gaps)
        self.marks = Marks()  # end-to-end delivery: stored marks, re-send requests, gone seqs (hub.ingest.delivery)
        self.times = timecheck.TimeCheck()  # impossible event times (stored, not folded into play)
        self.suspects = SuspectBalls()  # ... and the referee's questions about the balls among them
        self.evidence: dict[str, dict[str, dict[str, Any]]] = {}  # table -> kind -> alert (conflicts, times)
        self.errors = 0  # internal errors of sessions rebuilt outside a batch (start-up), counted with the next

    # ------------------------------------------------------------ payloads

    def handle(self, item: object, batch: Batch) -> None:
        if isinstance(item, RefereeRequest):
            self._referee(item, batch)
            return
        assert isinstance(item, RawMessage)
        batch.counts["received"] += 1
        if item.ack:
            batch.acks.append(item.ack)
        item = dataclasses.replace(item, received_ms=self.clock.timeline(item.received_ms))  # stamped raw by ingest
        result = classify(item, self.config, self.registry, self.clocks, self.config.ingest.late_window_s * 1000)
        if isinstance(result, Rejected):
            self._reject(item, result, batch)
        elif isinstance(result, StatusIn):
            self._status(item, result, batch)
        elif isinstance(result, TeleIn):
            tele = result.tele
            self.registry.on_tele(result.device.id, tele.boot, tele.fields, item.received_ms)
            live = self.live.get(result.device.table)
            if live is not None and result.device.role == "pocket":
                live.session.health = tuple(self.registry.health(result.device.table))
                batch.touched.add(result.device.table)
            up = tele.fields.get("up")
            if isinstance(up, int):  # the node's uptime now: a fresh sample of that boot's clock offset
                received = self.timebase.sample(result.device.id, tele.boot, up, item.received_ms)
                self.clocks.observe(result.device.id, tele.boot, up, received)
            batch.devices.add(result.device.id)
            batch.counts["updates"] += 1
        elif isinstance(result, EventIn):
            self._sensor(item, result, batch)
        elif isinstance(result, AnswerIn):
            self._answer(item, result, batch)

    def _status(self, raw: RawMessage, s: StatusIn, batch: Batch) -> None:
        st, dev = s.status, s.device
        if self.registry.on_status(dev.id, st.state, st.boot, st.fw, st.ip, st.error, raw.received_ms, st.ota):
            batch.births.append((dev.table, dev.id, raw.link))
        batch.devices.add(dev.id)
        batch.counts["updates"] += 1
        live = self.live.get(dev.table)
        if live is not None:
            live.session.device_status(dev.id, dev.role, st.state == "online")
            batch.touched.add(dev.table)

    def _reject(self, raw: RawMessage, r: Rejected, batch: Batch) -> None:
        known = r.device if r.device and self.config.device(r.device) else None  # strangers counted as one
        self.store.reject(raw.received_ms, raw.source, raw.topic or None, r.device, r.code, r.reason, raw.payload,
                          size=raw.size,
                          counted_as=known or "")
        batch.counts["rejected"] += 1
        if r.key is not None:  # refused for what it says: it would be refused again, so it is settled
            self.marks.settle(*r.key)
            batch.events.add(r.key[:2])
        if self.registry.on_rejected(r.device, r.code):
            log.warning("rejected %s payload from %s on %r: %s (%s); further ones of this kind are only counted",
                        raw.source, r.device or "unknown device", raw.topic, r.reason, r.code)

    def _sensor(self, raw: RawMessage, e: EventIn, batch: Batch) -> None:
        inp, table = e.input, e.device.table
        live = self.live.get(table)
        if live is not None and inp.role == "cue" and inp.event.device in live.cues:
            inp = dataclasses.replace(inp, seat=live.cues[inp.event.device])  # this match's cue pairing
        record = input_to_record(inp)
        suspect = self.times.verdict(inp, live.match.started_ms if live else None)
        if suspect is not None:
            record["suspect"] = suspect
        row = self.store.append_sensor(table, live.match.id if live else None, raw.source, inp.event.key,
                                       inp.at_ms, inp.received_ms, record)
        self.registry.on_event(e.device.id, inp.event.boot, raw.received_ms)
        batch.devices.add(e.device.id)
        batch.events.add((e.device.id, inp.event.boot))
        if row is None:
            batch.dups.add((e.device.id, inp.event.boot))
            batch.counts["duplicates"] += 1
            self._duplicate(table, live, inp, raw, batch)
            return
        batch.counts["accepted"] += 1
        batch.latencies.append(inp.received_ms)
        self.cursor = row
        if live is None:
            return  # kept in the log (nothing accepted is lost), but there is no match to count it in
        batch.touched.add(table)
        if self.holes.update(self.store, table, live.match.id, *inp.event.key):
            self._evidence(table, "missing_events", self.holes.alert(table, live.match.id, self.marks.gone))
        if suspect is not None:  # stored, never folded into play (hub.ingest.timecheck)
            batch.counts["suspect_time"] += 1
            log.warning("table %s: %s boot %d seq %d is dated impossibly (%s); stored, not counted", table,
                        *inp.event.key, suspect)
            self._evidence(table, "impossible_time", timecheck.alert(self.store, live.match.id))
            self.suspects.add(table, inp, suspect)
            return
        self._apply(table, live, inp, batch)

    def _apply(self, table: str, live: Live, inp: SensorInput | RefereeAction, batch: Batch) -> None:
        """Fold one input into a live session. An internal error there holds the table with an alert and is
        counted (the session does it; in strict mode it raises). One that escapes the session (a bug in its
        own recovery) is counted and the session is rebuilt from the log; a referee's refusal passes through."""
        session = live.session
        before = session.errors
        try:
            session.apply(inp)
        except RefereeInputError:
            raise
        except Exception:
            if strict():
                raise
            log.exception("table %s: session failed on an input; rebuilding it from the log", table)
            batch.counts["session_errors"] += 1
            batch.broken.add(table)
        finally:
            batch.counts["session_errors"] += session.errors - before

    def _answer(self, raw: RawMessage, a: AnswerIn, batch: Batch) -> None:
        """A node's answer to `resend`: the seqs it no longer holds are kept as gone, and their holes are final."""
        dev, ans = a.device, a.answer
        batch.counts["answers"] += 1
        batch.events.add((dev.id, ans.boot))
        before = self.marks.unasked
        new = self.marks.record_gone(self.store, dev.id, ans, raw.received_ms)
        if self.marks.unasked > before:  # only seqs the hub asked for can become final holes (hub.ingest.delivery)
            batch.counts["gone_unasked"] += self.marks.unasked - before
            log.warning("%s boot %d: an answer calls %d seq(s) gone that the hub never asked for; ignored", dev.id,
                        ans.boot, self.marks.unasked - before)
        if not new:
            return
        batch.counts["gone"] += sum(b - f + 1 for f, b in new)
        log.warning("%s boot %d: seqs %s are gone from the node (it can no longer send them); the hole is final",
                    dev.id, ans.boot, ", ".join(f"{f}-{b}" for f, b in new))
        live = self.live.get(dev.table)
        if live is not None:
            self._evidence(dev.table, "missing_events", self.holes.alert(dev.table, live.match.id, self.marks.gone))
            batch.touched.add(dev.table)

    def _duplicate(self, table: str, live: Live | None, inp: SensorInput, raw: RawMessage, batch: Batch) -> None:
        """A key already stored: a conflict if the content differs (kept, counted, alerted; see hub.store.conflicts)."""
        match_id = live.match.id if live else None
        new = conflicts.check(self.store, table, match_id, inp.event.key, input_to_record(inp), raw.received_ms)
        if new is None:
            return
        batch.counts["conflicts"] += 1
        if new and match_id is not None:
            log.warning("table %s: %s boot %d seq %d arrived again with different content; kept as a conflict",
                        table, *inp.event.key)
            self._evidence(table, "conflicting_event", conflicts.alert(self.store, match_id))
            batch.touched.add(table)

    def _evidence(self, table: str, kind: str, alert: dict[str, Any] | None) -> None:
        """Set (or with None clear) one of a table's evidence alerts (conflicts, holes, impossible times)."""
        if alert is None:
            self.evidence.get(table, {}).pop(kind, None)
        else:
            self.evidence.setdefault(table, {})[kind] = alert

    def quarantine(self, item: object, exc: Exception, batch: Batch) -> None:
        """An item the store refuses every time (a bug, not a full disk): keep it as a rejection, go on."""
        if isinstance(item, RefereeRequest):
            batch.replies.append((item.future, RefereeInputError(
                f"the hub could not store this action ({exc}); nothing was changed",
                f"хаб не смог сохранить действие ({exc}); ничего не изменено", None, UNAVAILABLE)))
            return
        assert isinstance(item, RawMessage)
        if item.ack:
            batch.acks.append(item.ack)
        self._reject(item, Rejected("store_error", f"the store refused this payload: {exc}", None), batch)

    # ------------------------------------------------------------ sessions and state

    def load(self) -> None:
        """Rebuild every live match of a configured table from the log (hub start). A match with a row that
        cannot be read is set aside (quarantined): its table shows an alert and may start a new match."""
        self.marks.load(self.store)
        live = self.store.matches(live_only=True)
        self.timebase.start(self.store.high_water(), self._seen_boots(), bool(live), self.reachable)  # before any date
        for m in live:
            if self.config.table(m.table_id) is None:
                log.warning("match %d is on table %r, which is no longer in luza.toml; left as it is", m.id,
                            m.table_id)
                continue
            self._revive(m)
        set_aside = self.store.quarantined()
        for t in self.config.tables:  # the final board of a table's last match stays until the next one starts
            matches = self.store.matches(table_id=t.id)
            if matches and matches[-1].id in set_aside and t.id not in self.quarantined:
                _, cursor, reason, _ = set_aside[matches[-1].id]
                self.quarantined[t.id] = quarantine_alert(matches[-1].id, cursor, reason)
            done = [m for m in matches if m.status == "ended" and m.id not in set_aside]
            if t.id not in self.live and done:
                m = done[-1]
                try:
                    ended = self.session(m)
                except UnreadableMatch:
                    continue
                self.last[t.id] = enrich(ended.scoreboard(), ended, m.started_ms, m.ended_ms, m.player_ids)

    def _seen_boots(self) -> list[tuple[str, int]]:
        """The boots of configured nodes seen shortly before the store's high-water mark: they may still be up."""
        since = self.store.high_water() - RECENT_MS
        out = []
        for t in self.config.tables:
            for d in t.devices:
                dev = self.registry.get(d.id)
                if dev is not None and dev.boot is not None and (dev.last_seen_ms or 0) >= since:
                    out.append((d.id, dev.boot))
        return out

    def _revive(self, m: MatchRow) -> None:
        """Make a stored live match live again, or quarantine it if it cannot be read."""
        try:
            self.live[m.table_id] = Live(m, self.session(m), self._cues_of(m))
            self.holes.load(self.store, m.table_id, m.id)
            self.suspects.load(self.store, m.table_id, m.id)
            found = {"conflicting_event": conflicts.alert(self.store, m.id),
                     "impossible_time": timecheck.alert(self.store, m.id),
                     "missing_events": self.holes.alert(m.table_id, m.id, self.marks.gone)}
            self.evidence[m.table_id] = {k: a for k, a in found.items() if a is not None}
        except UnreadableMatch as exc:
            log.error("table %s: match %d is set aside (quarantined): %s; the table may start a new match",
                      m.table_id, m.id, exc.reason)
            self.store.quarantine_match(m, exc.cursor, exc.reason, self.clock())
            self.quarantined[m.table_id] = quarantine_alert(m.id, exc.cursor, exc.reason)

    def session(self, match: MatchRow) -> TableSession:
        session = rebuild_session(self.store, match, self.config.settle)
        self.errors += session.errors  # counted with the next batch
        self.health(match.table_id, session)
        return session

    def health(self, table_id: str, session: TableSession) -> None:
        """Tell a new or rebuilt session which of its table's nodes are down (appliance health, not the log)."""
        t = self.config.table(table_id)
        for d in t.devices if t else ():
            dev = self.registry.get(d.id)
            if dev is not None and dev.state in ("lost", "offline", "error"):
                session.device_status(d.id, d.role, False)

    def rebuild(self, tables: set[str]) -> None:
        """Throw away the in-memory sessions of these tables and fold them again from the log."""
        for t in tables:
            self.live.pop(t, None)
            for m in self.store.matches(table_id=t, live_only=True):
                self._revive(m)

    def save(self, batch: Batch, states: dict[str, dict[str, Any]]) -> None:
        """Inside the transaction: devices, clocks, and each touched table's new state (kept for `luza replay`)."""
        if batch.broken:
            self.rebuild(batch.broken)
        batch.counts["session_errors"] += self.errors
        self.errors = 0
        for dev in batch.devices:
            self.store.save_device(dev, self.registry.row(dev))
            d = self.config.device(dev)
            if d is not None and d.table not in states:  # a device change is pushed to its table's screens
                states[d.table] = self.table_state(d.table)
        batch.clocks = self.clocks.dirty()
        for (dev, boot), (offset, up) in batch.clocks.items():
            self.store.save_clock(dev, boot, offset, self.clock(), up)
        high = self.timebase.saving()
        if high is not None:
            self.store.save_high_water(high)
        if self.timebase.check(bool(self.live)):  # the clock alert came or went: every table shows it
            batch.touched.update(t.id for t in self.config.tables)
        for t in batch.touched:
            states[t] = self.table_state(t)
            live = self.live.get(t)
            if live is not None:
                self.store.save_state(live.match.id, self.plain[t])

    def table_state(self, table_id: str) -> dict[str, Any]:
        """What luza/v1/<table>/state carries: the table, the cursor, and its live match's scoreboard (or None)."""
        t = self.config.table(table_id)
        live = self.live.get(table_id)
        board = None
        if live is not None:
            plain = self.plain[table_id] = live.session.scoreboard()
            board = enrich(plain, live.session, live.match.started_ms, player_ids=live.match.player_ids)
            board["questions"] = [*board["questions"], *self.suspects.questions(table_id, live.session)]
        alerts = [*self.hub_alerts, *self.timebase.alerts, *self.notices,
                  *([self.quarantined[table_id]] if table_id in self.quarantined else []),
                  *self.evidence.get(table_id, {}).values()]
        return {"v": protocol.STATE_VERSION, "table": table_id, "name": t.name if t else table_id, "club": self.config.club,
                "cursor": self.cursor, "match_id": live.match.id if live else None,
                "match": board, "last_match": self.last.get(table_id), "alerts": alerts,
                "devices": table_devices(self.config, self.registry, table_id, live.session if live else None,
                                         live.cues if live else {}, self.clock())}


def quarantine_alert(match_id: int, cursor: int | None, reason: str) -> dict[str, Any]:
    """The table alert for a match set aside because a stored row of it cannot be read."""
    row = f"row {cursor}" if cursor is not None else "its match row"
    return {"kind": "match_quarantined", "match_id": match_id, "cursor": cursor, "severity": "error",
            "en": f"match {match_id} cannot be read from the store ({row} is damaged) and is set aside; "
                  "start a new match (`luza replay` shows what is left of it)",
            "ru": f"партию {match_id} не удаётся прочитать из базы (повреждена запись {cursor or 'партии'}); "
                  "она отложена — начните новую партию", "reason": reason}
