"""«Пирамидка 100 очков с контрольным шаром» (seed 000, digest §4.1): every paragraph 1..20 and A-100-1..A-100-12."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules import (
    Declaration,
    DeclarationKind,
    EffectKind,
    Foul,
    Identify,
    IllegalInputError,
    InHand,
    Interference,
    JumpedBall,
    Lag,
    MalformedInputError,
    Match,
    NeedKind,
    Pocket,
    PocketedBall,
    ShotReport,
    Spot,
)
from shared_rules.hundred import LAST_BALL, RESTRICTED, TEN
from shared_rules.model import Colour
from shared_rules.state import HELD, LAG, OVER, PLAY
from tests.rules.helpers import cites
from tests.rules.strategies import INVARIANTS, PrefixRandom, play_random, rnds

L, R = Pocket.FOOT_LEFT, Pocket.FOOT_RIGHT
CUE_CALL = DeclarationKind.CUE_BALL


def call(ball: int, pocket: Pocket = L, kind: DeclarationKind = DeclarationKind.OBJECT) -> Declaration:
    return Declaration(ball, pocket, kind)


def pot(ball: int | None, pocket: Pocket = L, direct: bool | None = None, **kw: object) -> PocketedBall:
    return PocketedBall(pocket, ball=ball, direct=direct, **kw)  # type: ignore[arg-type]


def started(**options: object) -> Match:
    m = Match.new("hundred", ("Ivan", "Petr"), options or None)
    m.play(Lag(0))
    return m


def broken(**options: object) -> Match:
    """Player 0 broke correctly and pocketed nothing: player 1 plays from the position."""
    m = started(**options)
    m.play(ShotReport(0, cushions=2))
    assert m.state.to_play == 1
    return m


def run(m: Match, player: int, balls: list[int], pocket: Pocket = L) -> None:
    """`player` calls and pockets `balls` one a shot (the ball reported unnamed in its called pocket)."""
    for b in balls:
        m.play(ShotReport(player, declarations=(call(b, pocket),), pocketed=(pot(None, pocket),)))
        assert m.state.to_play == player or m.state.over


def safety(m: Match, player: int) -> None:
    m.play(ShotReport(player, cushions=2))


def foul_reasons(out: object) -> list[str]:
    return [e.reason.cite() for e in out.of_kind(EffectKind.FOUL)]  # type: ignore[attr-defined]


def last_ball_match() -> Match:
    """50:50 with every pyramid ball on a shelf: last-ball mode (§20)."""
    m = broken()
    run(m, 1, [5, 6, 7, 9, 11, 12])
    safety(m, 1)
    run(m, 0, [15, 14, 13, 8])
    return m


# -- §1, §2: equipment, rack, break, spotting -------------------------------------------------------------


def test_hundred_1_twelve_balls_and_only_the_yellow_is_struck() -> None:
    m = broken()
    assert sorted(m.state.on_table) == [0, *range(5, 16)]
    out = m.play(ShotReport(1, cue_ball=7, cushions=2))
    assert foul_reasons(out) == ["hundred 19"] and m.state.to_play == 0


def test_hundred_2_rack_ten_on_the_centre_spot_yellow_in_the_house() -> None:
    """hundred A-100-12: the pyramid's order is not modelled; only #10's place and the yellow in hand matter."""
    s = Match.new("hundred").state
    assert s.on_table == tuple(range(5, 16)) and s.placed == ((TEN, Spot.CENTRE.value),)
    assert s.hand == 0 and s.in_hand is InHand.HOUSE and s.mode == LAG and s.scores == (0, 0)


def test_hundred_2_break_needs_only_the_safety_rule() -> None:
    m = started()
    out = m.play(ShotReport(0, cushions=2, break_balls_to_cushion=0))  # general 12's count does not apply
    assert not out.of_kind(EffectKind.FOUL) and cites(out, "hundred 2") and not cites(out, "general 12")
    m = started()
    out = m.play(ShotReport(0, cushions=1, centre_crossing=False))
    assert foul_reasons(out) == ["hundred 19"] and out.of_kind(EffectKind.FOUL)[0].detail == Foul.NOT_COMPLETED.value
    assert m.state.debts == (1, 0)  # §18 with an empty shelf


def test_hundred_2_uncalled_break_ball_is_spotted_by_the_foot_rail() -> None:
    m = started()
    out = m.play(ShotReport(0, pocketed=(pot(7, direct=True),)))  # no supplement on the break
    assert m.state.scores == (0, 0) and 7 in m.state.on_table and m.state.to_play == 1
    assert (7, Spot.FOOT_RAIL.value) in m.state.placed and cites(out, "hundred 2")


def test_hundred_a_100_8_called_ball_on_the_break_counts() -> None:
    m = started()
    out = m.play(ShotReport(0, declarations=(call(13),), pocketed=(pot(None),)))
    assert m.state.scores == (13, 0) and m.state.to_play == 0
    assert any(r.ambiguity == "A-100-8" for r in out.reasons)


# -- §3: the target -----------------------------------------------------------------------------------------


def test_hundred_3_more_than_fifty_wins() -> None:
    """hundred A-100-1: points are the numbers on the shelf; 51 or more wins at once."""
    m = broken()
    run(m, 1, [15, 14, 13])
    assert m.state.scores == (0, 42) and not m.state.over
    run(m, 1, [9])
    assert m.state.scores == (0, 51) and m.state.winner == 1 and m.state.mode == OVER
    assert cites(m.outcomes[-1], "hundred 3") and m.needs() == ()


def test_hundred_3_target_option_is_checked() -> None:
    m = broken(target=20)
    run(m, 1, [15, 5])
    assert m.state.winner == 1
    with pytest.raises(MalformedInputError, match="A-100-1"):
        Match.new("hundred", options={"target": 60})
    with pytest.raises(MalformedInputError, match="hundred_debt_counter"):
        Match.new("hundred", options={"hundred_debt_counter": 1})


# -- §4-§7: calls ---------------------------------------------------------------------------------------------


def test_hundred_4_called_ball_in_the_called_pocket_counts_its_number() -> None:
    m = broken()
    out = m.play(ShotReport(1, declarations=(call(12, R),), pocketed=(pot(None, R),)))
    assert m.state.shelves[1] == (12,) and m.state.scores == (0, 12) and cites(out, "hundred 4")


def test_hundred_4_wrong_pocket_does_not_count() -> None:
    m = broken()
    out = m.play(ShotReport(1, declarations=(call(12, R),), pocketed=(pot(12, L),)))
    assert m.state.scores == (0, 0) and 12 in m.state.on_table and m.state.to_play == 0
    assert cites(out, "hundred 4") and out.of_kind(EffectKind.SPOT)[0].spot == Spot.FOOT_RAIL.value


def test_hundred_a_100_10_the_referees_verdict_decides_the_method() -> None:
    m = broken()
    m.play(ShotReport(1, declarations=(Declaration(12, R, method="bank"),), pocketed=(pot(12, R),), as_called=False))
    assert m.state.scores == (0, 0) and 12 in m.state.on_table and m.state.to_play == 0
    with pytest.raises(IllegalInputError, match="no call"):
        m.play(ShotReport(0, as_called=True, cushions=2))


def test_hundred_4_extra_ball_is_spotted_and_the_turn_stays() -> None:
    m = broken()
    out = m.play(ShotReport(1, declarations=(call(12, R),), pocketed=(pot(12, R), pot(6, L, direct=True))))
    assert m.state.scores == (0, 12) and 6 in m.state.on_table and m.state.to_play == 1
    assert any(e.reason.cite() == "hundred 4" and e.ball == 6 for e in out.effects)


def test_hundred_4_needs_ask_for_the_call_before_every_shot() -> None:
    m = broken()
    kinds = [(n.kind, n.before_shot, n.blocking) for n in m.needs()]
    assert kinds == [("declaration", True, False)]  # a ball number is asked only when a shot is held for it
    need = m.needs()[0]
    assert "hundred 4" in need.en and need.player == 1 and need.options[0] == "0" and "10" in need.options
    assert [n.kind for n in started().needs()] == ["declaration", "placement"]


def test_hundred_5_gentlemans_supplement_direct_uncalled_ball_counts() -> None:
    m = broken()
    out = m.play(ShotReport(1, pocketed=(pot(11, direct=True),)))
    assert m.state.scores == (0, 11) and m.state.to_play == 1 and cites(out, "hundred 5")
    m.play(ShotReport(1, pocketed=(pot(12),)))  # not marked direct: strict call, does not count
    assert m.state.scores == (0, 11) and 12 in m.state.on_table and m.state.to_play == 0


def test_hundred_5_direct_ball_against_the_declared_call_does_not_count() -> None:
    m = broken()
    m.play(ShotReport(1, declarations=(call(12, R),), pocketed=(pot(11, L, direct=True),)))
    assert m.state.scores == (0, 0) and 11 in m.state.on_table and m.state.to_play == 0


def test_hundred_5_direct_cue_ball_against_the_call_no_penalty() -> None:
    m = broken()
    run(m, 1, [5])
    out = m.play(ShotReport(1, declarations=(call(12, R),), pocketed=(pot(12, R), pot(0, L, direct=True))))
    s = m.state
    assert s.scores == (0, 5) and s.shelves[1] == (5,) and 12 in s.on_table and not out.of_kind(EffectKind.FOUL)
    assert s.to_play == 0 and s.hand == 0 and s.in_hand is InHand.ANYWHERE and s.hand_rule == ""  # §16
    assert cites(out, "hundred 5") and cites(out, "hundred 16")


def test_hundred_6_double_call_must_be_fully_made() -> None:
    m = broken()
    m.play(ShotReport(1, declarations=(call(12, R), call(13, L)), pocketed=(pot(12, R),)))
    assert m.state.scores == (0, 0) and 12 in m.state.on_table and m.state.to_play == 0
    assert cites(m.outcomes[-1], "hundred 6")
    m.play(ShotReport(0, declarations=(call(12, R), call(13, L)), pocketed=(pot(12, R), pot(13, L))))
    assert m.state.scores == (25, 0) and m.state.to_play == 0
    with pytest.raises(IllegalInputError, match="at most two"):
        m.play(ShotReport(0, declarations=(call(5), call(6, R), call(7, Pocket.HEAD_LEFT))))


def test_hundred_17_double_call_failed_with_the_cue_ball_in_opponent_in_hand_restricted() -> None:
    """hundred 6: only the cue ball of a double call fell: the opponent puts it in play from hand."""
    m = broken()
    out = m.play(ShotReport(1, declarations=(call(12, R), call(0, L, CUE_CALL)), pocketed=(pot(None, L, colour=Colour.YELLOW),)))
    s = m.state
    assert s.to_play == 0 and s.hand == 0 and s.in_hand is InHand.ANYWHERE and s.hand_rule == RESTRICTED
    assert cites(out, "hundred 17") and not out.of_kind(EffectKind.FOUL)


def test_hundred_7_series_rule() -> None:
    m = broken()
    run(m, 1, [5, 6])
    assert m.state.to_play == 1 and m.state.run == 2 and cites(m.outcomes[-1], "hundred 7")
    safety(m, 1)
    assert m.state.to_play == 0 and cites(m.outcomes[-1], "hundred 7")


# -- §8-§10: the cue ball pocketed -------------------------------------------------------------------------------


def test_hundred_8_cue_ball_in_off_a_cushion_not_as_called_nothing_counts_no_penalty() -> None:
    m = broken()
    run(m, 1, [5])
    out = m.play(ShotReport(1, declarations=(call(12, R),), pocketed=(pot(12, R), pot(0, L, direct=False))))
    s = m.state
    assert s.shelves[1] == (5,) and 12 in s.on_table and s.to_play == 0 and s.in_hand is InHand.ANYWHERE
    assert not out.of_kind(EffectKind.FOUL) and cites(out, "hundred 8")


def test_hundred_8_jumped_cue_ball_no_foul() -> None:
    """hundred A-100-9: a jumped cue ball is no foul; the opponent has it in hand anywhere (hundred 16)."""
    m = broken()
    out = m.play(ShotReport(1, declarations=(call(12, R),), pocketed=(pot(12, R),), jumped=(JumpedBall(ball=0),)))
    s = m.state
    assert not out.of_kind(EffectKind.FOUL) and s.scores == (0, 0) and s.debts == (0, 0)
    assert s.to_play == 0 and s.hand == 0 and s.in_hand is InHand.ANYWHERE and s.hand_rule == ""


def test_hundred_9_cue_ball_in_as_called_bonus_lowest_ball() -> None:
    m = broken()
    out = m.play(ShotReport(1, declarations=(call(0, L, CUE_CALL),), pocketed=(pot(None, L, colour=Colour.YELLOW),)))
    s = m.state
    assert s.shelves[1] == (5,) and s.scores == (0, 5) and s.to_play == 1 and cites(out, "hundred 9")
    assert s.in_hand is InHand.ANYWHERE and s.hand_rule == RESTRICTED  # hundred 15


def test_hundred_a_100_5_bonus_skips_ten_unless_the_option() -> None:
    for option, expected in ((False, 11), (True, 10)):
        m = broken(hundred_bonus_may_take_ten=option)
        run(m, 1, [5, 6, 7, 8, 9])
        m.play(ShotReport(1, declarations=(call(0, R, CUE_CALL),), pocketed=(pot(0, R),)))
        assert m.state.shelves[1][-1] == expected, option


def test_hundred_10_direct_cue_ball_with_no_call_productive_no_bonus() -> None:
    m = broken()
    out = m.play(ShotReport(1, pocketed=(pot(0, R, direct=True),)))
    s = m.state
    assert s.scores == (0, 0) and s.to_play == 1 and s.hand_rule == RESTRICTED and cites(out, "hundred 10")


# -- §11-§14: the control ball ------------------------------------------------------------------------------------


def test_hundred_12_cue_ball_touching_ten_is_a_foul() -> None:
    """hundred A-100-3: the 'white' cue ball of §12 is the yellow; touching #10 is Foul.TEN_TOUCHED."""
    m = broken()
    run(m, 1, [5])
    out = m.play(ShotReport(1, first_contact=TEN, cushions=2))
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [Foul.TEN_TOUCHED.value]
    assert foul_reasons(out) == ["hundred 12"] and m.state.shelves[1] == () and 5 in m.state.on_table


