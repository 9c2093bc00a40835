"""TableSession: one live match on one table, the deterministic fold of its hub inputs.

Hub inputs (sensor events and referee actions) are folded in time order (`at_ms`, ties by arrival) into
*steps*: shots (cut by `hub.reconcile.assembler.ShotAssembler`) and the engine inputs the referee enters (lag,
choose, interference, concede, decide). Closed steps are *committed*: played on `self.match`, the rules
engine. The open shot is *provisional*: played on top of the committed match for the
scoreboard, then taken back.

- An input in order costs one assembler step, plus one engine play when a shot closes (the common path).
- An input older than one already applied (a node's outbox after an outage), a removed strike, or a late drop
  the referee calls a new shot, changes how shots are cut from its own time on: the fold is taken back to that
  point (hub/reconcile/trail.py) and played forward again. The cost is the inputs after it, not the match.
- A correction to a committed shot (an identified ball, a foul, a ball that fell within 5 s of the close)
  rewinds the engine to that shot and plays on from there.
- A shot the engine refuses holds scoring there (an alert says why) until the referee corrects it; later
  steps wait, nothing is dropped. A stored referee action that no longer fits after a late input is
  skipped with an alert.
- An internal error (a bug) while folding an input leaves that input out, holds scoring with an
  `internal_error` alert naming the shot, and is counted (`errors`); the input is tried again whenever the
  fold passes it. With `LUZA_STRICT=1` in the environment (the tests) the error is raised instead.
"""

from __future__ import annotations

import logging
import os
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from hub.config import ShotTiming
from hub.reconcile.assembler import ShotAssembler
from hub.reconcile.collect import collect_alerts, collect_questions
from hub.reconcile.cuts import Cut, ShotCuts
from hub.reconcile.fold import AmendmentEntry, Fold, HubInput
from hub.reconcile.running import RunningScores
from hub.reconcile.shotclock import ShotClock
from hub.reconcile.statuses import TableStatus
from hub.reconcile.timeline import Provisional, Step
from hub.reconcile.trail import Mark, shared_intact
from hub.vocab.action_types import MatchControl
from hub.vocab.amendments import ConfirmAction, RemoveAction
from hub.vocab.checks import RefereeInputError
from hub.vocab.evidence import ShotEvidence
from hub.vocab.inputs import RefereeAction, SensorInput, input_key
from hub.vocab.notices import Alert, Question
from shared_rules import Match
from shared_rules.opening import PLAIN, Opening
from shared_rules.outcome import Outcome
from shared_rules.state import Mode

__all__ = ["TableSession", "rederived", "strict"]

log = logging.getLogger("luza.table")


def strict() -> bool:
    """Re-raise internal errors instead of holding the table (LUZA_STRICT=1: the test suite sets it)."""
    return os.environ.get("LUZA_STRICT", "") not in ("", "0")


