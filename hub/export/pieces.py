"""The pieces of an export document (hub/export/model.py): one stored input with its provenance, one shot with
its balls, strike, fouls, effects and cited reasons, one referee action, each as plain JSON."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hub.reconcile.fold import ITEM_TARGETED
from hub.reconcile.shotclock import clock_of, shot_ms
from hub.reconcile.table import TableSession
from hub.reconcile.timeline import Step
from hub.vocab.evidence import ShotEvidence
from shared_rules.codec import input_to_dict
from shared_rules.model import Colour, PocketedBall, ShotReport
from shared_rules.outcome import EffectKind, Outcome


def input_entry(entry: Mapping[str, Any], note: Mapping[str, Any], session: TableSession) -> dict[str, Any]:
    rec = entry["record"]
    if isinstance(rec, Mapping) and rec.get("type") == "sensor":
        origin: dict[str, Any] = {
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
    return {
        "cursor": entry["cursor"],
        "source": entry["source"],
        "at_ms": entry["at_ms"],
        "received_ms": entry["received_ms"],
        "record": rec,
        "origin": origin,
        "corrects": corrects,
        "applied": bool(note.get("applied")),
        "refused": note.get("refused"),
        "frame": note.get("frame", 1),
    }


def _reasons(outcome: Outcome) -> list[dict[str, Any]]:
    return [
        {"cite": r.cite(), "en": r.en, "ru": r.ru, "ambiguity": r.ambiguity}
        for r in dict.fromkeys(outcome.reasons)
    ]


def _effects(outcome: Outcome) -> list[dict[str, Any]]:
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


def _fouls(outcome: Outcome) -> list[dict[str, Any]]:
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


def judged(outcome: Outcome | None, scores: Sequence[int] | None) -> dict[str, Any]:
    if outcome is None:
        return {"effects": [], "fouls": [], "reasons": [], "score_after": None}
    return {
        "effects": _effects(outcome),
        "fouls": _fouls(outcome),
        "reasons": _reasons(outcome),
        "score_after": list(scores) if scores is not None else None,
    }


def shot_entry(
    session: TableSession,
    step: Step,
    result: tuple[int, tuple[Outcome, list[int]]] | None,
    provisional: tuple[ShotReport, Outcome, list[int]] | None = None,
) -> dict[str, Any]:
    shot = step.shot
    assert shot is not None
    report = provisional[0] if provisional else step.report
    status = "provisional" if provisional else step.status
    out: dict[str, Any] = {
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
    }
    if provisional:
        out.update(judged(provisional[1], provisional[2]))
    else:
        out.update(judged(*(result[1] if result else (None, None))))
    return out


def _strike(shot: ShotEvidence) -> dict[str, Any] | None:
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


def _balls(shot: ShotEvidence, report: ShotReport | None) -> list[dict[str, Any]]:
    """Each counted pocket event with the ball the report gave it, and where each fact came from."""
    balls = list(report.pocketed) if report is not None else []
    out = []
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


def action_entry(step: Step, result: tuple[int, tuple[Outcome, list[int]]] | None) -> dict[str, Any]:
    a = step.action
    assert a is not None
    out = {
        "kind": a.kind,
        "at_ms": a.at_ms,
        "args": dict(a.args),
        "status": step.status,
        "input": input_to_dict(step.played) if step.played is not None else None,
        "error": {"en": step.error[0], "ru": step.error[1]} if step.error else None,
        "engine_index": result[0] if result else None,
    }
    out.update(judged(*(result[1] if result else (None, None))))
    return out