def test_hundred_11_carom_on_ten_keeps_the_turn_and_gives_the_privilege() -> None:
    """hundred A-100-4: one privilege, for the next shot only; hundred 12: the carom's own touch is no foul."""
    m = broken()
    out = m.play(ShotReport(1, carom_on_ten=True, touched_ten=True, as_called=True))
    assert not out.of_kind(EffectKind.FOUL) and m.state.to_play == 1 and cites(out, "hundred 11")
    out = m.play(ShotReport(1, touched_ten=True, cushions=2))  # the privileged shot: touching #10 is allowed
    assert not out.of_kind(EffectKind.FOUL) and m.state.to_play == 0
    out = m.play(ShotReport(0, touched_ten=True, cushions=2))  # the privilege is gone
    assert out.of_kind(EffectKind.FOUL)


def test_hundred_13_ten_pocketed_by_a_numbered_ball_counts_ten_and_leaves() -> None:
    """hundred A-100-2: #10 legally pocketed is worth 10 and does not come back."""
    m = broken()
    out = m.play(ShotReport(1, declarations=(call(TEN, R),), pocketed=(pot(None, R, direct=False),)))
    assert m.state.shelves[1] == (TEN,) and m.state.scores == (0, 10) and TEN not in m.state.on_table
    assert cites(out, "hundred 13")


