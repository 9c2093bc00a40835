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
from hub.ingest.timecheck import suspect_of
from hub.reconcile.assembler import ShotEvidence
from hub.reconcile.checks import RefereeInputError
from hub.reconcile.fold import ITEM_TARGETED, SHOT_AMENDMENTS
from hub.reconcile.inputs import RecordError, RefereeAction, input_from_record
from hub.reconcile.table import TableSession
from hub.reconcile.timeline import Step
from hub.service.rebuild import comparable, differences, timing
from hub.service.snapshot import hub_version, stored_settle
from hub.store import gaps
from hub.store.database import Store
from hub.store.integrity import is_damage
from shared_rules import Match
from shared_rules.codec import input_to_dict
from shared_rules.model import Colour, PocketedBall, ShotReport
from shared_rules.outcome import EffectKind, Outcome

FORMAT = "luza-match-export"
VERSION = 1
ROUTED = ("new_match",)  # the service's routing, not an input of the session
# Parts of a document that are not a function of (match, settings, inputs): left out of verification.
VOLATILE = ("generator", "exported_ms", "verification")


class ExportError(Refusal):
    """No such match, or a document that cannot be read or made; `en`/`ru` are one-line messages. `code`:
    malformed | not_found | unavailable (hub.errors)."""

    def __init__(self, en: str, ru: str | None = None, code: str = MALFORMED, field: str | None = None) -> None:
        super().__init__(en, ru, field, code)  # code: malformed | not_found | unavailable | damaged


@dataclasses.dataclass(frozen=True)
class Source:
    """What an export is built from: the match header, its settings snapshot, and its stored inputs."""

    match: dict[str, Any]
    settings: dict[str, Any] | None
    inputs: list[dict[str, Any]]  # {cursor, source, at_ms, received_ms, record}
    last_state: dict[str, Any] | None = None  # the hub's stored scoreboard (not in the file; for the note)
    holes: list[gaps.Gap] | None = None  # events of the match the hub never stored (hub.store.gaps); None: unknown


def load(store: Store, match_id: int) -> Source:
    """Read one match from a store; ExportError if there is none, or ("damaged") if a torn page of the database
    holds part of it (hub.store.integrity): one clear line, and the other matches export as before."""
    try:
        return _load(store, match_id)
    except sqlite3.DatabaseError as exc:
        if not is_damage(exc):
            raise
        raise ExportError(
            f"match {match_id} cannot be exported: part of it is on a damaged page of the database ({exc}); the "
            "other matches are not affected; restore a backup (luza restore) to get it back",
            f"партию {match_id} нельзя выгрузить: часть её записей на повреждённой странице базы ({exc}); другие "
            "партии не затронуты; чтобы вернуть её, восстановите резервную копию (luza restore)", "damaged") from None


def _load(store: Store, match_id: int) -> Source:
    m = store.match(match_id)
    if m is None:
        raise ExportError(f"no match {match_id} in {store.path}", f"партии {match_id} нет в {store.path}",
                          "not_found")
    settings = m.settings
    club = (settings or {}).get("club") or {}
    table = (settings or {}).get("table") or {}
    stored = store.table_name(m.table_id)
    name = table.get("name") or (m.table_id if stored is None else stored)
    header = {"id": m.id, "table": {"id": m.table_id, "name": name}, "club": club or None, "variant": m.variant,
              "players": list(m.players), "options": dict(m.options), "status": m.status,
              "started_ms": m.started_ms, "ended_ms": m.ended_ms}
    if any(i is not None for i in m.player_ids):  # the registry's ids beside the names (hub/store/players.py)
        header["player_ids"] = list(m.player_ids)
    inputs = [{"cursor": r.id, "source": r.source, "at_ms": r.at_ms, "received_ms": r.received_ms,
               "record": r.record} for r in store.inputs(match_id=m.id)]
    return Source(header, settings, inputs, m.last_state, gaps.of_match(store, m.id))


def build(src: Source, exported_ms: int | None = None) -> dict[str, Any]:
    """The whole export document of a match."""
    session, notes = fold(src)
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION,
                           "generator": {"name": "luza", "version": hub_version()}, "exported_ms": exported_ms,
                           "match": src.match, "settings": src.settings}
    doc.update(derive(src, session, notes))
    board = session.scoreboard()
    diffs = differences(comparable(src.last_state), comparable(board)) if src.last_state is not None else None
    doc["verification"] = {
        "replayed_inputs": sum(1 for n in notes.values() if n.get("applied")),
        "matches_stored_state": None if diffs is None else not diffs,
        "differences": (diffs or [])[:20],
    }
    if src.holes is not None:
        doc["verification"]["evidence"] = evidence(src.holes)
    return doc


