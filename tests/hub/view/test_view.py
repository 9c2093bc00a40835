"""hub.view: one typed view of a table is what leaves the hub. Checked on every variant's busiest scenes
(tests/dashboard/scenes.py: a real Hub on a script clock) and over REST on the same hub."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from hub.service.hub import Hub
from hub.view import schema
from hub.view.build import scoreboard, stored
from hub.view.engine import engine_summary, engine_view
from hub.view.match import MatchView
from hub.view.table import TableView
from hub.vocab.alerts import HUB_ALERTS
from hub.web.app import create_app
from hub.web.auth import PinStore
from shared_rules import Match
from tests.dashboard.scenes import ENDED, IDLE, Clock, Scenes, scene_config, table_ids


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    db: Path = tmp_path_factory.mktemp("view") / "luza.db"
    clock = Clock()
    cfg = scene_config(db)
    PinStore(cfg.store.path).set("free-play", "2468")
    h = Hub(cfg, clock=clock, mqtt=False).start()
    try:
        Scenes(h, clock).play_all()
        assert h.wait_idle(10)
        yield h
    finally:
        h.stop()


def validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(schema.FILE.read_text(encoding="utf-8")))


def test_every_tables_state_is_the_views_json_and_fits_the_schema(hub: Hub) -> None:
    check = validator()
    for t in table_ids():
        state, view = hub.state(t), hub.view(t)
        assert state == view.model_dump(mode="json")  # the JSON the hub publishes is the view's, made once
        assert TableView.model_validate(state) == view  # ... and reads back as the same view
        assert not list(check.iter_errors(state)), t
        assert "pin_set" not in state  # the retained MQTT state has no PIN flag; the web adds it
    assert hub.view(IDLE).match is None and hub.view(ENDED).last_match is not None
    assert {hub.view(t).match.variant for t in table_ids() if hub.view(t).match}  # every variant in play
    held = [hub.view(t).match for t in table_ids() if hub.view(t).match and hub.view(t).match.questions]
    assert held and all(q.choices is not None for m in held for q in m.questions)


def test_the_view_is_frozen(hub: Hub) -> None:
    view = hub.view("free-play")
    with pytest.raises(ValidationError):
        view.rev = 99  # type: ignore[misc]
    assert view.match is not None
    with pytest.raises(ValidationError):
        view.match.scores = [9, 9]  # type: ignore[misc]


def test_what_the_store_keeps_is_a_refold_of_the_session(hub: Hub) -> None:
    for t in table_ids():
        view, session = hub.view(t), hub.session(t)
        if session is None or view.match is None:
            continue
        kept = stored(view.match)
        assert kept == scoreboard(session)
        assert (
            "balls" not in kept
            and "history" not in kept
            and all("choices" not in q for q in kept["questions"])
        )
        assert kept["players"] == view.match.players and kept["scores"] == view.match.scores


def test_rest_answers_the_same_view_with_the_pin_flag(hub: Hub) -> None:
    with TestClient(create_app(hub)) as client:
        got = client.get("/api/tables/free-play/state").json()
        assert got == {**hub.state("free-play"), "pin_set": True}
        assert client.get("/api/tables/idle/state").json()["pin_set"] is False
        listed = client.get("/api/tables").json()
        assert [t["state"]["table"] for t in listed] == table_ids()
        devices = client.get("/api/devices").json()
        assert devices and all(set(d) == set(hub.state(d["table"])["devices"][0]) for d in devices)
    assert not list(validator().iter_errors(got))


def test_the_engine_returns_only_its_state_the_view_writes_it() -> None:
    assert not hasattr(Match, "summary")  # the scoreboard's JSON left the rules engine (hub.view.engine)
    m = Match.new("free", ("Ivan", "Petr"))
    view = engine_view(m)
    assert view.scores == [0, 0] and view.needs[0].kind == "lag" and view.in_hand == "house"
    assert engine_summary(m) == view.model_dump(mode="json")


def test_hub_alerts_are_typed_by_kind() -> None:
    ok: list[dict[str, Any]] = [
        {
            "kind": "clock_behind",
            "scope": "hub",
            "severity": "warning",
            "behind_ms": 4000,
            "en": "behind",
            "ru": "отстают",
        }
    ]
    assert HUB_ALERTS.validate_python(ok)[0].kind == "clock_behind"
    with pytest.raises(ValidationError):
        HUB_ALERTS.validate_python([{**ok[0], "kind": "made_up"}])
    with pytest.raises(ValidationError):
        HUB_ALERTS.validate_python([{**ok[0], "behind_ms": None}])  # a clock alert says by how much


def test_a_match_view_refuses_a_field_it_does_not_declare(hub: Hub) -> None:
    match = hub.state("classic-play")["match"]
    MatchView.model_validate(match)
    with pytest.raises(ValidationError):
        MatchView.model_validate({**match, "shot": {**match["shot"], "guess": 1}})
