"""The МКП general rules (docs/rules/general.md), exercised through Free pyramid (the simplest variant that
uses them all)."""

from __future__ import annotations

import pytest

from shared_rules import (
    Choose,
    Colour,
    EffectKind,
    Foul,
    IllegalInputError,
    InHand,
    Interference,
    JumpedBall,
    Lag,
    Match,
    ShotReport,
    Spot,
)
from shared_rules.general import SPOTTING_LINE_CAPACITY
from shared_rules.state import LAG
from tests.rules.helpers import after_break, cites, kinds, pot, started

GENERAL_12 = [
    Foul.MISS,
    Foul.BAD_BREAK,
    Foul.EARLY_START,
    Foul.BAD_CUE_STRIKE,
    Foul.BOTH_FEET_OFF,
    Foul.TOUCH,
    Foul.DOUBLE_HIT,
    Foul.PUSH,
    Foul.NOT_COMPLETED,
    Foul.JUMPED,
    Foul.SLOW_PLAY,
    Foul.INTERFERENCE,
]


def _foul_shot(m: Match, foul: Foul) -> ShotReport:
    s = m.state
    offender = 1 - s.to_play if foul is Foul.INTERFERENCE else None
    return ShotReport(s.to_play, fouls=frozenset({foul}), offender=offender)


def _assert_penalised(m: Match, foul: Foul, paragraph: str) -> None:
    offender = 1 - m.state.to_play if foul is Foul.INTERFERENCE else m.state.to_play
    out = m.play(_foul_shot(m, foul))
    fouls = out.of_kind(EffectKind.FOUL)
    assert [e.detail for e in fouls] == [foul.value]
    assert fouls[0].reason.cite() == f"general {paragraph}"
    assert fouls[0].player == offender
    assert m.state.pending is not None and m.state.pending.player == 1 - offender  # free 7 penalty ball


# -- 5.3, 8, 10, 11, 12 --------------------------------------------------------------------------------------


def test_general_5_3_miss_is_a_foul() -> None:
    m = after_break()
    _assert_penalised(m, Foul.MISS, "5.3")


def test_general_8_1_pyramid_of_fifteen_apex_on_foot_spot() -> None:
    s = Match.new("free").state
    assert s.on_table == tuple(range(1, 16))
    assert s.placed == ((1, Spot.FOOT.value),)


def test_general_8_2_cue_ball_starts_in_hand_in_the_house() -> None:
    s = Match.new("free").state
    assert s.hand == 0 and s.in_hand is InHand.HOUSE and s.is_break


def test_general_10_after_a_foul_the_opponent_plays_from_the_position() -> None:
    m = after_break()
    m.play(ShotReport(1, fouls=frozenset({Foul.TOUCH})))
    m.play(Choose(0, "take_ball", 5))
    s = m.state
    assert s.to_play == 0 and s.in_hand is InHand.NONE and s.hand is None


def test_general_11_lag_comes_first_and_its_winner_breaks_from_the_house() -> None:
    m = Match.new("free")
    assert [n.kind for n in m.needs()] == ["lag"]
    with pytest.raises(IllegalInputError, match="lag"):
        m.play(ShotReport(0))
    out = m.play(Lag(1))
    assert cites(out, "general 11")
    assert m.state.to_play == 1 and m.state.breaker == 1 and m.state.is_break
    with pytest.raises(IllegalInputError, match="no lag"):
        m.play(Lag(0))


def test_general_12_correct_break_by_pot_or_two_balls_to_a_cushion() -> None:
    m = started()
    out = m.play(ShotReport(0, break_balls_to_cushion=2))
    assert cites(out, "general 12") and not out.of_kind(EffectKind.FOUL)
    m = started()
    out = m.play(ShotReport(0, pocketed=(pot(3),), break_balls_to_cushion=0))
    assert not out.of_kind(EffectKind.FOUL) and m.state.scores == (1, 0)
    m = started()  # not reported: the ordinary reading, a correct break
    assert not m.play(ShotReport(0)).of_kind(EffectKind.FOUL)


def test_general_12_break_is_exempt_from_20() -> None:
    m = started()
    assert not m.play(ShotReport(0, cushions=0, break_balls_to_cushion=3)).of_kind(EffectKind.FOUL)


