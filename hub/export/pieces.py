"""The pieces of an export document (hub/export/model.py): one stored input with its provenance, one shot with
its balls, strike, fouls, effects and cited reasons, one referee action, each as plain JSON."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hub.export.document import (
    ActionEntry,
    BallEntry,
    Corrects,
    EffectEntry,
    FoulEntry,
    InputEntry,
    ReasonEntry,
    RefereeOrigin,
    SensorOrigin,
    ShotEntry,
    StoredInput,
    StrikeEntry,
    Text,
)
from hub.reconcile.fold import ITEM_TARGETED
from hub.reconcile.shotclock import clock_of, shot_ms
from hub.reconcile.table import TableSession
from hub.reconcile.timeline import Step
from hub.vocab.evidence import ShotEvidence
from shared_rules.codec import input_to_dict
from shared_rules.model import Colour, PocketedBall, ShotReport
from shared_rules.outcome import EffectKind, Outcome


@dataclass
class Note:
    """What became of one stored input when the match was folded (model.fold): applied or why not, the frame
    it went to, and for an amendment of a shot (`amends`) which shot it amended (None: none was there)."""

    frame: int = 1
    applied: bool = False
    refused: Text | None = None
    amends: bool = False
    shot: int | None = None


def input_entry(entry: StoredInput, note: Note, session: TableSession) -> InputEntry:
    rec = entry["record"]
    origin: SensorOrigin | RefereeOrigin
    # a record read back from a file is not checked before the fold (verify.source_of): it may be no object
    readable = isinstance(rec, Mapping)
    kind = rec.get("kind") if readable else None
    if readable and rec.get("type") == "sensor":
        origin = {
            "type": "sensor",
            "event": rec.get("kind"),
            "device": rec.get("device"),
            "boot": rec.get("boot"),
            "seq": rec.get("seq"),
            "role": rec.get("role"),
            "seat": rec.get("seat"),
            "via": entry["source"],
        }
    else:
        origin = {"type": "referee", "action": kind, "entered_by": entry["source"]}
    corrects: Corrects | None = None
    args = rec.get("args") if readable else None
    if isinstance(args, Mapping) and origin["type"] == "referee" and kind in ITEM_TARGETED:
        item = str(args.get("item") or str(args.get("question", "")).partition(":")[2])
        shot = session.assembler.find_item(item)
        corrects = {"item": item, "shot": shot.number if shot is not None else None}
    elif note.amends:
        corrects = {"item": None, "shot": note.shot}
    return {
        "cursor": entry["cursor"],
        "source": entry["source"],
        "at_ms": entry["at_ms"],
        "received_ms": entry["received_ms"],
        "record": rec,
        "origin": origin,
        "corrects": corrects,
        "applied": note.applied,
        "refused": note.refused,
        "frame": note.frame,
    }


def _reasons(outcome: Outcome) -> list[ReasonEntry]:
    return [
        {"cite": r.cite(), "en": r.en, "ru": r.ru, "ambiguity": r.ambiguity}
        for r in dict.fromkeys(outcome.reasons)
    ]


def _effects(outcome: Outcome) -> list[EffectEntry]:
    return [
        {
            "kind": e.kind.value,
            "player": e.player,
            "ball": e.ball,
            "amount": e.amount,
            "spot": e.spot,
            "detail": e.detail,
            "cite": e.reason.cite(),
        }
        for e in outcome.effects
    ]


def _fouls(outcome: Outcome) -> list[FoulEntry]:
    return [
        {
            "code": e.detail or e.reason.cite(),
            "player": e.player,
            "cite": e.reason.cite(),
            "en": e.reason.en,
            "ru": e.reason.ru,
        }
        for e in outcome.effects
        if e.kind is EffectKind.FOUL
    ]


@dataclass(frozen=True)
class Judged:
    """How the engine judged a shot or an action: the last four members of its entry."""

    effects: list[EffectEntry]
    fouls: list[FoulEntry]
    reasons: list[ReasonEntry]
    score_after: list[int] | None


def judged(outcome: Outcome | None, scores: Sequence[int] | None) -> Judged:
    if outcome is None:
        return Judged([], [], [], None)
    return Judged(
        _effects(outcome), _fouls(outcome), _reasons(outcome), list(scores) if scores is not None else None
    )


def shot_entry(
    frame: int,
    session: TableSession,
    step: Step,
    result: tuple[int, tuple[Outcome, list[int]]] | None,
    provisional: tuple[ShotReport, Outcome, list[int]] | None = None,
) -> ShotEntry:
    """One shot of frame `frame`; `provisional`: the open shot played on top (report, outcome, scores)."""
    shot = step.shot
    assert shot is not None
    report = provisional[0] if provisional else step.report
    status = "provisional" if provisional else step.status
    j = (
        judged(provisional[1], provisional[2])
        if provisional
        else judged(*(result[1] if result else (None, None)))
    )
    return {
        "frame": frame,
        "number": shot.number,
        "status": status,
        "provisional": provisional is not None,
        "opened_ms": shot.opened_at,
        "opened_by": shot.opened_by,
        "closed_ms": shot.closed_at,
        "closed_by": shot.closed_by,
        "shooter": report.shooter if report is not None else None,
        "shooter_name": session.players[report.shooter] if report is not None else None,
        "strike": _strike(shot),
        "shot_ms": shot_ms(shot),
        "shot_clock": clock_of(shot, session.clock),
        "call": [{"ball": d.ball, "pocket": int(d.pocket), "kind": d.kind.value} for d in shot.declarations],
        "balls": _balls(shot, report),
        "jumped": [
            {"item": i, "ball": b, "colour": c.value if c else None}
            for i, b, c in shot.jumped
            if i not in shot.removed
        ],
        "referee_fouls": sorted(f.name.lower() for f in (report.fouls if report is not None else shot.fouls)),
        "error": {"en": step.error[0], "ru": step.error[1]} if step.error else None,
        "engine_index": result[0] if result else None,
        "effects": j.effects,
        "fouls": j.fouls,
        "reasons": j.reasons,
        "score_after": j.score_after,
    }


def _strike(shot: ShotEvidence) -> StrikeEntry | None:
    s = shot.strike
    if s is None:
        return None
    return {
        "item": s.id,
        "device": s.id.split("/")[0],
        "at_ms": s.at_ms,
        "seat": s.seat,
        "double": s.double,
        "source": "sensor",
    }


def _balls(shot: ShotEvidence, report: ShotReport | None) -> list[BallEntry]:
    """Each counted pocket event with the ball the report gave it, and where each fact came from."""
    balls = list(report.pocketed) if report is not None else []
    out: list[BallEntry] = []
    for i, p in enumerate(q for q in shot.pockets if q.id not in shot.removed):
        b = balls[i] if i < len(balls) else None
        named = shot.identities.get(p.id)
        out.append(
            {
                "item": p.id,
                "pocket": int(p.pocket),
                "at_ms": p.at_ms,
                "source": p.source,
                "ball": b.ball if b is not None else None,
                "ball_source": _ball_source(shot, p.colour, named is not None and named.ball is not None, b),
                "colour": b.colour.value if b is not None and b.colour else None,
                "seen_colour": p.colour.value if p.colour else None,
                "colour_conf": p.conf,
            }
        )
        if p.alone is not None:  # counted on this beam alone, the other declared dead (issue 19)
            out[-1]["single_beam"] = ("upper", "lower")[1 - p.alone]
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


def action_entry(frame: int, step: Step, result: tuple[int, tuple[Outcome, list[int]]] | None) -> ActionEntry:
    """One referee action of frame `frame` that went to the engine (or was refused)."""
    a = step.action
    assert a is not None
    j = judged(*(result[1] if result else (None, None)))
    return {
        "frame": frame,
        "kind": a.kind,
        "at_ms": a.at_ms,
        "args": dict(a.args),
        "status": step.status,
        "input": input_to_dict(step.played) if step.played is not None else None,
        "error": {"en": step.error[0], "ru": step.error[1]} if step.error else None,
        "engine_index": result[0] if result else None,
        "effects": j.effects,
        "fouls": j.fouls,
        "reasons": j.reasons,
        "score_after": j.score_after,
    }
