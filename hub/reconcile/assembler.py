"""ShotAssembler: sensor evidence -> shots -> provisional `ShotReport`s. Pure: no I/O, no clock.

Time comes only from the inputs' `at_ms` (hub clock). The assembler is fed in time order by
`hub.reconcile.table.TableSession`, which owns the order, the referee actions and the rules engine.

How evidence becomes shots (docs/reconciliation.md has the full table):
- A strike opens a shot and closes the one before (DESIGN.md idea 4). A second strike within
  `double_strike_ms` of the last one is the same stroke seen twice: it opens nothing and raises an alert.
- A strike before the previous shot can have ended (within `min_shot_ms` of its strike, or within
  `pocket_settle_ms` of its last pocket event) is a candidate §14.2 foul (general 14.2, 29.1(3)).
- A pocket event belongs to the open shot while balls may still roll (`roll_ms` after the shot's last
  strike or pocket event), or to a shot the referee closed less than `hanging_ball_ms` ago (general §23: only a
  ball that hung 5 s or more after the shot ended is put back). Otherwise, after a shot that was opened by a
  strike (the cue sensor works), it is a late drop: flagged for the referee, not counted. After a shot with no
  strike (cue node absent or asleep) it opens a shot by itself.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from hub.config import ShotTiming
from hub.reconcile.throat import BOUNCE_OUT_MS, BallOut, PocketFlag, latest_ball
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
from shared_rules.variant import Variant, find_variant

if TYPE_CHECKING:  # the actions (hub.reconcile.actions) amend the evidence defined here
    from hub.reconcile.action_types import ShotAmendment


@dataclass(frozen=True, slots=True)
class PocketEvidence:
    """A ball seen going into a pocket (sensor), or added by the referee (`source="referee"`)."""

    id: str
    pocket: Pocket
    at_ms: int
    colour: Colour | None = None
    conf: float | None = None
    source: str = "sensor"


@dataclass(frozen=True, slots=True)
class StrikeEvidence:
    id: str
    at_ms: int
    seat: int | None = None  # the seat the cue node is paired with
    double: bool = False  # the cue sensor saw two contacts: a hint for §18
    gap: float | None = None


@dataclass(frozen=True)
class Identity:
    """What the referee said about a pocketed ball."""

    ball: int | None = None
    colour: Colour | None = None
    direct: bool | None = None


@dataclass(frozen=True)
class Finding:
    """Something the evidence cannot settle or that disagrees; `hub.reconcile.questions` words it for people."""

    kind: str
    shot: int
    item: str | None = None
    pocket: int | None = None
    seat: int | None = None
    ball: int | None = None
    other: int | None = None  # e.g. the declared pocket


@dataclass(slots=True)  # a long match keeps a thousand of them
class ShotEvidence:
    """Everything gathered for one shot. Mutable, owned by the assembler and the session that feeds it."""

    number: int
    opened_at: int
    opened_by: str  # "strike" | "pocket" | "referee"
    strike: StrikeEvidence | None = None
    extra_strikes: list[StrikeEvidence] = field(default_factory=list)
    pockets: list[PocketEvidence] = field(default_factory=list)
    late: list[PocketEvidence] = field(default_factory=list)  # §23 candidates
    jumped: list[tuple[str, int | None, Colour | None]] = field(default_factory=list)
    identities: dict[str, Identity] = field(default_factory=dict)
    removed: set[str] = field(default_factory=set)
    fouls: dict[Foul, int | None] = field(default_factory=dict)  # referee fouls -> offender
    answers: dict[str, str] = field(default_factory=dict)  # question id -> answer
    facts: dict[str, object] = field(default_factory=dict)
    declarations: tuple[Declaration, ...] = ()
    outs: list[BallOut] = field(default_factory=list)  # balls that came back out (hub/reconcile/throat.py)
    flags: list[PocketFlag] = field(default_factory=list)  # what the pocket beams could not settle
    early: bool = False  # a strike before the previous shot could have ended (§14.2 candidate)
    closed_at: int | None = None
    closed_by: str | None = None
    voided: bool = False

    @property
    def last_activity(self) -> int:
        t = self.strike.at_ms if self.strike else self.opened_at
        return max([t, *(p.at_ms for p in self.pockets)])

    def items(self) -> set[str]:
        ids = {p.id for p in self.pockets} | {p.id for p in self.late} | {j[0] for j in self.jumped}
        if self.strike:
            ids.add(self.strike.id)
        return ids | {s.id for s in self.extra_strikes}


class ShotAssembler:
    """Cuts the time-ordered evidence of one table into shots.

    `voided` are item ids the referee removed that change the cut (strikes); `new_shot` are late pocket
    events the referee said open a shot of their own. Both are known up front because the session re-derives
    from scratch when either changes.
    """

    def __init__(self, timing: ShotTiming | None = None, voided: Collection[str] = (),
                 new_shot: Collection[str] = ()) -> None:
        self.timing = timing or ShotTiming()
        self.voided = frozenset(voided)
        self.new_shot = frozenset(new_shot)
        self.shots: list[ShotEvidence] = []
        self.pending_next: list[ShotAmendment] = []  # amendments for the next shot (hub.reconcile.actions)

    # ------------------------------------------------------------ queries

    def last(self) -> ShotEvidence | None:
        """The latest shot that was not undone."""
        return next((s for s in reversed(self.shots) if not s.voided), None)

    @property
    def open(self) -> ShotEvidence | None:
        s = self.last()
        return s if s is not None and s.closed_at is None else None

    def find_item(self, item: str) -> ShotEvidence | None:
        return next((s for s in reversed(self.shots) if item in s.items()), None)

    # ------------------------------------------------------------ evidence

    def strike(self, ev: StrikeEvidence) -> ShotEvidence | None:
        """A cue strike: opens a shot (or is merged into the last one if within `double_strike_ms`)."""
        if ev.id in self.voided:
            return None
        prev = self.same_stroke(ev)
        if prev is not None:
            prev.extra_strikes = [*prev.extra_strikes, ev]  # a new list: an old shot's may be shared (trail.freeze)
            return prev
        cur = self.open
        early = cur is not None and (ev.at_ms < cur.opened_at + self.timing.min_shot_ms or any(
            ev.at_ms < p.at_ms + self.timing.pocket_settle_ms for p in cur.pockets))
        shot = self._open_new(ev.at_ms, "strike")
        shot.strike, shot.early = ev, early
        return shot

    def same_stroke(self, ev: StrikeEvidence) -> ShotEvidence | None:
        """The shot whose strike this one repeats (within `double_strike_ms`: the same stroke seen twice), if any:
        the latest shot not undone that has a strike, which need not be the latest shot."""
        prev = next((s for s in reversed(self.shots) if s.strike and not s.voided), None)
        if prev is not None and prev.strike is not None and (
                0 <= ev.at_ms - prev.strike.at_ms <= self.timing.double_strike_ms):
            return prev
        return None

    def pocket(self, ev: PocketEvidence) -> ShotEvidence:
        """A ball into a pocket: joins the shot it belongs to, opens one, or is flagged as a late drop."""
        last = self.last()
        t = self.timing
        if last is None:
            return self._with_pocket(self._open_new(ev.at_ms, "pocket"), ev)
        if last.closed_at is None:
            if ev.at_ms <= last.last_activity + t.roll_ms and ev.id not in self.new_shot:
                return self._with_pocket(last, ev)
        elif ev.at_ms <= last.closed_at + t.hanging_ball_ms and ev.id not in self.new_shot:
            return self._with_pocket(last, ev)  # fell within 5 s of the end: counts (§23 needs 5 s or more)
        if last.strike is not None and ev.id not in self.new_shot:
            last.late.append(ev)  # §23 candidate: the referee says return / count / new shot
            return last
        return self._with_pocket(self._open_new(ev.at_ms, "pocket"), ev)

    def ball_out(self, item: str, pocket: int, at_ms: int) -> ShotEvidence | None:
        """Something left `pocket` upwards: un-count the ball that just went in there, if there is one."""
        last = self.last()
        if last is None:
            return None
        taken = {o.ball for o in last.outs if o.ball} | last.removed
        last.outs.append(BallOut(item, pocket, at_ms, latest_ball([*last.pockets, *last.late], pocket, at_ms,
                                                                 BOUNCE_OUT_MS, taken)))
        return last

    def flag(self, item: str, pocket: int, at_ms: int, why: str, beam: int | None) -> ShotEvidence | None:
        """A pocket node's flag joins the latest shot (a `two` names the ball it doubts)."""
        last = self.last()
        if last is None:
            return None
        ball = latest_ball(last.pockets, pocket, at_ms, BOUNCE_OUT_MS, set()) if why == "two" else None
        last.flags.append(PocketFlag(item, pocket, at_ms, why, beam, ball))
        return last

    def open_by_referee(self, at_ms: int) -> ShotEvidence:
        """A shot the referee opens by hand (no sensors)."""
        return self._open_new(at_ms, "referee")

    def close(self, at_ms: int, by: str) -> ShotEvidence | None:
        """Close the open shot (referee "balls stopped", or an engine action that follows it)."""
        cur = self.open
        if cur is not None:
            cur.closed_at, cur.closed_by = at_ms, by
        return cur

    def _with_pocket(self, shot: ShotEvidence, ev: PocketEvidence) -> ShotEvidence:
        shot.pockets.append(ev)
        return shot

    def _open_new(self, at_ms: int, by: str) -> ShotEvidence:
        self.close(at_ms, by)
        shot = ShotEvidence(number=len(self.shots) + 1, opened_at=at_ms, opened_by=by)
        self.shots.append(shot)
        pending, self.pending_next = self.pending_next, []
        for action in pending:
            action.amend(shot, at_ms)
        return shot


