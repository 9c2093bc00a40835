"""«Динамичная пирамида» (Dynamic pyramid), docs/rules/dynamic.md: paragraphs 1..8 and A-D1..A-D4."""

from __future__ import annotations

import pytest

from shared_rules import (
    Choose,
    EffectKind,
    Foul,
    IllegalInputError,
    InHand,
    JumpedBall,
    Match,
    ShotReport,
    Spot,
)
from shared_rules.dynamic import OBJECTS_ONLY
from tests.rules.helpers import after_break, cites, pot, started


def dynamic(**options: object) -> Match:
    return after_break("dynamic", **options)


def _premium(m: Match) -> Match:
    """Player 1 pockets the cue ball legally and takes ball 1: the premium shot is next."""
    m.play(ShotReport(1, pocketed=(pot(0),)))
    m.play(Choose(1, "take_ball", 1))
    return m


def test_dynamic_1_first_to_eight_wins() -> None:
    m = dynamic()
    for b in range(1, 8):
        m.play(ShotReport(1, pocketed=(pot(b),)))
    out = m.play(ShotReport(1, pocketed=(pot(8),)))
    assert m.state.winner == 1 and cites(out, "dynamic 1")


def test_dynamic_2_only_the_yellow_is_struck_with_the_cue() -> None:
    m = dynamic()
    out = m.play(ShotReport(1, cue_ball=2))
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [Foul.BAD_CUE_STRIKE.value]


def test_dynamic_3_rack_and_4_break_from_the_house() -> None:
    """dynamic 3 and dynamic 4: general 8.1/8.2 rack; the break from hand from the house."""
    s = Match.new("dynamic").state
    assert s.on_table == tuple(range(1, 16)) and s.hand == 0 and s.in_hand is InHand.HOUSE and s.is_break
    m = started("dynamic")
    assert m.needs()[0].kind == "placement"


def test_dynamic_5_1_object_ball_scores_and_keeps_the_turn() -> None:
    m = dynamic()
    out = m.play(ShotReport(1, pocketed=(pot(7),)))
    assert m.state.scores == (0, 1) and m.state.to_play == 1 and cites(out, "dynamic 5.1")


def test_dynamic_5_2_cue_ball_pocketed_gives_a_ball_and_a_premium_shot_anywhere() -> None:
    m = dynamic()
    out = m.play(ShotReport(1, pocketed=(pot(0),)))
    assert cites(out, "dynamic 5.2")
    m.play(Choose(1, "take_ball", 1))
    s = m.state
    assert s.scores == (0, 1) and s.hand == 0 and s.in_hand is InHand.ANYWHERE and s.hand_rule == OBJECTS_ONLY
    assert s.to_play == 1 and m.needs()[0].kind == "placement"


def test_dynamic_5_2_premium_shot_object_balls_count_and_keep_the_turn() -> None:
    m = _premium(dynamic())
    m.play(ShotReport(1, pocketed=(pot(2),)))
    s = m.state
    assert s.scores == (0, 2) and s.to_play == 1 and s.in_hand is InHand.NONE and s.hand_rule == ""


def test_dynamic_5_2_cue_ball_on_the_premium_shot_does_not_count_no_penalty() -> None:
    m = _premium(dynamic())
    out = m.play(ShotReport(1, pocketed=(pot(0),)))
    s = m.state
    assert not out.of_kind(EffectKind.FOUL) and s.pending is None and s.scores == (0, 1)
    assert s.to_play == 0 and s.hand == 0 and s.in_hand is InHand.ANYWHERE and s.hand_rule == ""


def test_dynamic_5_3_no_calls_and_no_pot_passes() -> None:
    m = dynamic()
    m.play(ShotReport(1, pocketed=(pot(), pot(), pot())))
    assert m.state.scores == (0, 3)
    out = m.play(ShotReport(1, cushions=3))
    assert m.state.to_play == 0 and cites(out, "dynamic 5.3")


def test_dynamic_5_4_shot_must_be_correctly_completed() -> None:
    m = dynamic()
    out = m.play(ShotReport(1, cushions=0))
    assert out.of_kind(EffectKind.FOUL)[0].reason.cite() == "general 20"


