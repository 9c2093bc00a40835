"""The export's TypedDicts (hub/export/document.py, RaceSection, ShotClockEntry, SettingsSnapshot) name
exactly the members of the schema objects they mirror (docs/match-export.schema.json), and a key the types
call optional is optional in the schema too: a member added to one and not the other fails here, not in a
reader's hands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hub.export import build, load
from hub.export import document as d
from hub.reconcile.frames import FrameTally, HandicapJSON, RaceSection
from hub.reconcile.shotclock import ShotClockEntry
from hub.service import snapshot
from hub.store.database import Store

SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "match-export.schema.json").read_text("utf-8"))


def _obj(node: dict[str, Any]) -> dict[str, Any]:
    """The object schema in `node` (the non-null branch of a oneOf, or the items of an array)."""
    if "oneOf" in node:
        (node,) = [b for b in node["oneOf"] if b.get("type") == "object"]
    if node.get("type") == "array":
        node = node["items"]
    return node


def _at(*path: str) -> dict[str, Any]:
    node: dict[str, Any] = SCHEMA
    for key in path:
        node = _obj(node[key])
    return node


TOP = SCHEMA["properties"]
DEFS = SCHEMA["$defs"]
SHOT = DEFS["shot"]["properties"]
CASES = [
    (d.ExportDoc, SCHEMA),
    (d.Generator, _obj(TOP["generator"])),
    (d.MatchHeader, _obj(TOP["match"])),
    (d.TableRef, _obj(TOP["match"]["properties"]["table"])),
    (d.Text, _obj(TOP["match"]["properties"]["club"])),
    (snapshot.SettingsSnapshot, _obj(TOP["settings"])),
    (snapshot.ClubNames, _at("properties", "settings", "properties", "club")),
    (snapshot.TableLayout, _at("properties", "settings", "properties", "table")),
    (snapshot.RulesSettings, _at("properties", "settings", "properties", "rules")),
    (snapshot.HubVersion, _at("properties", "settings", "properties", "hub")),
    (d.InputEntry, DEFS["input"]),
    (d.SensorOrigin, DEFS["input"]["properties"]["origin"]["oneOf"][0]),
    (d.RefereeOrigin, DEFS["input"]["properties"]["origin"]["oneOf"][1]),
    (d.Corrects, _obj(DEFS["input"]["properties"]["corrects"])),
    (d.ShotEntry, DEFS["shot"]),
    (d.StrikeEntry, _obj(SHOT["strike"])),
    (ShotClockEntry, _obj(SHOT["shot_clock"])),
    (d.CallEntry, _obj(SHOT["call"])),
    (d.JumpedEntry, _obj(SHOT["jumped"])),
    (d.BallEntry, DEFS["ball"]),
    (d.ReasonEntry, DEFS["reason"]),
    (d.EffectEntry, DEFS["effect"]),
    (d.FoulEntry, DEFS["foul"]),
    (d.ActionEntry, DEFS["action"]),
    (d.FrameSection, _obj(TOP["frames"])),
    (d.FrameResultEntry, _at("properties", "frames", "properties", "result")),
    (RaceSection, DEFS["race"]),
    (FrameTally, _obj(DEFS["race"]["properties"]["frames"])),
    (HandicapJSON, _obj(DEFS["handicap"])),
    (d.MatchResult, _obj(TOP["result"])),
    (d.Verification, _obj(TOP["verification"])),
    (d.Evidence, _at("properties", "verification", "properties", "evidence")),
    (d.MissingRange, _at("properties", "verification", "properties", "evidence", "properties", "missing")),
    (d.Signature, _obj(TOP["signature"])),
]


@pytest.mark.parametrize(("typed", "schema"), CASES, ids=[c[0].__name__ for c in CASES])
def test_typed_dict_mirrors_schema(typed: Any, schema: dict[str, Any]) -> None:
    keys = typed.__required_keys__ | typed.__optional_keys__
    assert keys == set(schema["properties"]), typed.__name__
    assert not typed.__optional_keys__ & set(schema.get("required", ())), typed.__name__


@pytest.mark.parametrize("db", ["match_db", "race_db"])
def test_a_built_document_has_the_typed_keys(db: str, request: pytest.FixtureRequest) -> None:
    """What `build` writes has the members its types name (the optional ones aside), in every part."""
    store = Store(request.getfixturevalue(db), readonly=True)
    try:
        docs = [build(load(store, m.id)) for m in store.matches()]
    finally:
        store.close()
    assert docs
    for doc in docs:
        assert set(doc) == d.ExportDoc.__required_keys__
        assert set(doc["match"]) - {"player_ids"} == d.MatchHeader.__required_keys__
        assert set(doc["race"]) == RaceSection.__required_keys__
        assert set(doc["result"]) == d.MatchResult.__required_keys__
        assert all(set(f) == d.FrameSection.__required_keys__ for f in doc["frames"])
        assert all(set(i) == d.InputEntry.__required_keys__ for i in doc["inputs"])
        assert all(set(a) == d.ActionEntry.__required_keys__ for a in doc["actions"])
        for shot in doc["shots"]:
            assert set(shot) == d.ShotEntry.__required_keys__
            for ball in shot["balls"]:
                assert set(ball) - {"single_beam"} == d.BallEntry.__required_keys__
