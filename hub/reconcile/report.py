"""A shot's evidence -> the provisional `ShotReport` the rules engine is fed,
and the findings it could not settle.

Pure: no I/O, no clock. `hub.reconcile.assembler` cuts the evidence into shots; this module judges one shot in
the position before it (`ShotContext`), asking the variant
(its `PROFILE` and hooks) instead of comparing names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from hub.config import ShotTiming
from hub.vocab.evidence import Identity, PocketEvidence, ShotEvidence
from shared_rules.model import (
    Colour,
    Declaration,
    DeclarationKind,
    Foul,
    JumpedBall,
    Pocket,
    PocketedBall,
    ShotReport,
)
from shared_rules.profile import BallIdentity
from shared_rules.registry import find_variant
from shared_rules.variant import Variant


@dataclass(frozen=True, slots=True)
class Finding:
    """Something the evidence cannot settle or that disagrees;
    `hub.reconcile.questions` words it for people."""

    kind: str
    shot: int
    item: str | None = None
    pocket: int | None = None
    seat: int | None = None
    ball: int | None = None
    other: int | None = None  # e.g. the declared pocket


def _colour(x: object) -> Colour | None:
    return Colour(x) if isinstance(x, str) else None


NO_FOULS: frozenset[Foul] = frozenset()  # one shared empty set: most shots have no foul
HINT_FOULS = {
    "double_hit": Foul.DOUBLE_HIT,
    "early_start": Foul.EARLY_START,
    "out_of_turn": Foul.INTERFERENCE,
    # shot_clock: the regulation's time ran out; "foul" is §26 slow play
    "shot_clock": Foul.SLOW_PLAY,
}


@dataclass(frozen=True, slots=True)
class ShotContext:
    """What the report needs from the position before the shot (the committed engine state)."""

    variant: str
    shooter: int
    on_table: tuple[int, ...] = ()
    timing: ShotTiming = field(default_factory=ShotTiming)

    @property
    def rules(self) -> Variant:
        """The variant's rules: what the hub asks instead of comparing names (its `PROFILE` and hooks)."""
        return rules_of(self.variant)


@lru_cache(maxsize=64)
def rules_of(variant: str) -> Variant:
    """The registered variant called `variant` (default options:
    the profile and hooks do not depend on them)."""
    return find_variant(variant)()


@dataclass(frozen=True, slots=True)
class Assembly:
    """The provisional report of one shot and what the evidence could not settle."""

    report: ShotReport
    findings: tuple[Finding, ...]


def question_id(kind: str, item: str) -> str:
    """Stable id of a question about one item (e.g. `double_hit:cue-1/3/17`), used by `confirm`."""
    return f"{kind}:{item}"


def build_report(shot: ShotEvidence, ctx: ShotContext) -> Assembly:
    """Turn a shot's evidence into the provisional ShotReport the rules engine is fed."""
    findings: list[Finding] = []
    fouls = dict(shot.fouls)
    _hints(shot, ctx, fouls, findings)
    pocketed = _pocketed(shot, ctx, findings)
    f = shot.facts
    report = ShotReport(
        shooter=ctx.shooter,
        cue_ball=f.get("cue_ball"),  # type: ignore[arg-type]
        cue_colour=_colour(f.get("cue_colour")),
        declarations=shot.declarations,
        pocketed=pocketed,
        jumped=tuple(JumpedBall(b, c) for i, b, c in shot.jumped if i not in shot.removed),
        first_contact=f.get("first_contact"),  # type: ignore[arg-type]
        first_contact_colour=_colour(f.get("first_contact_colour")),
        cushions=f.get("cushions"),  # type: ignore[arg-type]
        centre_crossing=f.get("centre_crossing"),  # type: ignore[arg-type]
        break_balls_to_cushion=f.get("break_balls_to_cushion"),  # type: ignore[arg-type]
        as_called=f.get("as_called"),  # type: ignore[arg-type]
        carom_on_ten=bool(f.get("carom_on_ten", False)),
        rokambol_on_ten=bool(f.get("rokambol_on_ten", False)),
        touched_ten=bool(f.get("touched_ten", False)),
        snookered=bool(f.get("snookered", False)),
        ten_off_spot=bool(f.get("ten_off_spot", False)),
        centre_spot_taken=bool(f.get("centre_spot_taken", False)),
        fouls=frozenset(fouls) if fouls else NO_FOULS,
        offender=fouls.get(Foul.INTERFERENCE),
    )
    return Assembly(report, tuple(findings))