def test_hundred_13_ten_with_the_cue_ball_needs_the_privilege() -> None:
    m = broken()
    out = m.play(ShotReport(1, declarations=(call(TEN, R),), pocketed=(pot(TEN, R, direct=True),)))
    assert out.of_kind(EffectKind.FOUL) and TEN in m.state.on_table and m.state.scores == (0, 0)
    m.play(ShotReport(0, rokambol_on_ten=True))
    m.play(ShotReport(0, declarations=(call(TEN, R),), pocketed=(pot(TEN, R, direct=True),)))
    assert m.state.shelves[0] == (TEN,)


def test_hundred_13_ten_goes_back_to_the_centre_when_lowest_on_a_fouling_shelf() -> None:
    m = broken()
    run(m, 1, [TEN, 12])
    out = m.play(ShotReport(1, fouls=frozenset({Foul.TOUCH})))
    assert m.state.shelves[1] == (12,) and m.state.scores == (0, 12) and TEN in m.state.on_table
    assert any(e.kind is EffectKind.SPOT and e.ball == TEN and e.spot == Spot.CENTRE.value for e in out.effects)


def test_hundred_14_ten_waits_while_the_centre_spot_is_taken() -> None:
    m = broken()
    m.play(ShotReport(1, pocketed=(pot(TEN, R),), centre_spot_taken=True))  # uncalled: does not count
    s = m.state
    assert s.pocketed == (TEN,) and TEN not in s.on_table and s.scores == (0, 0)
    with pytest.raises(IllegalInputError):
        m.play(ShotReport(0, declarations=(call(TEN),)))  # it is not on the table
    out = m.play(ShotReport(0, cushions=2))
    assert m.state.pocketed == () and TEN in m.state.on_table and cites(out, "hundred 14")


