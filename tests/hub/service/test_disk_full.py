"""A full disk (issue 12, item 5): SQLite's max_page_count stands in for it. The hub raises a `disk_full` hub
alert on every table's state and in /healthz, acknowledges nothing, and when space returns scoring resumes by
itself with nothing lost (the final board equals the same match played without the fault)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from hub import config
from hub.service.hub import Hub
from hub.web import WebSettings, create_app
from tests.hub.nodes import Clock, expected_board
from tests.hub.service.test_service import (
    PLAYERS,
    T0,
    board,
    facts,
    nodes_for_t1,
    shots,
    start_free_match,
    wait_for,
)
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto


def kinds(state: dict[str, object]) -> list[object]:
    return [a["kind"] for a in state["alerts"]]  # type: ignore[attr-defined]


def test_a_full_disk_is_shown_and_scoring_resumes_with_nothing_lost(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    match_id, referee = start_free_match(hub, clock)
    assert hub.wait_idle(5) and hub.store is not None
    pages = hub.store.conn.execute("PRAGMA page_count").fetchone()[0]
    hub.store.conn.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full from now on
    cue, pockets, all_nodes = nodes_for_t1(mosquitto.port)
    sent = shots(cue, pockets, 30, seed=3)
    for node, payload in sent:
        node.send(payload)
    wait_for(lambda: kinds(hub.state("t1")) == ["disk_full"] and kinds(hub.state("t2")) == ["disk_full"], 15)
    alert = hub.state("t1")["alerts"][0]
    assert "disk" in alert["en"] and "диск" in alert["ru"]
    with TestClient(create_app(hub, WebSettings())) as web:
        health = web.get("/healthz")
        assert health.status_code == 503 and [a["kind"] for a in health.json()["alerts"]] == ["disk_full"]
        accepted = hub.stats["accepted"]
        assert accepted < len(sent)
        hub.store.conn.execute("PRAGMA max_page_count = 1000000")  # space returns
        wait_for(lambda: hub.stats["accepted"] == len(sent), 20)
        assert hub.wait_idle(10)
        assert web.get("/healthz").json()["alerts"] == []
    assert kinds(hub.state("t1")) == [] and kinds(hub.state("t2")) == []
    assert board(hub) == expected_board("free", PLAYERS, {}, match_id, "t1", referee + facts(sent))
    for n in all_nodes:
        n.close()
