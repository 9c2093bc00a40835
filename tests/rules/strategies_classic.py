"""Classic pyramid in the random legal matches: its shot builder (a call before every shot but the break, ball
numbers mostly given) and its invariant (docs/rules/classic.md, "For tests": fouls only move points, so the
scores add up to the value of the pocketed balls, +10 once the table has been emptied; an empty table
without a winner is 70:70)."""

from __future__ import annotations

from shared_rules import Colour, Declaration, Foul, JumpedBall, Match, Pocket, PocketedBall, ShotReport
from shared_rules.classic import BONUS, DECIDER, LAST_BALL_BONUS, value
from tests.rules.strategies import GENERAL_FOULS, Rnd, invariant, shot_builder


def _ball(m: Match, r: Rnd, b: int, pocket: Pocket) -> PocketedBall:
    """A pocketed ball reported with its number, or (sometimes) unnamed, or (the cue ball) by colour only."""
    x = r.random()
    if b == 0:
        return PocketedBall(pocket, ball=0 if x < 0.5 else None, colour=Colour.YELLOW if x >= 0.5 else None)
    return PocketedBall(pocket, ball=b if x < 0.75 else None)


@shot_builder("classic")
def classic_shot(m: Match, r: Rnd) -> ShotReport:
    """A plausible Classic shot: a call (not on the break; sometimes none), often the called ball into the
    called pocket."""
    s = m.state
    objects = [b for b in s.on_table if b != 0]
    calls: tuple[Declaration, ...] = ()
    pocketed: list[PocketedBall] = []
    pool = list(objects)
    if not s.is_break and r.random() < 0.1:
        pass  # a shot without a call: a safety or a miss (5.4: whatever falls is spotted)
    elif not s.is_break:
        called, pocket = r.choice(objects), Pocket(r.randint(1, 6))
        calls = (Declaration(called, pocket),)
        if r.random() < 0.45:
            pool.remove(called)
            pocketed.append(_ball(m, r, called, pocket))
    x = r.random()
    extra = 0 if x < 0.6 else 1 if x < 0.9 else 2
    for _ in range(min(extra, len(pool))):
        b = pool.pop(r.randint(0, len(pool) - 1))
        pocketed.append(_ball(m, r, b, Pocket(r.randint(1, 6))))
    cue_falls = r.random() < 0.04
    if cue_falls:
        pocketed.append(_ball(m, r, 0, Pocket(r.randint(1, 6))))  # 5.5: the cue ball falls
    jumped: tuple[JumpedBall, ...] = ()
    can_jump = pool if cue_falls else [0, *pool]
    if can_jump and r.random() < 0.02:
        jumped = (JumpedBall(ball=r.choice(can_jump)),)
    fouls: frozenset[Foul] = frozenset()
    offender = None
    if r.random() < 0.06:
        f = r.choice(GENERAL_FOULS)
        fouls = frozenset({f})
        if f is Foul.INTERFERENCE:
            offender = 1 - s.to_play
    cushions = r.randint(0, 3) if r.random() < 0.4 else None
    return ShotReport(
        shooter=s.to_play,
        declarations=calls,
        pocketed=tuple(pocketed),
        jumped=jumped,
        fouls=fouls,
        offender=offender,
        cushions=cushions,
        centre_crossing=r.random() < 0.5 if cushions == 1 else None,
        break_balls_to_cushion=r.randint(0, 5) if s.is_break and r.random() < 0.5 else None,
    )


@invariant("classic")
def classic_points_add_up(m: Match) -> None:
    """Σ scores = Σ values on the shelves (+10 once the table was emptied, + the
    decider ball's kept points)."""
    s = m.state
    shelved = sum(value(b) for shelf in s.shelves for b in shelf)
    decider = s.get(DECIDER)
    expected = (
        shelved
        + (LAST_BALL_BONUS if s.get(BONUS) else 0)
        + (value(decider) if isinstance(decider, int) else 0)
    )
    assert sum(s.scores) == expected, f"scores {s.scores} but shelves {s.shelves}, extra {s.extra}"
    objects = [b for b in s.on_table if b != 0]
    if not objects:
        assert s.over, f"the table is empty but nobody won: {s}"
    if decider is not None and not s.over:
        assert s.scores == (70, 70) and objects == [decider], f"decider at {s.scores} with {objects}"
    if s.get(BONUS) and decider is None:
        assert s.over, "the last ball went but the match goes on without a decider"
