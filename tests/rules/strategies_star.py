"""Star pyramid's random legal shots and invariant for tests/rules/strategies.py (imported at its end).

Star shots are reported by colour, as the table's colour sensors report them: the struck ball by `cue_colour`
(or id), the first ball it touched by `first_contact_colour` (or id), pocketed balls by colour (sometimes by
id). The builder leans toward the shooter's own playing balls so random matches progress to a result.
"""

from __future__ import annotations

from shared_rules import Colour, Concede, Foul, JumpedBall, Match, Pocket, PocketedBall, ShotReport
from shared_rules.star import Star
from shared_rules.star_view import COLOURS, FIRST5, JOKER, SEQUENCE_LENGTH, sequence
from tests.rules.strategies import GENERAL_FOULS, Rnd, invariant, shot_builder


def _own(m: Match, balls: list[int]) -> list[int]:
    v = m.variant
    assert isinstance(v, Star)
    need = v.next_colour(m.state, m.state.to_play)
    return [b for b in balls if b == JOKER or COLOURS[b] is need]


def _cue(m: Match, r: Rnd) -> tuple[int | None, int | None, Colour | None]:
    """(the cue ball the builder means, cue_ball to report, cue_colour to report)."""
    s = m.state
    if s.hand is not None:
        return s.hand, None, None
    own = _own(m, list(s.on_table))
    x = r.random()
    if x < 0.15:
        return None, None, None
    cue = r.choice(own) if own and x < 0.6 else r.choice(s.on_table)
    if r.random() < 0.5:
        return cue, cue, None
    first = next(b for b in s.on_table if COLOURS[b] is COLOURS[cue])  # the ball the engine will take
    return first, None, COLOURS[cue]


def _pocketed(m: Match, r: Rnd, balls: list[int]) -> tuple[list[PocketedBall], list[int]]:
    x = r.random()
    k = 0 if x < 0.4 else 1 if x < 0.8 else 2 if x < 0.95 else 3
    pool = list(balls)
    out = []
    for _ in range(min(k, len(pool))):
        own = _own(m, pool)
        b = r.choice(own) if own and r.random() < 0.6 else r.choice(pool)
        pool.remove(b)
        named = r.random() < 0.25
        out.append(
            PocketedBall(
                Pocket(r.randint(1, 6)), ball=b if named else None, colour=None if named else COLOURS[b]
            )
        )
    return out, [b for b in balls if b not in pool]


@shot_builder("star")
def star_shot(m: Match, r: Rnd) -> ShotReport:
    """A plausible Star shot: mostly at own playing balls, sometimes a 4.3 foul, a general foul, a jump."""
    s = m.state
    balls = [*s.on_table, *([s.hand] if s.hand is not None else [])]
    cue, cue_ball, cue_colour = _cue(m, r)
    fc: int | None = None
    fc_colour: Colour | None = None
    others = [b for b in balls if b != cue]
    if cue is not None and others and r.random() < 0.7:
        own = _own(m, others)
        target = r.choice(own) if own and r.random() < 0.8 else r.choice(others)
        if cue_colour is None and r.random() < 0.3:
            fc = target
        else:
            fc_colour = COLOURS[target]
    pocketed, taken = _pocketed(m, r, balls)
    rest = [b for b in balls if b not in taken]
    jumped = ()
    if rest and r.random() < 0.03:
        b = r.choice(rest)
        jumped = (JumpedBall(colour=COLOURS[b]),)
    fouls: frozenset[Foul] = frozenset()
    offender = None
    if r.random() < 0.06:
        f = r.choice(GENERAL_FOULS)
        fouls = frozenset({f})
        if f is Foul.INTERFERENCE:
            offender = 1 - s.to_play
    cushions = r.randint(0, 3) if r.random() < 0.5 else None
    return ShotReport(
        shooter=s.to_play,
        cue_ball=cue_ball,
        cue_colour=cue_colour,
        pocketed=tuple(pocketed),
        jumped=jumped,
        first_contact=fc,
        first_contact_colour=fc_colour,
        fouls=fouls,
        offender=offender,
        cushions=cushions,
        centre_crossing=r.random() < 0.5 if cushions == 1 else None,
        snookered=r.random() < 0.05,
        break_balls_to_cushion=r.randint(0, 5) if s.is_break and r.random() < 0.5 else None,
    )


@invariant("star")
def star_counts_are_sequences(m: Match) -> None:
    """Each count is how far along its colour sequence the shelf is; the frame ends at the first eight."""
    s = m.state
    first5 = s.get(FIRST5)
    target = m.variant.target
    for p in (0, 1):
        shelf = s.shelves[p]
        assert s.scores[p] == len(shelf) <= SEQUENCE_LENGTH, f"score {s.scores} != shelves {s.shelves}"
        seq = sequence(p, first5)
        assert len(shelf) <= len(seq), f"player {p} is past five before the tails are fixed: {s}"
        for i, b in enumerate(shelf):
            assert b == JOKER or COLOURS[b] is seq[i], f"player {p}'s shelf {shelf} is not the sequence {seq}"
    if first5 is None:
        assert max(s.scores) < 5, s
    else:
        assert first5 in (0, 1) and s.scores[first5] >= 5, s  # type: ignore[index]
    assert set(s.off_table) <= {JOKER} and not s.pocketed
    conceded = bool(m.history) and type(m.history[-1]) is Concede
    reached = [p for p in (0, 1) if s.scores[p] >= target]
    assert len(reached) <= 1
    if reached:
        assert s.over and s.winner == reached[0]
    if s.winner is not None and not conceded:
        assert s.scores[s.winner] == target
