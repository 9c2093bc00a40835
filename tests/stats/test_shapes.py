"""The typed shapes of the statistics (hub/stats/shapes.py, evidence.py, facts.py): an export document not as
documented is left out as unreadable with a clear line, not a stack trace; a cached row that is not the facts'
shape is folded again; the JSON the pages read keeps its keys in the order it always had."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hub.export import build as real_build
from hub.export.model import ExportError
from hub.stats.compute import compute
from hub.stats.facts import VERSION, match_facts
from hub.store.players import Players
from hub.web import WebSettings, create_app
from tests.export.matchkit import Clock
from tests.stats.seeded import seed
from tests.support.hubs import hub_starter
from tests.web.conftest import web_config


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    db = tmp_path_factory.mktemp("seeded") / "luza.db"
    return db, seed(db)


@pytest.fixture
def db(seeded: tuple[Path, dict[str, int]], tmp_path: Path) -> Iterator[Path]:
    for f in seeded[0].parent.glob("luza.db*"):
        shutil.copy(f, tmp_path / f.name)
    yield tmp_path / "luza.db"


def _garbled(doc: dict[str, Any]) -> dict[str, Any]:
    """`doc` with its first shot's shooter as no export writes it (the schema: 0, 1 or null)."""
    shots = [dict(s) for s in doc["shots"]]
    shots[0]["shooter"] = "left"
    return {**doc, "shots": shots}


def test_a_document_not_as_documented_is_left_out_as_unreadable(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def build(src: Any) -> dict[str, Any]:
        doc = real_build(src)
        return _garbled(doc) if doc["match"]["id"] == 2 else doc

    monkeypatch.setattr("hub.stats.compute.build", build)
    fig, run = compute(db, use_cache=False)
    assert [(x["match"], x["reason"]) for x in fig.left_out] == [(2, "unreadable")]
    assert "shots.0.shooter" in fig.left_out[0]["en"] and fig.left_out[0]["ru"].startswith("экспорт партии")
    assert fig.counted == 3 and run.folded == 3
    assert all(r["match"] != 2 for p in fig.players.values() for r in p["recent"])


def test_match_facts_names_the_field_it_cannot_read(seeded: tuple[Path, dict[str, int]]) -> None:
    from hub.export import load
    from hub.store.database import Store

    s = Store(seeded[0], readonly=True)
    try:
        doc = real_build(load(s, 1))
    finally:
        s.close()
    assert match_facts(doc)["match"] == 1
    with pytest.raises(ExportError) as exc:
        match_facts(_garbled(doc))
    assert "shots.0.shooter" in exc.value.en
    with pytest.raises(ExportError):
        match_facts({k: v for k, v in doc.items() if k != "match"})  # no header: whose facts?


def test_a_cached_row_not_of_the_facts_shape_is_folded_again(db: Path) -> None:
    first, _ = compute(db)
    registry = Players(db)
    [m1] = [m for m in registry.matches("ended") if m.id == 1]
    assert registry.save_facts([(1, m1.cursor, VERSION, json.dumps({"version": VERSION, "match": 1}))])
    again, run = compute(db)
    assert (run.folded, run.cached) == (1, 3)
    assert json.dumps(again.players, sort_keys=True) == json.dumps(first.players, sort_keys=True)
    assert compute(db)[1].folded == 0  # the row folded again replaced the bad one


PLAYER = [
    "id",
    "name",
    "name_en",
    "nickname",
    "club",
    "photo",
    "rating",
    "rated",
    "matches",
    "frames",
    "points",
    "shots",
    "visits",
    "balls",
    "potting_shots",
    "balls_per_visit",
    "pot_rate",
    "best_run",
    "shot_time",
    "fouls",
    "breaks",
    "pockets",
    "last_ms",
    "recent",
]
PUBLIC = ["id", "name", "name_en", "nickname", "club", "photo", "created_ms", "merged_into"]


def test_the_json_keeps_its_keys_in_order(db: Path) -> None:
    """What dashboard/js/players.js and player.js read, key by key, in the order the hub always wrote it."""
    ids = {p.name: p.id for p in Players(db).all()}
    ivan = ids["Иван Петров"]
    with hub_starter(clock=Clock(), mqtt=False) as start:
        hub = start(web_config(db), connect_timeout=0)
        with TestClient(create_app(hub, WebSettings(heartbeat_s=0.2))) as c:
            board = c.get("/api/stats").json()
            page = c.get(f"/api/players/{ivan}").json()
            found = c.get("/api/players", params={"q": "ivan"}).json()
    assert list(board) == ["players", "counted", "left_out"]
    assert [list(p) for p in board["players"]] == [PLAYER] * 4
    me = board["players"][[p["id"] for p in board["players"]].index(ivan)]
    assert list(me["matches"]) == ["played", "won", "lost", "drawn", "unfinished"]
    assert list(me["points"]) == ["for", "against"] and list(me["frames"]) == ["played", "won", "lost"]
    assert list(me["best_run"]) == ["at_ms", "balls", "points", "match"]
    assert list(me["shot_time"]) == ["count", "average_ms", "longest_ms"]
    assert list(me["breaks"]) == ["count", "pot", "foul", "none", "balls"]
    assert list(me["pockets"]) == ["1", "2", "3", "4", "5", "6"]
    assert list(me["recent"][0]) == ["match", "started_ms", "variant", "seat", "opponent", "scores", "result"]
    assert list(me["recent"][0]["opponent"]) == ["id", "name"]
    assert list(page) == [*PUBLIC, "photo_url", "figures", "head_to_head"]
    assert page["figures"] == me
    h2h = page["head_to_head"][0]
    assert list(h2h) == [
        "opponent",
        "matches",
        "won",
        "lost",
        "drawn",
        "points_for",
        "points_against",
        "last_ms",
        "handicap",
    ]
    assert list(h2h["opponent"]) == ["id", "name", "name_en", "rating"]
    assert list(h2h["handicap"]) == ["to", "points", "frames", "expected", "target", "race"]
    assert [list(p) for p in found["players"]] == [PUBLIC] * len(found["players"]) and found["players"]
