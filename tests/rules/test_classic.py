"""«Классическая пирамида» (Classic pyramid, 71 points), docs/rules/classic.md: paragraphs 1..6,
A-C2..A-C7."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

from shared_rules import (
    Choose,
    Colour,
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
    RefereeDecision,
    ShotReport,
    Spot,
)
from shared_rules.classic import RACK_ORDER, value
from shared_rules.state import HELD, LAG
from tests.rules.helpers import cites, pot, started
from tests.rules.strategies import PrefixRandom, play_random, rnds
from tests.rules.strategies_classic import classic_points_add_up

P3, P5 = Pocket.MIDDLE_LEFT, Pocket.FOOT_LEFT


def call(ball: int, pocket: Pocket = P5) -> tuple[Declaration, ...]:
    return (Declaration(ball, pocket),)


def hit(shooter: int, ball: int, *others: int, pocket: Pocket = P5) -> ShotReport:
    """The called `ball` into the called pocket, `others` into pocket 3."""
    return ShotReport(
        shooter, declarations=call(ball, pocket), pocketed=(pot(ball, pocket), *(pot(b, P3) for b in others))
    )


def classic(**options: object) -> Match:
    """After an empty correct break by player 0: player 1 to play."""
    m = started("classic", **options)
    m.play(ShotReport(0, break_balls_to_cushion=4))
    return m


def test_classic_1_first_to_71_wins() -> None:
    m = classic()
    for b in (15, 14, 13, 12, 11):  # 65
        m.play(hit(1, b))
    assert m.state.scores == (0, 65) and not m.state.over
    out = m.play(hit(1, 10))
    assert m.state.winner == 1 and cites(out, "classic 1")


def test_classic_1_target_51_and_above_71_refused() -> None:
    m = classic(target=51)
    for b in (15, 14, 13, 12):
        m.play(hit(1, b))
    assert m.state.winner == 1
    with pytest.raises(MalformedInputError, match="at most 71"):
        Match.new("classic", options={"target": 80})


def test_classic_2_only_the_yellow_is_struck() -> None:
    m = classic()
    out = m.play(ShotReport(1, cue_ball=5, declarations=call(5)))
    assert cites(out, "classic 2") and cites(out, "general 15") and m.state.scores == (5, -5)


def test_classic_3_fixed_rack_and_4_break_from_the_house() -> None:
    """classic 3 and classic 4: the fixed order, apex #4 on the foot spot; break from hand from the house."""
    s = Match.new("classic").state
    assert RACK_ORDER == (4, 5, 6, 7, 15, 8, 9, 14, 13, 10, 2, 1, 12, 11, 3)
    assert [b for b, _ in s.placed] == list(RACK_ORDER) and s.placed[0] == (4, Spot.FOOT.value)
    assert s.hand == 0 and s.in_hand is InHand.HOUSE and s.mode == LAG
    m = started("classic")
    assert [n.kind for n in m.needs()] == ["placement"]  # no call on the break


def test_classic_5_1_values_ace_eleven_total_130() -> None:
    assert sum(value(b) for b in range(1, 16)) == 130 and value(1) == 11 and value(7) == 7
    m = classic()
    out = m.play(hit(1, 1))
    assert m.state.scores == (0, 11) and cites(out, "classic 5.1")


def test_classic_5_2_call_on_the_table_one_only() -> None:
    m = classic()
    before = m.state
    assert [n.kind for n in m.needs()] == ["declaration"] and "4" in m.needs()[0].options
    with pytest.raises(IllegalInputError, match="one object ball"):
        m.play(ShotReport(1, declarations=(*call(4), *call(5))))
    m.play(hit(1, 4))
    with pytest.raises(IllegalInputError, match="not on the table"):
        m.play(ShotReport(1, declarations=call(4)))
    with pytest.raises(IllegalInputError, match="cue ball cannot be called"):
        m.play(ShotReport(1, declarations=(Declaration(0, P5, DeclarationKind.CUE_BALL),)))
    with pytest.raises(MalformedInputError, match="not a pocket"):
        m.play(ShotReport(1, declarations=(Declaration(5, 7),)))  # type: ignore[arg-type]
    with pytest.raises(IllegalInputError):
        m.play(ShotReport(0, declarations=call(5)))  # the wrong player
    with pytest.raises(IllegalInputError, match="no choice"):
        m.play(Choose(1, "take_ball", 5))
    assert m.state.scores == (0, 4) and before.scores == (0, 0)


def test_classic_5_2_no_declaration_on_the_break() -> None:
    m = started("classic")
    with pytest.raises(IllegalInputError, match="no call"):
        m.play(ShotReport(0, declarations=call(4)))


def test_classic_5_3_and_a_c5_every_ball_counts_with_the_called_one() -> None:
    """classic 5.3, classic A-C5: an uncalled ball that falls with the called one counts."""
    m = classic()
    out = m.play(hit(1, 7, 2))
    assert m.state.scores == (0, 9) and m.state.to_play == 1 and cites(out, "classic 5.3")
    assert any(e.reason.ambiguity == "A-C5" for e in out.effects)