def test_dynamic_6_one_point_per_ball_and_per_penalty_ball() -> None:
    m = dynamic()
    m.play(ShotReport(1, pocketed=(pot(4),)))
    m.play(ShotReport(1, fouls=frozenset({Foul.DOUBLE_HIT})))
    m.play(Choose(0, "take_ball", 5))
    assert m.state.scores == (1, 1)


def test_dynamic_7_option_1_take_a_ball_and_play_on_from_the_position() -> None:
    m = dynamic()
    out = m.play(ShotReport(1, fouls=frozenset({Foul.TOUCH})))
    need = m.needs()[0]
    assert cites(out, "dynamic 7") and need.options == ("take_ball", "penalty_shot") and need.player == 0
    out = m.play(Choose(0, "take_ball", 9))
    s = m.state
    assert cites(out, "dynamic 7") and s.scores == (1, 0) and s.in_hand is InHand.NONE and s.to_play == 0


def test_dynamic_7_option_2_penalty_shot_in_hand_anywhere_objects_only() -> None:
    m = dynamic()
    m.play(ShotReport(1, fouls=frozenset({Foul.TOUCH})))
    m.play(Choose(0, "penalty_shot"))
    s = m.state
    assert (
        s.hand == 0 and 0 not in s.on_table and s.in_hand is InHand.ANYWHERE and s.hand_rule == OBJECTS_ONLY
    )
    assert s.scores == (0, 0) and s.to_play == 0
    m.play(ShotReport(0, pocketed=(pot(0), pot(3))))  # A-D3 on the penalty shot
    assert m.state.scores == (1, 0) and m.state.to_play == 1 and m.state.in_hand is InHand.ANYWHERE


def test_dynamic_7_unknown_option_is_refused() -> None:
    m = dynamic()
    m.play(ShotReport(1, fouls=frozenset({Foul.TOUCH})))
    with pytest.raises(IllegalInputError, match="offered: take_ball, penalty_shot"):
        m.play(Choose(0, "rerack"))


def test_dynamic_8_object_balls_spotted_per_25() -> None:
    m = dynamic()
    out = m.play(ShotReport(1, pocketed=(pot(2),), fouls=frozenset({Foul.TOUCH})))
    assert [(e.ball, e.spot, e.reason.cite()) for e in out.of_kind(EffectKind.SPOT)] == [
        (2, Spot.FOOT.value, "dynamic 8")
    ]


def test_dynamic_a_d1_penalty_shot_adds_no_point_unless_configured() -> None:
    m = dynamic()
    m.play(ShotReport(1, fouls=frozenset({Foul.TOUCH})))
    m.play(Choose(0, "penalty_shot"))
    assert m.state.scores == (0, 0)
    m = dynamic(dynamic_penalty_shot_adds_point=True)
    m.play(ShotReport(1, fouls=frozenset({Foul.TOUCH})))
    out = m.play(Choose(0, "penalty_shot"))
    assert m.state.scores == (1, 0) and m.state.shelves == ((), ()) and cites(out, "dynamic 6")


def test_dynamic_a_d2_cue_ball_off_the_table_on_a_foul_is_in_hand_anywhere_under_option_1() -> None:
    m = dynamic()
    out = m.play(ShotReport(1, jumped=(JumpedBall(0),)))
    assert cites(out, "dynamic 7") and any(r.ambiguity == "A-D2" for r in out.reasons)
    m.play(Choose(0, "take_ball", 4))
    s = m.state
    assert s.hand == 0 and s.in_hand is InHand.ANYWHERE and s.hand_rule == "" and s.to_play == 0


def test_dynamic_a_d3_object_and_cue_ball_on_the_premium_shot() -> None:
    m = _premium(dynamic())
    out = m.play(ShotReport(1, pocketed=(pot(5), pot(0))))
    s = m.state
    assert any(r.ambiguity == "A-D3" for r in out.reasons)
    assert s.scores == (0, 2) and s.to_play == 0 and s.hand == 0 and s.in_hand is InHand.ANYWHERE


def test_dynamic_a_d4_cue_ball_on_a_correct_break() -> None:
    m = started("dynamic")
    out = m.play(ShotReport(0, pocketed=(pot(0),), break_balls_to_cushion=3))
    assert not out.of_kind(EffectKind.FOUL) and cites(out, "dynamic 5.2")
    m.play(Choose(0, "take_ball"))
    assert m.state.in_hand is InHand.ANYWHERE and m.state.hand_rule == OBJECTS_ONLY
