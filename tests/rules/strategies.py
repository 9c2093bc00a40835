"""Random LEGAL matches for any registered variant, for the property tests and the benchmark.

The driver asks the match what it needs (`Match.needs()`): a blocking need (lag, choice, referee decision) is
answered with its own input; otherwise a shot is made up from the state. Variants whose shots need special
facts (declarations, ball numbers, colours) register a builder with `@shot_builder("<name>")`; per-variant
invariants are registered with `@invariant("<name>")` ("*" = every variant).

Randomness comes from an object with `randint(a, b)`, `random()` and `choice(seq)`: a seeded `random.Random`
(benchmark) or `PrefixRandom` fed by hypothesis (property tests; shrinks toward short, simple matches).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from hypothesis import strategies as st

from shared_rules import (
    VARIANTS,
    Choose,
    Colour,
    Concede,
    Foul,
    Identify,
    Input,
    Interference,
    JumpedBall,
    Lag,
    Match,
    Pocket,
    PocketedBall,
    RefereeDecision,
    ShotReport,
)
from shared_rules.outcome import NeedKind

T = TypeVar("T")


class Rnd(Protocol):
    def randint(self, a: int, b: int) -> int: ...
    def random(self) -> float: ...
    def choice(self, seq: Sequence[T]) -> T: ...


class PrefixRandom:
    """Uses hypothesis-drawn numbers first (shrinkable), then a seeded `random.Random`."""

    def __init__(self, prefix: Sequence[int], seed: int) -> None:
        self.prefix = list(prefix)
        self.i = 0
        self.rest = random.Random(seed)

    def _next(self) -> int | None:
        if self.i < len(self.prefix):
            self.i += 1
            return self.prefix[self.i - 1]
        return None

    def randint(self, a: int, b: int) -> int:
        n = self._next()
        return self.rest.randint(a, b) if n is None else a + n % (b - a + 1)

    def random(self) -> float:
        n = self._next()
        return self.rest.random() if n is None else (n % 1000) / 1000

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.randint(0, len(seq) - 1)]


ShotBuilder = Callable[[Match, Rnd], ShotReport]
Invariant = Callable[[Match], None]
SHOT_BUILDERS: dict[str, ShotBuilder] = {}
INVARIANTS: dict[str, list[Invariant]] = {}


def shot_builder(name: str) -> Callable[[ShotBuilder], ShotBuilder]:
    """Register the random-shot builder of variant `name`."""

    def deco(fn: ShotBuilder) -> ShotBuilder:
        SHOT_BUILDERS[name] = fn
        return fn

    return deco


def invariant(name: str) -> Callable[[Invariant], Invariant]:
    """Register an invariant checked after every input of variant `name` ("*" = all variants)."""

    def deco(fn: Invariant) -> Invariant:
        INVARIANTS.setdefault(name, []).append(fn)
        return fn

    return deco


GENERAL_FOULS = (
    Foul.MISS,
    Foul.EARLY_START,
    Foul.BAD_CUE_STRIKE,
    Foul.BOTH_FEET_OFF,
    Foul.TOUCH,
    Foul.DOUBLE_HIT,
    Foul.PUSH,
    Foul.SLOW_PLAY,
    Foul.INTERFERENCE,
)


def available_balls(m: Match) -> list[int]:
    s = m.state
    return [*s.on_table, *([s.hand] if s.hand is not None else [])]


def generic_shot(m: Match, r: Rnd) -> ShotReport:
    """A plausible shot: mostly 0-1 balls pocketed, sometimes a foul, a jump, a failed §20 or break."""
    s = m.state
    balls = available_balls(m)
    cue: int | None = None
    if m.variant.CUE_BALL is None and s.hand is None and not s.is_break and r.random() < 0.7:
        cue = r.choice(s.on_table)
    x = r.random()
    k = 0 if x < 0.45 else 1 if x < 0.85 else 2 if x < 0.95 else 3
    pool = list(balls)
    pocketed = []
    for _ in range(min(k, len(pool))):
        b = pool.pop(r.randint(0, len(pool) - 1))
        named = r.random() < 0.6
        pocketed.append(
            PocketedBall(
                Pocket(r.randint(1, 6)),
                ball=b if named else None,
                colour=m.variant.colour_of(b) if not named else None,
            )
        )
    jumped = ()
    if pool and r.random() < 0.03:
        jumped = (JumpedBall(ball=r.choice(pool)),)
    fouls: frozenset[Foul] = frozenset()
    offender = None
    if r.random() < 0.08:
        f = r.choice(GENERAL_FOULS)
        fouls = frozenset({f})
        if f is Foul.INTERFERENCE:
            offender = 1 - s.to_play
    cushions = r.randint(0, 3) if r.random() < 0.5 else None
    return ShotReport(
        shooter=s.to_play,
        cue_ball=cue,
        pocketed=tuple(pocketed),
        jumped=jumped,
        fouls=fouls,
        offender=offender,
        cushions=cushions,
        centre_crossing=r.random() < 0.5 if cushions == 1 else None,
        break_balls_to_cushion=r.randint(0, 5) if s.is_break and r.random() < 0.5 else None,
    )


def random_input(m: Match, r: Rnd, extras: bool = True) -> Input:
    """One random input that the rules accept in the match's current position."""
    for need in m.needs():
        if not need.blocking:
            continue
        if need.kind == "lag":
            return Lag(r.randint(0, 1))
        if need.kind == "choice":
            assert need.player is not None
            option = r.choice(need.options)
            ball = r.choice(need.balls) if option == "take_ball" and need.balls and r.random() < 0.8 else None
            colour: Colour | None = None
            return Choose(need.player, option, ball, colour)
        if need.kind == NeedKind.REFEREE_DECISION:
            option = r.choice(need.options)
            return RefereeDecision(option, r.randint(0, 1) if option == "award" else None)
        if need.kind == NeedKind.BALL_NUMBER:  # a held shot (held.py)
            return Identify(ball=int(r.choice(need.options)))
        if need.kind == NeedKind.BALL_COLOUR:
            return Identify(colour=Colour(r.choice(need.options)))
        raise AssertionError(f"unknown blocking need {need}")
    if extras:
        x = r.random()
        if x < 0.004:
            return Interference(restore=r.random() < 0.5)
        if x < 0.005:
            return Concede(r.randint(0, 1))
    return SHOT_BUILDERS.get(m.variant.name, generic_shot)(m, r)


