"""The engine side of a table's fold: the ordered steps (shots and referee engine inputs) and the Match.

`hub.reconcile.table.TableSession` decides *what* the steps are (from time-ordered hub inputs); a `Timeline`
feeds them to the rules engine: closed steps are committed in order, a shot the engine refuses holds the
timeline there (later steps wait, nothing is dropped), an engine action it refuses is skipped and remembered,
and a correction to a committed step rewinds the engine to it
(undo is O(1) amortised in `shared_rules.Match`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hub.config import ShotTiming
from hub.reconcile.report import Assembly, ShotContext, build_report
from hub.reconcile.statuses import StepStatus
from hub.vocab.evidence import ShotEvidence
from hub.vocab.inputs import RefereeAction
from shared_rules import Match
from shared_rules.errors import RulesError
from shared_rules.model import Input, ShotReport
from shared_rules.opening import PLAIN, Opening
from shared_rules.outcome import Need, Outcome
from shared_rules.state import State


@dataclass(slots=True)
class Step:
    """One engine input in the making: a shot (evidence) or a referee engine action."""

    shot: ShotEvidence | None = None
    action: RefereeAction | None = None
    played: Input | None = None  # what was fed to the engine (status "ok"), or the action's input
    assembly: Assembly | None = None  # kept while judged and not played, or while it has findings
    status: StepStatus = StepStatus.PENDING
    #                          | after_end (a shot after the match was decided: kept, not scored)
    error: tuple[str, str] | None = None
    log_index: int = -1

    @property
    def voided(self) -> bool:
        return self.shot.voided if self.shot is not None else self.status == StepStatus.VOID

    @property
    def report(self) -> ShotReport | None:
        """The shot's report as last judged (the one the engine refused,
        or the one played), if it is judged."""
        if self.assembly is not None:
            return self.assembly.report
        if self.status == StepStatus.OK and isinstance(self.played, ShotReport):
            return self.played
        return None


@dataclass
class Provisional:
    """The open shot played on top of the committed match (then taken back)."""

    needs: tuple[Need, ...]
    assembly: Assembly | None
    error: tuple[str, str] | None = None  # the engine refused the open shot (en, ru): nothing else is set
    reasons: tuple[str, ...] = field(default_factory=tuple)
    state: State | None = None  # the position after the open shot: the next shot is played from it
    outcome: Outcome | None = None  # what playing it did (the screens' last reasons; hub.view)


class Timeline:
    """Steps in engine order and the committed Match they fold into."""

    def __init__(
        self,
        variant: str,
        players: tuple[str, str],
        options: Mapping[str, object],
        timing: ShotTiming,
        opening: Opening = PLAIN,
    ) -> None:
        self.variant = variant
        self.timing = timing
        self.match = Match.new(variant, players=players, options=options, opening=opening)
        self.steps: list[Step] = []
        self.shot_steps: dict[int, Step] = {}
        self.fed = 0  # steps before this index have been judged by the engine
        self.rejected: list[Step] = []
        # the steps the match has played, in order: one per `match.history` input
        self.played: list[Step] = []
        self.noted: dict[int, Step] = {}  # shot number -> its step, for shots whose evidence has findings

    def index(self, step: Step) -> int:
        """Where a step is (searched from the end: the steps touched are nearly always the latest)."""
        for i in range(len(self.steps) - 1, -1, -1):
            if self.steps[i] is step:
                return i
        raise ValueError("not a step of this timeline")

    def held(self) -> int | None:
        """The index of the shot the engine refused, where the timeline waits for the referee."""
        if self.fed < len(self.steps) and self.steps[self.fed].status == StepStatus.BLOCKED:
            return self.fed
        return None

    def touched(self, shot: ShotEvidence) -> None:
        """A shot was opened or got new evidence: re-judge it (and what follows) if it was judged already."""
        step = self.shot_steps.get(shot.number)
        if step is None:
            step = Step(shot=shot)
            self.shot_steps[shot.number] = step
            self.steps.append(step)
        elif step.status != StepStatus.PENDING:
            idx = self.index(step)
            if idx < self.fed:
                self.rewind(idx)
        self.sync()

    def add_action(self, step: Step, before_waiting: bool) -> None:
        """Append an engine action, or put it before the first step still waiting (a late lag or choice)."""
        if before_waiting:
            self.steps.insert(self.fed, step)
        else:
            self.steps.append(step)
        self.sync()

    def drop(self, step: Step) -> None:
        """Remove an action step that was refused live (it never happened)."""
        self.steps.remove(step)
        if step in self.rejected:
            self.rejected.remove(step)
        self.fed = min(self.fed, len(self.steps))

    def void_last(self) -> Step | None:
        """Undo: the latest step that is not void becomes void (a shot's evidence is then ignored)."""
        step = next((s for s in reversed(self.steps) if not s.voided), None)
        if step is None:
            return None
        idx = self.index(step)
        if idx < self.fed:
            self.rewind(idx)
        if step.shot is not None:
            step.shot.voided = True
        step.status = StepStatus.VOID
        self.sync()
        return step

    def sync(self) -> None:
        """Feed every closed step not yet judged, in order; stop at the open shot or a refused shot."""
        while self.fed < len(self.steps):
            step = self.steps[self.fed]
            if step.voided:
                step.status = StepStatus.VOID
            elif step.shot is not None and self.match.state.over:
                step.status = StepStatus.AFTER_END  # balls struck after the match was decided are not scored
            elif step.shot is not None:
                if step.shot.closed_at is None:
                    return
                step.assembly = build_report(step.shot, self.context())
                if step.assembly.findings:
                    self.noted[step.shot.number] = step  # the questions and alerts look only at these
                else:
                    self.noted.pop(step.shot.number, None)
                if not self._play(step, step.assembly.report):
                    return  # held here until the referee corrects the shot
                if not step.assembly.findings:
                    step.assembly = None  # the report is `played`: a long match keeps a thousand steps
            else:
                assert step.played is not None
                if not self._play(step, step.played) and step not in self.rejected:
                    self.rejected.append(step)
            self.fed += 1

    def _play(self, step: Step, inp: Input) -> bool:
        try:
            self.match.play(inp)
        except RulesError as exc:
            step.status = StepStatus.BLOCKED if step.shot is not None else StepStatus.REJECTED
            step.error = (exc.en, exc.ru)
            return False
        step.played, step.status, step.error = inp, StepStatus.OK, None
        self.played.append(step)
        if step in self.rejected:
            self.rejected.remove(step)
        return True

    def rewind(self, idx: int) -> None:
        """Take the engine back to before step `idx`."""
        for step in reversed(self.steps[idx : self.fed]):
            if step.status == StepStatus.OK:
                self.match.undo()
                taken = self.played.pop()
                assert taken is step, "the played steps and the match's history went apart"
            if step.status != StepStatus.VOID:
                self.unjudge(step)
        self.fed = idx

    def unjudge(self, step: Step) -> None:
        """A step waits to be judged again: its report and findings were made in a position that may be gone
        (a fold in time order has none for a step it has not reached, say one behind a held shot)."""
        step.status, step.error, step.assembly = StepStatus.PENDING, None, None
        if step.shot is not None:
            self.noted.pop(step.shot.number, None)

    def context(self) -> ShotContext:
        st = self.match.state
        return ShotContext(self.variant, st.to_play, tuple(st.on_table), self.timing)

    def evaluate(self, shot: ShotEvidence | None) -> Provisional | None:
        """Play the open shot on the committed match for the scoreboard, then take it back."""
        if shot is None:
            return None
        step = self.shot_steps.get(shot.number)
        if (
            step is None
            or self.fed >= len(self.steps)
            or self.steps[self.fed] is not step
            or self.match.state.over
        ):
            return None  # an earlier shot is held (the open shot waits), or the match is decided
        assembly = build_report(shot, self.context())
        try:
            out = self.match.play(assembly.report)
        except RulesError as exc:
            return Provisional((), assembly, (exc.en, exc.ru))
        try:
            return Provisional(
                tuple(self.match.needs()), assembly, None, tuple(out.explain()), self.match.state, out
            )
        finally:
            self.match.undo()