def _hints(shot: ShotEvidence, ctx: ShotContext, fouls: dict[Foul, int | None], out: list[Finding]) -> None:
    """Sensor hints become questions until the referee answers them; "foul" adds the foul (general §29.1)."""
    s = shot.strike
    hints: list[tuple[str, int | None]] = []
    if s is not None and s.double:
        hints.append(("double_hit", None))  # general §18: a hint, not a verdict
    if s is not None and shot.early:
        hints.append(("early_start", None))  # general §14.2
    if s is not None and s.seat is not None and s.seat != ctx.shooter:
        hints.append(("out_of_turn", s.seat))  # general §28: the non-shooter's foul
    took = shot.opened_at - shot.clock_from if shot.clock_from is not None else 0
    if (
        s is not None
        and shot.allowed_ms is not None
        and shot.clock_from is not None
        and took > shot.allowed_ms
    ):
        hints.append(("shot_clock", None))  # the shot clock ran out (hub/reconcile/shotclock.py; general §26)
    for kind, seat in hints:
        assert s is not None
        answer = shot.answers.get(question_id(kind, s.id))
        if answer is None:
            out.append(
                Finding(
                    kind, shot.number, s.id, seat=seat, other=took // 1000 if kind == "shot_clock" else None
                )
            )
        elif answer == "foul":
            fouls.setdefault(HINT_FOULS[kind], seat)
    for extra in shot.extra_strikes:
        out.append(Finding("double_strike", shot.number, extra.id, seat=extra.seat))
    for late in shot.late:
        if late.id not in shot.removed and question_id("late_drop", late.id) not in shot.answers:
            out.append(Finding("late_drop", shot.number, late.id, pocket=int(late.pocket)))
    for p in shot.pockets:  # counted on one beam, the other declared dead: the referee checks it (issue 19)
        if p.alone is not None and p.id not in shot.removed:
            out.append(Finding("sensor_alone", shot.number, p.id, pocket=int(p.pocket), other=p.alone))
    for o in shot.outs:
        if o.ball is not None:
            out.append(Finding("ball_out", shot.number, o.id, pocket=o.pocket))
    for fl in shot.flags:
        if fl.why == "single" and question_id("single_beam", fl.id) not in shot.answers:
            out.append(Finding("single_beam", shot.number, fl.id, pocket=fl.pocket, other=fl.beam))
        if fl.why != "two":
            out.append(Finding("sensor_" + fl.why, shot.number, fl.id, pocket=fl.pocket, other=fl.beam))
        elif fl.ball is not None and question_id("maybe_two", fl.ball) not in shot.answers:
            out.append(Finding("maybe_two", shot.number, fl.ball, pocket=fl.pocket))


def _counted(shot: ShotEvidence) -> list[PocketEvidence]:
    late = [p for p in shot.late if shot.answers.get(question_id("late_drop", p.id)) == "count"]
    gone = shot.removed | {o.ball for o in shot.outs if o.ball}
    balls = [p for p in [*shot.pockets, *late] if p.id not in gone]
    for fl in shot.flags:  # the referee said a one-beam passage was a ball: it counts, colour unseen
        if fl.why == "single" and shot.answers.get(question_id("single_beam", fl.id)) == "ball":
            balls.append(PocketEvidence(fl.id + "#ball", Pocket(fl.pocket), fl.at_ms, None, None, "sensor"))
    for fl in shot.flags:  # the referee said a `two` flag was two balls: the second one, unseen colour
        second = next((p for p in balls if p.id == fl.ball), None)
        if second is not None and shot.answers.get(question_id("maybe_two", second.id)) == "two":
            balls.append(
                PocketEvidence(second.id + "#2", second.pocket, second.at_ms, None, None, second.source)
            )
    return balls


def _pocketed(shot: ShotEvidence, ctx: ShotContext, out: list[Finding]) -> tuple[PocketedBall, ...]:
    claims = [d for d in shot.declarations]
    declared_pockets = {int(d.pocket) for d in shot.declarations}
    balls: list[PocketedBall] = []
    for p in _counted(shot):
        ident = shot.identities.get(p.id, Identity())
        seen = p.colour if p.conf is None or p.conf >= ctx.timing.min_colour_conf else None
        colour = ident.colour or seen
        ball = ident.ball if ident.ball is not None else _implied(ctx, colour, p.pocket, claims)
        balls.append(PocketedBall(p.pocket, ball, colour, ident.direct))
        _ball_findings(shot, ctx, p, ball, colour, ident, declared_pockets, out)
    return tuple(balls)


def _implied(
    ctx: ShotContext, colour: Colour | None, pocket: Pocket, claims: list[Declaration]
) -> int | None:
    """The ball the variant makes certain, or None (the engine picks, or the referee is asked)."""
    rules = ctx.rules
    only = rules.ball_of_colour(colour)
    if only is not None:
        return only  # a colour only one ball has: the yellow (ball 0), Star's ivory joker
    if rules.PROFILE.identity is not BallIdentity.NUMBER:
        return None
    cue = rules.CUE_BALL
    for want in (DeclarationKind.OBJECT, DeclarationKind.CUE_BALL):
        if want is DeclarationKind.CUE_BALL and (
            cue is None or (colour is not None and colour is not rules.colour_of(cue))
        ):
            continue
        for d in claims:
            if (
                d.kind is want
                and d.pocket == pocket
                and (want is DeclarationKind.CUE_BALL or d.ball in ctx.on_table)
            ):
                # a ball of the called pocket is the called ball (classic 5.2, 100 points §4)
                claims.remove(d)
                return cue if want is DeclarationKind.CUE_BALL else d.ball
    return None


def _ball_findings(
    shot: ShotEvidence,
    ctx: ShotContext,
    p: PocketEvidence,
    ball: int | None,
    colour: Colour | None,
    ident: Identity,
    declared: set[int],
    out: list[Finding],
) -> None:
    n, pocket = shot.number, int(p.pocket)
    rules = ctx.rules
    identity = rules.PROFILE.identity
    if ball is None and identity is BallIdentity.NUMBER:
        out.append(Finding("identify", n, p.id, pocket=pocket))
    if ball is None and colour is None and identity is BallIdentity.COLOUR:
        out.append(Finding("identify_colour", n, p.id, pocket=pocket))
    if declared and pocket not in declared:
        out.append(Finding("pocket_mismatch", n, p.id, pocket=pocket, ball=ball, other=min(declared)))
    if (
        rules.PROFILE.fixed_cue_ball
        and ball == rules.CUE_BALL
        and ident.ball is None
        and colour is not None
        and rules.ball_of_colour(colour) == ball
    ):
        # the colour sensor saw the cue ball go in
        out.append(Finding("cue_ball_seen", n, p.id, pocket=pocket))
