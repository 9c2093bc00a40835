"""100 points: fouls and the penalty (§18, §19: the shelf ball back, debts, the exhaustive list) and last-ball
mode at 50:50 (§20), with their A-100-n readings."""

from __future__ import annotations

import pytest

from shared_rules import EffectKind, Foul, IllegalInputError, InHand, JumpedBall, ShotReport, Spot
from shared_rules.hundred_input import LAST_BALL, TEN
from shared_rules.state import PLAY
from tests.rules.helpers import cites
from tests.rules.helpers_hundred import R, broken, call, foul_reasons, last_ball_match, pot, run

# -- §18, §19: fouls and the penalty -------------------------------------------------------------------------


def test_hundred_18_lowest_shelf_ball_back_to_the_foot_rail() -> None:
    m = broken()
    run(m, 1, [13, 6])
    out = m.play(ShotReport(1, declarations=(call(9),), pocketed=(pot(None),), fouls=frozenset({Foul.PUSH})))
    s = m.state
    assert s.shelves[1] == (13,) and s.scores == (0, 13) and 6 in s.on_table and 9 in s.on_table
    assert (6, Spot.FOOT_RAIL.value) in s.placed and cites(out, "hundred 18") and s.to_play == 0


def test_hundred_a_100_7_debts_paid_by_the_next_correct_balls() -> None:
    m = broken()
    m.play(ShotReport(1, fouls=frozenset({Foul.MISS})))
    m.play(ShotReport(0, cushions=2))
    m.play(ShotReport(1, fouls=frozenset({Foul.MISS})))
    assert m.state.debts == (0, 2)
    m.play(ShotReport(0, cushions=2))
    out = m.play(ShotReport(1, declarations=(call(12),), pocketed=(pot(None),)))
    assert (
        m.state.debts == (0, 1)
        and 12 in m.state.on_table
        and m.state.to_play == 1
        and cites(out, "hundred 18")
    )
    run(m, 1, [13, 14])
    assert m.state.debts == (0, 0) and m.state.shelves[1] == (14,)


def test_hundred_a_100_7_without_the_counter_one_debt_at_most() -> None:
    m = broken(hundred_debt_counter=False)
    for p in (1, 0):
        m.play(ShotReport(p, fouls=frozenset({Foul.MISS})))
    m.play(ShotReport(1, fouls=frozenset({Foul.MISS})))
    assert m.state.debts == (1, 1)


def test_hundred_19_the_list_is_exhaustive() -> None:
    """hundred A-100-9: slow play, interference and jumps are no fouls here; a jumped ball is spotted."""
    m = broken()
    before = m.state
    with pytest.raises(IllegalInputError, match="hundred 19"):
        m.play(ShotReport(1, fouls=frozenset({Foul.SLOW_PLAY})))
    with pytest.raises(IllegalInputError, match="hundred 19"):
        m.play(ShotReport(1, fouls=frozenset({Foul.INTERFERENCE}), offender=0))
    assert m.state == before
    out = m.play(ShotReport(1, jumped=(JumpedBall(ball=12),), cushions=2))
    assert not out.of_kind(EffectKind.FOUL) and 12 in m.state.on_table and cites(out, "hundred 2")
    for foul in (Foul.MISS, Foul.TOUCH, Foul.DOUBLE_HIT, Foul.PUSH, Foul.BAD_CUE_STRIKE):
        m2 = broken()
        assert foul_reasons(m2.play(ShotReport(1, fouls=frozenset({foul})))) == ["hundred 19"]


def test_hundred_a_100_9_jumped_numbered_ball_foul_is_an_option() -> None:
    m = broken(hundred_jumped_ball_foul=True)
    out = m.play(ShotReport(1, jumped=(JumpedBall(ball=12),), cushions=2))
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [Foul.JUMPED.value]


def test_hundred_a_100_6_turn_after_a_foul_opponent_from_the_position() -> None:
    m = broken()
    m.play(ShotReport(1, fouls=frozenset({Foul.TOUCH})))
    assert m.state.to_play == 0 and m.state.in_hand is InHand.NONE
    out = m.play(ShotReport(0, pocketed=(pot(0, R),), fouls=frozenset({Foul.MISS})))
    s = m.state
    assert s.to_play == 1 and s.hand == 0 and s.in_hand is InHand.ANYWHERE and s.hand_rule == ""
    assert any(r.ambiguity == "A-100-6" for r in out.reasons)


# -- §20: last-ball mode -------------------------------------------------------------------------------------


def test_hundred_20_fifty_all_starts_last_ball_mode() -> None:
    """hundred A-100-1: 50:50 is not a draw; #10 decides."""
    m = last_ball_match()
    s = m.state
    assert s.scores == (50, 50) and s.mode == LAST_BALL and not s.over and cites(m.outcomes[-1], "hundred 20")
    out = m.play(ShotReport(0, touched_ten=True, cushions=2))  # touching #10 is allowed now
    assert not out.of_kind(EffectKind.FOUL) and m.state.to_play == 1
    m.play(ShotReport(1, declarations=(call(TEN, R),), pocketed=(pot(None, R, direct=True),)))
    assert m.state.scores == (50, 60) and m.state.winner == 1


def test_hundred_a_100_11_foul_in_last_ball_mode() -> None:
    m = last_ball_match()
    out = m.play(ShotReport(0, fouls=frozenset({Foul.MISS})))
    s = m.state
    assert s.mode == PLAY and s.shelves[0] == (15, 14, 13) and 8 in s.on_table and s.scores == (42, 50)
    assert (8, Spot.FOOT_RAIL.value) in s.placed and (TEN, Spot.CENTRE.value) in s.placed
    assert cites(out, "hundred 20")
