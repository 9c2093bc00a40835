"""«Звездная пирамида» (Star pyramid), docs/rules/star.md: the goal, balls and rack (1-3), the sequence
(4.1), the break (4.2), bad input, held shots and whole matches, with A-S1, A-S8. Who may strike what,
counting, snookers, the penalty and spotting (4.3-6.1) are in test_star_shots.py.

Ball colours (star 3.1, A-S1): blue 2, 4, 10 · yellow 1, 6, 13 · black 9, 12, 15 · green 5, 11, 14 ·
red 3, 7, 8 · ball 0 the ivory joker.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from hub.view.engine import engine_summary
from shared_rules import (
    Choose,
    EffectKind,
    Foul,
    Identify,
    InHand,
    Interference,
    Lag,
    MalformedInputError,
    Match,
    NeedKind,
    Pocket,
    PocketedBall,
    ShotReport,
    Spot,
)
from shared_rules.star_view import COLOURS, FIRST5, RACK, SEQUENCE_LENGTH, sequence
from shared_rules.state import HELD, LAG, OVER, PLAY
from tests.rules.helpers import cites, started
from tests.rules.helpers_star import IV, B, G, K, R, Y, broken, col, pot, unchanged
from tests.rules.strategies import play_random

# -- 1, 2, 3: goal, balls, rack ------------------------------------------------------------------------------


def test_star_1_first_to_eight_playing_balls_wins() -> None:
    m = broken()
    for c in (B, Y, K, G, R, B, Y):
        pot(m, 1, c)
    assert m.state.scores == (0, 7) and not m.state.over
    out = m.play(ShotReport(1, pocketed=(col(K),)))
    assert m.state.winner == 1 and m.state.mode == OVER and cites(out, "star 1")
    assert len(m.state.shelves[1]) == SEQUENCE_LENGTH
    unchanged(m, ShotReport(0), match="over")


def test_star_1_target_option_at_most_eight() -> None:
    m = broken(target=3)
    pot(m, 1, B, Y)
    pot(m, 1, K)
    assert m.state.winner == 1
    with pytest.raises(MalformedInputError, match="at most 8"):
        Match.new("star", options={"target": 9})


def test_star_2_1_sixteen_balls_three_of_each_olympic_colour_and_one_ivory() -> None:
    counts = Counter(COLOURS)
    assert len(COLOURS) == 16 and counts[IV] == 1 and COLOURS[0] is IV
    assert all(counts[c] == 3 for c in (B, Y, K, G, R))
    m = Match.new("star")
    assert [m.variant.colour_of(b) for b in range(16)] == list(COLOURS)


def test_star_2_2_any_ball_may_be_the_cue_ball_and_an_own_cue_ball_off_a_ball_counts() -> None:
    """star 2.2: player 1 needs blue; the blue cue ball (ball 4) goes in off a red ball: it counts."""
    m = broken()
    out = m.play(
        ShotReport(1, cue_ball=4, first_contact=7, pocketed=(PocketedBall(Pocket.HEAD_LEFT, ball=4),))
    )
    assert not out.of_kind(EffectKind.FOUL)
    assert m.state.shelves[1] == (4,) and m.state.scores == (0, 1) and m.state.to_play == 1


def test_star_3_1_rack_colours_by_classic_positions_ivory_in_the_house() -> None:
    s = Match.new("star").state
    assert [[COLOURS[b] for b in row] for row in RACK] == [
        [B],
        [G, Y],
        [R, K, R],
        [K, G, Y, B],
        [B, Y, K, G, R],
    ]
    assert sorted(b for row in RACK for b in row) == list(range(1, 16)) == list(s.on_table)
    assert s.placed == ((4, Spot.FOOT.value),)  # the apex (Classic position 4, blue) on the foot spot
    assert s.hand == 0 and s.in_hand is InHand.HOUSE and s.mode == LAG


def test_star_a_s1_numbers_are_rack_positions_colours_decide() -> None:
    """star A-S1: a ball reported by colour only becomes the lowest-numbered ball of
    that colour on the table."""
    m = broken()
    pot(m, 1, B)
    assert m.state.shelves[1] == (2,)  # blue 2, 4, 10: the lowest is taken
    pot(m, 1, Y)
    assert m.state.shelves[1] == (2, 1)


def test_star_a_s1_colour_not_on_the_table_is_refused_naming_it() -> None:
    m = broken()
    m.play(ShotReport(1, pocketed=(col(B), col(B, Pocket.HEAD_RIGHT))))  # one counts, one is spotted
    assert m.state.shelves[1] == (2,) and 4 in m.state.on_table
    e = unchanged(m, ShotReport(1, pocketed=(col(Y), col(Y), col(Y), col(Y))), match="no yellow ball")
    assert "жёлтый" in e.ru
    unchanged(m, ShotReport(1, pocketed=(PocketedBall(Pocket.FOOT_LEFT, colour="red"),)), MalformedInputError)  # type: ignore[arg-type]


# -- 4.1 the sequence and 4.2 the break ----------------------------------------------------------------------


def test_star_4_1_each_player_plays_blue_yellow_black_green_red_in_order() -> None:
    m = broken()
    pot(m, 1, Y)  # not the next colour: an "other" ball, spotted; the turn does not pass (A-S4)
    assert m.state.scores == (0, 0) and m.state.to_play == 1 and 1 in m.state.on_table
    for c in (B, Y, K, G):
        pot(m, 1, c)
    assert [COLOURS[b] for b in m.state.shelves[1]] == [B, Y, K, G]


def test_star_4_1_joker_replaces_any_playing_ball_while_in_play() -> None:
    m = broken()
    pot(m, 1, B, Y)
    out = m.play(ShotReport(1, pocketed=(col(IV),)))  # needs black: the joker stands in for it
    assert m.state.shelves[1] == (2, 1, 0) and m.state.scores == (0, 3) and cites(out, "star 4.1")
    assert 0 not in m.state.on_table
    assert "joker" not in m.needs()[0].en  # no longer an own playing ball: it is out of play


def test_star_a_s8_first_to_five_plays_blue_yellow_black_the_other_red_green_black() -> None:
    m = broken()
    for c in (B, Y, K, G):
        pot(m, 1, c)
    out = m.play(ShotReport(1, pocketed=(col(R),)))
    assert m.state.get(FIRST5) == 1 and cites(out, "star 4.1")
    assert any(e.reason.ambiguity == "A-S8" for e in out.effects)
    assert sequence(1, 1)[5:] == (B, Y, K) and sequence(0, 1)[5:] == (R, G, K)
    pot(m, 1, B)  # player 1's sixth is blue
    assert COLOURS[m.state.shelves[1][-1]] is B
    m.play(ShotReport(1))  # nothing: the turn passes
    for c in (B, Y, K, G, R):
        pot(m, 0, c)
    pot(m, 0, Y)  # yellow is not player 0's sixth: spotted, the turn kept
    assert m.state.scores == (5, 6)
    pot(m, 0, R)  # the other player's tail starts with red
    assert m.state.scores == (6, 6) and m.state.get(FIRST5) == 1


def test_star_4_2_break_from_the_house_with_the_ivory_ball() -> None:
    m = started("star")
    assert m.state.is_break and m.state.hand == 0 and m.state.in_hand is InHand.HOUSE
    assert [n.kind for n in m.needs()] == ["placement"]
    out = m.play(ShotReport(0, cue_ball=4, break_balls_to_cushion=3))  # not the ivory ball: general 15
    assert cites(out, "general 15") and m.state.pending is not None


def test_star_4_2_1_ivory_pocketed_on_the_break_is_the_breakers_blue() -> None:
    m = started("star")
    out = m.play(ShotReport(0, pocketed=(col(IV), col(B, Pocket.HEAD_RIGHT), col(Y, Pocket.MIDDLE_LEFT))))
    assert cites(out, "star 4.2.1")
    # ivory = blue, then yellow counts; the blue no longer fits and is spotted without the turn passing
    assert m.state.shelves[0] == (0, 1) and m.state.scores == (2, 0)
    assert 2 in m.state.on_table and m.state.to_play == 0
    assert any(e.kind is EffectKind.SPOT and e.ball == 2 for e in out.effects)


def test_star_4_2_1_playing_balls_on_the_break_count_others_spotted_turn_kept() -> None:
    m = started("star")
    m.play(ShotReport(0, pocketed=(col(B),)))
    assert m.state.shelves[0] == (2,) and m.state.to_play == 0
    m2 = started("star")
    out = m2.play(ShotReport(0, pocketed=(col(R),)))
    assert m2.state.scores == (0, 0) and 3 in m2.state.on_table and m2.state.to_play == 0
    assert cites(out, "star 4.2.1") and any(e.kind is EffectKind.TURN_KEPT for e in out.effects)


# -- bad input -----------------------------------------------------------------------------------------------


def test_star_a_s1_bad_reports_change_nothing() -> None:
    m = broken()
    unchanged(m, ShotReport(0), match="player 1's shot")
    unchanged(m, ShotReport(1, pocketed=(PocketedBall(7, colour=B),)), MalformedInputError, "pocket")  # type: ignore[arg-type]
    unchanged(m, ShotReport(1, cue_ball=4, cue_colour=R), match="blue, not red")
    unchanged(m, ShotReport(1, first_contact=4, first_contact_colour=R), match="blue, not red")
    unchanged(m, ShotReport(1, cue_ball=99))
    unchanged(m, ShotReport(1, pocketed=(PocketedBall(Pocket.FOOT_LEFT, ball=2, colour=R),)), match="not red")
    m.play(ShotReport(1, pocketed=(col(IV),)))
    unchanged(
        m,
        ShotReport(1, pocketed=(PocketedBall(Pocket.HEAD_LEFT, ball=0),)),
        match="ball 0 is not on the table",
    )
    unchanged(m, ShotReport(1, cue_ball=0), match="not on the table")
    e = unchanged(m, ShotReport(1, cue_colour=IV), match="no ivory ball")
    assert "слоновой кости" in e.ru
    unchanged(m, ShotReport(1, first_contact_colour=IV), match="no ivory ball")
    unchanged(m, Choose(1, "take_ball"), match="no choice")


def test_star_4_2_rerack_without_the_joker_breaks_with_the_lowest_ball() -> None:
    """general 27 in Star (A-G3 reading): the joker out of play,
    the lowest-numbered table ball is the break ball."""
    m = broken()
    m.play(ShotReport(1, pocketed=(col(IV),)))
    out = m.play(Interference(restore=False))
    assert m.state.hand == 1 and m.state.mode == LAG and m.state.scores == (0, 1) and cites(out, "star 4.2")
    m.play(Lag(0))
    out = m.play(ShotReport(0, pocketed=(PocketedBall(Pocket.FOOT_LEFT, ball=1),)))  # the break ball falls
    assert m.state.scores == (0, 1) and 1 in m.state.on_table and m.state.to_play == 0  # player 0 needs blue


# -- a whole match and random ones ---------------------------------------------------------------------------


def _explained(m: Match) -> None:
    out = m.outcomes[-1]
    assert out.effects
    for e in out.effects:
        en, ru = e.reason.text("en"), e.reason.text("ru")
        assert e.reason.variant in ("star", "general") and ": " in en and ": " in ru and en != ru


def test_star_full_match_from_the_rack_to_a_result() -> None:
    """star 1, 4.1, 4.2.1, 4.3, 4.4, 5.1: a scripted match,
    every effect with a reason in English and Russian."""
    m = Match.new("star", ("Ivan", "Petr"))
    script: list[tuple[object, tuple[int, int], int]] = [
        (Lag(1), (0, 0), 1),
        (ShotReport(1, pocketed=(col(IV), col(R))), (0, 1), 1),  # ivory = Petr's blue; red spotted, turn kept
        (ShotReport(1, cue_colour=Y, pocketed=(col(Y),)), (0, 2), 1),
        (ShotReport(1, cue_colour=G, first_contact_colour=R, cushions=2), (0, 2), 0),  # 4.3 foul
        (Choose(0, "take_ball", colour=B), (1, 2), 0),  # Ivan takes a blue and plays on
        (ShotReport(0, pocketed=(col(Y), col(K))), (3, 2), 0),
        (ShotReport(0, cushions=2), (3, 2), 1),
        (ShotReport(1, pocketed=(col(K), col(G), col(R))), (3, 5), 1),  # Petr completes five first
        # a foul: nothing counts
        (ShotReport(1, pocketed=(col(B),), fouls=frozenset({Foul.PUSH})), (3, 5), 0),
        (Choose(0, "give_back"), (3, 5), 1),
        (ShotReport(1, pocketed=(col(B),)), (3, 6), 1),
        (ShotReport(1, pocketed=(col(Y),)), (3, 7), 1),
        (ShotReport(1, pocketed=(col(R),)), (3, 7), 1),  # red is not Petr's: spotted, turn kept (A-S4)
        (ShotReport(1, cushions=2), (3, 7), 0),
        (ShotReport(0, pocketed=(col(G), col(R))), (5, 7), 0),
        (ShotReport(0, pocketed=(col(R),)), (6, 7), 0),  # Ivan's tail: red, green, black
        (ShotReport(0, pocketed=(col(K),)), (6, 7), 0),  # black is not next (green is): spotted
        (ShotReport(0, cushions=0), (6, 7), 1),
        (Choose(1, "take_ball"), (6, 8), 1),  # Petr's eighth, black, taken as the penalty: he wins
    ]
    for inp, scores, to_play in script:
        m.play(inp)  # type: ignore[arg-type]
        _explained(m)
        assert m.state.scores == scores, (inp, m.state)
        assert m.state.to_play == to_play, (inp, m.state)
    assert m.state.winner == 1 and m.state.over and m.needs() == ()
    assert [COLOURS[b] for b in m.state.shelves[1]] == [IV, Y, K, G, R, B, Y, K]
    assert [COLOURS[b] for b in m.state.shelves[0]] == [B, Y, K, G, R, R]
    assert engine_summary(m)["last_reasons"][-1]["ru"].startswith("star 1")
    assert Match.from_log(json.loads(json.dumps(m.to_log()))).state == m.state


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"star_other_ball_keeps_turn": False},
        {"star_foul_joker_off_table": False, "target": 5},
        {"incorrect_break_rebreak": True, "require_correct_completion": False},
    ],
)
def test_star_random_matches_keep_the_sequence_invariant(options: dict[str, object]) -> None:
    """star 4.1, 1 with the options of A-S4 and A-S5: random legal matches end with the invariants kept."""
    for seed in range(150):
        m = play_random("star", random.Random(seed), options=options, check=True)
        assert m.state.over, (seed, m.state)


def test_star_4_1_a_ball_without_its_colour_holds_the_shot() -> None:
    """star 4.1, star A-S1: a ball counts by its colour, so a report without it is held (the one protocol for
    a missing fact): a blocking BALL_COLOUR need, answered by
    `Identify(colour=...)`; then the shot is folded."""
    m = broken()
    before = m.state
    out = m.play(ShotReport(1, cue_colour=R, pocketed=(PocketedBall(Pocket.FOOT_LEFT),)))
    assert m.state.mode == HELD and m.state.on_table == before.on_table and cites(out, "star 4.1")
    need = m.needs()[0]
    assert need.kind is NeedKind.BALL_COLOUR and need.blocking and need.pocket == int(Pocket.FOOT_LEFT)
    assert need.options[:2] == ("ivory", "blue")
    with pytest.raises(MalformedInputError, match="colour"):
        m.play(Identify(ball=2))
    m.play(Identify(colour=B))
    assert m.state.mode == PLAY and m.state.shelves[1] == (2,) and m.state.to_play == 1