def test_hundred_14_ten_knocked_off_goes_back_after_the_shot() -> None:
    m = broken()
    out = m.play(ShotReport(1, ten_off_spot=True, centre_spot_taken=True, cushions=2))
    assert m.state.get("ten_off_spot") is True and cites(out, "hundred 14")
    out = m.play(ShotReport(0, cushions=2))
    assert m.state.get("ten_off_spot") is None
    assert any(e.ball == TEN and e.spot == Spot.CENTRE.value for e in out.effects)


# -- §15-§17: the cue ball back into play ------------------------------------------------------------------------


def _restricted() -> Match:
    m = broken()
    m.play(ShotReport(1, pocketed=(pot(0, R, direct=True),)))  # §10: in hand anywhere for the shooter
    assert m.state.hand_rule == RESTRICTED
    return m


def test_hundred_15_single_direct_ball_from_hand_does_not_count() -> None:
    m = _restricted()
    out = m.play(ShotReport(1, declarations=(call(12, R),), pocketed=(pot(None, R, direct=True),)))
    assert m.state.scores == (0, 0) and 12 in m.state.on_table and m.state.to_play == 0 and cites(out, "hundred 15")


def test_hundred_15_bank_from_hand_counts_but_not_the_carom() -> None:
    m = _restricted()
    m.play(ShotReport(1, declarations=(call(12, R),), pocketed=(pot(None, R, direct=False),)))
    assert m.state.scores == (0, 12) and m.state.to_play == 1 and m.state.hand_rule == ""
    m = _restricted()
    out = m.play(ShotReport(1, rokambol_on_ten=True, as_called=True))
    assert m.state.to_play == 0 and cites(out, "hundred 15") and m.state.get("privilege") is None


