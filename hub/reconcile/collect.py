"""Collecting a session's open questions and its alerts (hub.vocab.notices): from the findings of the shots
shown and of the open shot, the rules engine's needs, the engine's refusals, refused actions, jams, nodes
offline and sensor health; each built afresh from the session's state, so none goes stale.
hub/reconcile/questions.py words each one.
"""

from __future__ import annotations

from typing import Any

from hub.reconcile.questions import NEED_ACTIONS, asked, from_finding, from_need, out_of_turn_alert
from hub.reconcile.statuses import StepStatus
from hub.vocab.amendments import DeclareAction
from hub.vocab.notices import Alert, Question, engine_error, jam, node_offline, rejected_action
from shared_rules.model import Declaration
from shared_rules.outcome import NeedKind

# `s` is a hub.reconcile.table.TableSession (not imported: the session imports this module).

QUESTION_FINDINGS = frozenset(
    {
        "identify",
        "identify_colour",
        "late_drop",
        "double_hit",
        "early_start",
        "out_of_turn",
        "maybe_two",
        "single_beam",
        "shot_clock",
    }
)
# asked until answered, on any shot
LASTING = frozenset({"identify", "identify_colour", "late_drop", "maybe_two", "single_beam"})


def _recent_assemblies(s: Any) -> list[tuple[Any, bool]]:
    """(assembly, recent) for every judged shot, plus the open shot's provisional one."""
    out: list[tuple[Any, bool]] = []
    live = s.shot_steps_shown()  # the last two shots and those with findings: flat in the match's length
    recent = {st.shot.number for st in live[-2:]}
    for st in live:
        if st.assembly is not None and st.shot.closed_at is not None:
            out.append((st.assembly, st.shot.number in recent))
    prov = s.provisional()
    if prov is not None and prov.assembly is not None:
        out.append((prov.assembly, True))
    return out


def _shooter_of(assembly: Any) -> int:
    return int(assembly.report.shooter)


def _findings(s: Any, questions: bool) -> list[Question | Alert]:
    out: list[Question | Alert] = []
    state = s.match.state
    for assembly, recent in _recent_assemblies(s):
        for f in assembly.findings:
            if not questions and recent and f.kind == "out_of_turn":
                out.append(out_of_turn_alert(f, s.players, _shooter_of(assembly)))  # and a question below
            if (f.kind in QUESTION_FINDINGS) != questions:
                continue
            if questions and not recent and f.kind not in LASTING:
                continue
            if not questions and not recent:
                continue
            out.append(from_finding(f, s.variant, s.players, _shooter_of(assembly), state))
    return out


def _needs(s: Any) -> list[Question]:
    asm = s.assembler
    open_shot = asm.open
    blocked = next((st.shot.number for st in s.blocked_steps() if st.shot is not None), None)
    held = blocked is not None
    nxt = len(asm.shots) + 1
    pending = {"declare"} if pending_calls(asm) else set()  # a call cleared again ([]) asks again
    out: list[Question] = []
    prov = s.provisional()
    if held or open_shot is None or prov is None:
        target = blocked if blocked is not None else (open_shot.number if open_shot is not None else nxt)
        for need in s.match.needs():
            if not asked(need):
                continue
            if need.kind == "declaration" and "declare" in pending and not held:
                continue
            out.append(from_need(need, target))
        return out
    for need in s.match.needs():  # needs of the position before the open shot: does the shot supply them?
        if not need.before_shot or not asked(need):
            continue
        if need.kind == "declaration" and open_shot.declarations:
            continue
        fact = NeedKind(need.kind).fact
        if fact is not None and open_shot.facts.get(fact) is not None:
            continue  # the open shot carries the fact (cue_ball, cue_colour)
        if NeedKind(need.kind).held:
            continue  # asked per ball by the assembler's findings
        out.append(from_need(need, open_shot.number))
    for need in prov.needs:
        if not asked(need):
            continue
        if need.before_shot and need.kind == "declaration" and "declare" in pending:
            continue
        out.append(from_need(need, open_shot.number if not need.before_shot else nxt))
    return out


def collect_questions(s: Any) -> tuple[Question, ...]:
    """Every open question of a session: the evidence's, then the rules engine's needs."""
    seen: dict[str, Question] = {}
    for q in [*_findings(s, True), *_needs(s)]:
        if isinstance(q, Question) and q.id not in seen and (q.id[:5] != "need:" or q.kind in NEED_ACTIONS):
            seen[q.id] = q
    return tuple(seen.values())


def collect_alerts(s: Any) -> tuple[Alert, ...]:
    """Every alert of a session that the referee has not dismissed."""
    out: list[Alert] = [a for a in _findings(s, False) if isinstance(a, Alert)]
    waiting = any(n.blocking for n in s.match.needs())  # held for a lag/choice/decision: the question says so
    for st in s.blocked_steps():
        if (
            st.status == StepStatus.BLOCKED
            and st.shot is not None
            and st.error
            and not waiting
            and not _asks_identity(st.assembly)
        ):
            out.append(engine_error(st.shot.number, *st.error))
    prov = s.provisional()
    open_shot = s.assembler.open
    if (
        prov is not None
        and prov.error is not None
        and open_shot is not None
        and not waiting
        and not _asks_identity(prov.assembly)
    ):
        out.append(engine_error(open_shot.number, *prov.error))
    for index, kind, en, ru in s.refused:
        out.append(rejected_action(index, kind, en, ru))
    beams = getattr(s, "jam_beams", {})
    for (device, pocket), since in sorted(s.jams.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
        out.append(jam(device, pocket, since, beams.get((device, pocket), ())))
    if s.assembler.shots and not s.ended:
        for device, role in sorted(s.offline.items()):
            out.append(node_offline(device, role))
    out.extend(getattr(s, "health", ()))  # sensor health from telemetry (hub/ingest/health.py)
    dismissed = s.dismissed
    unique = {a.id: a for a in out if a.id not in dismissed}
    return tuple(unique.values())


def _asks_identity(assembly: Any) -> bool:
    """The shot waits for ball numbers or colours: its `identify` questions say so (no error alert too)."""
    return assembly is not None and any(f.kind in ("identify", "identify_colour") for f in assembly.findings)


def pending_calls(asm: Any) -> tuple[Declaration, ...]:
    """The calls made for the next shot (the latest `declare` for it wins; `calls: []` took them back)."""
    last = next((a for a in reversed(asm.pending_next) if isinstance(a, DeclareAction)), None)
    return last.declarations() if last is not None else ()
