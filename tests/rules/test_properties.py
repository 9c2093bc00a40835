"""Properties of every registered variant over random legal matches (tests/rules/strategies.py).

Variants registered later are covered automatically; their own invariants come from `@invariant(name)`.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings

from shared_rules import VARIANTS, IllegalInputError, Match, RulesError, ShotReport
from shared_rules.match import CHECKPOINT
from tests.rules.strategies import INVARIANTS, PrefixRandom, play_random, random_input, rnds

VARIANT_NAMES = sorted(VARIANTS)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_INPUTS = 3000


def _replay(variant: str, history: tuple, options: dict | None = None) -> Match:  # type: ignore[type-arg]
    m = Match.new(variant, ("A", "B"), options)
    for inp in history:
        m.play(inp)
    return m


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@SETTINGS
@given(r=rnds())
def test_random_legal_matches_end_and_keep_every_invariant(variant: str, r: PrefixRandom) -> None:
    """Every ball in exactly one place after every input,
    plus the variant's own invariants; the match ends."""
    m = play_random(variant, r, MAX_INPUTS, check=True)
    assert m.state.over, f"{variant}: not over after {MAX_INPUTS} inputs: {m.state}"
    assert m.needs() == ()


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@SETTINGS
@given(r=rnds())
def test_fold_is_deterministic(variant: str, r: PrefixRandom) -> None:
    m = play_random(variant, r, MAX_INPUTS)
    again = _replay(variant, m.history)
    assert again.state == m.state and again.outcomes == m.outcomes


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@SETTINGS
@given(r=rnds())
def test_undo_equals_replay_without_the_last_input(variant: str, r: PrefixRandom) -> None:
    m = play_random(variant, r, MAX_INPUTS)
    cut = r.randint(1, len(m.history))
    while len(m.history) > cut:
        m.undo()
    last = m.undo()
    assert m.state == _replay(variant, m.history).state
    m.play(last)  # and playing it again gives the same position as before
    assert len(m.history) == cut


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@SETTINGS
@given(r=rnds())
def test_any_walk_of_undo_and_play_keeps_the_states_of_a_replay(variant: str, r: PrefixRandom) -> None:
    """The match lets go of most states (shared_rules/match.py CHECKPOINT): take back runs of inputs of random
    length and play them again, in any order; every state is the one a fresh replay reaches."""
    m = play_random(variant, r, MAX_INPUTS)
    played = list(m.history)
    for _ in range(6):
        back = r.randint(0, min(len(m.history), 3 * CHECKPOINT))
        for _ in range(back):
            m.undo()
            assert m.state == _replay(variant, m.history).state
        forward = r.randint(0, len(played) - len(m.history))
        for inp in played[len(m.history) : len(m.history) + forward]:
            m.play(inp)
        assert m.state == _replay(variant, m.history).state


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@SETTINGS
@given(r=rnds())
def test_log_round_trip(variant: str, r: PrefixRandom) -> None:
    m = play_random(variant, r, MAX_INPUTS)
    again = Match.from_log(json.loads(json.dumps(m.to_log())))
    assert again.state == m.state and again.history == m.history


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@SETTINGS
@given(r=rnds())
def test_refused_input_changes_nothing(variant: str, r: PrefixRandom) -> None:
    """Midway through a random match, a shot by the wrong player
    (or any refused input) leaves it as it was."""
    m = Match.new(variant, ("A", "B"))
    steps = r.randint(0, 30)
    for _ in range(steps):
        if m.state.over:
            break
        m.play(random_input(m, r))
    before, history = m.state, m.history
    with pytest.raises(RulesError):
        m.play(ShotReport(1 - m.state.to_play))
    assert m.state == before and m.history == history
    with pytest.raises(IllegalInputError):
        while True:  # undo everything, then once more
            m.undo()
    assert m.state == Match.new(variant, ("A", "B")).state


# Non-default options (docs/rules/README.md, options) for the variants that have them.
OPTION_SETS: list[tuple[str, dict[str, object]]] = [
    ("free", {"target": 9, "incorrect_break_rebreak": True, "break_min_balls_to_cushion": 3}),
    ("free", {"require_correct_completion": False, "target": 5}),
    ("combined", {"incorrect_break_rebreak": True, "target": 6}),
    ("dynamic", {"dynamic_penalty_shot_adds_point": True, "incorrect_break_rebreak": True}),
]


@pytest.mark.parametrize(("variant", "options"), OPTION_SETS)
@SETTINGS
@given(r=rnds())
def test_random_matches_with_options_end_and_keep_invariants(
    variant: str, options: dict[str, object], r: PrefixRandom
) -> None:
    m = play_random(variant, r, MAX_INPUTS, options=options, check=True)
    assert m.state.over
    assert Match.from_log(json.loads(json.dumps(m.to_log()))).state == m.state


def test_every_variant_has_invariants_to_check() -> None:
    assert INVARIANTS["*"]
    for name in ("free", "combined", "dynamic"):
        assert INVARIANTS[name], name
