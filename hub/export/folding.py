"""The fold of an export (hub/export/model.py): a match's stored inputs through a new TableSession per frame,
as the hub folded them, with a note per input (applied or why not); then the parts of the document that follow
from it (`derive`): each input's provenance, the race, each frame, the shots and actions judged by the engine
replaying the frame, and the match's result."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from hub.export.document import (
    ActionEntry,
    Derived,
    FrameResultEntry,
    FrameSection,
    MatchHeader,
    MatchResult,
    ShotEntry,
    StoredInput,
)
from hub.export.pieces import Note, action_entry, input_entry, shot_entry
from hub.ingest.timecheck import suspect_of
from hub.reconcile.fold import ITEM_TARGETED, SHOT_AMENDMENTS
from hub.reconcile.frames import Frames, RaceSection, rules_of
from hub.reconcile.shotclock import ShotClock
from hub.reconcile.table import TableSession
from hub.service.rebuild import timing
from hub.service.snapshot import SettingsSnapshot, stored_settle
from hub.vocab.checks import RefereeInputError
from hub.vocab.inputs import RecordError, RefereeAction, SensorInput, input_from_record
from shared_rules import Match
from shared_rules.errors import RulesError
from shared_rules.opening import Opening
from shared_rules.outcome import Outcome
from shared_rules.race import Race
from shared_rules.race_standing import result_of

ROUTED = ("new_match", "time_up")  # the service's routing, not an input of the session


@dataclasses.dataclass
class Folded:
    """A match folded from its stored inputs: the sessions of its frames (the last is the frame in play), its
    race, and per cursor a note: applied or why not, the frame it went to, which shot an entry amended."""

    sessions: list[TableSession]
    frames: Frames
    notes: dict[int, Note]  # by the input's cursor

    @property
    def session(self) -> TableSession:
        return self.sessions[-1]


def fold(m: MatchHeader, settings: SettingsSnapshot | None, inputs: Sequence[StoredInput]) -> Folded:
    """Fold the inputs through a new session per frame (a `next_frame` row starts the next, as on the hub)."""
    settle = timing(stored_settle(settings) or {})
    clock = ShotClock.of_snapshot(settings)  # every frame has the match's clock

    def frame(frames: Frames, after: TableSession | None, opening: Opening | None = None) -> TableSession:
        return TableSession(
            m["table"]["id"],
            m["variant"],
            (m["players"][0], m["players"][1]),
            m["options"],
            settle,
            match_id=m["id"],
            opening=opening or frames.opening(after),
            clock=clock,
        )

    out = Folded([], Frames(started_ms=m.get("started_ms")), {})
    out.sessions.append(frame(out.frames, None))
    for entry in inputs:
        note = Note(frame=len(out.sessions))
        out.notes[entry["cursor"]] = note
        try:
            inp = input_from_record(entry["record"])
        except RecordError as exc:
            note.refused = {"en": f"unreadable record: {exc}", "ru": f"запись не читается: {exc}"}
            continue
        if isinstance(inp, RefereeAction) and inp.kind in ROUTED:
            _route(out, inp, note, frame)
            continue
        # stored, never folded into play (hub.ingest.timecheck)
        if (code := suspect_of(entry["record"])) is not None:
            note.refused = {
                "en": f"impossible time ({code}): stored, not counted",
                "ru": f"невозможное время ({code}): сохранено, не учтено",
            }
            continue
        _apply(out.session, out.frames, inp, note)
        if note.applied and isinstance(inp, RefereeAction) and inp.kind == "next_frame":
            nxt = out.frames.advance(out.session, lambda opening: frame(out.frames, None, opening))
            if nxt is not None:  # the frame it ended is over: the next one opens (hub.service.matches)
                out.sessions.append(nxt)
    return out


def _route(
    out: Folded, inp: RefereeAction, note: Note, frame: Callable[[Frames, TableSession | None], TableSession]
) -> None:
    """new_match sets the race (its first frame opens by it); time_up calls the match time (general A-G6)."""
    if inp.kind == "time_up":
        why = out.frames.time_refusal(out.session)
        if why is not None:
            note.refused = {"en": why[0], "ru": why[1]}
            return
        out.frames.call_time(out.session)
        note.applied = True
        return
    try:
        out.frames.rules = rules_of(inp.args)
    except RulesError as exc:
        note.refused = {"en": exc.en, "ru": exc.ru}
        return
    if len(out.sessions) == 1 and not out.session.log:
        out.sessions[0] = frame(out.frames, None)
    note.applied = True


def _apply(session: TableSession, frames: Frames, inp: SensorInput | RefereeAction, note: Note) -> None:
    try:
        session.apply(inp)
    except RefereeInputError as exc:
        note.refused = {"en": exc.en, "ru": exc.ru}
        return
    note.applied = True
    if isinstance(inp, RefereeAction) and inp.kind == "end_match":
        frames.abandon_if_undecided(session, str(inp.args.get("reason") or ""))
    if (
        isinstance(inp, RefereeAction)
        and inp.kind in SHOT_AMENDMENTS
        and inp.kind not in ITEM_TARGETED
        and inp.args.get("shot") != "next"
    ):  # a call for the next shot corrects nothing
        shot = session.assembler.open or session.assembler.last()
        note.amends, note.shot = True, shot.number if shot is not None else None


def derive(m: MatchHeader, inputs: Sequence[StoredInput], folded: Folded) -> Derived:
    """The parts of the document that follow from the inputs: provenance, the race, each frame (its opening,
    engine log and result), the shots and actions of every frame, and the match's result."""
    shots: list[ShotEntry] = []
    actions: list[ActionEntry] = []
    frames: list[FrameSection] = []
    for number, session in enumerate(folded.sessions, 1):
        s, a = _frame_entries(session, number)
        shots += s
        actions += a
        frames.append(
            {
                "number": number,
                "opening": session.opening.to_dict(),
                "engine_log": session.match.to_log(),
                "result": _frame_result(session),
            }
        )
    race = folded.frames.section(folded.session)
    return {
        "inputs": [
            input_entry(e, n, folded.sessions[n.frame - 1])
            for e in inputs
            for n in (folded.notes.get(e["cursor"], Note()),)
        ],
        "race": race,
        "engine_log": Race(
            m["variant"],
            folded.session.players,
            dict(m["options"]),
            folded.frames.rules,
            [x.match for x in folded.sessions],
            folded.frames.abandoned,
            folded.frames.time_called,
        ).to_log(),
        "frames": frames,
        "shots": shots,
        "actions": actions,
        "result": _result(folded, race),
    }


