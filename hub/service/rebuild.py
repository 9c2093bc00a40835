"""Re-deriving a match from its stored log: the hub's start-up rebuild and `luza replay` share this code.

A match is the fold of its inputs, in cursor order, through a new TableSession per frame. `new_match` and
`next_frame` rows are the service's routing (they open the match and its frames), not inputs of a session;
`end_match` is both.
"""

from __future__ import annotations

import dataclasses
import logging
import sqlite3
from collections.abc import Mapping
from typing import Any

from hub.config import ShotTiming
from hub.ingest.timecheck import suspect_of
from hub.reconcile.frames import Frames, rules_of
from hub.reconcile.shotclock import ShotClock
from hub.reconcile.table import TableSession, strict
from hub.service.snapshot import stored_settle
from hub.store.database import Store
from hub.store.inputs import UNREADABLE
from hub.store.integrity import is_damage
from hub.store.matches import MatchRow, StoredBoardJSON
from hub.view.build import scoreboard
from hub.vocab.action_types import MatchControl
from hub.vocab.checks import RefereeInputError
from hub.vocab.inputs import RecordError, RefereeAction, SensorInput, input_from_record
from shared_rules.errors import RulesError

log = logging.getLogger("luza.rebuild")


def timing(settle: Mapping[str, float]) -> ShotTiming:
    """The config's [settle] times as a ShotTiming (unknown names were refused by hub.config)."""
    names = {f.name for f in dataclasses.fields(ShotTiming)}
    return ShotTiming(**{k: v for k, v in settle.items() if k in names})  # type: ignore[arg-type]


@dataclasses.dataclass
class Replay:
    session: TableSession  # the frame in play (or the last frame)
    frames: Frames = dataclasses.field(default_factory=Frames)  # the race: its rules and the frames before
    inputs: int = 0
    refused: list[tuple[int, str]] = dataclasses.field(default_factory=list)  # (cursor, why) not applied
    unreadable: list[tuple[int, str]] = dataclasses.field(default_factory=list)  # (cursor, why) rows not JSON
    # (cursor, code): impossible time
    suspect: list[tuple[int, str]] = dataclasses.field(default_factory=list)

    def scoreboard(self) -> StoredBoardJSON:
        """The match's stored board as JSON (hub.view.build.scoreboard):
        the frame in play's, with its race."""
        return scoreboard(self.session, self.frames)


class UnreadableMatch(ValueError):
    """A stored row of this match cannot be read: the hub sets the match aside
    (quarantine), the table goes on."""

    def __init__(self, match: MatchRow, cursor: int | None, reason: str) -> None:
        super().__init__(reason)
        self.match, self.cursor, self.reason = match, cursor, reason


def new_frame(
    match: MatchRow, settle: ShotTiming, frames: Frames, after: TableSession | None
) -> TableSession:
    """The session of a match's next frame (the first when `after` is None), opened by the race's rules."""
    return TableSession(
        match.table_id,
        match.variant,
        match.players,
        match.options,
        settle,
        match_id=match.id,
        opening=frames.opening(after),
        clock=ShotClock.of_snapshot(match.settings),
    )


class _Folder:
    """Folds one match's stored rows into its frames' sessions (replay_match)."""

    def __init__(self, match: MatchRow, settle: ShotTiming) -> None:
        self.match, self.settle = match, settle
        self.frames = Frames(started_ms=match.started_ms)
        self.out = Replay(new_frame(match, settle, self.frames, None))
        self.rows: list[int] = []  # the frame in play's log index -> the stored row

    def routed(self, row_id: int, inp: RefereeAction) -> None:
        """new_match sets the race: its first frame opens by it;
        time_up calls the match time (general A-G6)."""
        if inp.kind == "time_up":
            why = self.frames.time_refusal(self.out.session)
            if why is None:
                self.frames.call_time(self.out.session)
            else:
                self.out.refused.append((row_id, f"time_up: {why[0]}"))
            return
        if inp.kind != "new_match":
            return
        try:
            self.frames.rules = rules_of(inp.args)
        except RulesError as exc:
            self.out.refused.append((row_id, f"new_match: {exc.en}"))
            return
        if not self.frames.done and not self.out.session.log:
            self.out.session = new_frame(self.match, self.settle, self.frames, None)

    def next_frame(self) -> None:
        """A next_frame row was folded into the frame in play (it ended it):
        the next frame starts, as on the hub."""
        session = self.out.session
        nxt = self.frames.advance(
            session,
            lambda opening: TableSession(
                self.match.table_id,
                self.match.variant,
                self.match.players,
                self.match.options,
                self.settle,
                match_id=self.match.id,
                opening=opening,
                clock=session.clock,
            ),
        )
        if nxt is not None:
            self.faults()
            self.out.session = nxt
            self.rows = []

    def apply(self, row_id: int, inp: SensorInput | RefereeAction) -> None:
        out, session = self.out, self.out.session
        out.inputs += 1
        try:
            session.apply(inp)
            if isinstance(inp, RefereeAction) and inp.kind == "end_match":
                self.frames.abandon_if_undecided(session, str(inp.args.get("reason") or ""))
        except RefereeInputError as exc:
            out.refused.append((row_id, exc.en))
        # a bug the session could not hold itself: listed and logged (raised if strict)
        except Exception as exc:
            if strict():
                raise
            log.exception("match %d: input %d failed in the session", self.match.id, row_id)
            out.refused.append((row_id, f"session error: {exc!r}"))
            session.errors += 1
        finally:
            if len(self.rows) < len(session.log):
                self.rows.append(row_id)  # the session's log index -> the stored row
        if isinstance(inp, RefereeAction) and inp.kind == "next_frame" and session.ended:
            self.next_frame()

    def faults(self) -> None:
        """The inputs the frame in play held with an internal error, listed by their stored rows."""
        # held with an alert in the session
        for index, (shot, why) in sorted(self.out.session.faults.items()):
            self.out.refused.append(
                (self.rows[index], f"internal error at shot {shot} (scoring held there): {why}")
            )