def test_classic_5_4_uncalled_ball_spotted_turn_passes_no_foul() -> None:
    m = classic()
    out = m.play(ShotReport(1, declarations=call(7, P5), pocketed=(pot(7, P3),)))  # right ball, wrong pocket
    assert not out.of_kind(EffectKind.FOUL) and m.state.scores == (0, 0) and m.state.to_play == 0
    assert 7 in m.state.on_table and cites(out, "classic 5.4") and cites(out, "classic 6")


def test_classic_5_5_cue_ball_pocketed_or_jumped_opponent_from_the_house() -> None:
    m = classic()
    out = m.play(
        ShotReport(1, declarations=call(7), pocketed=(pot(7), PocketedBall(P3, colour=Colour.YELLOW)))
    )
    assert [e.detail for e in out.of_kind(EffectKind.FOUL)] == [Foul.CUE_BALL_POCKETED.value]
    s = m.state
    assert (
        s.scores == (5, -5)
        and 7 in s.on_table
        and s.hand == 0
        and s.in_hand is InHand.HOUSE
        and s.to_play == 0
    )
    assert cites(out, "classic 5.5")
    m.play(ShotReport(0, declarations=call(3), jumped=(JumpedBall(0),)))
    assert m.state.in_hand is InHand.HOUSE and m.state.to_play == 1 and m.state.scores == (0, 0)


def test_classic_5_6_foul_moves_5_once_and_a_c6_negative() -> None:
    """classic 5.6 and classic A-C6: −5/+5 once per shot (general 29.2), a score may go below zero."""
    m = classic()
    out = m.play(ShotReport(1, declarations=call(5), fouls=frozenset({Foul.MISS, Foul.TOUCH})))
    assert m.state.scores == (5, -5) and cites(out, "general 29.2") and cites(out, "classic 5.6")
    assert any(e.reason.ambiguity == "A-C6" for e in out.effects) and m.state.to_play == 0


def test_classic_5_8_completion_required_unless_waived() -> None:
    m = classic()
    out = m.play(ShotReport(1, declarations=call(5), cushions=0))
    assert cites(out, "classic 5.8") and m.state.scores == (5, -5)
    m = classic(require_correct_completion=False)
    m.play(ShotReport(1, declarations=call(5), cushions=0))
    assert m.state.scores == (0, 0) and m.state.to_play == 0


def test_classic_a_c4_break_balls_count_option() -> None:
    m = started("classic")
    out = m.play(ShotReport(0, pocketed=(pot(4), pot(1, P3))))
    assert m.state.scores == (15, 0) and m.state.to_play == 0 and cites(out, "classic A-C4")
    m = started("classic", classic_break_balls_count=False)
    m.play(ShotReport(0, pocketed=(pot(4),)))
    assert m.state.scores == (0, 0) and 4 in m.state.on_table and m.state.to_play == 1


def test_classic_a_c7_several_spotted_in_pocketing_order() -> None:
    """classic 6 and classic A-C7: balls pocketed on a foul are spotted
    (general 25), in the order they fell."""
    m = classic()
    out = m.play(
        ShotReport(1, declarations=call(5), pocketed=(pot(9), pot(3)), fouls=frozenset({Foul.TOUCH}))
    )
    assert [e.ball for e in out.of_kind(EffectKind.SPOT)] == [9, 3]
    assert any(e.reason.ambiguity == "A-C7" for e in out.effects) and m.state.scores == (5, -5)


def _to_seventy(m: Match) -> None:
    """Play 0 takes 70 (+10 bonus included), player 1 takes 70, the table empties."""
    # player 1 (to play): 15 14 13 12 = 54, then 11 is 65; 5 = 70; then misses
    for b in (15, 14, 13, 12, 11, 5):
        m.play(hit(1, b))
    m.play(ShotReport(1, declarations=call(2), cushions=2))  # safe, no pot: the turn passes
    for b in (10, 9, 8, 7, 6, 4, 3, 2):  # 49
        m.play(hit(0, b))
    m.play(hit(0, 1))  # 11 + 10 last ball = 70


def test_classic_a_c3_last_ball_plus_ten_once_and_a_c2_decider_pot_wins() -> None:
    """classic 5.7, classic A-C2, classic A-C3: 70:70, the last ball back on the foot spot, lag, pot wins."""
    m = classic()
    _to_seventy(m)
    s = m.state
    assert s.scores == (70, 70) and s.on_table == (1,) and s.mode == LAG and s.hand == 0
    assert m.needs()[0].kind == "lag" and "5.7" in m.needs()[0].en
    m.play(Lag(1))
    assert m.state.mode == "decider" and m.state.to_play == 1 and m.state.in_hand is InHand.HOUSE
    assert {n.kind for n in m.needs()} == {"placement", "declaration"}
    out = m.play(hit(1, 1))
    assert m.state.winner == 1 and m.state.scores == (70, 81) and cites(out, "classic 5.7")