def test_hundred_16_free_hand_after_an_accidental_in_off() -> None:
    m = broken()
    m.play(ShotReport(1, pocketed=(pot(0, R),)))  # §8: not direct, not called
    assert m.state.to_play == 0 and m.state.in_hand is InHand.ANYWHERE and m.state.hand_rule == ""
    out = m.play(ShotReport(0, pocketed=(pot(12, R, direct=True),)))  # a single direct ball counts here
    assert m.state.scores == (12, 0) and cites(out, "hundred 5")
    m = broken()
    m.play(ShotReport(1, pocketed=(pot(0, R),)))
    m.play(ShotReport(0, carom_on_ten=True, touched_ten=True))
    assert m.state.to_play == 0 and m.state.get("privilege") is True


# -- §18, §19: fouls and the penalty -----------------------------------------------------------------------------


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
    assert m.state.debts == (0, 1) and 12 in m.state.on_table and m.state.to_play == 1 and cites(out, "hundred 18")
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


# -- §20: last-ball mode --------------------------------------------------------------------------------------------


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


# -- bad input ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shot", "error", "text"),
    [
        (ShotReport(1, pocketed=(pot(4),)), IllegalInputError, "not on the table"),
        (ShotReport(1, pocketed=(PocketedBall(7, ball=5),)), MalformedInputError, "pocket"),  # type: ignore[arg-type]
        (ShotReport(0), IllegalInputError, "player 1's shot"),
        (ShotReport(1, declarations=(call(4),)), IllegalInputError, "not a numbered ball"),
        (ShotReport(1, declarations=(Declaration(5, 7),)), MalformedInputError, "pocket"),  # type: ignore[arg-type]
        (ShotReport(1, declarations=(call(5), call(5, R))), IllegalInputError, "twice"),
        (ShotReport(1, declarations=(call(7, L, CUE_CALL),)), IllegalInputError, "ball 0"),
    ],
)
def test_hundred_bad_input_is_refused_and_changes_nothing(shot: ShotReport, error: type, text: str) -> None:
    """hundred 3: the balls look alike, so a number that decides the score is never guessed."""
    m = broken()
    before, history = m.state, m.history
    with pytest.raises(error, match=text):
        m.play(shot)
    assert m.state == before and m.history == history


