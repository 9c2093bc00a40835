"""The demo's typed JSON (hub/demo/shapes.py) is the hub's: the race it sends is RaceBody's JSON, written by
the rules engine, and the scoreboard keys the demo reads are MatchView's."""

from __future__ import annotations

import logging
from typing import get_type_hints

import pytest

from hub.demo.shapes import Board, RaceJSON
from hub.demo.terminal import race_for
from hub.view.match import MatchView
from hub.view.race import RaceView
from hub.vocab.new_match import HandicapBody, RaceBody
from shared_rules.race_rules import Handicap, HandicapJSON, RaceRules, RaceRulesJSON


def test_the_race_the_demo_sends_is_race_body_json() -> None:
    """The demo sends `RaceRules.to_dict()` (hub/commands/demo.py race_of): its type names RaceBody's fields,
    in order, and what it writes is what RaceBody reads back."""
    assert list(get_type_hints(RaceRulesJSON)) == list(RaceBody.model_fields)
    assert list(get_type_hints(HandicapJSON)) == list(HandicapBody.model_fields)
    rules = RaceRules.from_dict({"race_to": 3, "handicap": {"kind": "balls", "amount": 2, "seat": 0}})
    timed = RaceRules.from_dict({"race_to": 5, "break_rule": "winner", "time_limit_min": 30})
    for r in (rules, timed, RaceRules()):
        assert list(r.to_dict()) == list(RaceBody.model_fields)
        assert RaceBody.model_validate(r.to_dict()).model_dump() == r.to_dict()
    assert Handicap.parse("frames:1").to_dict() == {"kind": "frames", "amount": 1, "seat": 1}


def test_the_board_keys_the_demo_reads_are_the_match_views() -> None:
    assert set(get_type_hints(Board)) <= set(MatchView.model_fields)
    assert set(get_type_hints(RaceJSON)) <= set(RaceView.model_fields)


def test_a_handicap_the_variant_cannot_give_is_left_out_of_the_race(caplog: pytest.LogCaptureFixture) -> None:
    """general A-G5: Classic gives no balls handicap; the demo plays the race without it, and says so."""
    balls = {"race_to": 3, "handicap": {"kind": "balls", "amount": 2, "seat": 0}}
    race = RaceRules.from_dict(balls).to_dict()
    assert race_for("free", race) == race
    with caplog.at_level(logging.WARNING):
        classic = race_for("classic", race)
    assert classic is not None and classic["handicap"] is None and classic["race_to"] == 3
    assert "classic gives no balls handicap" in caplog.text
    assert RaceBody.model_validate(classic).handicap is None
    frames = {**race, "handicap": {"kind": "frames", "amount": 1, "seat": 1}}
    assert race_for("classic", frames) == frames