def test_classic_a_c2_decider_foul_loses() -> None:
    m = classic()
    _to_seventy(m)
    m.play(Lag(0))
    m.play(Interference(restore=False))  # a re-rack keeps the decider
    assert m.state.mode == LAG and not m.state.is_break
    m.play(Lag(0))
    out = m.play(ShotReport(0, declarations=call(1), fouls=frozenset({Foul.MISS})))
    assert (
        m.state.winner == 1
        and m.state.scores == (65, 75)
        and any(e.reason.ambiguity == "A-C2" for e in out.effects)
    )


def test_classic_5_1_unnamed_ball_certain_or_held() -> None:
    """classic 5.1, classic 5.2: the single ball in the called pocket is the called one;
    otherwise the shot waits."""
    m = classic()
    m.play(ShotReport(1, declarations=call(9), pocketed=(pot(None, P5),)))
    assert m.state.scores == (0, 9)
    before = m.state
    out = m.play(ShotReport(1, declarations=call(8), pocketed=(pot(None, P5), pot(None, P3))))
    assert m.state.mode == HELD and m.state.on_table == before.on_table and cites(out, "classic 5.1")
    need = m.needs()[0]
    assert (
        need.kind is NeedKind.BALL_NUMBER and need.blocking and not need.before_shot and "pocket 3" in need.en
    )
    assert need.slot == 1 and need.pocket == 3 and "8" not in need.options and "0" not in need.options
    with pytest.raises(IllegalInputError):
        m.play(ShotReport(1, declarations=call(8)))
    with pytest.raises(IllegalInputError, match="could have fallen"):
        m.play(Identify(ball=9))
    with pytest.raises(MalformedInputError, match="number"):
        m.play(Identify(colour=Colour.IVORY))
    with pytest.raises(IllegalInputError, match="held"):
        m.play(RefereeDecision("1"))
    m.play(Identify(ball=1))
    assert m.state.scores == (0, 9 + 8 + 11) and m.state.mode == "play"
    again = Match.from_log(json.loads(json.dumps(m.to_log())))
    assert again.state == m.state
    m.undo()
    assert m.state.mode == HELD


def test_classic_unnamed_on_a_foul_needs_no_number() -> None:
    m = classic()
    m.play(
        ShotReport(
            1, declarations=call(8), pocketed=(pot(None, P5), pot(None, P3)), fouls=frozenset({Foul.TOUCH})
        )
    )
    assert m.state.mode == "play" and len(m.state.on_table) == 16 and m.state.scores == (5, -5)


@settings(max_examples=25, deadline=None)
@given(r=rnds())
def test_classic_random_matches_with_options(r: PrefixRandom) -> None:
    """classic 5.8 waived, target 51, break balls not counting: random matches end and keep the invariant."""
    opts = {"target": 51, "require_correct_completion": False, "classic_break_balls_count": False}
    m = play_random("classic", r, 3000, options=opts, check=True)
    assert m.state.over


def test_classic_full_match_through_the_api_every_effect_explained() -> None:
    m = Match.new("classic", ("Ivan", "Petr"))
    m.play(Lag(0))
    outs = [m.play(ShotReport(0, pocketed=(pot(4),)))]  # A-C4: 4 points, plays on
    outs.append(m.play(ShotReport(0, declarations=call(5), cushions=0)))  # 5.8 foul: -5/+5
    assert m.state.scores == (-1, 5) and m.state.to_play == 1
    for b in (15, 14, 13, 12, 11):  # 65 more: 70, not yet the target
        outs.append(m.play(hit(1, b)))
    assert m.state.scores == (-1, 70) and not m.state.over
    outs.append(m.play(ShotReport(1, declarations=call(10), pocketed=(pot(10, P3),))))  # 5.4: wrong pocket
    assert m.state.to_play == 0 and 10 in m.state.on_table
    outs.append(m.play(hit(0, 1, 2)))  # 11 + 2
    outs.append(m.play(ShotReport(0, declarations=call(3), cushions=2)))  # nothing: the turn passes
    outs.append(m.play(hit(1, 10)))
    assert m.state.winner == 1 and m.state.scores == (12, 80) and m.needs() == ()
    for out in outs:
        assert out.effects and all(e.reason.text("en") and e.reason.text("ru") for e in out.effects)
    classic_points_add_up(m)


def test_classic_5_4_a_shot_without_a_call_is_recorded_and_nothing_scores() -> None:
    """classic 5.4, classic 5.2: a safety or a miss is played with no call. It is a shot without a call, not
    refused: a ball that falls is uncalled and spotted (6), nothing scores,
    the turn passes; fouls still apply."""
    m = classic()
    out = m.play(ShotReport(1, cushions=2))  # a safety, no call
    assert m.state.to_play == 0 and m.state.scores == (0, 0) and m.state.shots == 2
    # a ball falls with no call: no number asked
    out = m.play(ShotReport(0, pocketed=(pot(None, P3),), cushions=2))
    assert m.state.mode == "play" and len(m.state.on_table) == 16 and m.state.scores == (0, 0)
    assert m.state.to_play == 1 and cites(out, "classic 5.4") and out.of_kind(EffectKind.SPOT)
    out = m.play(ShotReport(1, fouls=frozenset({Foul.MISS})))  # a miss with no call: the 5.6 penalty as ever
    assert m.state.scores == (5, -5) and cites(out, "classic 5.6")
