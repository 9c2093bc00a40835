"""What the log itself says about each live match's evidence, beside the score: holes in a node's seq, events
sent again with other content, events dated impossibly (and the referee's questions about the balls among
them), and the end-to-end delivery marks the nodes are sent (which seqs are stored, which to re-send, which
are gone).

`EvidenceDesk` owns that state and each table's evidence alerts; the router tells it what was stored (inside
the worker's transaction, collected in the `Batch`), the matches tell it when a match starts or is made live
again, and a table's state shows its alerts and questions.
"""

from __future__ import annotations

import logging

from hub.ingest import timecheck
from hub.ingest.delivery import Marks
from hub.ingest.intake import AnswerIn
from hub.ingest.mqtt import RawMessage
from hub.ingest.suspects import SuspectBalls, SuspectQuestion
from hub.reconcile.table import TableSession
from hub.service.batch import Batch
from hub.store import conflicts, gaps
from hub.store.database import Store
from hub.vocab.alerts import EvidenceAlert
from hub.vocab.inputs import SensorInput, input_to_record

log = logging.getLogger("luza.hub")


class EvidenceDesk:
    """Holes, conflicts, impossible times and delivery marks, with each table's evidence alerts by kind."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.holes = gaps.Holes()  # seqs of a node never stored (hub.store.gaps)
        self.marks = (
            Marks()
        )  # end-to-end delivery: stored marks, re-send requests, gone seqs (hub.ingest.delivery)
        self.times = timecheck.TimeCheck()  # impossible event times (stored, not folded into play)
        self.suspects = SuspectBalls()  # ... and the referee's questions about the balls among them
        # table -> kind -> alert (conflicts, holes, times)
        self.alerts: dict[str, dict[str, EvidenceAlert]] = {}

    # ------------------------------------------------------------ a match's evidence

    def load(self) -> None:
        """The gone ranges the store keeps (hub start)."""
        self.marks.load(self.store)

    def started(self, table: str, match_id: int) -> None:
        """A new match on `table`: the last one's alerts go; holes and suspect balls are the new match's."""
        self.alerts.pop(table, None)
        self.holes.load(self.store, table, match_id)
        self.suspects.load(self.store, table, match_id)

    def revived(self, table: str, match_id: int) -> None:
        """A stored live match made live again (hub start, a rebuild): its evidence and alerts from the
        log."""
        self.holes.load(self.store, table, match_id)
        self.suspects.load(self.store, table, match_id)
        found = {
            "conflicting_event": conflicts.alert(self.store, match_id),
            "impossible_time": timecheck.alert(self.store, match_id),
            "missing_events": self.holes.alert(table, match_id, self.marks.gone),
        }
        self.alerts[table] = {k: a for k, a in found.items() if a is not None}

    def of(self, table: str) -> list[EvidenceAlert]:
        """A table's evidence alerts, as its state shows them."""
        return [*self.alerts.get(table, {}).values()]

    def questions(self, table: str, session: TableSession) -> list[SuspectQuestion]:
        """The referee's open questions about the suspect balls of a table's live match."""
        return self.suspects.questions(table, session)

    # ------------------------------------------------------------ what the router stored

    def verdict(self, inp: SensorInput, match_started_ms: int | None) -> str | None:
        """Why this event's time is impossible (it is stored, never folded into play), or None."""
        return self.times.verdict(inp, match_started_ms)

    def settle(self, device: str, boot: int, seq: int) -> None:
        """An event refused for what it says: it will not be stored, so its seq is settled all the same."""
        self.marks.settle(device, boot, seq)

    def stored(self, table: str, match_id: int, key: tuple[str, int, int]) -> None:
        """An event of a live match was stored: a hole it opens or fills changes the table's alert."""
        if self.holes.update(self.store, table, match_id, *key):
            self._set(table, "missing_events", self.holes.alert(table, match_id, self.marks.gone))

    def suspect(self, table: str, match_id: int, inp: SensorInput, why: str) -> None:
        """An event of a live match stored with an impossible time: the alert, and a question if it was a
        ball."""
        self._set(table, "impossible_time", timecheck.alert(self.store, match_id))
        self.suspects.add(table, inp, why)

    def duplicate(
        self, table: str, match_id: int | None, inp: SensorInput, received_ms: int, batch: Batch
    ) -> None:
        """A key already stored: a conflict if the content differs (kept, counted, alerted;
        hub.store.conflicts)."""
        new = conflicts.check(self.store, table, match_id, inp.event.key, input_to_record(inp), received_ms)
        if new is None:
            return
        batch.counts["conflicts"] += 1
        if new and match_id is not None:
            log.warning(
                "table %s: %s boot %d seq %d arrived again with different content; kept as a conflict",
                table,
                *inp.event.key,
            )
            self._set(table, "conflicting_event", conflicts.alert(self.store, match_id))
            batch.touched.add(table)

    def answer(self, raw: RawMessage, a: AnswerIn, match_id: int | None, batch: Batch) -> None:
        """A node's answer to `resend`: the seqs it no longer holds are kept as gone, and their holes are
        final."""
        dev, ans = a.device, a.answer
        batch.counts["answers"] += 1
        batch.events.add((dev.id, ans.boot))
        before = self.marks.unasked
        new = self.marks.record_gone(self.store, dev.id, ans, raw.received_ms)
        if (
            self.marks.unasked > before
        ):  # only seqs the hub asked for can become final holes (hub.ingest.delivery)
            batch.counts["gone_unasked"] += self.marks.unasked - before
            log.warning(
                "%s boot %d: an answer calls %d seq(s) gone that the hub never asked for; ignored",
                dev.id,
                ans.boot,
                self.marks.unasked - before,
            )
        if not new:
            return
        batch.counts["gone"] += sum(b - f + 1 for f, b in new)
        log.warning(
            "%s boot %d: seqs %s are gone from the node (it can no longer send them); the hole is final",
            dev.id,
            ans.boot,
            ", ".join(f"{f}-{b}" for f, b in new),
        )
        if match_id is not None:
            self._set(dev.table, "missing_events", self.holes.alert(dev.table, match_id, self.marks.gone))
            batch.touched.add(dev.table)

    def _set(self, table: str, kind: str, alert: EvidenceAlert | None) -> None:
        """Set (or with None clear) one of a table's evidence alerts."""
        if alert is None:
            self.alerts.get(table, {}).pop(kind, None)
        else:
            self.alerts.setdefault(table, {})[kind] = alert
