"""100 points played through: a scripted match to a result, a re-rack in last-ball mode, random matches with
each club option and the 110-point invariant that checks them."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.view.engine import engine_summary
from shared_rules import Foul, Interference, Lag, Match, ShotReport, Spot
from shared_rules.hundred_input import LAST_BALL, TEN
from shared_rules.model import Input
from shared_rules.state import LAG
from tests.rules.helpers_hundred import CUE_CALL, L, R, call, last_ball_match, pot
from tests.rules.strategies import INVARIANTS, PrefixRandom, play_random, rnds

# -- a whole match -------------------------------------------------------------------------------------------


def test_hundred_full_match_from_the_rack_to_a_result() -> None:
    """hundred 3: a match played through the API; every effect carries a hundred or
    general reason in en and ru."""
    m = Match.new("hundred", ("Ivan", "Petr"))
    inputs: list[Input] = [
        Lag(1),
        ShotReport(1, cushions=2),  # the break: the safety rule
        ShotReport(0, declarations=(call(15, R),), pocketed=(pot(None, R),)),  # 15
        ShotReport(0, pocketed=(pot(14, L, direct=True),)),  # gentleman: 29
        # §9: bonus 5 -> 34, in hand
        ShotReport(0, declarations=(call(0, L, CUE_CALL),), pocketed=(pot(0, L),)),
        # §15: no count, turn passes
        ShotReport(0, declarations=(call(13, R),), pocketed=(pot(13, R, direct=True),)),
        ShotReport(1, first_contact=TEN, cushions=2),  # §12 foul on an empty shelf: a debt
        # 34-5
        ShotReport(0, declarations=(call(6, R),), pocketed=(pot(None, R),), fouls=frozenset({Foul.PUSH})),
        ShotReport(1, declarations=(call(12, R),), pocketed=(pot(None, R),)),  # pays the debt
        ShotReport(1, declarations=(call(TEN, L),), pocketed=(pot(None, L),)),  # §13: 10
        ShotReport(1, cushions=2),
        # 29+24 = 53
        ShotReport(0, declarations=(call(13, R), call(11, L)), pocketed=(pot(13, R), pot(11, L))),
    ]
    for inp in inputs:
        out = m.play(inp)
        assert out.effects
        for e in out.effects:
            assert e.reason.variant in ("hundred", "general") and e.reason.en and e.reason.ru
        assert len(out.explain("ru")) == len(out.effects)
    s = m.state
    assert s.scores == (53, 10) and s.winner == 0 and s.over and s.debts == (0, 0)
    assert sorted(s.shelves[0]) == [11, 13, 14, 15] and s.shelves[1] == (TEN,)
    assert Match.from_log(json.loads(json.dumps(m.to_log()))).state == s
    assert engine_summary(m)["scores"] == [53, 10]


def test_hundred_interference_rerack_keeps_ten_on_the_centre_spot() -> None:
    """hundred 2: after a re-rack (general 27) #10 goes on the centre spot;
    last-ball mode resumes after the lag."""
    m = last_ball_match()
    m.play(Interference(restore=False))
    assert m.state.mode == LAG and (TEN, Spot.CENTRE.value) in m.state.placed
    m.play(Lag(1))
    assert m.state.mode == LAST_BALL and m.state.to_play == 1


def test_hundred_invariant_is_registered() -> None:
    assert INVARIANTS["hundred"]


OPTION_SETS = [
    {"hundred_bonus_may_take_ten": True},
    {"hundred_debt_counter": False, "hundred_jumped_ball_foul": True},
    {"target": 30, "require_correct_completion": False},
]


@pytest.mark.parametrize("options", OPTION_SETS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(r=rnds())
def test_hundred_a_100_7_random_matches_with_options_end_and_keep_110(
    options: dict[str, object], r: PrefixRandom
) -> None:
    """hundred A-100-5, hundred A-100-9: with each club option,
    random legal matches end; 110 points always."""
    m = play_random("hundred", r, 3000, options=options, check=True)
    assert m.state.over
    assert Match.from_log(json.loads(json.dumps(m.to_log()))).state == m.state


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_hundred_invariant_catches_a_lost_ball(seed: int) -> None:
    """The 110-point invariant is not vacuous: a state with a ball missing from every place fails it."""
    m = play_random("hundred", random.Random(seed), 40)
    check = INVARIANTS["hundred"][0]
    check(m)
    s = m.state
    if not s.on_table or s.on_table == (0,):
        return
    lost = next(b for b in s.on_table if b != 0)
    m._states[-1] = s._replace(on_table=tuple(b for b in s.on_table if b != lost))
    with pytest.raises(AssertionError):
        check(m)