def evidence(holes: Sequence[gaps.Gap]) -> dict[str, Any]:
    """Whether the match's evidence is complete: the holes in its nodes' seqs when it was exported, in words."""
    n = sum(last - first + 1 for _, _, first, last in holes)
    out: dict[str, Any] = {"complete": not holes, "missing_events": n,
                           "missing": [{"device": d, "boot": b, "first": f, "last": la} for d, b, f, la in holes[:20]]}
    if holes:
        more = ", ..." if len(holes) > 20 else ""
        out["en"] = (f"evidence incomplete: {n} event(s) never reached the hub "
                     f"({', '.join(gaps.describe(g) for g in holes[:20])}{more}); the result is not verified")
        out["ru"] = (f"доказательства неполные: {n} событ. не дошло до хаба "
                     f"({', '.join(gaps.describe(g, 'ru') for g in holes[:20])}{more}); итог не подтверждён")
    return out


def fold(src: Source) -> tuple[TableSession, dict[int, dict[str, Any]]]:
    """Fold the inputs through a new session; per cursor: applied or why not, and which shot an entry amended."""
    m = src.match
    settle = stored_settle(src.settings) or {}
    session = TableSession(m["table"]["id"], m["variant"], (m["players"][0], m["players"][1]), m["options"],
                           timing(settle), match_id=m["id"])
    notes: dict[int, dict[str, Any]] = {}
    for entry in src.inputs:
        note: dict[str, Any] = {"applied": False}
        notes[entry["cursor"]] = note
        try:
            inp = input_from_record(entry["record"])
        except RecordError as exc:
            note["refused"] = {"en": f"unreadable record: {exc}", "ru": f"запись не читается: {exc}"}
            continue
        if isinstance(inp, RefereeAction) and inp.kind in ROUTED:
            note["applied"] = True
            continue
        if (code := suspect_of(entry["record"])) is not None:  # stored, never folded into play (hub.ingest.timecheck)
            note["refused"] = {"en": f"impossible time ({code}): stored, not counted",
                               "ru": f"невозможное время ({code}): сохранено, не учтено"}
            continue
        try:
            session.apply(inp)
        except RefereeInputError as exc:
            note["refused"] = {"en": exc.en, "ru": exc.ru}
            continue
        note["applied"] = True
        if (isinstance(inp, RefereeAction) and inp.kind in SHOT_AMENDMENTS and inp.kind not in ITEM_TARGETED
                and inp.args.get("shot") != "next"):  # a call for the next shot corrects nothing
            shot = session.assembler.open or session.assembler.last()
            note["shot"] = shot.number if shot is not None else None
    return session, notes


