"""A ball the pocket node counted on one beam alone (issue 19, item 2) is marked in the export's shot
evidence, and the mark fits docs/match-export.schema.json;
a ball both beams saw carries no mark (the golden files stand)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from hub.export.pieces import _balls
from hub.vocab.evidence import PocketEvidence, ShotEvidence
from shared_rules.model import Pocket

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "match-export.schema.json").read_text())


def test_a_single_beam_ball_is_marked_with_the_beam_that_saw_it() -> None:
    shot = ShotEvidence(1, 1000, "strike")
    # the lower beam dead: seen by the upper
    shot.pockets += [
        PocketEvidence("pk-3/1/7", Pocket(3), 2500, alone=1),
        PocketEvidence("pk-3/1/9", Pocket(3), 2900, alone=0),
        PocketEvidence("pk-4/1/2", Pocket(4), 3100),
    ]
    balls = _balls(shot, None)
    assert [b.get("single_beam") for b in balls] == ["upper", "lower", None]
    assert "single_beam" not in balls[2]
    ball_schema = {**SCHEMA["$defs"]["ball"], "$defs": SCHEMA["$defs"]}
    for b in balls:
        jsonschema.validate(b, ball_schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**balls[0], "single_beam": "both"}, ball_schema)  # no such beam
