"""Exports of a race (general 11, A-G4, A-G5): one scoresheet for the match with a section per frame; the JSON
(format 2) valid under the schema, and `luza verify` passes on it and fails on a tampered frame score."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from hub.cli import main
from hub.export import csvfile, html
from hub.export.verify import verify
from tests.export.test_json import SCHEMA, export


def write(tmp: Path, doc: dict[str, Any], name: str = "race.json") -> Path:
    p = tmp / name
    p.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return p


def test_race_export_has_every_frame_and_the_frame_score(race_db: Path) -> None:
    """general 11, A-G5: frame 2 broken by the lag loser, every frame opens with the handicap balls, cited."""
    doc = export(race_db, 1)
    jsonschema.validate(doc, SCHEMA)
    assert doc["version"] == 2 and doc["verification"]["matches_stored_state"] is True
    race = doc["race"]
    assert race["race_to"] == 2 and race["score"] == [1, 2] and race["winner"] == 1
    assert [f["result"]["winner"] for f in doc["frames"]] == [0, 1, 1]
    assert [f["result"]["breaker"] for f in doc["frames"]] == [0, 1, 0]
    assert doc["frames"][1]["result"]["scores"] == [1, 8] and doc["frames"][0]["result"]["conceded"]
    assert all(f["opening"]["balls"] == [0, 2] for f in doc["frames"])
    assert all(f["engine_log"]["opening"]["balls"] == [0, 2] for f in doc["frames"])
    assert doc["result"]["frames"] == [1, 2] and doc["result"]["winner_name"] == "Сергей Кузнецов"
    assert {s["frame"] for s in doc["shots"]} == {1, 2, 3}
    assert [i["frame"] for i in doc["inputs"] if i["record"].get("kind") == "next_frame"] == [1, 2]
    assert doc["engine_log"]["format"] == "luza-race" and len(doc["engine_log"]["frames"]) == 3
    assert verify(doc).ok


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_race_scoresheet_has_a_section_per_frame(race_db: Path, lang: str) -> None:
    doc = export(race_db, 1)
    page = html.render(doc, lang)
    if lang == "ru":
        assert (
            "Протокол встречи" in page
            and "до 2 побед" in page
            and "Сергей Кузнецов: 2 шар(а) на полке" in page
        )
        assert page.count('<h2 class="frame">') == 3 and "Партия 2 — разбивает Сергей Кузнецов — 1:8" in page
        # a row per frame
        assert page.count("Фора: Сергей Кузнецов: 2 шар(а) на полке в каждой партии</td>") == 3
        assert "general A-G5: фора: шар с начала партии на полке игрока" in page
    else:
        assert "race to 2 frames, the break alternates" in page and "Frame 3 — Иван Петров breaks" in page
        assert "Winner: Сергей Кузнецов (Frames 1:2)" in page
    rows = csvfile.rows(doc)
    assert [r["frame"] for r in rows][:1] == [1] and {r["frame"] for r in rows} == {1, 2, 3}


def test_verify_passes_on_a_race_and_fails_on_a_tampered_frame_score(
    race_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A changed frame score or frame winner is found by the replay and by the engine log alone."""
    doc = export(race_db, 1)
    assert main(["verify", str(write(tmp_path, doc))]) == 3  # replays; 3: nobody signed this test's file
    assert (
        "replays to the same result (13 shots, race to 2, frames 1:2, last frame 0:2)"
        in capsys.readouterr().out
    )
    for tamper in (
        lambda d: d["race"].__setitem__("score", [2, 1]),
        lambda d: d["result"].__setitem__("frames", [2, 1]),
        lambda d: d["frames"][0]["result"].__setitem__("winner", 1),
    ):
        bad = json.loads(json.dumps(doc))
        tamper(bad)
        assert main(["verify", str(write(tmp_path, bad, "bad.json"))]) == 1
        out = capsys.readouterr().out
        assert out.startswith("FAILED:"), out
    bad = json.loads(json.dumps(doc))
    bad["engine_log"]["frames"][1] = bad["engine_log"]["frames"][1][:-1]  # frame 2's last pot gone: not won
    v = verify(bad)
    assert not v.ok and any("engine_log" in p for p in v.problems), v.problems