def replay_match(store: Store, match: MatchRow, settle: Mapping[str, float]) -> Replay:
    """Fold a match's stored inputs into new sessions, one per frame; inputs that cannot be applied are
    listed, not fatal. A `next_frame` row ends a frame (hub/reconcile/frames.py).

    The settle times stored with the match (hub.service.snapshot) win over `settle` (today's config), which is
    used only for matches stored before snapshots existed."""
    settle = stored_settle(match.settings) or settle
    folder = _Folder(match, timing(settle))
    out = folder.out
    for row in store.inputs(match_id=match.id):
        if row.record.get("type") == UNREADABLE:
            out.unreadable.append((row.id, str(row.record.get("error"))))
        try:
            inp = input_from_record(row.record)
        except RecordError as exc:
            out.refused.append((row.id, f"unreadable record: {exc}"))
            continue
        if isinstance(inp, RefereeAction) and isinstance(inp.action, MatchControl) and inp.action.routed:
            folder.routed(row.id, inp)
            continue
        # stored, never folded into play (hub.ingest.timecheck)
        if (code := suspect_of(row.record)) is not None:
            out.suspect.append((row.id, code))
            continue
        folder.apply(row.id, inp)
    folder.faults()
    out.frames = folder.frames
    for cursor, why in out.refused:
        log.warning("match %d: stored input %d not applied on replay: %s", match.id, cursor, why)
    return out


def rebuild_session(store: Store, match: MatchRow, settle: Mapping[str, float]) -> Replay:
    """The live sessions of a stored match (the frame in play and the race); UnreadableMatch if the match row
    or one of its inputs is damaged."""
    if match.damaged:
        raise UnreadableMatch(match, None, match.damaged)
    try:
        replay = replay_match(store, match, settle)
    except sqlite3.DatabaseError as exc:  # a torn page under its rows (hub.store.integrity)
        if not is_damage(exc):
            raise
        raise UnreadableMatch(
            match, None, f"its stored inputs are on a damaged page of the database ({exc})"
        ) from None
    if replay.unreadable:
        cursor, why = replay.unreadable[0]
        raise UnreadableMatch(match, cursor, f"stored input {cursor} cannot be read ({why})")
    return replay


HEALTH_ALERTS = ("node_offline",)  # alerts about the appliance (device status), not derived from the log
# the race's time (table view 5, general A-G6)
TIME_LIMIT_KEYS = ("time_limit_min", "time_rule", "time_called", "deadline_ms")


def comparable(board: Mapping[str, Any] | None) -> Any:
    """A scoreboard without what the log cannot re-derive: node-offline alerts come from device status
    messages, which are not match inputs, so a replay cannot (and need not) reproduce them."""
    if not isinstance(board, Mapping):
        return board
    out = dict(board)
    if isinstance(out.get("alerts"), list):
        out["alerts"] = [
            a for a in out["alerts"] if not (isinstance(a, Mapping) and a.get("kind") in HEALTH_ALERTS)
        ]
    return out


def stored_differences(stored: Mapping[str, Any], derived: Mapping[str, Any]) -> list[str]:
    """Where a refold's board (`derived`) departs from the one the hub stored, health alerts aside
    (`comparable`). A board stored before matches had a race (table view 1) has no `race`: a single frame with
    no handicap is compared without it (all it says is in the frame's own fields);
    any other race must be there."""
    a, b = comparable(stored), comparable(derived)
    race = b.get("race")
    if (
        "race" not in a
        and isinstance(race, Mapping)
        and race.get("race_to") == 1
        and race.get("handicap") is None
    ):
        b.pop("race")
    old = a.get("race")
    # a board stored before view 5 has no time limit: its race is compared without the time fields
    if isinstance(old, Mapping) and "time_rule" not in old and isinstance(race, Mapping):
        b["race"] = {k: v for k, v in race.items() if k not in TIME_LIMIT_KEYS}
    return differences(a, b)


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, as readable paths (for `luza replay` to report)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        out: list[str] = []
        for k in sorted(set(a) | set(b), key=str):
            out += differences(a.get(k), b.get(k), f"{path}.{k}" if path else str(k))
        return out
    if isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += differences(x, y, f"{path}[{i}]")
        return out
    return [] if a == b else [f"{path or '(root)'}: {a!r} != {b!r}"]
