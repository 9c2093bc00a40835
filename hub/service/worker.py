"""The hub's worker loop (hub.service.hub starts it on its own thread): it takes what has queued up as one
batch (group commit: while one commit is under way the next batch queues up), commits it (hub.service.commit),
and in the quiet moments between batches sends what falls due: a stored mark held back by its rate limit, the
referee actions held while the hub joins the store's timeline, a `time_up` for a match whose time limit has
run out (general A-G6). The markers the hub queues beside the payloads (`STOP`, `CONNECTED`, `RECONNECTED`)
are acted on here.
"""

from __future__ import annotations

import logging
import queue
import time
from collections import Counter
from collections.abc import Callable, Mapping

from hub.config import Config
from hub.hubclock import HubClock
from hub.ingest.registry import Registry
from hub.service.commit import Committer
from hub.service.inbox import Inbox, Outstanding
from hub.service.node_commands import NodeCommands
from hub.service.referee import RefereeRequest
from hub.service.router import Router
from hub.store.database import Store

log = logging.getLogger("luza.hub")

STOP = object()  # the hub stops: commit what has arrived, then end the loop
# connected to the broker: every node gets the hub's time (and answers with a fresh sample)
CONNECTED = object()
RECONNECTED = object()  # the broker lost the hub's session: ask the nodes to re-send (hub.ingest.delivery)
_MARKERS = (STOP, CONNECTED, RECONNECTED)
TIME_UP_POLL_S = 1.0  # how often, at most, the worker looks again at a match time limit still to run out


class Worker:
    """The loop of the hub's worker thread (`run`): batches from the inbox into the store, and what falls due
    between them. It owns the held referee actions and the time-ups it has queued."""

    def __init__(
        self,
        config: Config,
        clock: HubClock,
        inbox: Inbox,
        pending: Outstanding,
        router: Router,
        store: Store,
        registry: Registry,
        committer: Committer,
        nodes: NodeCommands,
        stats: Counter[str],
        submit: Callable[[str, Mapping[str, object]], object],
    ) -> None:
        self.config, self.clock, self.inbox, self.pending = config, clock, inbox, pending
        self.router, self.store, self.registry = router, store, registry
        self.committer, self.nodes, self.stats = committer, nodes, stats
        self.submit = submit  # a referee action into the inbox (Hub.submit_async)
        self._time_up_sent: set[int] = set()  # matches whose time_up this hub has queued (general A-G6)
        self._held: list[object] = []  # referee actions waiting while the hub joins the store's timeline

    def run(self) -> None:
        """Take batches until `STOP` (what came with it is committed first)."""
        marks = self.router.evidence.marks
        while True:
            try:
                first = self.inbox.get(self._wait_s())
            # a stored mark held back by its rate limit is due, or the wait of held actions
            except queue.Empty:
                self.nodes.deliver(marks.flush())
                self._release()
                self._time_ups()
                continue
            items = self._batch(first)
            stop = items[-1] is STOP
            if any(i is CONNECTED for i in items):
                self.nodes.time_to_all()
            if any(i is RECONNECTED for i in items):
                self._reconnected()
            work = [i for i in items if all(i is not m for m in _MARKERS)]
            self.pending.done(sum(1 for i in items if i is RECONNECTED or i is CONNECTED))
            for kind, n in self.inbox.shed.items():
                self.stats["shed_" + kind] = n
            self._commit(self._hold(work))
            self._release(force=stop)
            if stop:
                return
            self._time_ups()

    def _batch(self, first: object) -> list[object]:
        """`first` and what queues up within the group commit's wait, up to a batch's size (or `STOP`)."""
        items = [first]
        deadline = time.monotonic() + self.config.store.group_commit_ms / 1000
        while len(items) < self.config.store.max_batch and items[-1] is not STOP:
            try:
                items.append(self.inbox.get(max(deadline - time.monotonic(), 0.0)))
            except queue.Empty:
                break
        return items

    def _wait_s(self) -> float | None:
        """How long the worker may wait for the queue: until a held-back stored mark or
        the held actions are due."""
        router = self.router
        waits = [
            w
            for w in (
                router.evidence.marks.due_in(),
                router.timebase.due_in() if self._held else None,
                self._time_up_in(),
            )
            if w is not None
        ]
        return min(waits) if waits else None

    def _time_up_in(self) -> float | None:
        """Seconds until a live match's time limit runs out (general A-G6), at most TIME_UP_POLL_S: the hub's
        timeline may move faster than the wait (a wall-clock step, the tests' clock)."""
        _, nxt = self.router.matches.time_due(self.clock())
        return None if nxt is None else min(max((nxt - self.clock()) / 1000, 0.0), TIME_UP_POLL_S)

    def _time_ups(self) -> None:
        """Queue a `time_up` for every live match whose time limit has run out (general A-G6). Its uid
        `time-up-<match>` is stored with the action, so it is applied once, across restarts too (a resend is
        answered from the store); until it is committed it is not queued again."""
        due, _ = self.router.matches.time_due(self.clock())
        for table_id, match_id in due:
            if match_id in self._time_up_sent:
                continue
            self._time_up_sent.add(match_id)
            log.info("table %s: match %d: its time limit has run out (time_up)", table_id, match_id)
            self.submit(table_id, {"kind": "time_up", "uid": f"time-up-{match_id}"})

    def _commit(self, work: list[object]) -> None:
        if not work:
            return
        self.committer.commit(work)
        self.pending.done(len(work))

    def _hold(self, work: list[object]) -> list[object]:
        """Referee actions wait while the hub joins the store's timeline after a restart (hub.ingest.timebase:
        at most a few seconds), so none is dated on a timeline about to move."""
        if not (self._held or self.router.timebase.holding()):
            return work
        self._held += [i for i in work if isinstance(i, RefereeRequest)]
        return [i for i in work if not isinstance(i, RefereeRequest)]

    def _release(self, force: bool = False) -> None:
        """The held referee actions, once the timeline is settled (or the hub stops)."""
        if self._held and (force or not self.router.timebase.holding()):
            held, self._held = self._held, []
            self._commit(held)

    def _reconnected(self) -> None:
        """The broker lost the hub's session: every configured node with a known boot is asked to re-send
        what the hub has not stored (hub.ingest.delivery)."""
        boots = ((d.id, self.registry.current_boot(d.id)) for t in self.config.tables for d in t.devices)
        self.nodes.deliver(
            self.router.evidence.marks.reconnected(self.store, [(d, b) for d, b in boots if b is not None])
        )
