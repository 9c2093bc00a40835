"""Committing a batch: the worker's items handled in ONE store transaction, and what a commit that fails does.

A store error (locked, I/O, disk full) leaves nothing acknowledged: the sessions are rebuilt from the log, the
hub alert goes on every screen and the batch is tried again with backoff; an error that is not operational and
repeats is narrowed to its item, which is kept as a rejection (quarantined). A bug (any other exception)
rebuilds the sessions and tries the items one by one, so only the item at fault is lost and its caller is
answered. Stopping with a batch that cannot be committed leaves it unacknowledged,
for the broker to redeliver to the next hub.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable

from hub.errors import UNAVAILABLE
from hub.service.batch import Batch
from hub.service.referee import RefereeRequest, answer_caller
from hub.service.router import Router
from hub.store.database import Store
from hub.view.table import TableView
from hub.vocab.alerts import DiskAlert, disk_full_alert
from hub.vocab.checks import RefereeInputError

log = logging.getLogger("luza.hub")

Alert = Callable[[DiskAlert | None], None]  # raise (or with None clear) the hub alert
# a batch and its table states (None: a rejection)
Committed = Callable[[Batch, dict[str, TableView] | None], None]


class Committer:
    """Commits the worker's batches through `router` into `store`;
    `committed` acts on each one that went through."""

    def __init__(
        self,
        router: Router,
        store: Store,
        stats: Counter[str],
        stopping: threading.Event,
        alert: Alert,
        committed: Committed,
    ) -> None:
        self.router, self.store, self.stats, self.stopping = router, store, stats, stopping
        self.alert, self.committed = alert, committed

    def commit(self, items: list[object]) -> None:
        """Commit a batch; if that raises (a bug, not a store error), the sessions are rebuilt from the store
        and the items are tried one by one, so only the item at fault is lost (its caller is answered)."""
        try:
            self._commit_batch(items)
            return
        except Exception as exc:
            log.exception("the worker failed on a batch of %d item(s); going on", len(items))
            self.stats["worker_errors"] += 1
            self._recover()
            if len(items) == 1:
                item = items[0]
                if isinstance(item, RefereeRequest):
                    answer_caller(
                        item.future,
                        RefereeInputError(
                            f"internal error of the hub ({type(exc).__name__}); the action was not confirmed",
                            f"внутренняя ошибка хаба ({type(exc).__name__}); действие не подтверждено",
                            None,
                            UNAVAILABLE,
                        ),
                    )
                return
        for item in items:
            self.commit([item])

    def _recover(self) -> None:
        """After a failed batch (rolled back): the cursor and every table's session as the store has them."""
        self.router.recover()

    def _commit_batch(self, items: list[object]) -> None:
        """Handle `items` in one transaction and act on them after its commit. A failed commit leaves nothing
        acknowledged; the sessions are rebuilt from the log and the batch is tried again with backoff. An
        error that is not operational (locked, I/O, full) and repeats is narrowed to its
        item, which is quarantined."""
        delay, failures = 0.05, 0
        router, store = self.router, self.store
        while True:
            batch, cursor = Batch(), router.cursor
            states: dict[str, TableView] = {}
            try:
                with store.transaction():
                    for item in items:
                        router.handle(item, batch)
                    router.save(batch, states)
                break
            except sqlite3.Error as exc:
                failures += 1
                self.stats["commit_failures"] += 1
                router.rewind(cursor, batch.touched)
                self.alert(disk_full_alert(exc))  # on every screen until a commit goes through
                if self.stopping.is_set():
                    self._abandon(items, exc)
                    return
                if not isinstance(exc, sqlite3.OperationalError) and failures >= 3:
                    if len(items) > 1:
                        for item in items:  # find the one the store refuses; the others go through
                            self._commit_batch([item])
                        return
                    self._quarantine(items[0], exc)
                    return
                log.error("commit failed (%s); nothing acknowledged, retrying in %.2f s", exc, delay)
                time.sleep(delay)
                delay = min(delay * 2, 2.0)
        self.committed(batch, states)

    def _abandon(self, items: list[object], exc: Exception) -> None:
        """Stopping with a batch that cannot be committed: it stays unacknowledged, so the broker redelivers
        it to the next hub; referee callers are told it was not stored."""
        log.error(
            "stopping with %d uncommitted input(s) (%s); MQTT ones are redelivered on the next start",
            len(items),
            exc,
        )
        for item in items:
            if isinstance(item, RefereeRequest):
                answer_caller(
                    item.future,
                    RefereeInputError(
                        f"the hub stopped before storing this action ({exc})",
                        f"хаб остановлен до сохранения действия ({exc})",
                        None,
                        UNAVAILABLE,
                    ),
                )

    def _quarantine(self, item: object, exc: Exception) -> None:
        """Keep an input the store refuses every time as a rejection,
        so it is acknowledged and not tried again."""
        log.error("the store refuses an input every time (%s); keeping it as a rejection", exc)
        batch = Batch()
        try:
            with self.store.transaction():
                self.router.quarantine(item, exc, batch)
        except sqlite3.Error as again:
            log.error("could not store the rejection either (%s); the input stays unacknowledged", again)
            return
        self.committed(batch, None)
