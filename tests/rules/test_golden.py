"""Recorded matches replay to exactly the recorded scoreboard (tests/rules/golden/*.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hub.view.engine import engine_summary
from shared_rules import Match
from tests.rules.golden import FOLDER

FILES = sorted(FOLDER.glob("*.json"))


def test_there_are_golden_matches() -> None:
    assert len(FILES) >= 6


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_match_replays_to_its_recorded_summary(path: Path) -> None:
    body = json.loads(path.read_text(encoding="utf-8"))
    m = Match.from_log(body["log"])
    assert json.loads(json.dumps(engine_summary(m))) == body["summary"]
    assert m.to_log() == body["log"]


def test_every_registered_variant_has_a_golden_match() -> None:
    """Each of the six variants is replayed from a recorded match (issue 13: Classic and 100 points too)."""
    from shared_rules import VARIANTS

    recorded = {p.stem.rsplit("-", 1)[0] for p in FILES}
    assert set(VARIANTS) <= recorded
