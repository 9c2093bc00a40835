"""Events dated impossibly (hub.ingest.timecheck): stored and flagged,
never folded into play, shown to the referee."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hub import config
from hub.cli import main
from hub.service.hub import Hub
from tests.hub.nodes import Clock, Node, expected_board
from tests.hub.service.test_service import PLAYERS, T0, board, facts, start_free_match, wait_for
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto

YEAR_2255 = 8_999_999_999_000


def suspect_questions(hub: Hub) -> list[dict[str, Any]]:
    return [q for q in hub.state("t1")["match"]["questions"] if q["kind"] == "impossible_time"]


def unasked(board: dict[str, Any]) -> dict[str, Any]:
    """The board without the questions about flagged balls (the session fed the good events has none)."""
    return {**board, "questions": [q for q in board["questions"] if q["kind"] != "impossible_time"]}


def test_events_from_1970_and_2255_are_stored_flagged_and_not_scored(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub], capsys: pytest.CaptureFixture[str]
) -> None:
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    match_id, referee = start_free_match(hub, clock)
    cue, head = Node(mosquitto.port, "t1", "cue-a", "cue"), Node(mosquitto.port, "t1", "p-head", "pocket")
    good = [
        (cue, cue.event("strike", T0 + 1000, pk=3.0)),
        (head, head.event("pocket", T0 + 1700, p=1, c="ivory")),
        (cue, cue.event("strike", T0 + 20_000, pk=3.0)),
    ]
    bad = [
        (head, head.event("pocket", YEAR_2255, p=2, c="ivory")),
        (head, head.event("pocket", 0, p=1, c="ivory")),
        (cue, cue.event("strike", T0 - 3_600_000, pk=2.0)),
        (cue, cue.event("strike", T0 + 20_000 + 3_600_000, pk=2.0)),
    ]  # the cue node's clock steps +1 h
    for node, payload in [good[0], good[1], bad[0], bad[1], good[2], bad[2], bad[3]]:
        node.send(payload)
    wait_for(lambda: hub.stats["accepted"] == 7)
    assert hub.wait_idle(5)
    assert hub.stats["suspect_time"] == 4
    expected = expected_board("free", PLAYERS, {}, match_id, "t1", referee + facts(good))
    # neither the 2255 ball, nor the 1970 one, nor the early strike count
    assert unasked(board(hub)) == expected
    asked = suspect_questions(hub)  # the two balls are asked about (hub.ingest.suspects); the strikes are not
    assert [(q["id"], q["shot"], q["pocket"], q["reason"]) for q in asked] == [
        ("suspect:p-head/1/2", 1, 2, "future"),
        ("suspect:p-head/1/3", 1, 1, "before_match"),
    ]
    assert asked[0]["action"] == "add_ball" and [c["value"] for c in asked[0]["choices"]] == ["add", "ignore"]
    alerts = [a for a in hub.state("t1")["alerts"] if a["kind"] == "impossible_time"]
    assert len(alerts) == 1 and alerts[0]["count"] == 4
    assert alerts[0]["keys"] == [
        ["p-head", 1, 2, "future"],
        ["p-head", 1, 3, "before_match"],
        ["cue-a", 1, 3, "before_match"],
        ["cue-a", 1, 4, "future"],
    ]
    assert "p-head boot 1 seq 2" in alerts[0]["en"] and "невозможным" in alerts[0]["ru"]
    assert hub.store is not None
    stored = hub.store.conn.execute("SELECT count(*) FROM inputs WHERE source = 'mqtt'").fetchone()[0]
    assert stored == 7  # nothing dropped: the log keeps the evidence
    hub.stop()
    again = hubs(cfg, clock=clock)  # a rebuild from the log skips them too, and asks again
    assert unasked(board(again)) == expected
    assert [q["id"] for q in suspect_questions(again)] == ["suspect:p-head/1/2", "suspect:p-head/1/3"]
    again.submit("t1", {"kind": "dismiss_alert", "alert": "suspect:p-head/1/2"})  # "no ball fell"
    assert [q["id"] for q in suspect_questions(again)] == ["suspect:p-head/1/3"]
    assert [a["count"] for a in again.state("t1")["alerts"] if a["kind"] == "impossible_time"] == [4]
    again.stop()
    capsys.readouterr()
    assert main(["replay", cfg.store.path, "--match", str(match_id)]) == 0
    out = capsys.readouterr().out
    assert out.count("stored but not folded into play: impossible time") == 4 and "future" in out
    assert "verified" in out
    for n in (cue, head):
        n.close()


def test_a_suspect_ball_is_asked_about_on_the_shot_its_node_order_puts_it_in(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    """A ball whose time cannot be trusted (its node's clock stepped back an hour: firmware that sends no
    uptime) arrives late, during shot 3; its node's events just before and after it (by seq) are in shots 1
    and 2. Its time cannot place it among the other nodes' events, its node's order can: the referee is asked
    about shot 2, not about the shot being played when it arrived (nor,
    as with the hub's clock an hour off, shot 1)."""
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    start_free_match(hub, clock)
    cue, head = Node(mosquitto.port, "t1", "cue-a", "cue"), Node(mosquitto.port, "t1", "p-head", "pocket")
    b1 = head.event("pocket", T0 + 1700, p=1, c="ivory")
    # dated before the match: flagged, never counted
    b2 = head.event("pocket", T0 - 3_600_000, p=2, c="ivory")
    b3 = head.event("pocket", T0 + 20_700, p=1, c="ivory")
    for node, payload in [
        (cue, cue.event("strike", T0 + 1000, pk=3.0)),
        (head, b1),
        (cue, cue.event("strike", T0 + 20_000, pk=3.0)),
        (head, b3),
        (cue, cue.event("strike", T0 + 40_000, pk=3.0)),
    ]:
        node.send(payload)
    wait_for(lambda: hub.stats["accepted"] == 5)
    clock.now = T0 + 45_000  # shot 3 is being played when the flagged ball arrives
    head.send(b2)
    wait_for(lambda: hub.stats["accepted"] == 6)
    assert hub.wait_idle(5)
    asked = suspect_questions(hub)
    assert [(q["id"], q["shot"], q["reason"]) for q in asked] == [("suspect:p-head/1/2", 2, "before_match")]
    assert asked[0]["en"].startswith("Shot 2:") and asked[0]["ru"].startswith("Удар 2:")
    for n in (cue, head):
        n.close()
