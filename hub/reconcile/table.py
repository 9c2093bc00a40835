"""TableSession: one live match on one table, the deterministic fold of its hub inputs.

Hub inputs (sensor events and referee actions) are folded in time order (`at_ms`, ties by arrival) into
*steps*: shots (cut by `hub.reconcile.assembler.ShotAssembler`) and the engine inputs the referee enters (lag, choose,
interference, concede, decide). Closed steps are *committed*: played on `self.match`, the rules engine. The open
shot is *provisional*: played on top of the committed match for the scoreboard, then taken back.

- In-order inputs cost one assembler step, plus one engine play when a shot closes (the common path).
- An input older than one already applied (a node's outbox after an outage), a removed strike, or a late drop
  the referee calls a new shot, changes how shots are cut: the whole match is re-derived from the log.
- A correction to a committed shot (an identified ball, a foul, a ball that fell within 5 s of the close)
  rewinds the engine to that shot and plays on from there.
- A shot the engine refuses holds scoring there (an alert says why) until the referee corrects it; later
  steps wait, nothing is dropped. A stored referee action that no longer fits after a re-derivation is
  skipped with an alert.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hub.reconcile.assembler import (
    PocketEvidence,
    ShotAssembler,
    ShotEvidence,
    ShotTiming,
    StrikeEvidence,
    amend,
)
from hub.reconcile.inputs import RefereeAction, SensorInput, input_key
from hub.reconcile.questions import (
    Alert,
    Question,
    check_answer,
    collect_alerts,
    collect_questions,
    shot_dict,
)
from hub.reconcile.referee import ENGINE_ACTIONS, RefereeInputError, validate
from hub.reconcile.timeline import Provisional, Step, Timeline, engine_input
from shared_rules import Match
from shared_rules.model import Colour, Pocket

__all__ = ["HubInput", "ShotTiming", "Step", "TableSession"]

HubInput = SensorInput | RefereeAction
SHOT_AMENDMENTS = ("declare", "foul", "fact", "identify", "add_ball", "jumped", "remove", "confirm")
ITEM_TARGETED = ("identify", "remove", "confirm")
# Engine inputs that answer a need of the committed position: entered late, they go before the waiting shot.
NEED_KINDS = {"lag": "lag", "choose": "choice", "decide": "referee_decision"}


class TableSession:
    """One live match on one table; the same inputs always give the same state."""

    _prov: Provisional | None
    _prov_valid: bool

    def __init__(self, table_id: str, variant: str, players: tuple[str, str], options: Mapping[str, object],
                 settle: ShotTiming | None = None, match_id: int | str | None = None) -> None:
        self.table_id = table_id
        self.variant = variant
        self.players = (str(players[0]), str(players[1]))
        self.options = dict(options)
        self.timing = settle or ShotTiming()
        self.match_id = match_id
        Match.new(variant, players=self.players, options=self.options)  # fails early on a bad variant/option
        self._log: list[HubInput] = []
        self._keys: set[tuple[object, ...]] = set()
        self._offline: dict[str, str] = {}
        self.health: tuple[Any, ...] = ()  # sensor-health alerts (hub/ingest/health.py), set by the service per report
        self.rederivations = 0  # how many times the whole match was re-derived (for tests and the bench)
        self._reset()

    # ------------------------------------------------------------ public

    def apply(self, inp: HubInput) -> None:
        """Fold one input in. Raises RefereeInputError for an impossible referee action (state unchanged);
        a sensor input never raises. An input whose key was already applied is ignored."""
        key = input_key(inp)
        if key is not None and key in self._keys:
            return
        if isinstance(inp, RefereeAction):
            inp = RefereeAction(inp.kind, validate(inp.kind, inp.args), inp.at_ms, inp.uid)
            if inp.kind == "new_match":
                raise RefereeInputError("new_match is handled by the service: end this match, then start one",
                                        "новую партию начинает сервис: завершите эту партию и начните новую",
                                        "kind")
        index = len(self._log)
        in_order = (inp.at_ms, index) > self._last_order
        if in_order and isinstance(inp, RefereeAction):
            self._precheck(inp)  # the plain refusals, before anything changes (no re-derivation needed)
        self._log.append(inp)
        try:
            if not in_order or self._structural(inp):
                self._rederive()
            else:
                self._feed(index, inp, live=True)
        except RefereeInputError:
            self._log.pop()
            self._rederive()
            raise
        if key is not None:
            self._keys.add(key)

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
        return self._tl.match

    @property
    def status(self) -> str:
        """live | held (a shot waits for the referee: refused, or unplayable until a need is answered) | ended."""
        if self._ended:
            return "ended"
        prov = self.provisional()
        return "held" if self._tl.held() is not None or (prov is not None and prov.error) else "live"

    @property
    def questions(self) -> tuple[Question, ...]:
        """What only the referee can settle now (from the evidence and the engine's needs)."""
        return collect_questions(self)

    @property
    def alerts(self) -> tuple[Alert, ...]:
        """Disagreements and health problems, minus the ones the referee dismissed."""
        return collect_alerts(self)

    @property
    def assembler(self) -> ShotAssembler:
        return self._asm

    @property
    def refused(self) -> tuple[tuple[int, str, str, str], ...]:
        """Stored referee actions that no longer fit after a re-derivation: (log index, kind, en, ru)."""
        engine = [(s.log_index, s.action.kind, *(s.error or ("", ""))) for s in self._tl.rejected if s.action]
        return tuple(sorted([*engine, *self._refused]))

    @property
    def jams(self) -> dict[tuple[str, int | None], int]:
        return dict(self._jams)

    @property
    def jam_beams(self) -> dict[tuple[str, int | None], tuple[int, ...]]:
        """The jammed beams (0 upper, 1 lower) of each jammed pocket, when its node names them."""
        return {k: tuple(sorted(b for b in v if b is not None)) for k, v in self._jam_beams.items()}

    @property
    def offline(self) -> dict[str, str]:
        return dict(self._offline)

    @property
    def dismissed(self) -> frozenset[str]:
        return frozenset(self._dismissed)

    @property
    def amendments(self) -> dict[int, list[dict[str, Any]]]:
        return self._amended

    @property
    def ended(self) -> bool:
        return self._ended

    @property
    def log(self) -> tuple[HubInput, ...]:
        """Every input applied, in arrival order."""
        return tuple(self._log)

    @property
    def shots(self) -> tuple[ShotEvidence, ...]:
        return tuple(self._asm.shots)

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(self._tl.steps)

    def scoreboard(self) -> dict[str, Any]:
        """JSON-able: the engine's summary (provisional if a shot is open) + the shot, questions, alerts."""
        prov = self.provisional()
        board = dict(prov.summary if prov is not None and prov.error is None else self._tl.match.summary())
        open_shot = self._asm.open
        shown = open_shot or self._asm.last()
        board.update({
            "table": self.table_id,
            "match_id": self.match_id,
            "status": self.status,
            "provisional": prov is not None and prov.error is None,
            "committed_scores": list(self._tl.match.state.scores),
            "shot": shot_dict(self, shown) if shown is not None else None,
            "shot_count": sum(1 for s in self._asm.shots if not s.voided),
            "questions": [q.to_dict() for q in self.questions],
            "alerts": [a.to_dict() for a in self.alerts],
        })
        return board

    def provisional(self) -> Provisional | None:
        """The open shot played on top of the committed match (cached until the next change)."""
        if self._prov_valid:
            return self._prov
        self._prov, self._prov_valid = self._tl.evaluate(self._asm.open), True
        return self._prov

    def step_of(self, shot: ShotEvidence) -> Step | None:
        return self._tl.shot_steps.get(shot.number)

    # ------------------------------------------------------------ fold state

    def _reset(self) -> None:
        voided = {str(a.args["item"]) for a in self._log if isinstance(a, RefereeAction) and a.kind == "remove"}
        new_shot = {str(a.args["question"]).partition(":")[2] for a in self._log
                    if isinstance(a, RefereeAction) and a.kind == "confirm" and a.args["answer"] == "new_shot"}
        self._asm = ShotAssembler(self.timing, voided, new_shot)
        self._tl = Timeline(self.variant, self.players, self.options, self.timing)
        self._jams: dict[tuple[str, int | None], int] = {}
        self._jam_beams: dict[tuple[str, int | None], set[int | None]] = {}  # which beams are jammed (bm)
        self._dismissed: set[str] = set()
        self._refused: list[tuple[int, str, str, str]] = []
        self._strikes: set[str] = set()
        self._amended: dict[int, list[dict[str, Any]]] = {}  # shot number -> who entered what, when
        self._ended = False
        self._last_order: tuple[int, int] = (-(2**62), -1)
        self._prov = None
        self._prov_valid = False

    def _rederive(self) -> None:
        self.rederivations += 1
        self._reset()
        order = sorted(range(len(self._log)), key=lambda i: (self._log[i].at_ms, i))
        for i in order:
            try:
                self._feed(i, self._log[i], live=False)
            except RefereeInputError:  # cannot happen with live=False; kept so a re-derivation never stops
                continue

    def _precheck(self, a: RefereeAction) -> None:
        """Refuse an in-order action that cannot apply, with the same message the fold would give."""
        if self._ended and a.kind != "dismiss_alert":
            raise _refuse("the match has ended", "партия завершена")
        if a.kind == "close_shot" and self._asm.open is None:
            raise _refuse("no shot is open to close", "нет открытого удара")
        if a.kind == "undo" and not any(not st.voided for st in self._tl.steps):
            raise _refuse("there is nothing to undo", "отменять нечего")
        if a.kind in ITEM_TARGETED:
            item = _item_of(a)
            if self._asm.find_item(item) is None and item not in self._asm.voided | self._strikes:
                raise _missing(item)
            if a.kind == "confirm":
                check_answer(str(a.args["question"]), str(a.args["answer"]))

    def _structural(self, inp: HubInput) -> bool:
        """Does this action change how shots are cut (so the match must be re-derived)?"""
        if not isinstance(inp, RefereeAction):
            return False
        if inp.kind == "remove":
            return str(inp.args["item"]) in self._strikes
        return inp.kind == "confirm" and inp.args["answer"] == "new_shot"

    # ------------------------------------------------------------ feeding one input (in time order)

    def _feed(self, index: int, inp: HubInput, live: bool) -> None:
        self._last_order = max(self._last_order, (inp.at_ms, index))
        self._prov_valid = False
        if isinstance(inp, SensorInput):
            if not self._ended:
                self._sensor(inp)
            return
        try:
            if self._ended and inp.kind != "dismiss_alert":
                raise _refuse("the match has ended", "партия завершена")
            self._referee(index, inp, live)
        except RefereeInputError as exc:
            if live:
                raise
            self._refused.append((index, inp.kind, exc.en, exc.ru))
            return
        finally:
            self._prov_valid = False

    def _sensor(self, inp: SensorInput) -> None:
        e = inp.event
        item = f"{e.device}/{e.boot}/{e.seq}"
        if e.kind == "strike":
            self._strikes.add(item)
            shot = self._asm.strike(StrikeEvidence(item, inp.at_ms, inp.seat, bool(e.get("double")), e.get("gap")))
        elif e.kind == "pocket":
            colour = Colour(e.get("colour")) if e.get("colour") else None
            shot = self._asm.pocket(PocketEvidence(item, Pocket(int(e.get("pocket"))), inp.at_ms, colour,
                                                   e.get("conf")))
        elif e.kind == "out":
            shot = self._asm.ball_out(item, int(e.get("pocket")), inp.at_ms)
        elif e.kind == "flag":
            shot = self._asm.flag(item, int(e.get("pocket")), inp.at_ms, str(e.get("why")), e.get("beam"))
        else:
            key = (e.device, e.get("pocket"))
            if e.kind == "jam":
                self._jams.setdefault(key, inp.at_ms)
                self._jam_beams.setdefault(key, set()).add(e.get("beam"))
            elif e.kind == "clear":
                jammed = self._jam_beams.get(key, set())
                jammed.discard(e.get("beam"))
                if not jammed or e.get("beam") is None:  # every jammed beam cleared (an old node names none)
                    self._jams.pop(key, None)
                    self._jam_beams.pop(key, None)
            return  # calibration readings are not match evidence
        if shot is not None:
            self._touched(shot)

    def _referee(self, index: int, a: RefereeAction, live: bool) -> None:
        k = a.kind
        if k in ENGINE_ACTIONS:
            self._engine_action(index, a, live)
        elif k in SHOT_AMENDMENTS:
            self._amend(a, live)
        elif k == "close_shot":
            if self._asm.close(a.at_ms, "referee") is None:
                raise _refuse("no shot is open to close", "нет открытого удара")
            self._tl.sync()
        elif k == "open_shot":
            self._touched(self._asm.open_by_referee(a.at_ms))
        elif k == "undo":
            self._undo(live)
        elif k == "dismiss_alert":
            self._dismissed.add(str(a.args["alert"]))
        elif k == "end_match":
            self._asm.close(a.at_ms, "end_match")
            self._tl.sync()
            self._ended = True

    def _touched(self, shot: ShotEvidence) -> None:
        self._tl.touched(shot)

    # ------------------------------------------------------------ referee actions

    def _engine_action(self, index: int, a: RefereeAction, live: bool) -> None:
        step = Step(action=a, played=engine_input(a), log_index=index)
        need = NEED_KINDS.get(a.kind)
        tl = self._tl
        late = need is not None and tl.fed < len(tl.steps) and any(n.kind == need for n in tl.match.needs())
        closed = None if late else self._asm.close(a.at_ms, a.kind)  # an action after a shot ends it
        tl.add_action(step, before_waiting=late)  # a late answer goes before the shot that waits for it
        if step.status == "rejected":  # refused now: as if it had never been entered
            tl.drop(step)
            if closed is not None:
                closed.closed_at = closed.closed_by = None
                tl.touched(closed)
            en, ru = step.error or ("refused", "отклонено")
            raise RefereeInputError(en, ru, "kind")

    def _amend(self, a: RefereeAction, live: bool) -> None:
        args = a.args
        if a.kind in ITEM_TARGETED:
            item = _item_of(a)
            if a.kind == "remove" and item in self._asm.voided:
                return  # a removed strike: already left out when the shots were cut
            shot = self._asm.find_item(item)
            if shot is None:
                raise _missing(item)
            if a.kind == "confirm":
                check_answer(str(a.args["question"]), str(a.args["answer"]))
        elif args.get("shot_number") is not None:  # a shot already played, by its number
            n = args["shot_number"]
            shot = next((s for s in self._asm.shots if s.number == n and not s.voided), None)  # type: ignore[assignment]
            if shot is None:
                raise _refuse(f"there is no shot {n} in this match", f"в партии нет удара {n}")
        elif args.get("shot") == "next":
            self._asm.pending_next.append((a.kind, args))
            return
        else:
            shot = self._asm.open or self._asm.last()
            if shot is None:
                raise _refuse("no shot has been played yet; open one first (open_shot)",
                                   "ещё не было ни одного удара; сначала откройте удар (open_shot)")
        before = self._shot_problem(shot) if live else None
        amend(shot, a.kind, args, a.at_ms)
        self._amended.setdefault(shot.number, []).append({"kind": a.kind, "at_ms": a.at_ms, "by": args.get("by")})
        self._touched(shot)
        after = self._shot_problem(shot) if live else None
        if after is not None and before is None:  # this entry itself makes the shot unplayable: refuse it
            raise RefereeInputError(*after)

    def _undo(self, live: bool) -> None:
        if self._tl.void_last() is None:
            raise _refuse("there is nothing to undo", "отменять нечего")

    def _shot_problem(self, shot: ShotEvidence) -> tuple[str, str] | None:
        """Why the engine refuses this shot now (held there, or its provisional play fails), or None."""
        step = self._tl.shot_steps.get(shot.number)
        if step is None:
            return None
        if step.status == "blocked":
            return step.error
        if shot.closed_at is None:
            self._prov_valid = False
            prov = self.provisional()
            return prov.error if prov is not None else None
        return None

    # ------------------------------------------------------------ the engine

    @classmethod
    def replay(cls, table_id: str, variant: str, players: tuple[str, str], options: Mapping[str, object],
               inputs: Iterable[HubInput], settle: ShotTiming | None = None) -> TableSession:
        """A session rebuilt from stored inputs in stored order; refused referee actions are skipped."""
        session = cls(table_id, variant, players, options, settle)
        for inp in inputs:
            try:
                session.apply(inp)
            except RefereeInputError:
                continue
        return session


def _refuse(en: str, ru: str) -> RefereeInputError:
    return RefereeInputError(en, ru)


def _item_of(a: RefereeAction) -> str:
    """The evidence item an item-targeted action names (a question id is `<kind>:<item>`)."""
    return str(a.args.get("item") or str(a.args.get("question", "")).partition(":")[2])


def _missing(item: str) -> RefereeInputError:
    return _refuse(f"there is no ball, strike or question {item!r} in this match",
                   f"в партии нет шара, удара или вопроса {item!r}")

