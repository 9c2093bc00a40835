"""ShotAssembler: sensor evidence -> shots (hub/reconcile/report.py turns a shot into a `ShotReport`). Pure:
no I/O, no clock.

Time comes only from the inputs' `at_ms` (hub clock). The assembler is fed in time order by
`hub.reconcile.table.TableSession`, which owns the order, the referee actions and the rules engine.

How evidence becomes shots (docs/reconciliation.md has the full table):
- A strike opens a shot and closes the one before (docs/architecture.md, invariant 4). A second strike within
  `double_strike_ms` of the last one is the same stroke seen twice: it opens nothing and raises an alert.
- A shot has *settled* (`ShotEvidence.settled_at`) `min_shot_ms` after its opening and `pocket_settle_ms`
  after its last ball, whichever is later (or when the referee closed it: "balls stopped"). A strike before
  the previous shot has settled is a candidate §14.2 foul (general 14.2, 29.1(3)); the shot clock starts at
  the settle (hub/reconcile/shotclock.py): each shot keeps the previous one's settle as `clock_from`.
- A pocket event belongs to the open shot while balls may still roll (`roll_ms` after the shot's last
  strike or pocket event), or to a shot the referee closed less than `hanging_ball_ms` ago (general §23: only
  a ball that hung 5 s or more after the shot ended is put back). Otherwise, after a shot that was opened by a
  strike (the cue sensor works), it is a late drop: flagged for the referee, not counted. After a shot with no
  strike (cue node absent or asleep) it opens a shot by itself.
"""

from __future__ import annotations

from collections.abc import Collection

from hub.config import ShotTiming
from hub.reconcile.throat import BOUNCE_OUT_MS, latest_ball
from hub.vocab.action_types import ShotAmendment
from hub.vocab.evidence import BallOut, PocketEvidence, PocketFlag, ShotEvidence, StrikeEvidence


class ShotAssembler:
    """Cuts the time-ordered evidence of one table into shots.

    `voided` are item ids the referee removed that change the cut (strikes); `new_shot` are late pocket
    events the referee said open a shot of their own. Both are known up front because the session re-derives
    from scratch when either changes.
    """

    def __init__(
        self, timing: ShotTiming | None = None, voided: Collection[str] = (), new_shot: Collection[str] = ()
    ) -> None:
        self.timing = timing or ShotTiming()
        self.voided = frozenset(voided)
        self.new_shot = frozenset(new_shot)
        self.shots: list[ShotEvidence] = []
        self.pending_next: list[ShotAmendment] = []  # amendments for the next shot (hub.vocab.actions)

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
            # a new list: an old shot's may be shared (trail.freeze)
            prev.extra_strikes = [*prev.extra_strikes, ev]
            return prev
        cur = self.open
        early = cur is not None and ev.at_ms < cur.settled_at(self.timing)
        shot = self._open_new(ev.at_ms, "strike")
        shot.strike, shot.early = ev, early
        return shot

    def same_stroke(self, ev: StrikeEvidence) -> ShotEvidence | None:
        """The shot whose strike this one repeats (within `double_strike_ms`: the same stroke seen twice), if
        any: the latest shot not undone that has a strike, which need not be the latest shot."""
        prev = next((s for s in reversed(self.shots) if s.strike and not s.voided), None)
        if (
            prev is not None
            and prev.strike is not None
            and (0 <= ev.at_ms - prev.strike.at_ms <= self.timing.double_strike_ms)
        ):
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
        last.outs.append(
            BallOut(
                item,
                pocket,
                at_ms,
                latest_ball([*last.pockets, *last.late], pocket, at_ms, BOUNCE_OUT_MS, taken),
            )
        )
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
        prev = self.shots[-1] if self.shots else None
        since = prev.settled_at(self.timing) if prev is not None else None  # before this opening closes it
        self.close(at_ms, by)
        shot = ShotEvidence(number=len(self.shots) + 1, opened_at=at_ms, opened_by=by, clock_from=since)
        self.shots.append(shot)
        pending, self.pending_next = self.pending_next, []
        for action in pending:
            action.amend(shot, at_ms)
        return shot