def _colour(x: object) -> Colour | None:
    return Colour(x) if isinstance(x, str) else None


# ---------------------------------------------------------------- evidence -> provisional ShotReport

NO_FOULS: frozenset[Foul] = frozenset()  # one shared empty set: most shots have no foul
HINT_FOULS = {"double_hit": Foul.DOUBLE_HIT, "early_start": Foul.EARLY_START, "out_of_turn": Foul.INTERFERENCE}


@dataclass(frozen=True)
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
    """The registered variant called `variant` (default options: the profile and hooks do not depend on them)."""
    return find_variant(variant)()


@dataclass(frozen=True)
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
    for kind, seat in hints:
        assert s is not None
        answer = shot.answers.get(question_id(kind, s.id))
        if answer is None:
            out.append(Finding(kind, shot.number, s.id, seat=seat))
        elif answer == "foul":
            fouls.setdefault(HINT_FOULS[kind], seat)
    for extra in shot.extra_strikes:
        out.append(Finding("double_strike", shot.number, extra.id, seat=extra.seat))
    for late in shot.late:
        if late.id not in shot.removed and question_id("late_drop", late.id) not in shot.answers:
            out.append(Finding("late_drop", shot.number, late.id, pocket=int(late.pocket)))
    for o in shot.outs:
        if o.ball is not None:
            out.append(Finding("ball_out", shot.number, o.id, pocket=o.pocket))
    for fl in shot.flags:
        if fl.why != "two":
            out.append(Finding("sensor_" + fl.why, shot.number, fl.id, pocket=fl.pocket, other=fl.beam))
        elif fl.ball is not None and question_id("maybe_two", fl.ball) not in shot.answers:
            out.append(Finding("maybe_two", shot.number, fl.ball, pocket=fl.pocket))


