"""The demo's typed JSON (hub/demo/shapes.py) is the hub's: the race it sends is RaceBody's JSON, written by
the rules engine, and the scoreboard keys the demo reads are MatchView's."""

from __future__ import annotations

from typing import get_type_hints

from hub.demo.shapes import Board, RaceJSON
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
