"""The one protocol for a missing fact (shared_rules/held.py) and the variants' profiles
(shared_rules/profile.py).

Every variant holds a shot the same way: mode `held`, one blocking typed need naming the ball, answered by
`Identify`; the hub reads each variant's profile instead of its name.
"""

from __future__ import annotations

import json
from typing import ClassVar

import pytest

from shared_rules import (
    VARIANTS,
    Choose,
    Colour,
    Concede,
    Declaration,
    Identify,
    IllegalInputError,
    Interference,
    JumpedBall,
    Lag,
    Match,
    Mode,
    NeedKind,
    Pocket,
    PocketedBall,
    ShotReport,
)
from shared_rules.codec import input_from_dict, input_to_dict
from shared_rules.profile import BallIdentity, Profile
from shared_rules.registry import register
from shared_rules.variant import Variant

P1, P3, P5 = Pocket.HEAD_LEFT, Pocket.MIDDLE_LEFT, Pocket.FOOT_LEFT


def held_classic() -> Match:
    """Classic after an empty break: player 1's called 8 fell with an unnamed ball in pocket 3 (held, 5.1)."""
    m = Match.new("classic")
    m.play(Lag(0))
    m.play(ShotReport(0, break_balls_to_cushion=4))
    m.play(ShotReport(1, declarations=(Declaration(8, P5),), pocketed=(PocketedBall(P5), PocketedBall(P3))))
    assert m.state.mode is Mode.HELD
    return m


def test_general_22_nothing_is_held_identify_is_refused() -> None:
    m = Match.new("free")
    m.play(Lag(0))
    with pytest.raises(IllegalInputError, match="no shot is held"):
        m.play(Identify(ball=3))


def test_general_22_a_held_shot_refuses_everything_but_its_answer_and_a_concession() -> None:
    """general 22 (which ball was pocketed decides the result):
    until the referee names it, nothing else is played."""
    m = held_classic()
    before = m.state
    for inp in (ShotReport(1, cushions=2), Lag(0), Choose(1, "take_ball"), Interference(restore=True)):
        with pytest.raises(IllegalInputError, match="held"):
            m.play(inp)
    assert m.state == before
    m.play(Concede(1))
    assert m.state.winner == 0 and m.state.held is None and m.needs() == ()


def test_general_22_the_held_shot_and_its_answer_are_in_the_log() -> None:
    m = held_classic()
    need = m.needs()[0]
    assert (
        need.kind is NeedKind.BALL_NUMBER
        and need.kind.answer == "Identify"
        and need.slot == 1
        and need.pocket == 3
    )
    m.play(Identify(ball=int(need.options[0])))
    assert input_from_dict(input_to_dict(Identify(ball=9))) == Identify(ball=9)
    assert input_to_dict(Identify(colour=Colour.RED)) == {"type": "identify", "colour": "red"}
    again = Match.from_log(json.loads(json.dumps(m.to_log())))
    assert again.state == m.state and again.history[-1] == m.history[-1]
    m.undo()
    assert m.state.mode is Mode.HELD and m.needs() == (need,)


def test_hundred_3_a_jumped_ball_without_its_number_is_asked_off_the_table() -> None:
    """hundred 3: a jumped white ball's number decides where it goes (#10 to the centre spot): held, slot
    after the pocketed balls, no pocket."""
    m = Match.new("hundred")
    m.play(Lag(0))
    m.play(ShotReport(0, cushions=2))
    m.play(ShotReport(1, pocketed=(PocketedBall(P1, ball=5, direct=True),), jumped=(JumpedBall(),)))
    need = m.needs()[0]
    assert (
        m.state.mode is Mode.HELD and need.slot == 1 and need.pocket is None and "left the table" in need.en
    )
    m.play(Identify(ball=10))
    assert m.state.mode is Mode.PLAY and 10 in m.state.on_table


def test_need_kinds_say_what_answers_them() -> None:
    assert {k: k.answer for k in NeedKind if k.held} == {
        NeedKind.BALL_NUMBER: "Identify",
        NeedKind.BALL_COLOUR: "Identify",
    }
    assert NeedKind.CUE_BALL.fact == "cue_ball" and NeedKind.CUE_COLOUR.fact == "cue_colour"
    assert NeedKind.DECLARATION.fact == "declarations" and NeedKind.LAG.fact is None
    assert all(k.fact is None or k.fact in ShotReport.__dataclass_fields__ for k in NeedKind)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_profile_agrees_with_its_variant(name: str) -> None:
    """The profile's rules are the variant's own paragraphs; identity and calls match what its needs ask."""
    cls = VARIANTS[name]
    p = cls.PROFILE
    assert p.fixed_cue_ball == (cls.CUE_BALL is not None)
    for rule in (p.identity_rule, p.call_mismatch_rule, p.cue_ball_pocketed_rule):
        assert rule is None or (rule.variant == name and rule.paragraph in cls.PARAGRAPHS)
    assert (p.identity is BallIdentity.NONE) == (p.identity_rule is None)
    assert (p.cue_ball_pocketed_rule is not None) <= p.fixed_cue_ball
    assert all(f in ShotReport.__dataclass_fields__ or f == "direct" for f in p.facts)
    m = Match.new(name)
    m.play(Lag(0))
    m.play(ShotReport(0, break_balls_to_cushion=4, cushions=2))
    asks_call = any(n.kind is NeedKind.DECLARATION for n in m.needs())
    assert asks_call == p.calls and (p.call_mismatch_rule is not None) == p.calls


def test_a_profile_that_contradicts_its_cue_ball_is_not_registered() -> None:
    class Wrong(Variant):
        name = "wrong"
        PARAGRAPHS: ClassVar[dict[str, str]] = {}
        CUE_BALL = None  # any ball may be struck ...
        PROFILE = Profile(fixed_cue_ball=True)  # ... but the profile says one is fixed

    with pytest.raises(ValueError, match="fixed_cue_ball"):
        register(Wrong)
    assert "wrong" not in VARIANTS


def _direct_replays(variant: str, seed: int) -> int:
    """In a random match, every held shot and its answers fold to the same state as the shot reported with the
    balls named from the start. Returns how many held shots were checked."""
    import random

    from shared_rules.held import with_ball
    from tests.rules.strategies import play_random

    m = play_random(variant, random.Random(seed))
    replay = Match.new(variant, ("A", "B"))
    checked = 0
    prefix: list[object] = []  # the inputs before the shot now held
    for inp in m.history:
        if type(inp) is Identify:
            held = replay.state.held
            assert held is not None
            replay.play(inp)
            if replay.state.mode is not Mode.HELD:  # the last answer: compare with the report named up front
                direct = Match.new(variant, ("A", "B"))
                for earlier in prefix:
                    direct.play(earlier)  # type: ignore[arg-type]
                direct.play(with_ball(held.report, held.slot, inp.ball, inp.colour))
                assert direct.state == replay.state
                checked += 1
            continue
        if replay.state.mode is not Mode.HELD:
            prefix = list(replay.history)
        replay.play(inp)
    assert replay.state == m.state
    return checked


@pytest.mark.parametrize("variant", ["classic", "hundred"])
def test_general_22_a_held_shot_answered_equals_the_shot_reported_with_its_numbers(variant: str) -> None:
    """general 22: holding is only a wait; the answered shot is the shot as if its balls had been named."""
    assert sum(_direct_replays(variant, seed) for seed in range(40)) > 0
