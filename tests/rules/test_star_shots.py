"""Star pyramid shots: who may strike what (4.3), counting and other balls (4.3.1, 4.4), snookered (4.5), the
penalty choice (5.1) and spotting (6.1), with A-S2..A-S7."""

from __future__ import annotations

import json

from shared_rules import Choose, Declaration, EffectKind, Foul, JumpedBall, NeedKind, Pocket, ShotReport, Spot
from shared_rules.codec import input_from_dict, input_to_dict
from shared_rules.star_view import COLOURS
from tests.rules.helpers import cites
from tests.rules.helpers_star import IV, B, G, K, R, Y, broken, col, pot, unchanged

# -- 4.3 who may strike what ---------------------------------------------------------------------------------


def test_star_4_3_other_cue_ball_must_hit_an_own_playing_ball_first() -> None:
    m = broken()  # player 1 needs blue
    out = m.play(ShotReport(1, cue_colour=R, first_contact_colour=G, cushions=2))
    fouls = out.of_kind(EffectKind.FOUL)
    assert [e.detail for e in fouls] == [Foul.WRONG_OWN_BALL.value] and fouls[0].reason.cite() == "star 4.3"
    assert "own playing ball" in fouls[0].reason.en and "игрового" in fouls[0].reason.ru
    assert m.state.pending is not None and m.state.pending.player == 0


def test_star_4_3_other_cue_ball_on_an_own_playing_ball_is_legal() -> None:
    m = broken()
    out = m.play(ShotReport(1, cue_colour=R, first_contact_colour=B, pocketed=(col(B),)))
    assert not out.of_kind(EffectKind.FOUL) and m.state.scores == (0, 1)
    # the joker is own too (A-S2)
    out = m.play(ShotReport(1, cue_ball=7, first_contact_colour=IV, cushions=2))
    assert not out.of_kind(EffectKind.FOUL)


def test_star_4_3_own_cue_ball_may_hit_any_ball() -> None:
    m = broken()
    out = m.play(ShotReport(1, cue_colour=B, first_contact_colour=R, cushions=2))
    assert not out.of_kind(EffectKind.FOUL)
    # the joker as the cue ball
    out = m.play(ShotReport(0, cue_colour=IV, first_contact_colour=K, cushions=2))
    assert not out.of_kind(EffectKind.FOUL)


def test_star_4_3_unknown_contact_is_read_as_legal_and_needs_ask_for_the_cue_ball() -> None:
    m = broken()
    need = m.needs()[0]
    assert (
        need.kind is NeedKind.CUE_COLOUR
        and need.player == 1
        and not need.blocking
        and need.kind.fact == "cue_colour"
    )
    assert "star 4.3" in need.en and "blue or the joker" in need.en and "синий" in need.ru
    assert need.options == ("ivory", "blue", "yellow", "black", "green", "red")
    out = m.play(ShotReport(1, cue_colour=R, cushions=2))
    assert not out.of_kind(EffectKind.FOUL)


def test_star_4_3_no_calls_a_declaration_is_refused() -> None:
    m = broken()
    unchanged(m, ShotReport(1, declarations=(Declaration(2, Pocket.FOOT_LEFT),)), match="no calls")


def test_star_a_s2_own_playing_balls_are_the_next_colour_and_the_joker() -> None:
    m = broken()
    m.play(ShotReport(1, cue_colour=Y, first_contact_colour=Y, cushions=2))  # yellow is not player 1's colour
    p = m.state.pending
    assert p is not None and p.player == 0 and set(p.balls) == {0, 2, 4, 10}  # player 0's blues + the joker


# -- 4.3.1, 4.4 counting and other balls ---------------------------------------------------------------------


