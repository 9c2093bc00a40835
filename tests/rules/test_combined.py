"""«Комбинированная пирамида» (Combined pyramid), docs/rules/combined.md: paragraphs 1..8, A-D1, A-D4,
A-C1."""

from __future__ import annotations

import pytest

from shared_rules import (
    Choose,
    EffectKind,
    Foul,
    IllegalInputError,
    InHand,
    JumpedBall,
    MalformedInputError,
    Match,
    ShotReport,
    Spot,
)
from shared_rules.state import LAG
from tests.rules.helpers import after_break, cites, pot, started


def combined() -> Match:
    return after_break("combined")


def test_combined_1_first_to_eight_wins() -> None:
    m = combined()
    for b in range(1, 8):
        m.play(ShotReport(1, pocketed=(pot(b),)))
    assert not m.state.over
    out = m.play(ShotReport(1, pocketed=(pot(8),)))
    assert m.state.winner == 1 and cites(out, "combined 1")


def test_combined_1_target_above_eight_is_refused() -> None:
    with pytest.raises(MalformedInputError, match="at most 8"):
        Match.new("combined", options={"target": 9})


def test_combined_2_only_the_yellow_is_struck_with_the_cue() -> None:
    m = combined()
    out = m.play(ShotReport(1, cue_ball=5))
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [Foul.BAD_CUE_STRIKE.value]
    assert m.needs()[0].kind == "choice"


def test_combined_3_rack_and_4_break_from_the_house() -> None:
    """combined 3 and combined 4: general 8.1/8.2 rack, break from hand from the house."""
    m = Match.new("combined")
    s = m.state
    assert s.on_table == tuple(range(1, 16)) and s.hand == 0 and s.in_hand is InHand.HOUSE and s.mode == LAG
    m = started("combined")
    m.play(ShotReport(0, break_balls_to_cushion=2))
    assert 0 in m.state.on_table and m.state.in_hand is InHand.NONE


def test_combined_5_1_object_ball_pocketed_scores_and_keeps_the_turn() -> None:
    m = combined()
    out = m.play(ShotReport(1, pocketed=(pot(4),)))
    assert m.state.scores == (0, 1) and m.state.to_play == 1 and cites(out, "combined 5.1")


def test_combined_5_2_pocketed_cue_ball_earns_a_ball_and_a_premium_shot_from_the_house() -> None:
    m = combined()
    out = m.play(ShotReport(1, first_contact=3, pocketed=(pot(0),)))
    assert cites(out, "combined 5.2")
    s = m.state
    assert s.hand == 0 and s.in_hand is InHand.HOUSE and s.to_play == 1 and s.scores == (0, 0)
    need = m.needs()[0]
    assert (
        need.kind == "choice"
        and need.player == 1
        and 0 not in need.balls
        and need.balls == tuple(range(1, 16))
    )
    with pytest.raises(IllegalInputError, match="may not be taken"):
        m.play(Choose(1, "take_ball", 0))
    m.play(Choose(1, "take_ball", 11))
    assert m.state.scores == (0, 1) and m.state.shelves[1] == (11,)
    assert m.needs()[0].kind == "placement" and "general 21.1" in m.needs()[0].en


def test_combined_5_2_premium_shot_is_from_the_house() -> None:
    m = combined()
    m.play(ShotReport(1, pocketed=(pot(0), pot(2))))
    m.play(Choose(1, "take_ball"))
    assert m.state.scores == (0, 2)
    m.play(ShotReport(1, pocketed=(pot(5),)))  # the premium shot, played from the house
    assert m.state.scores == (0, 3) and 0 in m.state.on_table and m.state.in_hand is InHand.NONE


def test_combined_5_3_no_calls_every_ball_counts_and_no_pot_passes() -> None:
    m = combined()
    m.play(ShotReport(1, pocketed=(pot(), pot())))
    assert m.state.scores == (0, 2)
    out = m.play(ShotReport(1, cushions=2))
    assert m.state.to_play == 0 and cites(out, "combined 5.3")


