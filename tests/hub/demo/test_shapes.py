"""The demo's typed JSON (hub/demo/shapes.py) is the hub's: the race spec is RaceBody's JSON, written as the
rules engine writes it, and the scoreboard keys the demo reads are MatchView's."""

from __future__ import annotations

from typing import get_type_hints

from hub.demo.shapes import Board, HandicapSpec, RaceJSON, RaceSpec, handicap_spec, race_spec
from hub.view.match import MatchView
from hub.view.race import RaceView
from hub.vocab.new_match import HandicapBody, RaceBody
from shared_rules.race_rules import Handicap, RaceRules


def test_the_race_spec_is_race_body_json() -> None:
    assert list(get_type_hints(RaceSpec)) == list(RaceBody.model_fields)
    assert list(get_type_hints(HandicapSpec)) == list(HandicapBody.model_fields)
    rules = RaceRules.from_dict({"race_to": 3, "handicap": {"kind": "balls", "amount": 2, "seat": 0}})
    timed = RaceRules.from_dict({"race_to": 5, "break_rule": "winner", "time_limit_min": 30})
    for r in (rules, timed, RaceRules()):
        assert race_spec(r) == r.to_dict()  # the bytes new_match gets are unchanged
        assert list(race_spec(r)) == list(r.to_dict())
        assert RaceBody.model_validate(race_spec(r)).model_dump() == race_spec(r)
    assert handicap_spec(Handicap.parse("frames:1")) == {"kind": "frames", "amount": 1, "seat": 1}


def test_the_board_keys_the_demo_reads_are_the_match_views() -> None:
    assert set(get_type_hints(Board)) <= set(MatchView.model_fields)
    assert set(get_type_hints(RaceJSON)) <= set(RaceView.model_fields)
