"""`Fold`: the state a table's inputs fold into, and how one input (in time order) changes it.

The evidence cut into shots (`ShotAssembler`), the steps the rules engine judges (`Timeline`), and what the referee
set on the session (dismissed alerts, refusals of stored actions, the match's end). Every change an input makes is
recorded on its `Mark` (hub/reconcile/trail.py), so `hub.reconcile.table.TableSession` can take the fold back to any
point and play forward from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.reconcile.assembler import (
    PocketEvidence,
    ShotAssembler,
    ShotEvidence,
    ShotTiming,
    StrikeEvidence,
    amend,
)
from hub.reconcile.inputs import RefereeAction, SensorInput
from hub.reconcile.questions import check_answer
from hub.reconcile.referee import ENGINE_ACTIONS, RefereeInputError
from hub.reconcile.timeline import Provisional, Step, Timeline, engine_input
from hub.reconcile.trail import Affected, Mark, freeze, give_back, image, restore_image, retime, take, thaw
from shared_rules.model import Colour, Pocket

SHOT_AMENDMENTS = ("declare", "foul", "fact", "identify", "add_ball", "jumped", "remove", "confirm")
ITEM_TARGETED = ("identify", "remove", "confirm")
# Engine inputs that answer a need of the committed position: entered late, they go before the waiting shot.
NEED_KINDS = {"lag": "lag", "choose": "choice", "decide": "referee_decision"}

HubInput = SensorInput | RefereeAction
FREEZE_AFTER = 3  # shots this far behind the latest share their empty containers (hub/reconcile/trail.py)


class Fold:
    """The fold of one match's inputs so far."""

    def __init__(self, variant: str, players: tuple[str, str], options: Mapping[str, object],
                 timing: ShotTiming) -> None:
        self.asm = ShotAssembler(timing)
        self.tl = Timeline(variant, players, options, timing)
        self.jams: dict[tuple[str, int | None], int] = {}
        self.jam_beams: dict[tuple[str, int | None], set[int | None]] = {}  # which beams are jammed (bm)
        self.dismissed: set[str] = set()
        self.refused: list[tuple[int, str, str, str]] = []
        self.strikes: set[str] = set()
        self.amended: dict[int, list[dict[str, Any]]] = {}  # shot number -> who entered what, when
        self.ended = False
        self.prov: Provisional | None = None
        self.prov_valid = False

    # ------------------------------------------------------------ taking back

    def mark(self, order: tuple[int, int]) -> Mark:
        return take(Mark(order), self.asm, len(self.refused), self.ended)

    def give_back(self, marks: list[Mark]) -> None:
        """Take these marks back, latest first (they are the latest of the trail), and re-judge."""
        aff = Affected()
        for m in reversed(marks):
            give_back(m, self.asm, self.strikes, aff)
            del self.refused[m.refused:]
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
            if self.ended and inp.kind != "dismiss_alert":
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
        if self.ended and a.kind != "dismiss_alert":
            raise _refuse("the match has ended", "партия завершена")
        if a.kind == "close_shot" and self.asm.open is None:
            raise _refuse("no shot is open to close", "нет открытого удара")
        if a.kind == "undo" and not any(not st.voided for st in reversed(self.tl.steps)):
            raise _refuse("there is nothing to undo", "отменять нечего")
        if a.kind in ITEM_TARGETED:
            item = item_of(a)
            if self.asm.find_item(item) is None and item not in self.asm.voided | self.strikes:
                raise missing(item)
            if a.kind == "confirm":
                check_answer(str(a.args["question"]), str(a.args["answer"]))

    def _sensor(self, inp: SensorInput, mark: Mark) -> None:
        e = inp.event
        item = f"{e.device}/{e.boot}/{e.seq}"
        if e.kind == "strike":
            if item not in self.strikes:
                self.strikes.add(item)
                mark.strike = item
            shot = self.asm.strike(StrikeEvidence(item, inp.at_ms, inp.seat, bool(e.get("double")), e.get("gap")))
        elif e.kind == "pocket":
            colour = Colour(e.get("colour")) if e.get("colour") else None
            shot = self.asm.pocket(PocketEvidence(item, Pocket(int(e.get("pocket"))), inp.at_ms, colour,
                                                  e.get("conf")))
        elif e.kind == "out":
            shot = self.asm.ball_out(item, int(e.get("pocket")), inp.at_ms)
        elif e.kind == "flag":
            shot = self.asm.flag(item, int(e.get("pocket")), inp.at_ms, str(e.get("why")), e.get("beam"))
        else:
            self._jam(inp, mark)
            return  # calibration readings are not match evidence
        if shot is not None:
            self.tl.touched(shot)
            shots = self.asm.shots
            if shot.number > FREEZE_AFTER and shot is shots[-1] and any(s.strike for s in shots[-FREEZE_AFTER:]):
                freeze(shots[-1 - FREEZE_AFTER])  # an old shot keeps still (a doubled strike joins a later one)

    def _jam(self, inp: SensorInput, mark: Mark) -> None:
        e = inp.event
        key = (e.device, e.get("pocket"))
        if e.kind not in ("jam", "clear"):
            return
        since, beams = self.jams.get(key), self.jam_beams.get(key)
        saved = None if beams is None else set(beams)

        def back(aff: Affected) -> None:
            self.jams.pop(key, None)
            self.jam_beams.pop(key, None)
            if since is not None:
                self.jams[key] = since
            if saved is not None:
                self.jam_beams[key] = saved
        mark.on_undo(back)
        if e.kind == "jam":
            self.jams.setdefault(key, inp.at_ms)
            self.jam_beams.setdefault(key, set()).add(e.get("beam"))
            return
        jammed = self.jam_beams.get(key, set())
        jammed.discard(e.get("beam"))
        if not jammed or e.get("beam") is None:  # every jammed beam cleared (an old node names none)
            self.jams.pop(key, None)
            self.jam_beams.pop(key, None)

    def _referee(self, index: int, a: RefereeAction, live: bool, mark: Mark) -> None:
        k = a.kind
        if k in ENGINE_ACTIONS:
            self._engine_action(index, a, mark)
        elif k in SHOT_AMENDMENTS:
            self._amend(a, live, mark)
        elif k == "close_shot":
            if self.asm.close(a.at_ms, "referee") is None:
                raise _refuse("no shot is open to close", "нет открытого удара")
            self.tl.sync()
        elif k == "open_shot":
            self.tl.touched(self.asm.open_by_referee(a.at_ms))
        elif k == "undo":
            self._undo(mark)
        elif k == "dismiss_alert":
            alert = str(a.args["alert"])
            if alert not in self.dismissed:
                self.dismissed.add(alert)
                mark.on_undo(lambda aff: self.dismissed.discard(alert))
        elif k == "end_match":
            self.asm.close(a.at_ms, "end_match")
            self.tl.sync()
            self.ended = True

    def _engine_action(self, index: int, a: RefereeAction, mark: Mark) -> None:
        step = Step(action=a, played=engine_input(a), log_index=index)
        need = NEED_KINDS.get(a.kind)
        tl = self.tl
        late = need is not None and tl.fed < len(tl.steps) and any(n.kind == need for n in tl.match.needs())
        if not late:
            self.asm.close(a.at_ms, a.kind)  # an action after a shot ends it
        mark.on_undo(lambda aff: aff.steps.append(step))
        tl.add_action(step, before_waiting=late)  # a late answer goes before the shot that waits for it
        if step.status == "rejected":  # refused now: as if it had never been entered
            en, ru = step.error or ("refused", "отклонено")
            raise RefereeInputError(en, ru, "kind")

    def _target(self, a: RefereeAction) -> ShotEvidence | None:
        """The shot an amendment is for (None: the next shot, kept pending until it opens)."""
        args = a.args
        if a.kind in ITEM_TARGETED:
            item = item_of(a)
            shot = self.asm.find_item(item)
            if shot is None:
                raise missing(item)
            if a.kind == "confirm":
                check_answer(str(args["question"]), str(args["answer"]))
            return shot
        if args.get("shot_number") is not None:  # a shot already played, by its number
            n = args["shot_number"]
            found = next((s for s in reversed(self.asm.shots) if s.number == n and not s.voided), None)
            if found is None:
                raise _refuse(f"there is no shot {n} in this match", f"в партии нет удара {n}")
            return found
        if args.get("shot") == "next":
            return None
        shot = self.asm.open or self.asm.last()
        if shot is None:
            raise _refuse("no shot has been played yet; open one first (open_shot)",
                          "ещё не было ни одного удара; сначала откройте удар (open_shot)")
        return shot

    def _amend(self, a: RefereeAction, live: bool, mark: Mark) -> None:
        if a.kind == "remove" and item_of(a) in self.asm.voided:
            return  # a removed strike: already left out when the shots were cut
        shot = self._target(a)
        if shot is None:
            self.asm.pending_next.append((a.kind, a.args))
            return
        before = self.shot_problem(shot) if live else None
        thaw(shot)
        img, number = image(shot), shot.number
        log = self.amended.setdefault(number, [])

        def back(aff: Affected) -> None:
            restore_image(shot, img)
            log.pop()
            aff.shots.add(number)
        mark.on_undo(back)
        amend(shot, a.kind, a.args, a.at_ms)
        log.append({"kind": a.kind, "at_ms": a.at_ms, "by": a.args.get("by")})
        self.tl.touched(shot)
        after = self.shot_problem(shot) if live else None
        if after is not None and before is None:  # this entry itself makes the shot unplayable: refuse it
            raise RefereeInputError(*after)

    def _undo(self, mark: Mark) -> None:
        step = self.tl.void_last()
        if step is None:
            raise _refuse("there is nothing to undo", "отменять нечего")

        def back(aff: Affected) -> None:
            step.status = "pending"
            if step.shot is not None:
                step.shot.voided = False
            aff.revived.append(step)
        mark.on_undo(back)

    def shot_problem(self, shot: ShotEvidence) -> tuple[str, str] | None:
        """Why the engine refuses this shot now (held there, or its provisional play fails), or None."""
        step = self.tl.shot_steps.get(shot.number)
        if step is None:
            return None
        if step.status == "blocked":
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


def item_of(a: RefereeAction) -> str:
    """The evidence item an item-targeted action names (a question id is `<kind>:<item>`)."""
    return str(a.args.get("item") or str(a.args.get("question", "")).partition(":")[2])


def missing(item: str) -> RefereeInputError:
    return _refuse(f"there is no ball, strike or question {item!r} in this match",
                   f"в партии нет шара, удара или вопроса {item!r}")
