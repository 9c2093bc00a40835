"""The referee's desk in the hub's worker: a referee action for a table, checked, applied to its match and
stored (a retried uid answered as the first time; a refused action stored as nothing), and the answer its
caller gets after the commit. Starting and ending a match go to `hub.service.matches.Matches`; everything
happens inside the worker's open transaction, collected in the `Batch`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass

from hub.config import Config
from hub.errors import NOT_FOUND, unknown_table
from hub.hubclock import HubClock
from hub.service.batch import Batch, RefereeReply, Replayed
from hub.service.evidence import EvidenceDesk
from hub.service.matches import Live, Matches
from hub.store.database import Store
from hub.store.inputlog import InputLog
from hub.store.inputs import ActionUid, StoredRefusal
from hub.vocab.checks import RefereeInputError
from hub.vocab.control_actions import DismissAlertAction, EndMatchAction, NextFrameAction, TimeUpAction
from hub.vocab.inputs import parse_referee_action
from hub.vocab.new_match import NewMatchAction

log = logging.getLogger("luza.hub")


@dataclass
class RefereeRequest:
    """A referee action for a table, waiting in the hub's queue; its future gets the answer after the
    commit."""

    table_id: str
    action: Mapping[str, object]
    future: Future[RefereeReply]


def no_alert(table_id: str, alert: str) -> RefereeInputError:
    """A dismissal of an alert the table does not show (never raised, gone, or a typo): 404, naming it."""
    return RefereeInputError(
        f"there is no alert {alert!r} to dismiss on table {table_id!r} (its alerts are in the "
        "state's `match.alerts`)",
        f"на столе {table_id!r} нет предупреждения {alert!r}, скрывать нечего (они — в "
        "`match.alerts` состояния)",
        "alert",
        NOT_FOUND,
    )


def answer_caller(fut: Future[RefereeReply], result: RefereeReply | BaseException) -> None:
    """Answer a referee caller; a future the caller cancelled or gave up on is left alone."""
    if fut.done():
        return
    try:
        if isinstance(result, BaseException):
            fut.set_exception(result)
        else:
            fut.set_result(result)
    except InvalidStateError:  # cancelled between the check and the answer
        pass


def _uid_of(action: object) -> str | None:
    """The action's uid if it is a valid one (a bad uid is refused later by parse_referee_action)."""
    uid = action.get("uid") if isinstance(action, Mapping) else None
    return uid if isinstance(uid, str) and 1 <= len(uid) <= 80 else None


class RefereeDesk:
    """Takes one referee request inside the worker's transaction: replays a known uid, or checks, applies and
    stores the action (refusals are answered and remembered by uid, nothing else is stored)."""

    def __init__(
        self,
        config: Config,
        store: Store,
        inputs: InputLog,
        matches: Matches,
        evidence: EvidenceDesk,
        clock: HubClock,
    ) -> None:
        self.config, self.store, self.inputs, self.clock = config, store, inputs, clock
        self.matches, self.evidence = matches, evidence

    def handle(self, item: RefereeRequest, batch: Batch) -> None:
        now = self.clock()
        uid = _uid_of(item.action) if self.config.table(item.table_id) is not None else None
        first = self.store.action_uid(item.table_id, uid) if uid else None
        if first is not None:  # sent again (a retry): the first answer, nothing applied twice
            batch.counts["referee_resent"] += 1
            batch.replies.append(
                (
                    item.future,
                    RefereeInputError(**first.refusal)
                    if first.refusal
                    else Replayed(item.table_id, first.cursor, first.match_id),
                )
            )
            return
        try:
            match_id = self._take(item, now, batch)
        except RefereeInputError as exc:
            log.info("table %s: referee action refused: %s", item.table_id, exc.en)
            batch.counts["referee_refused"] += 1
            batch.replies.append((item.future, exc))
            if uid:
                refusal: StoredRefusal = {"en": exc.en, "ru": exc.ru, "field": exc.field, "code": exc.code}
                self.store.remember_uid(item.table_id, uid, ActionUid(None, None, refusal), now)
            return
        if uid:
            self.store.remember_uid(item.table_id, uid, ActionUid(match_id, self.inputs.cursor, None), now)
        batch.counts["referee"] += 1
        batch.touched.add(item.table_id)
        batch.replies.append((item.future, item.table_id))

    def _take(self, item: RefereeRequest, now: int, batch: Batch) -> int:
        """Check the action and do it; the id of the match it went to. Raises RefereeInputError."""
        if self.config.table(item.table_id) is None:
            raise RefereeInputError.of(unknown_table(item.table_id, [t.id for t in self.config.tables]))
        action = parse_referee_action(item.action, now)
        act = action.action
        if isinstance(act, NewMatchAction):
            return self.matches.start(item.table_id, action, act, now)
        live = self.matches.require_live(item.table_id)
        if isinstance(act, NextFrameAction):
            self.matches.next_frame(item.table_id, live, action, now)
        elif isinstance(act, TimeUpAction):
            self.matches.time_up(item.table_id, live, action, now)
        elif isinstance(act, EndMatchAction):
            self.matches.end(item.table_id, action, now)
        elif isinstance(act, DismissAlertAction) and act.alert in live.session.dismissed:
            batch.counts["referee_repeated"] += 1  # dismissed already: nothing to store again
        elif isinstance(act, DismissAlertAction) and act.alert not in self._dismissable(item.table_id, live):
            raise no_alert(item.table_id, act.alert)
        else:
            self.matches.apply(
                item.table_id, live, action, batch
            )  # refuses an impossible one, nothing stored
            self.inputs.append_action(item.table_id, live.match.id, action, now)
        return live.match.id

    def _dismissable(self, table_id: str, live: Live) -> list[str]:
        """The ids a `dismiss_alert` may name now: the match's alerts and its suspect-ball questions."""
        return [
            *(a.id for a in live.session.alerts),
            *(q["id"] for q in self.evidence.questions(table_id, live.session)),
        ]
