"""docs/table-view.schema.json is what hub.view.schema generates, and the view's version moves with its
schema: a changed view without a new version (and its recorded hash) fails here."""

from __future__ import annotations

import json
from typing import Any

import jsonschema

from hub.view import schema
from tests.dashboard.support import ROOT


def test_the_schema_in_docs_is_the_generated_one() -> None:
    assert schema.FILE == ROOT / "docs" / "table-view.schema.json"
    assert schema.FILE.read_text(encoding="utf-8") == schema.render(), (
        "docs/table-view.schema.json is out of date: run `python -m hub.view.schema --write`"
    )
    doc = json.loads(schema.FILE.read_text(encoding="utf-8"))
    assert doc["$id"].endswith(f"table-view-{schema.VERSION}.json") and str(schema.VERSION) in doc["title"]
    jsonschema.Draft202012Validator.check_schema(doc)


def test_the_version_carries_the_hash_of_its_schema() -> None:
    assert schema.problems() == []
    assert schema.HASHES[schema.VERSION] == schema.content_hash()


def test_a_changed_view_without_a_new_version_is_caught() -> None:
    changed: dict[str, Any] = json.loads(json.dumps(schema.content()))
    changed["$defs"]["MatchView"]["properties"]["frames"] = {"type": "integer"}  # a field added, VERSION kept
    found = schema.problems(schema=changed)
    assert len(found) == 1 and f"set VERSION = {schema.VERSION + 1}" in found[0]
    assert schema.content_hash(changed) in found[0]  # the line to add to HASHES
    bumped = schema.problems(schema.VERSION + 1, schema.HASHES, changed)  # bumped, its hash not recorded
    assert any("last version in HASHES" in p for p in bumped) and any(
        "not the one recorded" in p for p in bumped
    )
    recorded = {**schema.HASHES, schema.VERSION + 1: schema.content_hash(changed)}
    assert schema.problems(schema.VERSION + 1, recorded, changed) == []


def test_the_dashboards_sample_state_fits_the_schema() -> None:
    sample = json.loads((ROOT / "tests" / "dashboard" / "sample_state.json").read_text(encoding="utf-8"))
    jsonschema.validate(sample, json.loads(schema.FILE.read_text(encoding="utf-8")))
    assert sample["match"]["variant"] == "classic" and sample["pin_set"] is True
