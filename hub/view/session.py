"""The table session's part of a match view: the engine's fields for the position shown (the open shot played
on top of the committed match, when it can be), the shot card, the calls for the next shot, the questions and
the alerts."""

from __future__ import annotations

from operator import attrgetter
from typing import cast

from hub.reconcile.collect import pending_calls
from hub.reconcile.report import question_id
from hub.reconcile.table import TableSession
from hub.view.engine import EngineFields, engine_fields, last_outcome
from hub.view.race import RaceView
from hub.view.shot import (
    AlertView,
    Amendment,
    Call,
    Choice,
    FactValue,
    Jumped,
    LateDrop,
    NextShot,
    Pocketed,
    QuestionView,
    ShotView,
    Source,
    Strike,
    TakenOut,
)
from hub.vocab.alerts import Severity
from hub.vocab.evidence import ShotEvidence
from hub.vocab.notices import Alert, Question
from shared_rules.model import Declaration


class SessionFields(EngineFields):
    """SessionView's fields as `session_fields` makes them, for the view to validate (SessionView, MatchView).
    tests/hub/view/test_fields.py keeps the keys those of SessionView."""

    table: str
    match_id: int | str | None
    status: str  # TableStatus: live | held | ended
    provisional: bool
    committed_scores: list[int]
    shot: ShotView | None
    next_shot: NextShot
    shot_count: int
    questions: list[QuestionView]
    alerts: list[AlertView]
    race: RaceView


def session_fields(s: TableSession, race: RaceView) -> SessionFields:
    """The SessionView's fields: the engine's (provisional if a shot is open), the session's own and its
    `race` (hub.view.race)."""
    prov = s.provisional()
    match, asm = s.match, s.assembler
    provisional = prov is not None and prov.error is None and prov.state is not None
    if provisional:
        assert prov is not None and prov.state is not None and prov.outcome is not None
        engine = engine_fields(match, prov.state, prov.needs, prov.outcome)
    else:
        engine = engine_fields(match, match.state, match.needs(), last_outcome(match))
    shown = asm.open or asm.last()
    return {
        **engine,
        "table": s.table_id,
        "match_id": s.match_id,
        "status": s.status.value,
        "provisional": provisional,
        "committed_scores": list(match.state.scores),
        "shot": shot_view(s, shown) if shown is not None else None,
        "next_shot": NextShot(declarations=calls(pending_calls(asm))),  # calls made before the shot opens
        "shot_count": len(asm.shots) - sum(map(attrgetter("voided"), asm.shots)),  # C-level: a long match
        "questions": [question_view(q) for q in s.questions],
        "alerts": [alert_view(a) for a in s.alerts],
        "race": race,
    }


def calls(declarations: tuple[Declaration, ...]) -> list[Call]:
    return [Call(ball=d.ball, pocket=int(d.pocket), kind=d.kind.value, method=d.method) for d in declarations]


def question_view(
    q: Question, choices: list[Choice] | None = None, balls: list[int] | None = None
) -> QuestionView:
    """A session's question; `choices`, `balls`: the screens' (hub.view.screen), not stored."""
    return QuestionView(
        id=q.id,
        kind=q.kind,
        action=q.action,
        en=q.en,
        ru=q.ru,
        shot=q.shot,
        item=q.item,
        player=q.player,
        options=list(q.options),
        default=q.default,
        cite=q.cite,
        choices=choices,
        balls=balls,
    )


def alert_view(a: Alert) -> AlertView:
    return AlertView(
        id=a.id,
        kind=a.kind,
        en=a.en,
        ru=a.ru,
        shot=a.shot,
        item=a.item,
        severity=cast(Severity, a.severity),
        cite=a.cite,
    )


def shot_view(s: TableSession, shot: ShotEvidence) -> ShotView:
    """A shot as the panel shows it: its evidence, the identities used and its status."""
    step = s.step_of(shot)
    report = step.report if step is not None else None
    if shot.closed_at is None:
        prov = s.provisional()
        if prov is not None:
            report = prov.assembly.report if prov.assembly is not None else None
    balls = list(report.pocketed) if report is not None else []
    counted = [p for p in shot.pockets if p.id not in shot.removed]
    pocketed = []
    for i, p in enumerate(counted):
        b = balls[i] if i < len(balls) else None
        pocketed.append(
            Pocketed(
                item=p.id,
                pocket=int(p.pocket),
                at_ms=p.at_ms,
                source=cast(Source, p.source),
                seen=p.colour.value if p.colour else None,
                ball=b.ball if b is not None else None,
                named=p.id in shot.identities,
                colour=b.colour.value if b is not None and b.colour else None,
            )
        )
    strike = shot.strike
    return ShotView(
        number=shot.number,
        opened_at=shot.opened_at,
        opened_by=shot.opened_by,
        closed_at=shot.closed_at,
        status="open" if shot.closed_at is None else (step.status if step is not None else "pending"),
        strike=None
        if strike is None
        else Strike(item=strike.id, at_ms=strike.at_ms, seat=strike.seat, double=strike.double),
        pocketed=pocketed,
        removed=sorted(shot.removed),
        late=[
            LateDrop(
                item=p.id,
                pocket=int(p.pocket),
                at_ms=p.at_ms,
                answer=shot.answers.get(question_id("late_drop", p.id)),
            )
            for p in shot.late
        ],
        jumped=[
            Jumped(item=i, ball=b, colour=c.value if c else None)
            for i, b, c in shot.jumped
            if i not in shot.removed
        ],
        fouls=sorted(f.name.lower() for f in (report.fouls if report else shot.fouls)),
        declarations=calls(shot.declarations),
        facts=cast(dict[str, FactValue], dict(shot.facts)),  # a ball, a colour, a count, a flag
        # the referee's own: `foul` on=false takes back
        called_fouls=sorted(f.name.lower() for f in shot.fouls),
        answers=dict(shot.answers),  # question id -> answer (`withdraw` what=answer takes one back)
        # `withdraw` what=removal
        taken_out=[
            TakenOut(item=p.id, pocket=int(p.pocket), source=cast(Source, p.source))
            for p in shot.pockets
            if p.id in shot.removed
        ],
        error=list(step.error) if step is not None and step.error else None,
        amendments=[Amendment(**a) for a in s.amendments.get(shot.number, ())],
    )