def test_star_4_3_1_other_balls_off_a_playing_ball_are_spotted_turn_kept() -> None:
    m = broken()
    out = m.play(ShotReport(1, cue_colour=B, pocketed=(col(G), col(R, Pocket.HEAD_RIGHT))))
    assert m.state.scores == (0, 0) and m.state.to_play == 1 and {3, 5} <= set(m.state.on_table)
    assert cites(out, "star 4.3.1") and cites(out, "star 6.1")
    spots = [e.spot for e in out.of_kind(EffectKind.SPOT)]
    assert spots == [Spot.FOOT.value, Spot.SPOTTING_LINE.value]


def test_star_4_3_1_pocketed_joker_is_not_spotted() -> None:
    m = broken()
    out = m.play(ShotReport(1, pocketed=(col(IV),), fouls=frozenset({Foul.DOUBLE_HIT})))
    assert m.state.off_table == (0,) and 0 not in m.state.on_table and m.state.scores == (0, 0)
    assert cites(out, "star 4.3.1") and any(e.kind is EffectKind.OFF_TABLE for e in out.effects)


def test_star_4_4_all_pocketed_playing_balls_count_others_spotted() -> None:
    m = broken()
    out = m.play(ShotReport(1, pocketed=(col(Y), col(B), col(R))))
    assert m.state.shelves[1] == (2, 1) and 3 in m.state.on_table and m.state.to_play == 1
    assert cites(out, "star 4.4")
    out = m.play(ShotReport(1, cushions=2))
    assert m.state.to_play == 0 and cites(out, "star 4.4")  # nothing fell: the turn passes


def test_star_a_s3_several_playing_balls_count_in_any_order_that_fits() -> None:
    m = broken()
    pot(m, 1, B)
    pot(m, 1, K, Y)  # needing yellow then black: "black + yellow" is two
    assert m.state.scores == (0, 3)
    pot(m, 1, G, G)  # only one green fits; the other is spotted
    assert m.state.scores == (0, 4) and sum(1 for b in m.state.on_table if COLOURS[b] is G) == 2
    pot(m, 1, B, IV)  # needing red, then blue: the joker fills red, blue counts (A-S8: player 1 is first)
    assert m.state.shelves[1][-2:] == (0, 4) and m.state.scores == (0, 6)


def test_star_a_s4_option_only_other_balls_pass_the_turn() -> None:
    m = broken(star_other_ball_keeps_turn=False)
    out = m.play(ShotReport(1, pocketed=(col(R),)))
    assert m.state.to_play == 0 and 3 in m.state.on_table and cites(out, "star 4.4")
    assert any(e.reason.ambiguity == "A-S4" for e in out.of_kind(EffectKind.TURN_PASSED))


def test_star_a_s5_joker_counts_as_the_next_playing_ball_and_leaves_the_game() -> None:
    m = broken()
    out = m.play(ShotReport(1, pocketed=(col(IV),)))
    assert m.state.shelves[1] == (0,) and cites(out, "star 4.1")
    assert any(e.reason.ambiguity == "A-S5" for e in out.effects)
    assert 0 not in m.state.on_table and m.state.place_of(0) == "shelf1"


def test_star_a_s5_option_joker_pocketed_on_a_foul_is_spotted() -> None:
    m = broken(star_foul_joker_off_table=False)
    out = m.play(ShotReport(1, pocketed=(col(IV),), fouls=frozenset({Foul.TOUCH})))
    assert 0 in m.state.on_table and m.state.off_table == () and cites(out, "star 4.3.1")
    assert any(e.reason.ambiguity == "A-S5" and e.kind is EffectKind.NOTE for e in out.effects)


# -- 4.5 snookered -------------------------------------------------------------------------------------------


def test_star_4_5_snookered_playing_ball_suspends_general_20() -> None:
    m = broken()
    out = m.play(ShotReport(1, cue_colour=R, first_contact_colour=B, cushions=0, snookered=True))
    assert not out.of_kind(EffectKind.FOUL) and cites(out, "star 4.5")
    m2 = broken()
    out = m2.play(ShotReport(1, cue_colour=R, first_contact_colour=B, cushions=0))
    assert cites(out, "general 20")


