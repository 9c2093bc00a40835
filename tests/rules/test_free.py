"""«Свободная пирамида» (Free pyramid), docs/rules/free.md: every paragraph 1..8 and A-F1..A-F3."""

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
    RefereeDecision,
    ShotReport,
    Spot,
)
from shared_rules.state import LAG, OVER, REFEREE
from tests.rules.helpers import after_break, cites, pot, started


def _run_to(m: Match, player: int, balls: list[int]) -> None:
    """Player pockets `balls` one a shot (the series rule keeps the turn)."""
    for b in balls:
        m.play(ShotReport(player, cue_ball=None, pocketed=(pot(b),)))


def test_free_1_first_to_eight_wins() -> None:
    m = after_break()
    _run_to(m, 1, [1, 2, 3, 4, 5, 6, 7])
    assert not m.state.over
    out = m.play(ShotReport(1, pocketed=(pot(8),)))
    assert m.state.winner == 1 and m.state.mode == OVER and cites(out, "free 1")
    with pytest.raises(IllegalInputError, match="over"):
        m.play(ShotReport(0))


def test_free_1_target_is_an_option() -> None:
    m = after_break(target=3)
    _run_to(m, 1, [1, 2, 3])
    assert m.state.winner == 1


def test_free_2_any_ball_may_be_the_cue_ball_and_all_sixteen_count() -> None:
    m = after_break()
    out = m.play(ShotReport(1, cue_ball=9, pocketed=(pot(0), pot(9))))  # the coloured ball and the cue ball
    assert not out.of_kind(EffectKind.FOUL)
    assert m.state.scores == (0, 2) and m.state.shelves[1] == (0, 9)


def test_free_3_rack_per_general_8() -> None:
    s = Match.new("free").state
    assert len(s.on_table) == 15 and s.hand == 0 and s.in_hand is InHand.HOUSE and s.mode == LAG


def test_free_4_break_from_hand_from_the_house() -> None:
    m = started()
    assert m.state.is_break and m.state.in_hand is InHand.HOUSE
    m.play(ShotReport(0))
    assert 0 in m.state.on_table and m.state.hand is None and not m.state.is_break


def test_free_5_1_cue_ball_choice_is_prompted_except_on_the_break() -> None:
    m = started()
    assert [n.kind for n in m.needs()] == ["placement"]
    m.play(ShotReport(0))
    need = m.needs()[0]
    assert need.kind == "cue_ball" and need.player == 1 and "free 5.1" in need.en
    assert need.options == tuple(str(b) for b in range(16))


def test_free_5_1_cue_ball_must_be_on_the_table() -> None:
    m = after_break()
    m.play(ShotReport(1, pocketed=(pot(4),)))
    with pytest.raises(IllegalInputError, match="cue_ball"):
        m.play(ShotReport(1, cue_ball=4))


def test_free_5_2_a_pot_keeps_the_turn() -> None:
    m = after_break()
    out = m.play(ShotReport(1, pocketed=(pot(),)))
    assert m.state.to_play == 1 and cites(out, "free 5.2") and m.state.run == 1


def test_free_5_3_no_pot_passes_the_turn() -> None:
    m = after_break()
    out = m.play(ShotReport(1, cushions=2))
    assert m.state.to_play == 0 and cites(out, "free 5.3")


def test_free_5_4_the_cue_ball_off_an_object_ball_counts() -> None:
    m = after_break()
    m.play(ShotReport(1, cue_ball=5, first_contact=6, pocketed=(pot(5),)))
    assert m.state.shelves[1] == (5,) and m.state.to_play == 1


def test_free_5_5_no_calls_every_ball_counts() -> None:
    m = after_break()
    m.play(ShotReport(1, pocketed=(pot(), pot(), pot())))
    assert m.state.scores == (0, 3)


def test_free_5_6_every_shot_but_the_break_must_be_correctly_completed() -> None:
    m = started()
    assert not m.play(ShotReport(0, cushions=0)).of_kind(EffectKind.FOUL)
    out = m.play(ShotReport(1, cushions=0))
    assert out.of_kind(EffectKind.FOUL)[0].reason.cite() == "general 20"


def test_free_6_one_point_per_ball_and_one_per_foul() -> None:
    m = after_break()
    m.play(ShotReport(1, pocketed=(pot(2),)))
    m.play(ShotReport(1, fouls=frozenset({Foul.MISS})))
    m.play(Choose(0, "take_ball", 3))
    assert m.state.scores == (1, 1)  # A-D1: the penalty ball is the point


