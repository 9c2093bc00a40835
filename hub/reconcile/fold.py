"""`Fold`: the state a table's inputs fold into, and how one input (in time order) changes it.

The evidence cut into shots (`ShotAssembler`), the steps the rules engine judges (`Timeline`), and what the
referee set on the session (dismissed alerts, refusals of stored actions, the match's end). Every change an
input makes is recorded on its `Mark` (hub/reconcile/trail.py), so `hub.reconcile.table.TableSession` can take
the fold back to any point and play forward from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from hub.config import ShotTiming
from hub.errors import NOT_FOUND
from hub.reconcile.assembler import ShotAssembler
from hub.reconcile.confirm_questions import check_answer
from hub.reconcile.extensions import Extensions
from hub.reconcile.jams import Jams
from hub.reconcile.shotclock import ShotClock
from hub.reconcile.statuses import StepStatus
from hub.reconcile.timeline import Provisional, Step, Timeline
from hub.reconcile.trail import (
    Affected,
    Mark,
    freeze,
    give_back,
    image,
    keep,
    restore_image,
    retime,
    take,
    thaw,
)
from hub.vocab.action_types import Category, EngineAction, ShotAmendment
from hub.vocab.actions import ACTION_MODELS, kinds_of
from hub.vocab.amendments import ConfirmAction, DeclareAction, FactAction, RemoveAction, WithdrawAction
from hub.vocab.checks import RefereeInputError
from hub.vocab.control_actions import CloseShotAction, DismissAlertAction, UndoAction
from hub.vocab.evidence import PocketEvidence, ShotEvidence, StrikeEvidence
from hub.vocab.inputs import RefereeAction, SensorInput
from shared_rules.model import Colour, Pocket
from shared_rules.opening import PLAIN, Opening
from shared_rules.registry import VARIANTS
from shared_rules.state import State

SHOT_AMENDMENTS = kinds_of(Category.SHOT)
ITEM_TARGETED = tuple(
    k
    for k in SHOT_AMENDMENTS
    if getattr(ACTION_MODELS[k], "item_named", None) is not ShotAmendment.item_named
)

HubInput = SensorInput | RefereeAction


class AmendmentEntry(TypedDict):
    """One amendment of a shot: who (`by`, the token's label; None: not recorded) entered what (the action's
    `kind`), when (`at_ms`, hub clock). A dict, as the read model takes it (hub.view.shot.Amendment)."""

    kind: str
    at_ms: int
    by: str | None


FREEZE_AFTER = 3  # shots this far behind the latest share their empty containers (hub/reconcile/trail.py)


class Fold:
    """The fold of one match's inputs so far."""

    def __init__(
        self,
        variant: str,
        players: tuple[str, str],
        options: Mapping[str, object],
        timing: ShotTiming,
        opening: Opening = PLAIN,
        clock: ShotClock | None = None,
    ) -> None:
        self.asm = ShotAssembler(timing)
        self.extensions = Extensions(clock or ShotClock())
        self.tl = Timeline(variant, players, options, timing, opening)
        self.jams = Jams()
        self.dismissed: set[str] = set()
        self.refused: list[tuple[int, str, str, str]] = []
        # the strike ids folded (a dict: half a set's memory at a thousand)
        self.strikes: dict[str, None] = {}
        self.amended: dict[int, list[AmendmentEntry]] = {}  # shot number -> who entered what, when
        self.ended = False
        self.prov: Provisional | None = None
        self.prov_valid = False
        self._mark: Mark | None = None  # the mark of the input being fed (match control records on it)

    # ------------------------------------------------------------ taking back

    def mark(self, index: int) -> Mark:
        return take(Mark(index), self.asm, len(self.refused), self.ended)

    def give_back(self, marks: list[Mark]) -> None:
        """Take these marks back, latest first (they are the latest of the trail), and re-judge."""
        aff = Affected()
        for m in reversed(marks):
            give_back(m, self.asm, self.strikes, aff)
            del self.refused[m.refused :]
            self.ended = m.ended
        retime(self.tl, len(self.asm.shots), aff)
        self.prov_valid = False

    # ------------------------------------------------------------ one input

    def feed(self, index: int, inp: HubInput, live: bool, mark: Mark) -> None:
        """Fold one input in. RefereeInputError only when `live` (the caller takes the mark back)."""
        self.prov_valid = False
        if isinstance(inp, SensorInput):
            if not self.ended:
                self._sensor(inp, mark)
            return
        try:
            if self.ended and not isinstance(inp.action, DismissAlertAction):
                raise _refuse("the match has ended", "партия завершена")
            self._referee(index, inp, live, mark)
        except RefereeInputError as exc:
            if live:
                raise
            self.refused.append((index, inp.kind, exc.en, exc.ru))
        finally:
            self.prov_valid = False

    def precheck(self, a: RefereeAction) -> None:
        """Refuse an in-order action that cannot apply, with the same message the fold would give."""
        act = a.action
        if self.ended and not isinstance(act, DismissAlertAction):
            raise _refuse("the match has ended", "партия завершена")
        if isinstance(act, CloseShotAction) and self.asm.open is None:
            raise _refuse("no shot is open to close", "нет открытого удара")
        if isinstance(act, UndoAction) and not any(not st.voided for st in reversed(self.tl.steps)):
            raise _refuse("there is nothing to undo", "отменять нечего")
        item = item_of(a)
        if item is not None:
            if self.asm.find_item(item) is None and item not in self.asm.voided and item not in self.strikes:
                raise missing(item, act)
            if isinstance(act, ConfirmAction):
                check_answer(act.question, act.answer)

    def _sensor(self, inp: SensorInput, mark: Mark) -> None:
        opened = len(self.asm.shots)
        self._evidence(inp, mark)
        self._timed(opened)

    def _timed(self, opened: int) -> None:
        """A shot opened by the input just folded gets the time it had (the shot clock and its extensions)."""
        for shot in self.asm.shots[opened:]:
            shot.allowed_ms = self.extensions.allowed(shot.number)

    def _evidence(self, inp: SensorInput, mark: Mark) -> None:
        e, item = inp.event, inp.item
        if e.kind == "strike":
            if item not in self.strikes:
                self.strikes[item] = None
                mark.strike = item
            ev = StrikeEvidence(item, inp.at_ms, inp.seat, bool(e.get("double")), e.get("gap"))
            stroke = None if item in self.asm.voided else self.asm.same_stroke(ev)
            if stroke is not None:
                keep(mark, stroke)  # a doubled strike joins its stroke's shot, which need not be the latest
            shot = self.asm.strike(ev)
        elif e.kind == "pocket":
            colour = Colour(e.get("colour")) if e.get("colour") else None
            shot = self.asm.pocket(
                PocketEvidence(
                    item, Pocket(int(e.get("pocket"))), inp.at_ms, colour, e.get("conf"), alone=e.get("beam")
                )
            )
        elif e.kind == "out":
            shot = self.asm.ball_out(item, int(e.get("pocket")), inp.at_ms)
        elif e.kind == "flag":
            shot = self.asm.flag(item, int(e.get("pocket")), inp.at_ms, str(e.get("why")), e.get("beam"))
        else:
            self.jams.fold(inp, mark)
            return  # calibration readings are not match evidence
        if shot is not None:
            self.tl.touched(shot)
            shots = self.asm.shots
            if (
                shot.number > FREEZE_AFTER
                and shot is shots[-1]
                and any(s.strike for s in shots[-FREEZE_AFTER:])
            ):
                # an old shot keeps still (a doubled strike joins a later one)
                freeze(shots[-1 - FREEZE_AFTER])

    def _referee(self, index: int, a: RefereeAction, live: bool, mark: Mark) -> None:
        act = a.action
        if isinstance(act, EngineAction):
            self._engine_action(index, a, act, mark)
        elif isinstance(act, ShotAmendment):
            self._amend(a, act, live, mark)
        else:
            self._mark = mark
            act.control(self, a.at_ms)

    # -------------------------------------------------------- match control (hub.vocab.action_types.Controls)

    def open_shot(self, at_ms: int) -> None:
        opened = len(self.asm.shots)
        self.tl.touched(self.asm.open_by_referee(at_ms))
        self._timed(opened)

    def extend(self, at_ms: int, player: int | None) -> None:
        """An extension of the shot clock for the shot being timed (the next to open), for `player` (default:
        the player to play)."""
        running = bool(self.asm.shots) and not self.tl.match.state.over
        seat = player
        if seat is None and self.extensions.clock.on and running:  # the position is read only when it counts
            seat = self._to_play()
        assert self._mark is not None
        self.extensions.grant(len(self.asm.shots) + 1, seat, running, self._mark)

    def _to_play(self) -> int | None:
        state = self.start_of(None)
        return None if state is None else int(state.to_play)

    def close_shot(self, at_ms: int) -> None:
        if self.asm.close(at_ms, "referee") is None:
            raise _refuse("no shot is open to close", "нет открытого удара")
        self.tl.sync()

    def undo(self) -> None:
        step = self.tl.void_last()
        if step is None:
            raise _refuse("there is nothing to undo", "отменять нечего")

        def back(aff: Affected) -> None:
            step.status = StepStatus.PENDING
            if step.shot is not None:
                step.shot.voided = False
            aff.revived.append(step)

        assert self._mark is not None
        self._mark.on_undo(back)

    def dismiss(self, alert: str) -> None:
        if alert not in self.dismissed:
            self.dismissed.add(alert)
            assert self._mark is not None
            self._mark.on_undo(lambda aff: self.dismissed.discard(alert))

    def end(self, at_ms: int, by: str = "end_match") -> None:
        """The match (or, `by` next_frame, the frame) ends: the open shot closes, nothing more goes in."""
        self.asm.close(at_ms, by)
        self.tl.sync()
        self.ended = True

    # ------------------------------------------------------------ engine inputs and shot amendments

    def _engine_action(self, index: int, a: RefereeAction, act: EngineAction, mark: Mark) -> None:
        step = Step(action=a, played=act.engine_input(), log_index=index)
        tl = self.tl
        late = (
            bool(act.answers)
            and tl.fed < len(tl.steps)
            and any(n.kind in act.answers for n in tl.match.needs())
        )
        if not late:
            self.asm.close(a.at_ms, a.kind)  # an action after a shot ends it
        mark.on_undo(lambda aff: aff.steps.append(step))
        tl.add_action(step, before_waiting=late)  # a late answer goes before the shot that waits for it
        if step.status == StepStatus.REJECTED:  # refused now: as if it had never been entered
            en, ru = step.error or ("refused", "отклонено")
            raise RefereeInputError(en, ru, "kind")

    def _target(self, act: ShotAmendment) -> ShotEvidence | None:
        """The shot an amendment is for (None: the next shot, kept pending until it opens)."""
        item = act.item_named()
        if item is not None:
            shot = self.asm.find_item(item)
            if shot is None:
                raise missing(item, act)
            if isinstance(act, ConfirmAction):
                check_answer(act.question, act.answer)
            return shot
        wanted = act.shot_wanted()
        if isinstance(wanted, int):  # a shot already played, by its number
            found = next((s for s in reversed(self.asm.shots) if s.number == wanted and not s.voided), None)
            if found is None:
                raise _refuse(f"there is no shot {wanted} in this match", f"в партии нет удара {wanted}")
            return found
        if wanted == "next":
            return None
        shot = self.asm.open or self.asm.last()
        if shot is None:
            raise _refuse(
                "no shot has been played yet; open one first (open_shot)",
                "ещё не было ни одного удара; сначала откройте удар (open_shot)",
            )
        return shot

    def _amend(self, a: RefereeAction, act: ShotAmendment, live: bool, mark: Mark) -> None:
        if isinstance(act, RemoveAction) and act.item in self.asm.voided:
            return  # a removed strike: already left out when the shots were cut
        if isinstance(act, WithdrawAction) and act.item in self.asm.voided:
            raise _refuse(
                f"the strike {act.item!r} taken out re-cut the shots; it cannot be put back (undo instead)",
                f"убранный удар {act.item!r} изменил деление на удары; вернуть его нельзя (отмените)",
            )
        refusal = act.refusal_in(self.tl.variant, VARIANTS[self.tl.variant].PROFILE)
        if refusal is not None:
            raise RefereeInputError(*refusal, "name" if isinstance(act, FactAction) else "foul")
        shot = self._target(act)
        start = self.start_of(shot) if live else None
        refusal = act.refusal_from(self.tl.match.variant, start) if start is not None else None
        if refusal is not None:
            raise RefereeInputError(*refusal, "calls" if isinstance(act, DeclareAction) else "kind")
        if shot is None:
            self.asm.pending_next.append(act)
            return
        refusal = act.refusal_on(shot)
        if refusal is not None:
            raise RefereeInputError(*refusal, "kind")
        before = self.shot_problem(shot) if live else None
        thaw(shot)
        img, number = image(shot), shot.number
        log = self.amended.setdefault(number, [])

        def back(aff: Affected) -> None:
            restore_image(shot, img)
            log.pop()
            aff.shots.add(number)

        mark.on_undo(back)
        act.amend(shot, a.at_ms)
        log.append({"kind": a.kind, "at_ms": a.at_ms, "by": a.by})
        self.tl.touched(shot)
        after = self.shot_problem(shot) if live else None
        if after is not None and before is None:  # this entry itself makes the shot unplayable: refuse it
            raise RefereeInputError(*after)

    def start_of(self, shot: ShotEvidence | None) -> State | None:
        """The position the shot (None: the next one) is played from, where it is known now: after the open
        shot for the next one, the committed match for the open one or (none open) the next; else None."""
        tl, open_shot = self.tl, self.asm.open
        if shot is None and open_shot is not None:
            prov = self.provisional()
            return prov.state if prov is not None and prov.error is None else None
        if shot is None:
            return tl.match.state if tl.held() is None else None
        if shot is open_shot and tl.fed < len(tl.steps) and tl.steps[tl.fed].shot is shot:
            return tl.match.state
        return None

    def shot_problem(self, shot: ShotEvidence) -> tuple[str, str] | None:
        """Why the engine refuses this shot now (held there, or its provisional play fails), or None."""
        step = self.tl.shot_steps.get(shot.number)
        if step is None:
            return None
        if step.status == StepStatus.BLOCKED:
            return step.error
        if shot.closed_at is None:
            self.prov_valid = False
            prov = self.provisional()
            return prov.error if prov is not None else None
        return None

    def provisional(self) -> Provisional | None:
        """The open shot played on top of the committed match (cached until the next change)."""
        if not self.prov_valid:
            self.prov, self.prov_valid = self.tl.evaluate(self.asm.open), True
        return self.prov


def _refuse(en: str, ru: str) -> RefereeInputError:
    return RefereeInputError(en, ru)


def item_of(a: RefereeAction) -> str | None:
    """The evidence item an action names (its shot is the one it amends), if it names one."""
    act = a.action
    return act.item_named() if isinstance(act, ShotAmendment) else None


def missing(item: str, act: object = None) -> RefereeInputError:
    """No evidence item `item` in this match; an action that names a question (`confirm`, `withdraw` of an
    answer) is told which question does not exist (404), not the item part of its id."""
    question = getattr(act, "question", None)
    if isinstance(question, str):
        return RefereeInputError(
            f"there is no question {question!r} in this match (its questions are in the "
            "state's `match.questions`)",
            f"в партии нет вопроса {question!r} (они — в `match.questions` состояния)",
            "question",
            NOT_FOUND,
        )
    return _refuse(
        f"there is no ball, strike or question {item!r} in this match",
        f"в партии нет шара, удара или вопроса {item!r}",
    )