def test_general_12_1_incorrect_break_is_a_foul() -> None:
    m = started()
    out = m.play(ShotReport(0, break_balls_to_cushion=1))
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [Foul.BAD_BREAK.value]
    assert m.state.pending is not None and m.state.pending.player == 1
    m = started(break_min_balls_to_cushion=3)
    assert m.play(ShotReport(0, break_balls_to_cushion=2)).of_kind(EffectKind.FOUL)


def test_general_12_1_rebreak_option_racks_again_for_the_opponent() -> None:
    m = started(incorrect_break_rebreak=True)
    out = m.play(ShotReport(0, break_balls_to_cushion=0))
    assert cites(out, "general 12.1") and EffectKind.RACK in kinds(out)
    m.play(Choose(1, "take_ball", 15))
    s = m.state
    assert s.is_break and s.to_play == 1 and s.hand == 0 and s.in_hand is InHand.HOUSE


# -- the fouls of 29.1, each by its own paragraph ------------------------------------------------------------


def test_general_14_2_starting_before_the_previous_shot_ended() -> None:
    _assert_penalised(after_break(), Foul.EARLY_START, "14.2")


def test_general_15_incorrect_cue_strike() -> None:
    _assert_penalised(after_break(), Foul.BAD_CUE_STRIKE, "15")


def test_general_15_breaking_with_another_ball_than_the_coloured_one() -> None:
    m = started()
    out = m.play(ShotReport(0, cue_ball=5))
    assert Foul.BAD_CUE_STRIKE.value in [e.detail for e in out.of_kind(EffectKind.FOUL)]


def test_general_16_both_feet_off_the_floor() -> None:
    _assert_penalised(after_break(), Foul.BOTH_FEET_OFF, "16")


def test_general_17_forbidden_touch() -> None:
    _assert_penalised(after_break(), Foul.TOUCH, "17")


def test_general_18_double_hit() -> None:
    _assert_penalised(after_break(), Foul.DOUBLE_HIT, "18")


def test_general_19_1_push_shot() -> None:
    _assert_penalised(after_break(), Foul.PUSH, "19.1")


def test_general_19_2_touching_balls_struck_under_45_degrees_is_a_push() -> None:
    """general 19.2: the referee reports it as a push (PUSH); it is a foul like 19.1."""
    m = after_break()
    out = m.play(ShotReport(1, pocketed=(pot(4),), fouls=frozenset({Foul.PUSH})))
    assert out.of_kind(EffectKind.FOUL) and m.state.scores == (0, 0)


def test_general_26_slow_play() -> None:
    _assert_penalised(after_break(), Foul.SLOW_PLAY, "26")


def test_general_28_interference_is_the_non_shooters_foul() -> None:
    m = after_break()  # player 1 shoots; player 0 touches a ball
    out = m.play(ShotReport(1, pocketed=(pot(4),), fouls=frozenset({Foul.INTERFERENCE}), offender=0))
    assert out.of_kind(EffectKind.FOUL)[0].player == 0
    assert m.state.pending is not None and m.state.pending.player == 1  # the shooter gains
    assert m.state.scores == (0, 0) and 4 in m.state.on_table  # general 22.3: the ball does not count
    m.play(Choose(1, "take_ball", 9))
    assert m.state.to_play == 1 and m.state.scores == (0, 1)


def test_general_28_shot_out_of_turn_is_refused_with_a_hint() -> None:
    m = after_break()
    with pytest.raises(IllegalInputError, match="general 28"):
        m.play(ShotReport(0))


@pytest.mark.parametrize("foul", GENERAL_12, ids=lambda f: f.name)
def test_general_29_1_each_of_the_twelve_fouls_is_penalised(foul: Foul) -> None:
    m = started() if foul is Foul.BAD_BREAK else after_break()
    offender = 1 - m.state.to_play if foul is Foul.INTERFERENCE else m.state.to_play
    out = m.play(_foul_shot(m, foul))
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [foul.value]
    assert len(out.of_kind(EffectKind.CHOICE)) == 1
    assert m.state.pending is not None and m.state.pending.player == 1 - offender


