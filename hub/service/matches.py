"""The referee's side of the router: referee actions (a retried uid answered as the first time, refused ones
stored as nothing) and the match lifecycle (new_match with its cue pairing, end_match). `Router` (hub.service.router)
inherits it; everything happens inside the hub's open transaction, collected in the `Batch`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from typing import Any

from hub.config import Config
from hub.errors import MALFORMED, NO_MATCH, NOT_FOUND, unknown_table
from hub.hubclock import HubClock
from hub.ingest.registry import Registry
from hub.ingest.suspects import SuspectBalls
from hub.reconcile.actions import DismissAlertAction, EndMatchAction, NewMatchAction
from hub.reconcile.board import enrich
from hub.reconcile.checks import RefereeInputError
from hub.reconcile.inputs import RefereeAction, SensorInput, input_to_record, parse_referee_action
from hub.reconcile.table import TableSession
from hub.service.batch import Batch, Replayed
from hub.service.rebuild import timing
from hub.service.snapshot import settings_snapshot
from hub.store import gaps
from hub.store.database import ActionUid, MatchRow, Store
from shared_rules.errors import RulesError

log = logging.getLogger("luza.hub")


@dataclass
class RefereeRequest:
    """A referee action for a table, waiting in the hub's queue; its future gets the answer after the commit."""

    table_id: str
    action: Mapping[str, object]
    future: Future[dict[str, Any]]


def no_alert(table_id: str, alert: str) -> RefereeInputError:
    """A dismissal of an alert the table does not show (never raised, gone, or a typo): 404, naming it."""
    return RefereeInputError(f"there is no alert {alert!r} to dismiss on table {table_id!r} (its alerts are in the "
                             "state's `match.alerts`)",
                             f"на столе {table_id!r} нет предупреждения {alert!r}, скрывать нечего (они — в "
                             "`match.alerts` состояния)", "alert", NOT_FOUND)


def answer_caller(fut: Future[dict[str, Any]], result: object) -> None:
    """Answer a referee caller; a future the caller cancelled or gave up on is left alone."""
    if fut.done():
        return
    try:
        if isinstance(result, BaseException):
            fut.set_exception(result)
        else:
            fut.set_result(result)  # type: ignore[arg-type]
    except InvalidStateError:  # cancelled between the check and the answer
        pass


def _uid_of(action: object) -> str | None:
    """The action's uid if it is a valid one (a bad uid is refused later by parse_referee_action)."""
    uid = action.get("uid") if isinstance(action, Mapping) else None
    return uid if isinstance(uid, str) and 1 <= len(uid) <= 80 else None


@dataclass
class Live:
    """A table's live match: its stored row, its session and its cue pairing."""

    match: MatchRow
    session: TableSession
    cues: dict[str, int] = field(default_factory=dict)  # cue node -> seat for this match (new_match `cues`)


