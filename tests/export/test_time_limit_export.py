"""Exports of a race with a match time limit (general A-G6): the stored `time_up` (sent by the hub itself) is
in the inputs, the race and the engine log keep it; `luza verify` passes, and fails when the time called is
tampered with or the time_up row is taken out; a file made before time limits still verifies."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from hub.export import html
from hub.export.verify import verify
from tests.export.matchkit import Clock, Table, open_hub
from tests.export.test_json import SCHEMA, export

PLAYERS = ("Иван Петров", "Сергей Кузнецов")


@pytest.fixture(scope="module")
def timed_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Match 1: Free, a race to 3 with a 1-minute limit: Иван wins frame 1, the time runs out in frame 2,
    which Иван also wins: he wins the match 2:0 on time."""
    path = tmp_path_factory.mktemp("timed") / "luza.db"
    clock = Clock()
    hub = open_hub(path, clock)
    try:
        t = Table(hub, clock)
        t.births()
        hub.new_match("t1", "free", PLAYERS, race={"race_to": 3, "time_limit_min": 1})
        t.ref("lag", winner=0)
        t.wait(5000)
        t.shot(0, [5])
        t.ref("concede", player=1)
        t.wait(5000)
        t.ref("next_frame")
        t.wait(5000)
        t.shot(1, [])
        t.wait(60_000)
        end = time.monotonic() + 30
        while not hub.state("t1")["match"]["race"]["time_called"]:  # the hub sends time_up by itself
            assert time.monotonic() < end, "the hub did not call the time"
            time.sleep(0.05)
        t.wait(5000)
        t.ref("concede", player=1)
        t.ref("end_match")
        hub.wait_idle()
    finally:
        hub.stop()
    return path


def test_general_a_g6_the_export_keeps_the_time_up_and_verifies(timed_db: Path) -> None:
    """general A-G6: the time_up input is in frame 2; the race says time called and the winner on time, cited;
    the engine log keeps the frame; the file is valid and verifies."""
    doc = export(timed_db, 1)
    jsonschema.validate(doc, SCHEMA)
    ups = [i for i in doc["inputs"] if i["record"].get("kind") == "time_up"]
    assert len(ups) == 1 and ups[0]["frame"] == 2 and ups[0]["record"].get("uid") == "time-up-1"
    race = doc["race"]
    assert (
        race["time_called"]
        and race["time_limit_min"] == 1
        and race["winner"] == 0
        and race["score"] == [2, 0]
    )
    assert "A-G6" in race["reason"]["en"] and race["deadline_ms"] == doc["match"]["started_ms"] + 60_000
    assert doc["engine_log"]["time_called"] == 2 and doc["engine_log"]["race"]["time_limit_min"] == 1
    assert doc["verification"]["matches_stored_state"] is True
    assert verify(doc).ok


def tampered(doc: dict[str, Any], how: str) -> dict[str, Any]:
    bad = json.loads(json.dumps(doc))
    if how == "race":
        bad["race"]["time_called"] = False
    elif how == "engine_log":
        bad["engine_log"]["time_called"] = None
    else:
        bad["inputs"] = [i for i in bad["inputs"] if i["record"].get("kind") != "time_up"]
    return bad


@pytest.mark.parametrize("how", ["race", "engine_log", "input"])
def test_general_a_g6_a_tampered_time_called_fails_verify(timed_db: Path, how: str) -> None:
    """general A-G6: without the time called nobody has won a race to 3 at 2:0: each tampering is found."""
    v = verify(tampered(export(timed_db, 1), how))
    assert not v.ok and v.problems
    if how == "engine_log":
        assert any("engine_log" in p for p in v.problems), v.problems


def test_a_file_made_before_time_limits_still_verifies(race_db: Path) -> None:
    """A race exported before time limits (no time fields in race or engine_log) verifies as it did."""
    doc = export(race_db, 1)
    keys = ("time_limit_min", "time_rule", "time_called", "deadline_ms")
    doc["race"] = {k: v for k, v in doc["race"].items() if k not in keys}
    doc["engine_log"]["race"] = {k: v for k, v in doc["engine_log"]["race"].items() if k not in keys}
    doc["engine_log"].pop("time_called")
    assert verify(doc).ok, verify(doc).problems


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "ru",
            "до 3 побед, разбивают по очереди, лимит времени 1 мин (доигрывается партия, побеждает ведущий), "
            "время встречи вышло",
        ),
        (
            "en",
            "race to 3 frames, the break alternates, time limit 1 min "
            "(the frame is finished, the leader wins), match time is up",
        ),
    ],
)
def test_general_a_g6_the_scoresheet_names_the_time_limit(timed_db: Path, lang: str, words: str) -> None:
    """general A-G6: the scoresheet's header gives the time limit, its rule and that the time ran out."""
    page = html.render(export(timed_db, 1), lang)
    assert words in page, page[:3000]