def _counted(shot: ShotEvidence) -> list[PocketEvidence]:
    late = [p for p in shot.late if shot.answers.get(question_id("late_drop", p.id)) == "count"]
    gone = shot.removed | {o.ball for o in shot.outs if o.ball}
    balls = [p for p in [*shot.pockets, *late] if p.id not in gone]
    for fl in shot.flags:  # the referee said a `two` flag was two balls: the second one, unseen colour
        second = next((p for p in balls if p.id == fl.ball), None)
        if second is not None and shot.answers.get(question_id("maybe_two", second.id)) == "two":
            balls.append(PocketEvidence(second.id + "#2", second.pocket, second.at_ms, None, None, second.source))
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


def _implied(ctx: ShotContext, colour: Colour | None, pocket: Pocket, claims: list[Declaration]) -> int | None:
    """The ball the variant makes certain, or None (the engine picks, or the referee is asked)."""
    rules = ctx.rules
    only = rules.ball_of_colour(colour)
    if only is not None:
        return only  # a colour only one ball has: the yellow (ball 0), Star's ivory joker
    if rules.PROFILE.identity is not BallIdentity.NUMBER:
        return None
    cue = rules.CUE_BALL
    for want in (DeclarationKind.OBJECT, DeclarationKind.CUE_BALL):
        if want is DeclarationKind.CUE_BALL and (cue is None or (colour is not None and colour is not rules.colour_of(cue))):
            continue
        for d in claims:
            if d.kind is want and d.pocket == pocket and (want is DeclarationKind.CUE_BALL or d.ball in ctx.on_table):
                claims.remove(d)  # a ball of the called pocket is the called ball (classic 5.2, 100 points §4)
                return cue if want is DeclarationKind.CUE_BALL else d.ball
    return None


def _ball_findings(shot: ShotEvidence, ctx: ShotContext, p: PocketEvidence, ball: int | None,
                   colour: Colour | None, ident: Identity, declared: set[int], out: list[Finding]) -> None:
    n, pocket = shot.number, int(p.pocket)
    rules = ctx.rules
    identity = rules.PROFILE.identity
    if ball is None and identity is BallIdentity.NUMBER:
        out.append(Finding("identify", n, p.id, pocket=pocket))
    if ball is None and colour is None and identity is BallIdentity.COLOUR:
        out.append(Finding("identify_colour", n, p.id, pocket=pocket))
    if declared and pocket not in declared:
        out.append(Finding("pocket_mismatch", n, p.id, pocket=pocket, ball=ball, other=min(declared)))
    if (rules.PROFILE.fixed_cue_ball and ball == rules.CUE_BALL and ident.ball is None and colour is not None
            and rules.ball_of_colour(colour) == ball):
        out.append(Finding("cue_ball_seen", n, p.id, pocket=pocket))  # the colour sensor saw the cue ball go in