def play_random(
    variant: str, r: Rnd, max_inputs: int = 3000, options: dict[str, Any] | None = None, check: bool = False
) -> Match:
    """Play a random legal match until it is over (or `max_inputs`); with `check`, assert invariants."""
    m = Match.new(variant, ("A", "B"), options)
    checks = [*INVARIANTS.get("*", []), *INVARIANTS.get(variant, [])] if check else []
    for _ in range(max_inputs):
        if m.state.over:
            break
        m.play(random_input(m, r))
        for fn in checks:
            fn(m)
    return m


def random_inputs(variant: str, seed: int, options: dict[str, Any] | None = None) -> list[Input]:
    """The inputs of one seeded random match (for the benchmark)."""
    return list(play_random(variant, random.Random(seed), options=options).history)


# -- invariants ------------------------------------------------------------------------------------------


@invariant("*")
def every_ball_in_one_place(m: Match) -> None:
    placed = m.state.all_placed_balls()
    assert sorted(placed) == sorted(m.variant.BALLS), f"balls misplaced: {m.state}"


@invariant("*")
def seats_are_valid(m: Match) -> None:
    s = m.state
    assert s.to_play in (0, 1)
    assert s.winner in (None, 0, 1)
    assert not (s.over and s.pending is not None)


def _score_is_shelf(m: Match) -> None:
    """A-D1: the penalty ball is the foul's point, so the score is what lies on the shelf."""
    if m.variant.options.get("dynamic_penalty_shot_adds_point"):
        return  # the option gives a point with no ball (dynamic A-D1 ⚙)
    s = m.state
    assert s.scores == (len(s.shelves[0]), len(s.shelves[1])), f"score {s.scores} != shelves {s.shelves}"


for _name in ("free", "combined", "dynamic"):
    invariant(_name)(_score_is_shelf)


# -- hypothesis ------------------------------------------------------------------------------------------


def rnds() -> st.SearchStrategy[PrefixRandom]:
    """A shrinkable source of randomness for `play_random`."""
    return st.builds(PrefixRandom, st.lists(st.integers(0, 2**16), max_size=60), st.integers(0, 2**32 - 1))


def variant_names() -> st.SearchStrategy[str]:
    return st.sampled_from(sorted(VARIANTS))


def legal_matches(variant: str, max_inputs: int = 3000) -> st.SearchStrategy[Match]:
    """Random legal matches of `variant`, played to the end (or `max_inputs`)."""
    return rnds().map(lambda r: play_random(variant, r, max_inputs))


from tests.rules import strategies_hundred  # noqa: E402, F401  isort: skip  (100 points: shot builder, invariant)
from tests.rules import strategies_classic  # noqa: E402, F401  isort: skip  (Classic: shot builder, invariant)
from tests.rules import strategies_star  # noqa: E402, F401  isort: skip  (Star: shot builder, invariant)
