"""The tables' matches as the hub's worker keeps them: the live ones (each with its stored row, its session
and its cue pairing), the final board of each table's last match, and the matches set aside because their log
cannot be read (quarantined). `Matches` starts and ends a match, makes stored live matches live again (hub
start, a rebuild after a failed commit) and folds inputs into their sessions; everything happens inside the
worker's transaction, collected in the `Batch`. Who may start or end one is the referee desk's business
(hub.service.referee).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from hub.config import Config
from hub.errors import MALFORMED, NO_MATCH
from hub.hubclock import HubClock
from hub.ingest.registry import Registry
from hub.reconcile.frames import Frames
from hub.reconcile.shotclock import ShotClock
from hub.reconcile.table import TableSession, strict
from hub.service.batch import Batch
from hub.service.devices import DeviceDesk
from hub.service.evidence import EvidenceDesk
from hub.service.rebuild import Replay, UnreadableMatch, rebuild_session, timing
from hub.service.snapshot import settings_snapshot
from hub.store.database import Store
from hub.store.inputlog import InputLog
from hub.store.matches import MatchRow
from hub.view.build import LiveMatch, match_view, stored
from hub.view.match import MatchView
from hub.view.shot import QuestionView
from hub.vocab.alerts import MatchSetAside
from hub.vocab.checks import RefereeInputError
from hub.vocab.inputs import RefereeAction, SensorInput
from hub.vocab.new_match import NewMatchAction
from shared_rules.errors import RulesError

log = logging.getLogger("luza.hub")


@dataclass
class Live:
    """A table's live match: its stored row, its session, its cue pairing and its race."""

    match: MatchRow
    # the frame in play (hub/reconcile/frames.py: a race keeps the frames before in `frames`)
    session: TableSession
    cues: dict[str, int] = field(default_factory=dict)  # cue node -> seat for this match (new_match `cues`)
    frames: Frames = field(default_factory=Frames)