def test_hundred_3_ball_number_resolved_only_where_certain() -> None:
    m = broken()
    m.play(ShotReport(1, declarations=(call(9, R),), pocketed=(pot(None, R), pot(11, L))))  # 9: alone in pocket R
    assert m.state.shelves[1] == (9,)
    m.play(ShotReport(1, pocketed=(pot(None, L, colour=Colour.YELLOW, direct=True),)))  # yellow = the cue ball
    assert m.state.hand == 0


@pytest.mark.parametrize("cue_first", [False, True])
def test_hundred_6_pocket_called_for_two_balls_names_its_ball_only_where_certain(cue_first: bool) -> None:
    """hundred 4, 6 (and 3: never guessed): a ball and the cue ball called into one pocket, one white-looking ball
    falls there. It is the called ball only once the cue ball is accounted for; the order of the calls is no clue.
    (Regression: the later call used to win, so the same shot was #14 one way round and the yellow the other.)"""
    calls = (call(14), call(0, L, CUE_CALL))
    calls = calls[::-1] if cue_first else calls
    m = broken()
    before = m.state
    m.play(ShotReport(1, declarations=calls, pocketed=(pot(None),)))
    assert m.state.mode == HELD and m.needs()[0].kind is NeedKind.BALL_NUMBER and "pocket 5" in m.needs()[0].en
    assert {"0", "14"} <= set(m.needs()[0].options)
    m.undo()
    assert m.state == before
    m.play(ShotReport(1, declarations=calls, pocketed=(pot(None),), jumped=(JumpedBall(0),)))
    assert m.state.in_hand is InHand.ANYWHERE and m.state.to_play == 0  # §8: the yellow jumped, the turn passes
    assert 14 in m.state.on_table and m.state.shelves == ((), ())  # #14 fell but does not count (§6, §8): spotted


# -- a whole match --------------------------------------------------------------------------------------------------