def test_general_29_2_several_breaches_are_penalised_once() -> None:
    m = after_break()
    out = m.play(
        ShotReport(1, cushions=0, fouls=frozenset({Foul.TOUCH, Foul.DOUBLE_HIT}), jumped=(JumpedBall(3),))
    )
    assert len(out.of_kind(EffectKind.FOUL)) == 4  # touch, double hit, not completed, jumped
    assert cites(out, "general 29.2")
    assert len(out.of_kind(EffectKind.CHOICE)) == 1
    m.play(Choose(0, "take_ball"))
    assert m.state.scores == (1, 0)


# -- 20 ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cushions", "crossing", "foul"),
    [
        (0, None, True),
        (0, True, True),
        (1, False, True),
        (1, True, False),
        (1, None, False),
        (2, None, False),
        (None, None, False),
    ],
)
def test_general_20_correct_completion(cushions: int | None, crossing: bool | None, foul: bool) -> None:
    m = after_break()
    out = m.play(ShotReport(1, cushions=cushions, centre_crossing=crossing))
    assert bool(out.of_kind(EffectKind.FOUL)) is foul
    if foul:
        assert out.of_kind(EffectKind.FOUL)[0].reason.cite() == "general 20"


def test_general_20_a_pocketed_ball_completes_the_shot() -> None:
    m = after_break()
    assert not m.play(ShotReport(1, pocketed=(pot(),), cushions=0)).of_kind(EffectKind.FOUL)


def test_general_20_can_be_waived() -> None:
    m = after_break(require_correct_completion=False)
    assert not m.play(ShotReport(1, cushions=0)).of_kind(EffectKind.FOUL)


# -- 21: from hand from the house ----------------------------------------------------------------------------


def test_general_21_1_placement_in_the_house_is_prompted() -> None:
    m = started()
    needs = m.needs()
    assert needs[0].kind == "placement" and "general 21.1" in needs[0].en and not needs[0].blocking


def test_general_21_2_touch_while_placing_passes_the_right_to_play_from_hand() -> None:
    m = started()
    out = m.play(ShotReport(0, fouls=frozenset({Foul.PLACEMENT})))
    assert cites(out, "general 21.2")
    m.play(Choose(1, "take_ball", 15))
    s = m.state
    assert s.to_play == 1 and s.hand == 0 and s.in_hand is InHand.HOUSE and s.is_break


def test_general_21_3_struck_from_outside_the_house() -> None:
    m = started()
    out = m.play(ShotReport(0, fouls=frozenset({Foul.OUTSIDE_HOUSE})))
    assert out.of_kind(EffectKind.FOUL)[0].reason.cite() == "general 21.3"


def test_general_21_4_ball_in_the_house_struck_directly() -> None:
    m = started()
    out = m.play(ShotReport(0, fouls=frozenset({Foul.HOUSE_BALL_STRUCK})))
    assert out.of_kind(EffectKind.FOUL)[0].reason.cite() == "general 21.4"


def test_general_21_5_temporary_house_is_named_in_the_prompt() -> None:
    m = started()
    assert "general 21.5" in m.needs()[0].en and "временный дом" in m.needs()[0].ru


# -- 22 ------------------------------------------------------------------------------------------------------


def test_general_22_1_and_22_2_correctly_pocketed_ball_goes_to_the_shooters_shelf() -> None:
    """general 22.1 and general 22.2: pocketed by a correct shot, onto the shooter's own shelf."""
    m = after_break()
    m.play(ShotReport(1, pocketed=(pot(7),)))
    assert m.state.shelves == ((), (7,)) and 7 not in m.state.on_table


def test_general_22_3_every_ball_pocketed_on_a_foul_is_incorrectly_pocketed() -> None:
    m = after_break()
    out = m.play(ShotReport(1, pocketed=(pot(7), pot(8)), fouls=frozenset({Foul.TOUCH})))
    assert m.state.shelves == ((), ()) and {7, 8} <= set(m.state.on_table)
    assert sum(1 for r in out.reasons if r.cite() == "general 22.3") == 2


def test_general_22_4_incorrectly_pocketed_balls_are_spotted() -> None:
    m = after_break()
    out = m.play(ShotReport(1, pocketed=(pot(7),), fouls=frozenset({Foul.TOUCH})))
    spots = out.of_kind(EffectKind.SPOT)
    assert [(e.ball, e.spot) for e in spots] == [(7, Spot.FOOT.value)]