def derive(src: Source, session: TableSession, notes: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    """The parts of the document that follow from the inputs: provenance, engine log, shots, actions, result."""
    replay = Match.new(session.variant, players=session.players, options=session.options)
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
            shots.append(_shot(session, step, result))
        elif step.action is not None:
            actions.append(_action(step, result))
    prov = _provisional(session, replay)
    if prov is not None:
        shots.append(prov)
    return {
        "inputs": [_input(e, notes.get(e["cursor"], {}), session) for e in src.inputs],
        "engine_log": session.match.to_log(),
        "shots": shots,
        "actions": actions,
        "result": _result(session),
    }


# ---------------------------------------------------------------- pieces


def _input(entry: Mapping[str, Any], note: Mapping[str, Any], session: TableSession) -> dict[str, Any]:
    rec = entry["record"]
    if isinstance(rec, Mapping) and rec.get("type") == "sensor":
        origin: dict[str, Any] = {"type": "sensor", "event": rec.get("kind"), "device": rec.get("device"),
                                  "boot": rec.get("boot"), "seq": rec.get("seq"), "role": rec.get("role"),
                                  "seat": rec.get("seat"), "via": entry["source"]}
    else:
        kind = rec.get("kind") if isinstance(rec, Mapping) else None
        origin = {"type": "referee", "action": kind, "entered_by": entry["source"]}
    corrects = None
    args = rec.get("args") if isinstance(rec, Mapping) else None
    if isinstance(args, Mapping) and origin.get("action") in ITEM_TARGETED:
        item = str(args.get("item") or str(args.get("question", "")).partition(":")[2])
        shot = session.assembler.find_item(item)
        corrects = {"item": item, "shot": shot.number if shot is not None else None}
    elif "shot" in note:
        corrects = {"item": None, "shot": note["shot"]}
    return {"cursor": entry["cursor"], "source": entry["source"], "at_ms": entry["at_ms"],
            "received_ms": entry["received_ms"], "record": rec, "origin": origin, "corrects": corrects,
            "applied": bool(note.get("applied")), "refused": note.get("refused")}


def _reasons(outcome: Outcome) -> list[dict[str, Any]]:
    return [{"cite": r.cite(), "en": r.en, "ru": r.ru, "ambiguity": r.ambiguity}
            for r in dict.fromkeys(outcome.reasons)]


def _effects(outcome: Outcome) -> list[dict[str, Any]]:
    return [{"kind": e.kind.value, "player": e.player, "ball": e.ball, "amount": e.amount, "spot": e.spot,
             "detail": e.detail, "cite": e.reason.cite()} for e in outcome.effects]


def _fouls(outcome: Outcome) -> list[dict[str, Any]]:
    return [{"code": e.detail or e.reason.cite(), "player": e.player, "cite": e.reason.cite(), "en": e.reason.en,
             "ru": e.reason.ru} for e in outcome.effects if e.kind is EffectKind.FOUL]


def _judged(outcome: Outcome | None, scores: Sequence[int] | None) -> dict[str, Any]:
    if outcome is None:
        return {"effects": [], "fouls": [], "reasons": [], "score_after": None}
    return {"effects": _effects(outcome), "fouls": _fouls(outcome), "reasons": _reasons(outcome),
            "score_after": list(scores) if scores is not None else None}


def _shot(session: TableSession, step: Step, result: tuple[int, tuple[Outcome, list[int]]] | None,
          provisional: tuple[ShotReport, Outcome, list[int]] | None = None) -> dict[str, Any]:
    shot = step.shot
    assert shot is not None
    report = provisional[0] if provisional else step.report
    status = "provisional" if provisional else step.status
    out: dict[str, Any] = {
        "number": shot.number, "status": status, "provisional": provisional is not None,
        "opened_ms": shot.opened_at, "opened_by": shot.opened_by, "closed_ms": shot.closed_at,
        "closed_by": shot.closed_by,
        "shooter": report.shooter if report is not None else None,
        "shooter_name": session.players[report.shooter] if report is not None else None,
        "strike": _strike(shot),
        "call": [{"ball": d.ball, "pocket": int(d.pocket), "kind": d.kind.value} for d in shot.declarations],
        "balls": _balls(shot, report),
        "jumped": [{"item": i, "ball": b, "colour": c.value if c else None} for i, b, c in shot.jumped
                   if i not in shot.removed],
        "referee_fouls": sorted(f.name.lower() for f in (report.fouls if report is not None else shot.fouls)),
        "error": {"en": step.error[0], "ru": step.error[1]} if step.error else None,
        "engine_index": result[0] if result else None,
    }
    if provisional:
        out.update(_judged(provisional[1], provisional[2]))
    else:
        out.update(_judged(*(result[1] if result else (None, None))))
    return out


def _strike(shot: ShotEvidence) -> dict[str, Any] | None:
    s = shot.strike
    if s is None:
        return None
    return {"item": s.id, "device": s.id.split("/")[0], "at_ms": s.at_ms, "seat": s.seat, "double": s.double,
            "source": "sensor"}


def _balls(shot: ShotEvidence, report: ShotReport | None) -> list[dict[str, Any]]:
    """Each counted pocket event with the ball the report gave it, and where each fact came from."""
    balls = list(report.pocketed) if report is not None else []
    out = []
    for i, p in enumerate(q for q in shot.pockets if q.id not in shot.removed):
        b = balls[i] if i < len(balls) else None
        named = shot.identities.get(p.id)
        out.append({
            "item": p.id, "pocket": int(p.pocket), "at_ms": p.at_ms, "source": p.source,
            "ball": b.ball if b is not None else None,
            "ball_source": _ball_source(shot, p.colour, named is not None and named.ball is not None, b),
            "colour": b.colour.value if b is not None and b.colour else None,
            "seen_colour": p.colour.value if p.colour else None,
            "colour_conf": p.conf,
        })
    return out


def _ball_source(shot: ShotEvidence, seen: Colour | None, named: bool, b: PocketedBall | None) -> str | None:
    """Where the ball's number came from: the referee named it, its colour told it, the call, or nobody."""
    if b is None or b.ball is None:
        return None
    if named:
        return "referee"
    if seen is not None and seen is not Colour.IVORY:
        return "colour"
    if any(d.ball == b.ball for d in shot.declarations):
        return "call"
    return "rules"


def _action(step: Step, result: tuple[int, tuple[Outcome, list[int]]] | None) -> dict[str, Any]:
    a = step.action
    assert a is not None
    out = {"kind": a.kind, "at_ms": a.at_ms, "args": dict(a.args), "status": step.status,
           "input": input_to_dict(step.played) if step.played is not None else None,
           "error": {"en": step.error[0], "ru": step.error[1]} if step.error else None,
           "engine_index": result[0] if result else None}
    out.update(_judged(*(result[1] if result else (None, None))))
    return out


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
        return _shot(session, step, None, None) | {"status": "provisional", "provisional": True}
    out = replay.play(prov.assembly.report)
    scores = list(replay.state.scores)
    replay.undo()
    return _shot(session, step, None, (prov.assembly.report, out, scores))


def _result(session: TableSession) -> dict[str, Any]:
    st = session.match.state
    prov = session.provisional()
    shown = prov.summary if prov is not None and prov.error is None and prov.summary else None
    return {
        "scores": list(st.scores),
        "winner": st.winner,
        "winner_name": session.players[st.winner] if st.winner is not None else None,
        "draw": bool(st.draw),
        "over": bool(st.over),
        "status": session.status,
        "shots": sum(1 for s in session.shots if not s.voided),
        "provisional_scores": list(shown["scores"]) if shown else None,
    }