def test_hundred_full_match_from_the_rack_to_a_result() -> None:
    """hundred 3: a match played through the API; every effect carries a hundred or general reason in en and ru."""
    m = Match.new("hundred", ("Ivan", "Petr"))
    inputs = [
        Lag(1),
        ShotReport(1, cushions=2),  # the break: the safety rule
        ShotReport(0, declarations=(call(15, R),), pocketed=(pot(None, R),)),  # 15
        ShotReport(0, pocketed=(pot(14, L, direct=True),)),  # gentleman: 29
        ShotReport(0, declarations=(call(0, L, CUE_CALL),), pocketed=(pot(0, L),)),  # §9: bonus 5 -> 34, in hand
        ShotReport(0, declarations=(call(13, R),), pocketed=(pot(13, R, direct=True),)),  # §15: no count, turn passes
        ShotReport(1, first_contact=TEN, cushions=2),  # §12 foul on an empty shelf: a debt
        ShotReport(0, declarations=(call(6, R),), pocketed=(pot(None, R),), fouls=frozenset({Foul.PUSH})),  # 34-5
        ShotReport(1, declarations=(call(12, R),), pocketed=(pot(None, R),)),  # pays the debt
        ShotReport(1, declarations=(call(TEN, L),), pocketed=(pot(None, L),)),  # §13: 10
        ShotReport(1, cushions=2),
        ShotReport(0, declarations=(call(13, R), call(11, L)), pocketed=(pot(13, R), pot(11, L))),  # 29+24 = 53
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
    assert m.summary()["scores"] == [53, 10]


def test_hundred_interference_rerack_keeps_ten_on_the_centre_spot() -> None:
    """hundred 2: after a re-rack (general 27) #10 goes on the centre spot; last-ball mode resumes after the lag."""
    m = last_ball_match()
    m.play(Interference(restore=False))
    assert m.state.mode == LAG and (TEN, Spot.CENTRE.value) in m.state.placed
    m.play(Lag(1))
    assert m.state.mode == LAST_BALL and m.state.to_play == 1


def test_hundred_invariant_is_registered() -> None:
    assert INVARIANTS["hundred"]


def test_hundred_12_carom_from_restricted_hand_is_not_excused() -> None:
    """hundred 15: from §15/§17 hand the carom on #10 does not count, so its touch of #10 is not excused (§12(a))."""
    m = _restricted()
    out = m.play(ShotReport(1, carom_on_ten=True, touched_ten=True, as_called=True))
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [Foul.TEN_TOUCHED.value] and m.state.to_play == 0


OPTION_SETS = [
    {"hundred_bonus_may_take_ten": True},
    {"hundred_debt_counter": False, "hundred_jumped_ball_foul": True},
    {"target": 30, "require_correct_completion": False},
]


@pytest.mark.parametrize("options", OPTION_SETS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(r=rnds())
def test_hundred_a_100_7_random_matches_with_options_end_and_keep_110(options: dict[str, object], r: PrefixRandom) -> None:
    """hundred A-100-5, hundred A-100-9: with each club option, random legal matches end; 110 points always."""
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


@pytest.mark.parametrize(
    "shot",
    [ShotReport(1, pocketed=(pot(None), pot(None, R))), ShotReport(1, declarations=(call(5),), pocketed=(pot(None), pot(None)))],
)
def test_hundred_3_a_number_that_decides_is_never_guessed_the_shot_is_held(shot: ShotReport) -> None:
    """hundred 3: the balls look alike, so a number that decides the score is asked: the shot is held (one
    protocol, like Classic and Star) and answered with `Identify`, one ball at a time."""
    m = broken()
    before = m.state
    out = m.play(shot)
    assert m.state.mode == HELD and m.state.on_table == before.on_table and cites(out, "hundred 3")
    need = m.needs()[0]
    assert need.kind is NeedKind.BALL_NUMBER and need.blocking and need.slot == 0 and need.pocket == int(L)
    with pytest.raises(IllegalInputError, match="held"):
        m.play(ShotReport(1, cushions=2))
    m.play(Identify(ball=13))
    if m.state.mode == HELD:  # the second ball too
        assert m.needs()[0].slot == 1 and "13" not in m.needs()[0].options
        m.play(Identify(ball=6))
    assert m.state.mode == PLAY and m.state.held is None
    assert Match.from_log(json.loads(json.dumps(m.to_log()))).state == m.state