def test_combined_5_4_shot_must_be_correctly_completed() -> None:
    m = combined()
    out = m.play(ShotReport(1, cushions=1, centre_crossing=False))
    assert out.of_kind(EffectKind.FOUL)[0].reason.cite() == "general 20"


def test_combined_6_one_point_per_ball_and_per_foul() -> None:
    m = combined()
    m.play(ShotReport(1, pocketed=(pot(1),)))
    m.play(ShotReport(1, fouls=frozenset({Foul.MISS})))
    m.play(Choose(0, "take_ball", 2))
    assert m.state.scores == (1, 1)


def test_combined_7_penalty_ball_then_play_on_from_the_position() -> None:
    m = combined()
    out = m.play(ShotReport(1, pocketed=(pot(6),), fouls=frozenset({Foul.TOUCH})))
    assert cites(out, "combined 7") and 6 in m.state.on_table
    m.play(Choose(0, "take_ball", 6))
    s = m.state
    assert s.to_play == 0 and s.in_hand is InHand.NONE and 0 in s.on_table and s.scores == (1, 0)


@pytest.mark.parametrize("how", ["pocketed", "jumped"])
def test_combined_7_cue_ball_off_the_table_on_a_foul_gives_a_penalty_shot_from_the_house(how: str) -> None:
    m = combined()
    shot = (
        ShotReport(1, pocketed=(pot(0), pot(4)), fouls=frozenset({Foul.PUSH}))
        if how == "pocketed"
        else ShotReport(1, jumped=(JumpedBall(0),))
    )
    out = m.play(shot)
    assert cites(out, "combined 7") and 0 not in [e.ball for e in out.of_kind(EffectKind.SPOT)]
    m.play(Choose(0, "take_ball"))
    s = m.state
    assert s.to_play == 0 and s.hand == 0 and s.in_hand is InHand.HOUSE and s.scores == (1, 0)


def test_combined_8_object_balls_are_spotted_per_25() -> None:
    m = combined()
    out = m.play(ShotReport(1, pocketed=(pot(3),), jumped=(JumpedBall(9),), fouls=frozenset({Foul.TOUCH})))
    assert [(e.ball, e.spot) for e in out.of_kind(EffectKind.SPOT)] == [
        (3, Spot.FOOT.value),
        (9, Spot.SPOTTING_LINE.value),
    ]
    assert all(e.reason.cite() == "combined 8" for e in out.of_kind(EffectKind.SPOT))


def test_combined_a_d1_score_equals_the_shelf() -> None:
    m = combined()
    m.play(ShotReport(1, pocketed=(pot(0), pot(1))))
    m.play(Choose(1, "take_ball"))
    m.play(ShotReport(1, fouls=frozenset({Foul.TOUCH})))
    m.play(Choose(0, "take_ball"))
    s = m.state
    assert s.scores == (len(s.shelves[0]), len(s.shelves[1])) == (1, 2)


def test_combined_a_d4_cue_ball_on_a_correct_break() -> None:
    m = started("combined")
    out = m.play(ShotReport(0, pocketed=(pot(0), pot(5))))
    assert not out.of_kind(EffectKind.FOUL) and cites(out, "combined 5.2")
    assert m.state.pending is not None and m.state.pending.player == 0 and m.state.in_hand is InHand.HOUSE


def test_combined_a_d4_cue_ball_on_an_incorrect_break_is_a_foul() -> None:
    m = started("combined")
    m.play(ShotReport(0, pocketed=(pot(0),), break_balls_to_cushion=1))
    assert m.state.pending is not None and m.state.pending.player == 1 and m.state.hand == 0


def test_combined_a_c1_premium_shot_prompt_names_the_temporary_house() -> None:
    m = combined()
    out = m.play(ShotReport(1, pocketed=(pot(0),)))
    premium = [e for e in out.of_kind(EffectKind.IN_HAND)]
    assert premium[0].reason.ambiguity == "A-C1" and "temporary house" in premium[0].reason.en
    m.play(Choose(1, "take_ball"))
    assert "general 21.5" in m.needs()[0].en
