"""100 points' random legal shots and invariant for tests/rules/strategies.py (imported at its end).

Most shots call a ball and a pocket and often make the call (the ball reported unnamed in its called pocket,
as the hub does; where that leaves its number uncertain the shot is held and answered with `Identify`); some
pot uncalled balls, directly or not, put the cue ball in off (called or not), make a carom on #10, touch #10,
jump a ball, commit a §19 foul or miss the safety rule.
"""

from __future__ import annotations

from shared_rules import (
    Declaration,
    DeclarationKind,
    Foul,
    JumpedBall,
    Match,
    Pocket,
    PocketedBall,
    ShotReport,
)
from shared_rules.hundred_input import CUE, TEN, TOTAL
from shared_rules.hundred_ten import value
from shared_rules.model import Colour
from tests.rules.strategies import Rnd, invariant, shot_builder

SECTION19 = (Foul.MISS, Foul.BAD_CUE_STRIKE, Foul.TOUCH, Foul.DOUBLE_HIT, Foul.PUSH)


def _pocket(r: Rnd) -> Pocket:
    return Pocket(r.randint(1, 6))


@shot_builder("hundred")
def hundred_shot(m: Match, r: Rnd) -> ShotReport:
    s = m.state
    numbered = [b for b in s.on_table if b != CUE]
    calls: list[Declaration] = []
    pots: list[PocketedBall] = []
    if numbered and r.random() < 0.75:
        ball, pocket = r.choice(numbered), _pocket(r)
        calls.append(Declaration(ball, pocket, method=r.choice(("direct", "bank", "combination"))))
        if r.random() < 0.6:  # the call made; the hub names the single ball in the called pocket
            pots.append(
                PocketedBall(pocket, ball=None if r.random() < 0.5 else ball, direct=r.random() < 0.5)
            )
    cue_pocket = _pocket(r)
    if r.random() < 0.08:
        calls.append(Declaration(CUE, cue_pocket, DeclarationKind.CUE_BALL))
    if r.random() < 0.1:
        colour = Colour.YELLOW if r.random() < 0.5 else None
        pots.append(
            PocketedBall(cue_pocket, ball=None if colour else CUE, colour=colour, direct=r.random() < 0.5)
        )
    taken = {p.ball for p in pots} | {c.ball for c in calls}
    rest = [b for b in numbered if b not in taken]
    if rest and r.random() < 0.2:
        b = r.choice(rest)
        rest.remove(b)
        pots.append(PocketedBall(_pocket(r), ball=b, direct=r.random() < 0.5))
    # the engine names an unnamed ball only where it is certain: alone in a pocket
    for i, p in enumerate(pots):
        shared = sum(q.pocket == p.pocket for q in pots) > 1 or sum(c.pocket == p.pocket for c in calls) > 1
        # else held for the number (§3)
        if p.ball is None and p.colour is None and shared and r.random() < 0.7:
            pots[i] = PocketedBall(p.pocket, ball=calls[0].ball, direct=p.direct)
    jumped: tuple[JumpedBall, ...] = ()
    if r.random() < 0.03:
        pool = [b for b in rest if all(p.ball != b for p in pots)]
        if not any(p.ball == CUE or p.colour is Colour.YELLOW for p in pots) and r.random() < 0.4:
            pool = [CUE]
        if pool:
            jumped = (JumpedBall(ball=r.choice(pool)),)
    fouls: frozenset[Foul] = frozenset({r.choice(SECTION19)}) if r.random() < 0.06 else frozenset()
    ten = TEN in s.on_table
    carom = ten and r.random() < 0.04
    on_ten = r.random() < 0.5
    cushions = r.randint(0, 3) if r.random() < 0.4 else None
    return ShotReport(
        shooter=s.to_play,
        declarations=tuple(calls),
        pocketed=tuple(pots),
        jumped=jumped,
        fouls=fouls,
        cushions=cushions,
        centre_crossing=r.random() < 0.5 if cushions == 1 else None,
        as_called=(r.random() < 0.85) if (calls or carom) and r.random() < 0.5 else None,
        carom_on_ten=carom and on_ten,
        rokambol_on_ten=carom and not on_ten,
        touched_ten=ten and r.random() < 0.04,
        ten_off_spot=ten and r.random() < 0.03,
        centre_spot_taken=r.random() < 0.05,
    )


@invariant("hundred")
def hundred_values_add_up(m: Match) -> None:
    """Shelves + table + #10 waiting in a pocket are worth 110 at all times;
    scores are the shelves; debts >= 0."""
    s = m.state
    total = sum(map(value, (*s.on_table, *s.shelves[0], *s.shelves[1], *s.pocketed)))
    assert total == TOTAL, f"values {total} != {TOTAL}: {s}"
    for p in (0, 1):
        assert s.scores[p] == sum(map(value, s.shelves[p])), f"score {s.scores} != shelves {s.shelves}"
        assert s.debts[p] >= 0, s
    assert set(s.pocketed) <= {TEN} and not s.off_table and CUE not in (*s.shelves[0], *s.shelves[1])
    if s.winner is not None and not s.draw:
        assert s.mode == "over"