def test_free_7_penalty_ball_of_the_opponents_choice_after_spotting() -> None:
    m = after_break()
    out = m.play(ShotReport(1, pocketed=(pot(5),), fouls=frozenset({Foul.TOUCH})))
    kinds = [e.kind for e in out.effects]
    assert kinds.index(EffectKind.SPOT) < kinds.index(EffectKind.CHOICE)  # spotted first
    need = m.needs()[0]
    assert (
        need.kind == "choice" and need.player == 0 and need.blocking and 5 in need.balls and 0 in need.balls
    )
    with pytest.raises(IllegalInputError, match="choose"):
        m.play(ShotReport(0))
    with pytest.raises(IllegalInputError, match="player 0"):
        m.play(Choose(1, "take_ball", 5))
    out = m.play(Choose(0, "take_ball", 0))  # any ball: the coloured one too
    assert cites(out, "free 7") and m.state.shelves[0] == (0,)


def test_free_7_penalty_ball_may_be_left_unnamed() -> None:
    m = after_break()
    m.play(ShotReport(1, fouls=frozenset({Foul.TOUCH})))
    m.play(Choose(0, "take_ball"))
    assert m.state.shelves[0] == (1,)


def test_free_8_incorrectly_pocketed_and_jumped_balls_are_spotted_per_25() -> None:
    m = after_break()
    out = m.play(ShotReport(1, pocketed=(pot(5),), jumped=(JumpedBall(colour=Colour.IVORY),)))
    spots = [(e.ball, e.spot) for e in out.of_kind(EffectKind.SPOT)]
    assert spots == [(5, Spot.FOOT.value), (1, Spot.SPOTTING_LINE.value)]
    assert all(e.reason.cite() == "free 8" for e in out.of_kind(EffectKind.SPOT))


def _dead_end() -> Match:
    """Target 9: 8:7 with one ball left (the default target cannot reach it with 16 scoring balls)."""
    m = after_break(target=9)
    _run_to(m, 1, list(range(0, 7)))  # 7 for player 1
    m.play(ShotReport(1, cushions=2))
    _run_to(m, 0, list(range(7, 15)))  # 8 for player 0
    assert m.state.on_table == (15,)
    return m


def test_free_a_f1_one_ball_left_without_a_winner_calls_the_referee() -> None:
    m = _dead_end()
    s = m.state
    assert s.mode == REFEREE and s.decision == "A-F1" and not s.over
    need = m.needs()[0]
    assert need.kind == "referee_decision" and need.options == ("replay_frame", "award", "draw")
    with pytest.raises(IllegalInputError, match="referee"):
        m.play(ShotReport(0))
    with pytest.raises(IllegalInputError, match="offered"):
        m.play(RefereeDecision("toss"))


def test_free_a_f1_award_draw_and_replay() -> None:
    m = _dead_end()
    m.play(RefereeDecision("award", winner=0))
    assert m.state.winner == 0
    m = _dead_end()
    m.play(RefereeDecision("draw"))
    assert m.state.draw and m.state.over
    m = _dead_end()
    out = m.play(RefereeDecision("replay_frame"))
    s = m.state
    assert cites(out, "free A-F1") and s.mode == LAG and s.scores == (0, 0) and len(s.on_table) == 15
    assert s.frame == 2
    m.play(Lag(1))
    assert m.state.to_play == 1


def test_free_a_f1_award_needs_a_winner() -> None:
    m = _dead_end()
    with pytest.raises(IllegalInputError):
        m.play(RefereeDecision("award"))


def test_free_a_f1_dead_end_after_a_penalty_ball() -> None:
    m = after_break(target=9)
    _run_to(m, 1, list(range(0, 7)))
    m.play(ShotReport(1, cushions=2))
    _run_to(m, 0, list(range(7, 14)))  # 7:7, balls 14 and 15 left
    m.play(ShotReport(0, fouls=frozenset({Foul.TOUCH})))
    m.play(Choose(1, "take_ball", 14))  # 7:8, one ball left
    assert m.state.mode == REFEREE


def test_free_a_f2_after_a_foul_the_opponent_plays_from_the_position() -> None:
    m = after_break()
    m.play(ShotReport(1, jumped=(JumpedBall(0),)))
    m.play(Choose(0, "take_ball", 6))
    s = m.state
    assert s.to_play == 0 and s.in_hand is InHand.NONE and 0 in s.on_table
    assert m.needs()[0].kind == "cue_ball"


def test_free_a_f3_the_coloured_ball_breaks() -> None:
    m = started()
    out = m.play(ShotReport(0, pocketed=(pot(0),)))  # the coloured ball falls on the break: it counts
    assert not out.of_kind(EffectKind.FOUL) and m.state.shelves[0] == (0,)


def test_free_a_f1_rerack_cannot_replace_the_decision() -> None:
    """free A-F1 with general 27: a re-rack is refused while the referee decision is due; restore is fine."""
    m = _dead_end()
    with pytest.raises(IllegalInputError, match="referee decision"):
        m.play(Interference(restore=False))
    m.play(Interference(restore=True))
    assert m.state.mode == REFEREE
