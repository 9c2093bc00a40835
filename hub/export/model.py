"""The export of one match: a JSON document built only from the match's header, its settings snapshot and its
stored inputs, by folding the inputs through a TableSession and replaying the engine log it produces.

Because the whole document is a pure function of (match, settings, inputs), `hub.export.verify` can rebuild it
from a file alone and say where the file departs from what the evidence gives (a tampered score, ball or
reason). The format is `luza-match-export`, version 1; docs/match-export.schema.json describes it.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from hub.errors import MALFORMED, Refusal
from hub.export.pieces import action_entry, input_entry, shot_entry
from hub.ingest.timecheck import suspect_of
from hub.reconcile.fold import ITEM_TARGETED, SHOT_AMENDMENTS
from hub.reconcile.frames import Frames, rules_of
from hub.reconcile.shotclock import ShotClock
from hub.reconcile.table import TableSession
from hub.service.rebuild import stored_differences, timing
from hub.service.snapshot import hub_version, stored_settle
from hub.store import gaps
from hub.store.database import Store
from hub.store.integrity import is_damage
from hub.view.build import scoreboard
from hub.vocab.checks import RefereeInputError
from hub.vocab.inputs import RecordError, RefereeAction, SensorInput, input_from_record
from shared_rules import Match
from shared_rules.errors import RulesError
from shared_rules.opening import Opening
from shared_rules.outcome import Outcome
from shared_rules.race import Race, result_of

FORMAT = "luza-match-export"
VERSION = 2  # 2: a match is a race of frames (race, frames, engine_log luza-race, shots[].frame)
ROUTED = ("new_match", "time_up")  # the service's routing, not an input of the session
# Parts of a document that are not a function of (match, settings, inputs): left out of verification.
VOLATILE = ("generator", "exported_ms", "verification")


class ExportError(Refusal):
    """No such match, or a document that cannot be read or made; `en`/`ru` are one-line messages. `code`:
    malformed | not_found | unavailable (hub.errors)."""

    def __init__(
        self, en: str, ru: str | None = None, code: str = MALFORMED, field: str | None = None
    ) -> None:
        super().__init__(en, ru, field, code)  # code: malformed | not_found | unavailable | damaged


@dataclasses.dataclass(frozen=True)
class Source:
    """What an export is built from: the match header, its settings snapshot, and its stored inputs."""

    match: dict[str, Any]
    settings: dict[str, Any] | None
    inputs: list[dict[str, Any]]  # {cursor, source, at_ms, received_ms, record}
    last_state: dict[str, Any] | None = None  # the hub's stored scoreboard (not in the file; for the note)
    # events of the match the hub never stored (hub.store.gaps); None: unknown
    holes: list[gaps.Gap] | None = None


def load(store: Store, match_id: int) -> Source:
    """Read one match from a store; ExportError if there is none, or ("damaged") if a torn page of the
    database holds part of it (hub.store.integrity): one clear line,
    and the other matches export as before."""
    try:
        return _load(store, match_id)
    except sqlite3.DatabaseError as exc:
        if not is_damage(exc):
            raise
        raise ExportError(
            f"match {match_id} cannot be exported: part of it is on a damaged page of the database ({exc}); "
            "the other matches are not affected; restore a backup (luza restore) to get it back",
            f"партию {match_id} нельзя выгрузить: часть её записей на повреждённой странице базы ({exc}); "
            "другие партии не затронуты; чтобы вернуть её, восстановите резервную копию (luza restore)",
            "damaged",
        ) from None


def _load(store: Store, match_id: int) -> Source:
    m = store.match(match_id)
    if m is None:
        raise ExportError(
            f"no match {match_id} in {store.path}", f"партии {match_id} нет в {store.path}", "not_found"
        )
    settings = m.settings
    club = (settings or {}).get("club") or {}
    table = (settings or {}).get("table") or {}
    stored = store.table_name(m.table_id)
    name = table.get("name") or (m.table_id if stored is None else stored)
    header = {
        "id": m.id,
        "table": {"id": m.table_id, "name": name},
        "club": club or None,
        "variant": m.variant,
        "players": list(m.players),
        "options": dict(m.options),
        "status": m.status,
        "started_ms": m.started_ms,
        "ended_ms": m.ended_ms,
    }
    if any(i is not None for i in m.player_ids):  # the registry's ids beside the names (hub/store/players.py)
        header["player_ids"] = list(m.player_ids)
    inputs = [
        {
            "cursor": r.id,
            "source": r.source,
            "at_ms": r.at_ms,
            "received_ms": r.received_ms,
            "record": r.record,
        }
        for r in store.inputs(match_id=m.id)
    ]
    return Source(header, settings, inputs, m.last_state, gaps.of_match(store, m.id))


def build(src: Source, exported_ms: int | None = None) -> dict[str, Any]:
    """The whole export document of a match."""
    folded = fold(src)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "generator": {"name": "luza", "version": hub_version()},
        "exported_ms": exported_ms,
        "match": src.match,
        "settings": src.settings,
    }
    doc.update(derive(src, folded))
    diffs = None  # a file has no stored state to compare with (only an export from the store has)
    if src.last_state is not None:
        diffs = stored_differences(src.last_state, scoreboard(folded.session, folded.frames))
    doc["verification"] = {
        "replayed_inputs": sum(1 for n in folded.notes.values() if n.get("applied")),
        "matches_stored_state": None if diffs is None else not diffs,
        "differences": (diffs or [])[:20],
    }
    if src.holes is not None:
        doc["verification"]["evidence"] = evidence(src.holes)
    return doc


def evidence(holes: Sequence[gaps.Gap]) -> dict[str, Any]:
    """Whether the match's evidence is complete: the holes in its nodes' seqs when
    it was exported, in words."""
    n = sum(last - first + 1 for _, _, first, last in holes)
    out: dict[str, Any] = {
        "complete": not holes,
        "missing_events": n,
        "missing": [{"device": d, "boot": b, "first": f, "last": la} for d, b, f, la in holes[:20]],
    }
    if holes:
        more = ", ..." if len(holes) > 20 else ""
        out["en"] = (
            f"evidence incomplete: {n} event(s) never reached the hub "
            f"({', '.join(gaps.describe(g) for g in holes[:20])}{more}); the result is not verified"
        )
        out["ru"] = (
            f"доказательства неполные: {n} событ. не дошло до хаба "
            f"({', '.join(gaps.describe(g, 'ru') for g in holes[:20])}{more}); итог не подтверждён"
        )
    return out


@dataclasses.dataclass
class Folded:
    """A match folded from its stored inputs: the sessions of its frames (the last is the frame in play), its
    race, and per cursor a note: applied or why not, the frame it went to, which shot an entry amended."""

    sessions: list[TableSession]
    frames: Frames
    notes: dict[int, dict[str, Any]]

    @property
    def session(self) -> TableSession:
        return self.sessions[-1]


def fold(src: Source) -> Folded:
    """Fold the inputs through a new session per frame (a `next_frame` row starts the next, as on the hub)."""
    m = src.match
    settle = timing(stored_settle(src.settings) or {})
    clock = ShotClock.of_snapshot(src.settings)  # every frame has the match's clock

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
    for entry in src.inputs:
        note: dict[str, Any] = {"applied": False, "frame": len(out.sessions)}
        out.notes[entry["cursor"]] = note
        try:
            inp = input_from_record(entry["record"])
        except RecordError as exc:
            note["refused"] = {"en": f"unreadable record: {exc}", "ru": f"запись не читается: {exc}"}
            continue
        if isinstance(inp, RefereeAction) and inp.kind in ROUTED:
            _route(out, inp, note, frame)
            continue
        # stored, never folded into play (hub.ingest.timecheck)
        if (code := suspect_of(entry["record"])) is not None:
            note["refused"] = {
                "en": f"impossible time ({code}): stored, not counted",
                "ru": f"невозможное время ({code}): сохранено, не учтено",
            }
            continue
        _apply(out.session, out.frames, inp, note)
        if note["applied"] and isinstance(inp, RefereeAction) and inp.kind == "next_frame":
            nxt = out.frames.advance(out.session, lambda opening: frame(out.frames, None, opening))
            if nxt is not None:  # the frame it ended is over: the next one opens (hub.service.matches)
                out.sessions.append(nxt)
    return out


def _route(out: Folded, inp: RefereeAction, note: dict[str, Any], frame: Any) -> None:
    """new_match sets the race (its first frame opens by it); time_up calls the match time (general A-G6)."""
    if inp.kind == "time_up":
        why = out.frames.time_refusal(out.session)
        if why is not None:
            note["refused"] = {"en": why[0], "ru": why[1]}
            return
        out.frames.call_time(out.session)
        note["applied"] = True
        return
    try:
        out.frames.rules = rules_of(inp.args)
    except RulesError as exc:
        note["refused"] = {"en": exc.en, "ru": exc.ru}
        return
    if len(out.sessions) == 1 and not out.session.log:
        out.sessions[0] = frame(out.frames, None)
    note["applied"] = True


def _apply(
    session: TableSession, frames: Frames, inp: SensorInput | RefereeAction, note: dict[str, Any]
) -> None:
    try:
        session.apply(inp)
    except RefereeInputError as exc:
        note["refused"] = {"en": exc.en, "ru": exc.ru}
        return
    note["applied"] = True
    if isinstance(inp, RefereeAction) and inp.kind == "end_match":
        frames.abandon_if_undecided(session, str(inp.args.get("reason") or ""))
    if (
        isinstance(inp, RefereeAction)
        and inp.kind in SHOT_AMENDMENTS
        and inp.kind not in ITEM_TARGETED
        and inp.args.get("shot") != "next"
    ):  # a call for the next shot corrects nothing
        shot = session.assembler.open or session.assembler.last()
        note["shot"] = shot.number if shot is not None else None


def derive(src: Source, folded: Folded) -> dict[str, Any]:
    """The parts of the document that follow from the inputs: provenance, the race, each frame (its opening,
    engine log and result), the shots and actions of every frame, and the match's result."""
    shots: list[dict[str, Any]] = []
    actions: list[dict[str, Any]] = []
    frames: list[dict[str, Any]] = []
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
            input_entry(e, n, folded.sessions[n.get("frame", 1) - 1])
            for e in src.inputs
            for n in (folded.notes.get(e["cursor"], {}),)
        ],
        "race": race,
        "engine_log": Race(
            src.match["variant"],
            folded.session.players,
            dict(src.match["options"]),
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


def _frame_entries(session: TableSession, number: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One frame's shots and referee actions, each judged by the engine replaying the frame's inputs."""
    replay = Match.new(
        session.variant, players=session.players, options=session.options, opening=session.opening
    )
    played: list[tuple[Outcome, list[int]]] = []
    for inp in session.match.history:
        out = replay.play(inp)
        played.append((out, list(replay.state.scores)))
    shots: list[dict[str, Any]] = []
    actions: list[dict[str, Any]] = []
    k = 0
    open_shot = session.assembler.open
    for step in session.steps:
        if open_shot is not None and step.shot is open_shot:
            continue  # the open shot comes last, provisional (below)
        result = None
        if step.status == "ok":
            result, k = (k, played[k]), k + 1
        if step.shot is not None:
            shots.append({"frame": number, **shot_entry(session, step, result)})
        elif step.action is not None:
            actions.append({"frame": number, **action_entry(step, result)})
    prov = _provisional(session, replay)
    if prov is not None:
        shots.append({"frame": number, **prov})
    return shots, actions


# ---------------------------------------------------------------- pieces


def _provisional(session: TableSession, replay: Match) -> dict[str, Any] | None:
    """The open shot, played on top of the committed match (then taken back), marked provisional."""
    shot = session.assembler.open
    if shot is None or session.ended:
        return None
    step = session.step_of(shot)
    prov = session.provisional()
    if step is None:
        return None
    if prov is None or prov.assembly is None or prov.error is not None:
        return shot_entry(session, step, None, None) | {"status": "provisional", "provisional": True}
    out = replay.play(prov.assembly.report)
    scores = list(replay.state.scores)
    replay.undo()
    return shot_entry(session, step, None, (prov.assembly.report, out, scores))


def _frame_result(session: TableSession) -> dict[str, Any]:
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


def _result(folded: Folded, race: Mapping[str, Any]) -> dict[str, Any]:
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