class Matches:
    """Each table's live match, last final board and quarantine alert; starting, ending and reviving
    matches."""

    def __init__(
        self,
        config: Config,
        store: Store,
        inputs: InputLog,
        registry: Registry,
        devices: DeviceDesk,
        evidence: EvidenceDesk,
        clock: HubClock,
    ) -> None:
        self.config, self.store, self.inputs, self.registry, self.clock = (
            config,
            store,
            inputs,
            registry,
            clock,
        )
        self.devices, self.evidence = devices, evidence
        self.live: dict[str, Live] = {}
        self.last: dict[str, MatchView] = {}  # table -> final board of its last match, until a new one starts
        self.quarantined: dict[str, MatchSetAside] = {}  # table -> alert of its last match, set aside
        self.errors = (
            0  # internal errors of sessions rebuilt outside a batch (start-up), counted with the next
        )

    # ------------------------------------------------------------ loading and rebuilding

    def load(self, live: list[MatchRow]) -> None:
        """Make the stored live matches (`live`) of configured tables live again, and give each table the
        final board of its last match. A match with a row that cannot be read is set aside (quarantined): its
        table shows an alert and may start a new match."""
        for m in live:
            if self.config.table(m.table_id) is None:
                log.warning(
                    "match %d is on table %r, which is no longer in luza.toml; left as it is",
                    m.id,
                    m.table_id,
                )
                continue
            self.revive(m)
        set_aside = self.store.quarantined()
        for (
            t
        ) in self.config.tables:  # the final board of a table's last match stays until the next one starts
            matches = self.store.matches(table_id=t.id)
            if matches and matches[-1].id in set_aside and t.id not in self.quarantined:
                _, cursor, reason, _ = set_aside[matches[-1].id]
                self.quarantined[t.id] = quarantine_alert(matches[-1].id, cursor, reason)
            done = [m for m in matches if m.status == "ended" and m.id not in set_aside]
            if t.id not in self.live and done:
                m = done[-1]
                try:
                    ended = self.rebuilt(m)
                except UnreadableMatch:
                    continue
                self.last[t.id] = match_view(
                    ended.session, m.started_ms, m.ended_ms, frames=ended.frames, player_ids=m.player_ids
                )

    def revive(self, m: MatchRow) -> None:
        """Make a stored live match live again, or quarantine it if it cannot be read."""
        try:
            rebuilt = self.rebuilt(m)
            self.live[m.table_id] = Live(m, rebuilt.session, self.cues_of(m), rebuilt.frames)
            self.evidence.revived(m.table_id, m.id)
        except UnreadableMatch as exc:
            log.error(
                "table %s: match %d is set aside (quarantined): %s; the table may start a new match",
                m.table_id,
                m.id,
                exc.reason,
            )
            self.store.quarantine_match(m, exc.cursor, exc.reason, self.clock())
            self.quarantined[m.table_id] = quarantine_alert(m.id, exc.cursor, exc.reason)

    def rebuilt(self, match: MatchRow) -> Replay:
        """A stored match folded again from its log: its frame in play (told which of its table's nodes are
        down) and its race."""
        rebuilt = rebuild_session(self.store, match, self.config.settle)
        # counted with the next batch
        self.errors += sum(s.errors for s in (*rebuilt.frames.done, rebuilt.session))
        self.devices.health(match.table_id, rebuilt.session)
        return rebuilt

    def rebuild(self, tables: set[str]) -> None:
        """Throw away the in-memory sessions of these tables and fold them again from the log."""
        for t in tables:
            self.live.pop(t, None)
            for m in self.store.matches(table_id=t, live_only=True):
                self.revive(m)

    def take_errors(self) -> int:
        """The sessions' internal errors seen outside a batch since the last call (counted with this one)."""
        errors, self.errors = self.errors, 0
        return errors

    # ------------------------------------------------------------ play

    def apply(self, table: str, live: Live, inp: SensorInput | RefereeAction, batch: Batch) -> None:
        """Fold one input into a live session. An internal error there holds the table with an alert and is
        counted (the session does it; in strict mode it raises). One that escapes the session (a bug in its
        own recovery) is counted and the session is rebuilt from the log; a referee's refusal passes
        through."""
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

    def require_live(self, table_id: str) -> Live:
        live = self.live.get(table_id)
        if live is None:
            raise RefereeInputError(
                f"no match is being played on table {table_id!r}; start one (new_match)",
                f"на столе {table_id!r} нет партии; начните новую (new_match)",
                "table",
                NO_MATCH,
            )
        return live

    def start(self, table_id: str, action: RefereeAction, act: NewMatchAction, now: int) -> int:
        """Start a match (ending a finished one first); its id. Refuses one while a match is in play."""
        ids = self._player_ids(act.player_ids)  # refused before anything is ended or stored
        old = self.live.get(table_id)
        if old is not None:
            if not (old.session.match.state.over and old.frames.decided(old.session)):
                raise RefereeInputError(
                    f"table {table_id!r} has match {old.match.id} in play; end it first (end_match)",
                    f"на столе {table_id!r} идёт партия {old.match.id}; сначала завершите её (end_match)",
                    "table",
                )
            self.end(table_id, RefereeAction("end_match", {"reason": "new match"}, now), now)
        variant, players, options = act.variant, act.players, dict(act.options)
        cues = self._cues(table_id, act.cues)
        clock = ShotClock.of_request(act.shot_clock.model_dump() if act.shot_clock is not None else None)
        try:
            frames = Frames(act.rules(), started_ms=now)
            session = TableSession(
                table_id,
                variant,
                (players[0], players[1]),
                options,
                timing(self.config.settle),
                opening=frames.opening(),
                clock=clock,
            )
        # the engine's word on the variant, an option or the race; a bug is not caught
        except RulesError as exc:
            raise RefereeInputError(
                f"cannot start the match: {exc.en}", f"нельзя начать партию: {exc.ru}", "variant", MALFORMED
            ) from exc
        self.devices.health(table_id, session)
        snap = settings_snapshot(
            self.config, table_id, variant, options, session.timing, self.registry, clock
        )
        match_id = self.store.new_match(table_id, variant, players, options, now, snap, ids)
        session.match_id = match_id
        self.inputs.append_action(table_id, match_id, action, now)
        match = self.store.match(match_id)
        assert match is not None
        self.live[table_id] = Live(match, session, cues, frames)
        self.last.pop(table_id, None)
        self.quarantined.pop(table_id, None)
        self.evidence.started(table_id, match_id)
        return match_id

    def end(self, table_id: str, action: RefereeAction, now: int) -> None:
        """End the table's live match (the session closes its open shot, or refuses); its board stays
        shown."""
        live = self.require_live(table_id)
        live.session.apply(action)  # closes the open shot; refuses if the session cannot end here
        live.frames.abandon_if_undecided(live.session, str(action.args.get("reason") or ""))
        self.inputs.append_action(table_id, live.match.id, action, now)
        final = match_view(
            live.session, live.match.started_ms, now, frames=live.frames, player_ids=live.match.player_ids
        )
        self.store.save_state(live.match.id, stored(final))
        self.store.end_match(live.match.id, now)
        del self.live[table_id]
        self.last[table_id] = final

    def next_frame(self, table_id: str, live: Live, action: RefereeAction, now: int) -> None:
        """Start the race's next frame (general 11, A-G4): the frame in play must be over (its open shot
        closes here) and the match not won."""
        session = live.session
        why = live.frames.refusal(session)
        if why is not None:
            raise RefereeInputError(f"table {table_id!r}: {why[0]}", f"стол {table_id!r}: {why[1]}", "kind")
        session.apply(action)  # the frame ends: its open shot closes
        self.inputs.append_action(table_id, live.match.id, action, now)
        nxt = live.frames.advance(
            session,
            lambda opening: TableSession(
                table_id,
                session.variant,
                session.players,
                session.options,
                session.timing,
                match_id=live.match.id,
                opening=opening,
                clock=session.clock,
            ),
        )  # the match's clock; each frame's extensions afresh
        # the closed shot did not end the frame after all: it stays, ended, as the replay has it
        if nxt is None:
            log.warning(
                "table %s: next_frame closed frame %d but it is not over", table_id, len(live.frames.done) + 1
            )
            return
        self.devices.health(table_id, nxt)
        live.session = nxt

    def _player_ids(self, ids: Sequence[int | None] | None) -> tuple[int | None, int | None]:
        """The registry ids a new match names, each as it stands now (a merged duplicate: the player it was
        merged into); a refusal names an id the registry does not hold."""
        out: list[int | None] = []
        for seat, pid in enumerate(ids or (None, None)):
            now_id = None if pid is None else self.store.resolve_player(pid)
            if pid is not None and now_id is None:
                raise RefereeInputError(
                    f"player_ids: no player {pid} in the registry (seat {seat + 1}); "
                    "choose one (GET /api/players)",
                    f"player_ids: игрока {pid} нет в реестре (место {seat + 1}); выберите из реестра",
                    "player_ids",
                    MALFORMED,
                )
            out.append(now_id)
        if out[0] is not None and out[0] == out[1]:
            raise RefereeInputError(
                "player_ids: a player cannot play against themself",
                "player_ids: игрок не может играть сам с собой",
                "player_ids",
                MALFORMED,
            )
        return out[0], out[1]

    def time_up(self, table_id: str, live: Live, action: RefereeAction, now: int) -> None:
        """The match time is up (general A-G6): recorded with the race, in the frame in play."""
        why = live.frames.time_refusal(live.session)
        if why is not None:
            raise RefereeInputError(f"table {table_id!r}: {why[0]}", f"стол {table_id!r}: {why[1]}", "kind")
        self.inputs.append_action(table_id, live.match.id, action, now)
        live.frames.call_time(live.session)

    def time_due(self, now: int) -> tuple[list[tuple[str, int]], int | None]:
        """The live matches whose time limit has run out with the time not yet called (table, match id), and
        the hub ms of the next deadline still to come (None: none)."""
        due: list[tuple[str, int]] = []
        nxt: int | None = None
        for table_id, live in self.live.items():
            deadline = live.frames.deadline_ms
            if deadline is None or live.frames.time_called is not None or live.frames.decided(live.session):
                continue
            if deadline <= now:
                due.append((table_id, live.match.id))
            else:
                nxt = deadline if nxt is None else min(nxt, deadline)
        return due, nxt

    def _cues(self, table_id: str, cues: Mapping[str, int]) -> dict[str, int]:
        """Check a match's cue pairing {cue node: seat} against the table's configured cue nodes."""
        t = self.config.table(table_id)
        known = [d.id for d in t.devices if d.role == "cue"] if t else []
        for dev in cues:
            if dev not in known:
                raise RefereeInputError(
                    f"cues: {dev!r} is not a cue node of table {table_id!r} "
                    f"(its cue nodes: {', '.join(known) or 'none'})",
                    f"cues: {dev!r} — не датчик кия стола {table_id!r} "
                    f"(датчики кия: {', '.join(known) or 'нет'})",
                    "cues",
                    MALFORMED,
                )
        return {str(d): int(seat) for d, seat in cues.items()}

    def cues_of(self, match: MatchRow) -> dict[str, int]:
        """The cue pairing a stored match was started with (its new_match action)."""
        for row in self.store.inputs(match_id=match.id):
            rec = row.record
            if rec.get("type") == "referee" and rec.get("kind") == "new_match":
                cues = (rec.get("args") or {}).get("cues") or {}
                return {str(d): int(s) for d, s in cues.items()} if isinstance(cues, dict) else {}
            break
        return {}

    # ------------------------------------------------------------ boards

    def current(self, table_id: str) -> LiveMatch | None:
        """The table's live match as its view is built from it
        (with the hub's suspect-ball questions), or None."""
        live = self.live.get(table_id)
        if live is None:
            return None
        asked = self.evidence.questions(table_id, live.session)
        return LiveMatch(
            live.session,
            live.match.id,
            live.match.started_ms,
            live.cues,
            [QuestionView.model_validate(q) for q in asked],
            live.frames,
            live.match.player_ids,
        )

    def save(self, table_id: str, view: MatchView | None) -> None:
        """Inside the transaction: the live match's board as just built (what `luza replay` compares with)."""
        live = self.live.get(table_id)
        if live is not None and view is not None:
            self.store.save_state(live.match.id, stored(view))


def quarantine_alert(match_id: int, cursor: int | None, reason: str) -> MatchSetAside:
    """The table alert for a match set aside because a stored row of it cannot be read."""
    row = f"row {cursor}" if cursor is not None else "its match row"
    return MatchSetAside(
        kind="match_quarantined",
        match_id=match_id,
        cursor=cursor,
        severity="error",
        en=f"match {match_id} cannot be read from the store ({row} is damaged) and is set aside; "
        "start a new match (`luza replay` shows what is left of it)",
        ru=f"партию {match_id} не удаётся прочитать из базы (повреждена запись {cursor or 'партии'}); "
        "она отложена — начните новую партию",
        reason=reason,
    )