def _frame_entries(session: TableSession, number: int) -> tuple[list[ShotEntry], list[ActionEntry]]:
    """One frame's shots and referee actions, each judged by the engine replaying the frame's inputs."""
    replay = Match.new(
        session.variant, players=session.players, options=session.options, opening=session.opening
    )
    played: list[tuple[Outcome, list[int]]] = []
    for inp in session.match.history:
        out = replay.play(inp)
        played.append((out, list(replay.state.scores)))
    shots: list[ShotEntry] = []
    actions: list[ActionEntry] = []
    k = 0
    open_shot = session.assembler.open
    for step in session.steps:
        if open_shot is not None and step.shot is open_shot:
            continue  # the open shot comes last, provisional (below)
        result = None
        if step.status == "ok":
            result, k = (k, played[k]), k + 1
        if step.shot is not None:
            shots.append(shot_entry(number, session, step, result))
        elif step.action is not None:
            actions.append(action_entry(number, step, result))
    prov = _provisional(session, replay, number)
    if prov is not None:
        shots.append(prov)
    return shots, actions


def _provisional(session: TableSession, replay: Match, number: int) -> ShotEntry | None:
    """The open shot, played on top of the committed match (then taken back), marked provisional."""
    shot = session.assembler.open
    if shot is None or session.ended:
        return None
    step = session.step_of(shot)
    prov = session.provisional()
    if step is None:
        return None
    if prov is None or prov.assembly is None or prov.error is not None:
        entry = shot_entry(number, session, step, None, None)
        entry["status"], entry["provisional"] = "provisional", True
        return entry
    out = replay.play(prov.assembly.report)
    scores = list(replay.state.scores)
    replay.undo()
    return shot_entry(number, session, step, None, (prov.assembly.report, out, scores))


def _frame_result(session: TableSession) -> FrameResultEntry:
    """How one frame stands or ended: its scores, winner, whether it was conceded, who broke it."""
    st = session.match.state
    r = result_of(session.match)
    return {
        "scores": list(st.scores),
        "winner": st.winner,
        "winner_name": session.players[st.winner] if st.winner is not None else None,
        "draw": bool(st.draw),
        "over": bool(st.over),
        "conceded": r.conceded,
        "breaker": r.breaker,
        "shots": sum(1 for s in session.shots if not s.voided),
    }


def _result(folded: Folded, race: RaceSection) -> MatchResult:
    """The match's result: the race's winner and frame score, with the frame in play's scores (a single
    frame's result reads as before races: `scores`, `winner`)."""
    session = folded.session
    st = session.match.state
    prov = session.provisional()
    shown = prov.state if prov is not None and prov.error is None else None
    winner = race["winner"]
    return {
        "scores": list(st.scores),
        "frames": list(race["score"]),
        "winner": winner,
        "winner_name": session.players[winner] if winner is not None else None,
        "draw": bool(st.draw) and race["race_to"] == 1,
        "over": bool(race["over"]) or (bool(st.draw) and race["race_to"] == 1),
        "abandoned": race["abandoned"],
        "status": session.status,
        "shots": sum(1 for x in folded.sessions for s in x.shots if not s.voided),
        "provisional_scores": list(shown.scores) if shown is not None else None,
    }