def test_general_22_5_a_rim_out_is_not_pocketed() -> None:
    """general 22.5: a ball that bounced back is simply not reported; nothing counts and the turn passes."""
    m = after_break()
    m.play(ShotReport(1, cushions=2))
    assert m.state.scores == (0, 0) and m.state.to_play == 0 and len(m.state.on_table) == 16


# -- 24.3, 25 ------------------------------------------------------------------------------------------------


def test_general_24_3_a_jumped_ball_is_a_foul_and_is_spotted() -> None:
    m = after_break()
    out = m.play(ShotReport(1, jumped=(JumpedBall(ball=0),)))
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [Foul.JUMPED.value]
    assert 0 in m.state.on_table and [e.ball for e in out.of_kind(EffectKind.SPOT)] == [0]


def test_general_24_3_jumped_ball_by_colour() -> None:
    m = after_break()
    m.play(ShotReport(1, jumped=(JumpedBall(colour=Colour.YELLOW),)))
    assert m.state.placed == ((0, Spot.FOOT.value),)


def test_general_25_spotting_order_foot_spot_line_then_toward_centre() -> None:
    m = started()
    balls = tuple(pot(b) for b in range(1, 15))  # 14 balls fall on a foul break
    out = m.play(ShotReport(0, pocketed=balls, fouls=frozenset({Foul.TOUCH})))
    spots = [e.spot for e in out.of_kind(EffectKind.SPOT)]
    assert spots[0] == Spot.FOOT.value
    assert spots[1 : 1 + SPOTTING_LINE_CAPACITY] == [Spot.SPOTTING_LINE.value] * SPOTTING_LINE_CAPACITY
    assert spots[1 + SPOTTING_LINE_CAPACITY :] == [Spot.TOWARD_CENTRE.value]
    assert [e.ball for e in out.of_kind(EffectKind.SPOT)] == list(range(1, 15))  # in pocketing order


# -- 27 ------------------------------------------------------------------------------------------------------


def test_general_27_restore_is_an_audit_entry_only() -> None:
    m = after_break()
    before = m.state
    out = m.play(Interference(restore=True))
    assert kinds(out) == [EffectKind.NOTE] and cites(out, "general 27")
    assert m.state == before


def test_general_27_rerack_keeps_the_score_and_needs_a_new_lag() -> None:
    m = after_break()
    m.play(ShotReport(1, pocketed=(pot(3), pot(4))))
    out = m.play(Interference(restore=False))
    s = m.state
    assert EffectKind.RACK in kinds(out) and s.mode == LAG and s.is_break
    assert s.scores == (0, 2) and s.hand == 0 and s.in_hand is InHand.HOUSE and 0 not in s.on_table
    assert m.needs()[0].kind == "lag"
    m.play(Lag(0))
    assert m.state.to_play == 0


def test_general_27_coloured_ball_on_a_shelf_swaps_with_a_white_ball() -> None:
    m = after_break()
    m.play(ShotReport(1, pocketed=(pot(0),)))
    assert m.state.shelves[1] == (0,)
    m.play(Interference(restore=False))
    s = m.state
    assert s.hand == 0 and s.shelves[1] == (1,) and s.scores == (0, 1) and 1 not in s.on_table


def test_general_27_rerack_waits_for_a_pending_choice() -> None:
    m = after_break()
    m.play(ShotReport(1, fouls=frozenset({Foul.TOUCH})))
    with pytest.raises(IllegalInputError, match="choice"):
        m.play(Interference(restore=False))


def test_general_12_1_rebreak_does_not_offer_the_ball_now_in_hand() -> None:
    m = started(incorrect_break_rebreak=True)
    m.play(ShotReport(0, break_balls_to_cushion=0))
    assert m.state.pending is not None and 0 not in m.state.pending.balls


def test_general_21_2_placement_foul_does_not_offer_the_ball_now_in_hand() -> None:
    m = started()
    m.play(ShotReport(0, fouls=frozenset({Foul.PLACEMENT})))
    assert m.state.pending is not None and 0 not in m.state.pending.balls and m.state.hand == 0
