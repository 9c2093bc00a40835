"""The `Match` API: new/play/undo/needs/history, the versioned log, the codec, summary, and bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hub.view.engine import engine_summary
from shared_rules import (
    VARIANTS,
    Choose,
    Colour,
    Concede,
    Declaration,
    Foul,
    IllegalInputError,
    Interference,
    JumpedBall,
    Lag,
    MalformedInputError,
    Match,
    Pocket,
    PocketedBall,
    RefereeDecision,
    RulesError,
    ShotReport,
    find_variant,
)
from shared_rules.codec import input_from_dict, input_to_dict
from shared_rules.free import Free
from shared_rules.match import CHECKPOINT, RECENT
from tests.rules.helpers import after_break, pot


def test_registry_and_find_variant() -> None:
    assert VARIANTS["free"] is Free and find_variant("free") is Free
    with pytest.raises(RulesError, match=r"unknown variant 'snooker'; known: .*free"):
        find_variant("snooker")
    with pytest.raises(RulesError, match="unknown variant"):
        Match.new("snooker")


def test_options_are_checked() -> None:
    with pytest.raises(MalformedInputError, match="option 'colour' is not an option of free"):
        Match.new("free", options={"colour": 1})
    with pytest.raises(MalformedInputError, match="option 'target' must be int"):
        Match.new("free", options={"target": "8"})
    with pytest.raises(MalformedInputError, match="positive"):
        Match.new("free", options={"target": 0})
    with pytest.raises(MalformedInputError, match="players"):
        Match.new("free", players=("only one",))  # type: ignore[arg-type]


def test_play_returns_outcome_and_records_history() -> None:
    m = Match.new("free", ("Ivan", "Petr"))
    out = m.play(Lag(0))
    assert m.history == (Lag(0),) and m.outcomes == (out,)
    assert out.explain("en") == ["general 11: lag won: this player breaks, from hand from the house"]


def test_undo_pops_and_equals_replay() -> None:
    m = after_break()
    before = m.state
    m.play(ShotReport(1, pocketed=(pot(3),)))
    assert m.undo() == ShotReport(1, pocketed=(pot(3),))
    assert m.state == before and len(m.history) == 2
    m.undo()
    m.undo()
    assert m.state == Match.new("free").state
    with pytest.raises(IllegalInputError, match="nothing to undo"):
        m.undo()


def test_a_long_match_keeps_few_states_and_undoes_to_each_of_them() -> None:
    """A state is kept for good only at every CHECKPOINT-th input and for the latest RECENT ones (memory of a
    long match); an undo past them replays from the checkpoint and gives the very state a replay gives."""
    m = after_break()
    while len(m.history) < 5 * CHECKPOINT:  # misses: nothing falls, the turn passes
        m.play(ShotReport(m.state.to_play))
    replay = Match.new("free")
    dense = [replay.state]  # the state after each input, as a fresh match plays them
    for inp in m.history:
        replay.play(inp)
        dense.append(replay.state)
    kept = sum(s is not None for s in m._states)
    assert kept <= len(m.history) // CHECKPOINT + RECENT + 2
    for n in range(len(m.history) - 1, -1, -1):
        m.undo()
        assert m.state == dense[n], n
    assert sum(s is not None for s in m._states) == 1  # back at the start: only the initial state


BAD_INPUTS: list[tuple[Any, type[RulesError], str]] = [
    (ShotReport(0), IllegalInputError, "player 1's shot"),
    (ShotReport(2), MalformedInputError, "shooter: 2 is not a seat"),
    (
        ShotReport(1, pocketed=(PocketedBall(7),)),
        MalformedInputError,
        r"pocketed\[0\].pocket: 7 is not a pocket",
    ),  # type: ignore[arg-type]
    (ShotReport(1, pocketed=(pot(3), pot(3))), IllegalInputError, r"pocketed\[1\]: ball 3 is reported twice"),
    (ShotReport(1, pocketed=(pot(16),)), IllegalInputError, r"pocketed\[0\]: ball 16 is not on the table"),
    (ShotReport(1, pocketed=(pot(3, colour=Colour.YELLOW),)), IllegalInputError, "is not yellow"),
    (ShotReport(1, jumped=(JumpedBall(20),)), IllegalInputError, r"jumped\[0\]: ball 20"),
    (ShotReport(1, cue_ball=3, first_contact=3), IllegalInputError, "first_contact"),
    (ShotReport(1, fouls=frozenset({"miss"})), MalformedInputError, "not a foul code"),  # type: ignore[arg-type]
    (Choose(0, "take_ball"), IllegalInputError, "no choice"),
    (Lag(0), IllegalInputError, "no lag"),
    (RefereeDecision("draw"), IllegalInputError, "no referee decision"),
    (Concede(5), MalformedInputError, "Concede.player"),
    ("shot", MalformedInputError, "not an input"),
]


@pytest.mark.parametrize(("inp", "error", "message"), BAD_INPUTS)
def test_bad_input_raises_a_clear_error_and_changes_nothing(
    inp: Any, error: type[RulesError], message: str
) -> None:
    m = after_break()
    before, history = m.state, m.history
    with pytest.raises(error, match=message) as info:
        m.play(inp)
    assert info.value.ru  # every error has a Russian text too
    assert m.state == before and m.history == history


def test_choice_errors_name_what_is_offered() -> None:
    m = after_break()
    m.play(ShotReport(1, fouls=frozenset({Foul.TOUCH})))
    before = m.state
    with pytest.raises(IllegalInputError, match="offered: take_ball"):
        m.play(Choose(0, "penalty_shot"))
    with pytest.raises(IllegalInputError, match="may not be taken; allowed: 0, 1"):
        m.play(Choose(0, "take_ball", 99))
    assert m.state == before


def test_concede_ends_the_match() -> None:
    m = after_break()
    m.play(Concede(1))
    assert m.state.winner == 0 and m.state.over and m.needs() == ()


def _sample_match() -> Match:
    m = after_break()
    m.play(
        ShotReport(
            1,
            cue_ball=4,
            pocketed=(PocketedBall(Pocket.MIDDLE_LEFT, ball=5, colour=Colour.IVORY),),
            cushions=1,
            centre_crossing=True,
            declarations=(Declaration(5, Pocket.MIDDLE_LEFT),),
        )
    )
    m.play(
        ShotReport(1, jumped=(JumpedBall(colour=Colour.YELLOW),), fouls=frozenset({Foul.TOUCH, Foul.PUSH}))
    )
    m.play(Choose(0, "take_ball", 9))
    m.play(Interference(restore=True))
    return m


def test_log_round_trip_through_json() -> None:
    m = _sample_match()
    log = json.loads(json.dumps(m.to_log()))
    assert log["format"] == "luza-match" and log["version"] == 1 and log["variant"] == "free"
    again = Match.from_log(log)
    assert again.history == m.history and again.state == m.state and again.players == m.players
    assert again.to_log() == m.to_log()


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"version": 2}, "unknown version 2"),
        ({"format": "pgn"}, "log.format"),
        ({"variant": "snooker"}, "unknown variant"),
        (
            {
                "inputs": [
                    {"type": "lag", "winner": 0},
                    {"type": "shot", "shooter": 0, "pocketed": [{"pocket": 7}]},
                ]
            },
            r"log.inputs\[1\]: pocketed\[0\].pocket: 7 is not a Pocket",
        ),
        ({"inputs": [{"type": "shot", "shooter": 0}]}, r"log.inputs\[0\]: enter the lag"),
        ({"options": {"target": "x"}}, "option 'target'"),
    ],
)
def test_bad_logs_are_refused_with_the_place(patch: dict[str, Any], message: str) -> None:
    log = _sample_match().to_log() | patch
    with pytest.raises(MalformedInputError, match=message):
        Match.from_log(log)


def test_codec_round_trips_every_input_type() -> None:
    for inp in [
        *_sample_match().history,
        Concede(1),
        RefereeDecision("award", 0),
        Interference(False),
        Choose(0, "take_ball", None, Colour.RED),
    ]:
        d = input_to_dict(inp)
        assert input_from_dict(json.loads(json.dumps(d))) == inp


def test_codec_omits_defaults_and_writes_enums_by_value() -> None:
    d = input_to_dict(
        ShotReport(
            1,
            pocketed=(PocketedBall(Pocket.FOOT_RIGHT, colour=Colour.YELLOW),),
            fouls=frozenset({Foul.TOUCH, Foul.MISS}),
        )
    )
    assert d == {
        "type": "shot",
        "shooter": 1,
        "pocketed": [{"pocket": 6, "colour": "yellow"}],
        "fouls": ["17", "5.3"],
    }


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"type": "kick"}, "type: unknown input type 'kick'"),
        ({"type": "shot", "shooter": 0, "spin": 1}, "spin: unknown field of ShotReport"),
        ({"type": "shot", "shooter": "0"}, "shooter: expected an integer"),
        ({"type": "shot", "shooter": True}, "shooter: expected an integer"),
        (
            {"type": "shot", "shooter": 0, "pocketed": [{"pocket": 7}]},
            r"pocketed\[0\].pocket: 7 is not a Pocket",
        ),
        (
            {"type": "shot", "shooter": 0, "pocketed": [{"pocket": 1, "x": 1}]},
            r"pocketed\[0\].x: unknown field",
        ),
        ({"type": "shot", "shooter": 0, "pocketed": {"pocket": 1}}, "pocketed: expected a list"),
        ({"type": "shot", "shooter": 0, "fouls": ["99"]}, r"fouls\[0\]: '99' is not a Foul"),
        ({"type": "shot", "shooter": 0, "carom_on_ten": 1}, "carom_on_ten: expected true/false"),
        ({"type": "shot"}, "ShotReport"),
        ({"type": "choose", "player": 0, "option": 5}, "option: expected a string"),
        ("shot", "expected an object"),
    ],
)
def test_codec_is_strict(raw: Any, message: str) -> None:
    with pytest.raises(MalformedInputError, match=message):
        input_from_dict(raw)


def test_summary_is_json_and_bilingual() -> None:
    m = _sample_match()
    s = json.loads(json.dumps(engine_summary(m)))
    assert s["variant"] == "free" and s["players"] == ["Ivan", "Petr"] and s["scores"] == [1, 1]
    assert s["to_play"] == 0 and s["in_hand"] == "none" and s["mode"] == "play" and not s["over"]
    assert s["needs"][0]["kind"] == "cue_ball" and s["needs"][0]["ru"]
    assert s["last_reasons"] == [
        {
            "en": "general 27: outside interference: the balls are put back where they were; no penalty",
            "ru": "general 27: вмешательство постороннего: шары возвращены на места, штрафа нет",
        }
    ]
    assert (
        s["series"]["shots"] == 3 and len(s["on_table"]) + len(s["shelves"][0]) + len(s["shelves"][1]) == 16
    )


def test_state_knows_where_every_ball_is() -> None:
    m = after_break("combined")
    m.play(ShotReport(1, pocketed=(pot(0), pot(3))))
    s = m.state
    assert (
        s.place_of(0) == "hand"
        and s.place_of(3) == "shelf1"
        and s.place_of(4) == "table"
        and s.place_of(99) == ""
    )
    assert sorted(s.all_placed_balls()) == list(range(16))
    assert s.get("nothing", 7) == 7


def test_blocking_needs_must_be_answered_first() -> None:
    m = after_break("combined")
    m.play(ShotReport(1, pocketed=(pot(0),)))
    needs = m.needs()
    assert needs[0].blocking and needs[0].kind == "choice"
    with pytest.raises(IllegalInputError, match="must first choose"):
        m.play(ShotReport(1))


def test_first_contact_may_be_a_ball_that_then_fell() -> None:
    m = after_break("combined")
    m.play(ShotReport(1, first_contact=6, pocketed=(pot(6),)))
    assert m.state.shelves[1] == (6,)
    with pytest.raises(IllegalInputError, match="first_contact"):
        m.play(ShotReport(1, first_contact=0))  # the cue ball itself