class TableSession:
    """One live match on one table; the same inputs always give the same state."""

    def __init__(
        self,
        table_id: str,
        variant: str,
        players: tuple[str, str],
        options: Mapping[str, object],
        settle: ShotTiming | None = None,
        match_id: int | str | None = None,
        opening: Opening = PLAIN,
        clock: ShotClock | None = None,
    ) -> None:
        self.table_id = table_id
        self.variant = variant
        self.players = (str(players[0]), str(players[1]))
        self.options = dict(options)
        self.timing = settle or ShotTiming()
        self.match_id = match_id
        self.opening = opening  # the frame's breaker and handicap in a race (shared_rules/opening.py)
        self.clock = clock or ShotClock()  # the shot clock (hub/reconcile/shotclock.py); off by default
        # a bad variant, option or handicap fails here
        self._fold = Fold(variant, self.players, self.options, self.timing, opening, self.clock)
        self._log: list[HubInput] = []
        self._keys: dict[object, None] = {}  # the inputs applied (a dict: half a set's memory at a thousand)
        self._trail: list[Mark] = []  # one mark per folded input, in time order
        self._offline: dict[str, str] = {}
        # the actions that re-cut the shots (a removed strike, a late drop made a shot)
        self._cuts = ShotCuts()
        self._faults: dict[int, tuple[int, str]] = {}  # log index -> (shot number, error) of inputs left out
        # sensor-health alerts (hub/ingest/health.py), set by the service per report
        self.health: tuple[Any, ...] = ()
        self.rewinds = 0  # inputs that took the fold back (late ones, or ones that change the cut)
        self.refolded = 0  # inputs folded again after a rewind
        self.errors = 0  # internal errors met while folding (the service counts them)
        self._running = RunningScores()

    # ------------------------------------------------------------ public

    def apply(self, inp: HubInput) -> None:
        """Fold one input in. Raises RefereeInputError for an impossible referee action (state unchanged);
        a sensor input never raises. An input whose key was already applied is ignored."""
        key = input_key(inp)
        if key is not None and key in self._keys:
            return
        if isinstance(inp, RefereeAction) and isinstance(inp.action, MatchControl) and inp.action.routed:
            raise RefereeInputError(
                "new_match is handled by the service: end this match, then start one",
                "новую партию начинает сервис: завершите эту партию и начните новую",
                "kind",
            )
        index = len(self._log)
        in_order = bisect_right(self._trail, (inp.at_ms, index), key=self._order) == len(self._trail)
        if in_order and isinstance(inp, RefereeAction):
            self._fold.precheck(inp)  # the plain refusals, before anything changes
        self._log.append(inp)
        try:
            self._place(index, inp, in_order)
        except RefereeInputError:
            self._log.pop()
            raise
        if key is not None:
            self._keys[key] = None

    def device_status(self, device: str, role: str, online: bool) -> None:
        """A node's status (birth/Last Will) from the service: offline mid-match raises an alert.

        Not part of the log: it says how the appliance is, not what happened in the match."""
        if online:
            self._offline.pop(device, None)
        else:
            self._offline[device] = role

    @property
    def match(self) -> Match:
        """The committed engine match (every closed step that the engine accepted)."""
        return self._fold.tl.match

    @property
    def status(self) -> TableStatus:
        """live | held (a shot waits for the referee: refused, unplayable until a need is answered, or an
        internal error) | ended."""
        if self._fold.ended:
            return TableStatus.ENDED
        prov = self.provisional()
        held = self._fold.tl.held() is not None or (prov is not None and prov.error) or self._faults
        waits = self.match.state.mode == Mode.HELD or (
            prov is not None and prov.state is not None and prov.state.mode == Mode.HELD
        )
        # waits: the engine holds a shot for a ball's number or colour
        return TableStatus.HELD if held or waits else TableStatus.LIVE

    @property
    def questions(self) -> tuple[Question, ...]:
        """What only the referee can settle now (from the evidence and the engine's needs)."""
        return collect_questions(self)

    @property
    def alerts(self) -> tuple[Alert, ...]:
        """Disagreements and health problems, minus the ones the referee dismissed."""
        faults = tuple(a for a in self._fault_alerts() if a.id not in self._fold.dismissed)
        return (*collect_alerts(self), *faults)

    @property
    def assembler(self) -> ShotAssembler:
        return self._fold.asm

    @property
    def refused(self) -> tuple[tuple[int, str, str, str], ...]:
        """Stored referee actions that no longer fit after a late input: (log index, kind, en, ru)."""
        engine = [
            (s.log_index, s.action.kind, *(s.error or ("", ""))) for s in self._fold.tl.rejected if s.action
        ]
        return tuple(sorted([*engine, *self._fold.refused]))

    @property
    def faults(self) -> dict[int, tuple[int, str]]:
        """Inputs left out by an internal error: log index -> (shot number, error)."""
        return dict(self._faults)

    @property
    def jams(self) -> dict[tuple[str, int | None], int]:
        return dict(self._fold.jams.since)

    @property
    def jam_beams(self) -> dict[tuple[str, int | None], tuple[int, ...]]:
        """The jammed beams (0 upper, 1 lower) of each jammed pocket, when its node names them."""
        return {k: tuple(sorted(b for b in v if b is not None)) for k, v in self._fold.jams.beams.items()}

    @property
    def offline(self) -> dict[str, str]:
        return dict(self._offline)

    @property
    def dismissed(self) -> frozenset[str]:
        return frozenset(self._fold.dismissed)

    @property
    def amendments(self) -> dict[int, list[AmendmentEntry]]:
        return self._fold.amended

    def extensions_used(self) -> tuple[int, int]:
        """The shot-clock extensions each seat has used in this frame (this session)."""
        ext = self._fold.extensions.granted
        return sum(1 for _, s in ext if s == 0), sum(1 for _, s in ext if s == 1)

    def extensions_pending(self) -> int:
        """The extensions granted for the shot being timed (the next to open)."""
        n = len(self._fold.asm.shots) + 1
        return sum(1 for k, _ in self._fold.extensions.granted if k == n)

    @property
    def ended(self) -> bool:
        return self._fold.ended

    @property
    def log(self) -> tuple[HubInput, ...]:
        """Every input applied, in arrival order."""
        return tuple(self._log)

    @property
    def shots(self) -> tuple[ShotEvidence, ...]:
        return tuple(self._fold.asm.shots)

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(self._fold.tl.steps)

    def provisional(self) -> Provisional | None:
        """The open shot played on top of the committed match (cached until the next change)."""
        return self._fold.provisional()

    def shot_steps_shown(self) -> list[Step]:
        """In order: the steps of the last two shots not undone, and of earlier ones whose evidence has
        findings (a question asked until it is answered). The questions and alerts need no others."""
        tl, last = self._fold.tl, []
        for i in range(len(tl.steps) - 1, -1, -1):
            st = tl.steps[i]
            if st.shot is not None and not st.voided:
                last.append(st)
                if len(last) == 2:
                    break
        shown = {st.shot.number: st for st in tl.noted.values() if st.shot is not None and not st.voided}
        shown.update((st.shot.number, st) for st in last if st.shot is not None)
        return [shown[n] for n in sorted(shown)]

    def blocked_steps(self) -> list[Step]:
        """The step the engine refused, where the timeline waits (there is at most one)."""
        held = self._fold.tl.held()
        return [] if held is None else [self._fold.tl.steps[held]]

    def scores_before(self, k: int, deltas: Callable[[Outcome], Sequence[int]]) -> tuple[int, int]:
        """The sum of `deltas` over the first `k` committed outcomes (hub/reconcile/running.py: kept every 32
        outcomes, so a long match's board history costs the rows shown)."""
        return self._running.before(self.match.outcomes, k, deltas)

    def step_of(self, shot: ShotEvidence) -> Step | None:
        return self._fold.tl.shot_steps.get(shot.number)

    def last_played(self, k: int) -> list[Step]:
        """The latest `k` steps the engine accepted, oldest first (the board's history)."""
        return self._fold.tl.played[-k:] if k > 0 else []

    # ------------------------------------------------------------ placing an input in time order

    def _place(self, index: int, inp: HubInput, in_order: bool) -> None:
        """Fold `inp` at its place: take back what sorts after it (or after the item it re-cuts), fold it, and
        fold the taken-back inputs again."""
        cuts = dict(self._cuts.earliest) if isinstance(inp, RefereeAction) else None
        at = self._cuts.note(inp, self._fold.asm, self._fold.strikes)
        pos = bisect_right(self._trail, (inp.at_ms, index), key=self._order)
        if at is not None:
            pos = min(pos, bisect_left(self._trail, (at, -1), key=self._order))
        todo = [index]
        if pos < len(self._trail):
            self.rewinds += 1
            todo += [m.index for m in self._take_back(pos)]
            todo.sort(key=lambda i: (self._log[i].at_ms, i))
        try:
            for i in todo:
                live = in_order and i == index
                self.refolded += i != index
                self._feed(i, self._log[i], live)
        except RefereeInputError:
            if isinstance(inp, RefereeAction) and cuts is not None and cuts != self._cuts.earliest:
                self._uncut(inp, at, cuts)
            raise

    def _uncut(self, inp: RefereeAction, at: int | None, before: dict[Cut, int]) -> None:
        """The action that re-cut the shots is refused:
        cut them as before, from where it had taken the fold."""
        if self._cuts.forget(inp, before, self._fold.asm) is None or at is None:
            return
        marks = self._take_back(bisect_left(self._trail, (at, -1), key=self._order))
        for m in marks:
            self._feed(m.index, self._log[m.index], False)

    def _order(self, m: Mark) -> tuple[int, int]:
        """Where a folded input sorts: (its time, its arrival)."""
        return self._log[m.index].at_ms, m.index

    def _take_back(self, pos: int) -> list[Mark]:
        marks = self._trail[pos:]
        del self._trail[pos:]
        self._fold.give_back(marks)
        return marks

    def _feed(self, index: int, inp: HubInput, live: bool) -> None:
        mark = self._fold.mark(index)
        self._trail.append(mark)
        try:
            self._fold.feed(index, inp, live, mark)
        except RefereeInputError:
            self._take_back(len(self._trail) - 1)
            raise
        except Exception as exc:
            if strict():
                raise
            self._fault(index, inp, exc)
            return
        self._faults.pop(index, None)
        if strict() and not shared_intact():
            raise AssertionError(
                "an old shot's shared empty container was changed in place (hub/reconcile/trail.py)"
            )

    def _fault(self, index: int, inp: HubInput, exc: Exception) -> None:
        """An internal error on one input: leave it out (kept in the log and the trail), hold, count, log."""
        self._take_back(len(self._trail) - 1)
        # an empty mark: the input is left out until a refold succeeds
        self._trail.append(self._fold.mark(index))
        last = self._fold.asm.last()
        self._faults[index] = (last.number if last is not None else 0, f"{type(exc).__name__}: {exc}")
        self.errors += 1
        log.exception(
            "table %s: internal error on input %d (%s); scoring is held there",
            self.table_id,
            index,
            type(inp).__name__,
        )

    def _fault_alerts(self) -> list[Alert]:
        out = []
        for index, (shot, why) in sorted(self._faults.items()):
            out.append(
                Alert(
                    f"internal:{index}",
                    "internal_error",
                    f"Scoring held at shot {shot}: internal error — the referee can correct or undo. ({why})",
                    f"Подсчёт остановлен на ударе {shot}: внутренняя ошибка — судья может исправить или "
                    f"отменить. ({why})",
                    shot or None,
                    None,
                    "error",
                )
            )
        return out

    @classmethod
    def replay(
        cls,
        table_id: str,
        variant: str,
        players: tuple[str, str],
        options: Mapping[str, object],
        inputs: Iterable[HubInput],
        settle: ShotTiming | None = None,
        opening: Opening = PLAIN,
        clock: ShotClock | None = None,
    ) -> TableSession:
        """A session rebuilt from stored inputs in stored order; refused referee actions are skipped."""
        session = cls(table_id, variant, players, options, settle, opening=opening, clock=clock)
        for inp in inputs:
            try:
                session.apply(inp)
            except RefereeInputError:
                continue
        return session


def rederived(session: TableSession) -> TableSession:
    """A new session folding `session`'s log from the start, in time order, as one pass (what a refold must
    equal: the tests compare them). Stored actions that do not fit are refused with
    an alert, as in a refold."""
    s = TableSession(
        session.table_id,
        session.variant,
        session.players,
        session.options,
        session.timing,
        session.match_id,
        session.opening,
        session.clock,
    )
    s._log, s._keys = list(session._log), dict(session._keys)
    acts = [a.action for a in s._log if isinstance(a, RefereeAction)]
    strikes = {i.item for i in s._log if isinstance(i, SensorInput) and i.event.kind == "strike"}
    s._fold.asm.voided = frozenset(a.item for a in acts if isinstance(a, RemoveAction)) & strikes
    s._fold.asm.new_shot = frozenset(
        a.item_named() or "" for a in acts if isinstance(a, ConfirmAction) and a.answer == "new_shot"
    )
    for i in sorted(range(len(s._log)), key=lambda i: (s._log[i].at_ms, i)):
        s._feed(i, s._log[i], False)
    return s