def test_star_4_5_suspension_only_for_a_shot_at_the_playing_ball_and_a_miss_is_still_a_foul() -> None:
    m = broken()
    out = m.play(ShotReport(1, cue_colour=B, first_contact_colour=R, cushions=0, snookered=True))
    assert cites(out, "general 20")  # the red is not a playing ball of player 1
    m2 = broken()
    out = m2.play(ShotReport(1, cushions=0, snookered=True, fouls=frozenset({Foul.MISS})))
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [Foul.MISS.value]


def test_star_a_s7_snookered_is_the_referees_call_carried_by_the_report() -> None:
    shot = ShotReport(1, cue_colour=R, first_contact_colour=B, cushions=0, snookered=True)
    assert input_from_dict(json.loads(json.dumps(input_to_dict(shot)))) == shot
    m = broken()
    out = m.play(shot)
    assert any(e.reason.ambiguity == "A-S7" for e in out.effects)


# -- 5.1 the penalty, 6.1 spotting ---------------------------------------------------------------------------


def test_star_5_1_needs_offer_take_or_give_back() -> None:
    m = broken()
    m.play(ShotReport(1, cushions=1, centre_crossing=False))  # general 20 foul by player 1
    (need,) = m.needs()
    assert need.kind == "choice" and need.blocking and need.player == 0
    assert need.options == ("take_ball", "give_back") and need.balls == (0, 2, 4, 10)
    assert "star 5.1" in need.en and "blue or the joker" in need.en and "синий" in need.ru
    unchanged(m, ShotReport(0), match="choose")
    unchanged(m, Choose(1, "give_back"), match="player 0")
    unchanged(m, Choose(0, "penalty_shot"), match="not offered")
    unchanged(m, Choose(0, "take_ball", ball=1), match="may not be taken")


def test_star_5_1_take_own_playing_ball_and_play_on() -> None:
    m = broken()
    m.play(ShotReport(1, cushions=0))
    out = m.play(Choose(0, "take_ball"))
    assert m.state.shelves[0] == (2,) and m.state.scores == (1, 0) and m.state.to_play == 0
    assert cites(out, "star 5.1") and 2 not in m.state.on_table


def test_star_5_1_give_the_shot_back_to_the_offender() -> None:
    m = broken()
    m.play(ShotReport(1, cushions=0))
    out = m.play(Choose(0, "give_back"))
    assert m.state.to_play == 1 and m.state.scores == (0, 0) and cites(out, "star 5.1")


def test_star_a_s6_penalty_ball_of_the_needed_colour_or_the_joker() -> None:
    m = broken()
    m.play(ShotReport(1, cushions=0))
    m.play(Choose(0, "take_ball", colour=B))
    assert m.state.shelves[0] == (2,)
    m.play(ShotReport(0, cushions=0))  # player 0's foul: player 1 may take a blue or the joker
    m.play(Choose(1, "take_ball", ball=0))
    assert m.state.shelves[1] == (0,)
    m.play(ShotReport(1, cushions=0))
    p = m.state.pending
    assert p is not None and p.balls == (1, 6, 13)  # player 0 needs yellow; the joker is gone
    unchanged(m, Choose(0, "take_ball", colour=B), match="colour")


def test_star_6_1_incorrectly_pocketed_and_jumped_balls_spotted_per_general_25() -> None:
    m = broken()
    out = m.play(ShotReport(1, pocketed=(col(B),), jumped=(JumpedBall(colour=R),)))
    assert cites(out, "general 24.3") and cites(out, "general 22.3") and cites(out, "star 6.1")
    assert {2, 3} <= set(m.state.on_table) and m.state.scores == (0, 0)
    assert m.state.placed == ((2, Spot.FOOT.value), (3, Spot.SPOTTING_LINE.value))