class MatchDesk:
    """Referee actions and the match lifecycle, on the router's state (declared here, set by `Router`)."""

    config: Config
    store: Store
    registry: Registry
    clock: HubClock
    cursor: int
    live: dict[str, Live]
    last: dict[str, dict[str, Any]]
    quarantined: dict[str, dict[str, Any]]
    evidence: dict[str, dict[str, dict[str, Any]]]
    holes: gaps.Holes
    suspects: SuspectBalls

    def _apply(self, table: str, live: Live, inp: SensorInput | RefereeAction, batch: Batch) -> None:
        raise NotImplementedError  # Router's

    def health(self, table_id: str, session: TableSession) -> None:
        raise NotImplementedError  # Router's

    def _referee(self, item: RefereeRequest, batch: Batch) -> None:
        now = self.clock()
        uid = _uid_of(item.action) if self.config.table(item.table_id) is not None else None
        first = self.store.action_uid(item.table_id, uid) if uid else None
        if first is not None:  # sent again (a retry): the first answer, nothing applied twice
            batch.counts["referee_resent"] += 1
            batch.replies.append((item.future, RefereeInputError(**first.refusal) if first.refusal else
                                  Replayed(item.table_id, first.cursor, first.match_id)))
            return
        try:
            if self.config.table(item.table_id) is None:
                raise RefereeInputError.of(unknown_table(item.table_id, [t.id for t in self.config.tables]))
            action = parse_referee_action(item.action, now)
            act = action.action
            if isinstance(act, NewMatchAction):
                match_id = self._new_match(item.table_id, action, act, now)
            else:
                live = self._require_live(item.table_id)
                match_id = live.match.id
                if isinstance(act, EndMatchAction):
                    self._end_match(item.table_id, action, now)
                elif isinstance(act, DismissAlertAction) and act.alert in live.session.dismissed:
                    batch.counts["referee_repeated"] += 1  # dismissed already: nothing to store again
                elif isinstance(act, DismissAlertAction) and act.alert not in self._dismissable(item.table_id, live):
                    raise no_alert(item.table_id, act.alert)
                else:
                    self._apply(item.table_id, live, action, batch)  # refuses an impossible one, nothing stored
                    self.cursor = self.store.append_action(item.table_id, match_id, now, now,
                                                           input_to_record(action))
        except RefereeInputError as exc:
            log.info("table %s: referee action refused: %s", item.table_id, exc.en)
            batch.counts["referee_refused"] += 1
            batch.replies.append((item.future, exc))
            if uid:
                refusal = {"en": exc.en, "ru": exc.ru, "field": exc.field, "code": exc.code}
                self.store.remember_uid(item.table_id, uid, ActionUid(None, None, refusal), now)
            return
        if uid:
            self.store.remember_uid(item.table_id, uid, ActionUid(match_id, self.cursor, None), now)
        batch.counts["referee"] += 1
        batch.touched.add(item.table_id)
        batch.replies.append((item.future, item.table_id))

    def _dismissable(self, table_id: str, live: Live) -> list[str]:
        """The ids a `dismiss_alert` may name now: the match's alerts and its suspect-ball questions."""
        return [*(a.id for a in live.session.alerts), *(q["id"] for q in self.suspects.questions(table_id, live.session))]

    def _require_live(self, table_id: str) -> Live:
        live = self.live.get(table_id)
        if live is None:
            raise RefereeInputError(f"no match is being played on table {table_id!r}; start one (new_match)",
                                    f"на столе {table_id!r} нет партии; начните новую (new_match)", "table",
                                    NO_MATCH)
        return live

    def _new_match(self, table_id: str, action: RefereeAction, act: NewMatchAction, now: int) -> int:
        ids = self._player_ids(act.player_ids)  # refused before anything is ended or stored
        old = self.live.get(table_id)
        if old is not None:
            if not old.session.match.state.over:
                raise RefereeInputError(
                    f"table {table_id!r} has match {old.match.id} in play; end it first (end_match)",
                    f"на столе {table_id!r} идёт партия {old.match.id}; сначала завершите её (end_match)", "table")
            self._end_match(table_id, RefereeAction("end_match", {"reason": "new match"}, now), now)
        variant, players, options = act.variant, act.players, dict(act.options)
        cues = self._cues(table_id, act.cues)
        try:
            session = TableSession(table_id, variant, (players[0], players[1]), options, timing(self.config.settle))
        except RulesError as exc:  # the engine's word on the variant or an option; a bug is not caught here
            raise RefereeInputError(f"cannot start the match: {exc.en}", f"нельзя начать партию: {exc.ru}",
                                    "variant", MALFORMED) from exc
        self.health(table_id, session)
        snap = settings_snapshot(self.config, table_id, variant, options, session.timing, self.registry)
        match_id = self.store.new_match(table_id, variant, players, options, now, snap, ids)
        session.match_id = match_id
        self.cursor = self.store.append_action(table_id, match_id, now, now, input_to_record(action))
        match = self.store.match(match_id)
        assert match is not None
        self.live[table_id] = Live(match, session, cues)
        self.last.pop(table_id, None)
        self.quarantined.pop(table_id, None)
        self.evidence.pop(table_id, None)
        self.holes.load(self.store, table_id, match_id)
        self.suspects.load(self.store, table_id, match_id)
        return match_id

    def _player_ids(self, ids: Sequence[int | None] | None) -> tuple[int | None, int | None]:
        """The registry ids a new match names, each as it stands now (a merged duplicate: the player it was
        merged into); a refusal names an id the registry does not hold."""
        out: list[int | None] = []
        for seat, pid in enumerate(ids or (None, None)):
            now_id = None if pid is None else self.store.resolve_player(pid)
            if pid is not None and now_id is None:
                raise RefereeInputError(
                    f"player_ids: no player {pid} in the registry (seat {seat + 1}); choose one (GET /api/players)",
                    f"player_ids: игрока {pid} нет в реестре (место {seat + 1}); выберите из реестра",
                    "player_ids", MALFORMED)
            out.append(now_id)
        if out[0] is not None and out[0] == out[1]:
            raise RefereeInputError("player_ids: a player cannot play against themself",
                                    "player_ids: игрок не может играть сам с собой", "player_ids", MALFORMED)
        return out[0], out[1]

    def _cues(self, table_id: str, cues: Mapping[str, int]) -> dict[str, int]:
        """Check a match's cue pairing {cue node: seat} against the table's configured cue nodes."""
        t = self.config.table(table_id)
        known = [d.id for d in t.devices if d.role == "cue"] if t else []
        for dev in cues:
            if dev not in known:
                raise RefereeInputError(
                    f"cues: {dev!r} is not a cue node of table {table_id!r} (its cue nodes: {', '.join(known) or 'none'})",
                    f"cues: {dev!r} — не датчик кия стола {table_id!r} (датчики кия: {', '.join(known) or 'нет'})",
                    "cues", MALFORMED)
        return {str(d): int(seat) for d, seat in cues.items()}

    def _cues_of(self, match: MatchRow) -> dict[str, int]:
        """The cue pairing a stored match was started with (its new_match action)."""
        for row in self.store.inputs(match_id=match.id):
            rec = row.record
            if rec.get("type") == "referee" and rec.get("kind") == "new_match":
                cues = (rec.get("args") or {}).get("cues") or {}
                return {str(d): int(s) for d, s in cues.items()} if isinstance(cues, dict) else {}
            break
        return {}

    def _end_match(self, table_id: str, action: RefereeAction, now: int) -> None:
        live = self._require_live(table_id)
        live.session.apply(action)  # closes the open shot; refuses if the session cannot end here
        self.cursor = self.store.append_action(table_id, live.match.id, now, now, input_to_record(action))
        board = live.session.scoreboard()
        self.store.save_state(live.match.id, board)
        self.store.end_match(live.match.id, now)
        del self.live[table_id]
        self.last[table_id] = enrich(board, live.session, live.match.started_ms, now, live.match.player_ids)
