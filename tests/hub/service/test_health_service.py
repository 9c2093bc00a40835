"""Sensor health end to end: a pocket node's telemetry through a real Mosquitto into the hub's live match."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from hub import config
from hub.service.hub import Hub
from tests.hub.nodes import Clock, Node
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto

T0 = 1_800_000_000_000


def wait_for(pred: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.01)


def alert_kinds(hub: Hub) -> set[str]:
    """The alerts of the live match in the table's published state."""
    match: dict[str, Any] = hub.state("t1").get("match") or {}
    return {a["kind"] for a in match.get("alerts") or []}


def test_a_dead_beam_and_flicker_reported_in_telemetry_reach_the_match(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    hub.new_match("t1", "free", ("Ivan", "Petr"))
    node = Node(mosquitto.port, "t1", "p-mid", "pocket", boot=2)
    try:
        node.tele(up=1000, glitch=0, bu3=6, bl3=0, bu4=2, bl4=2, edrop=0)
        wait_for(lambda: "beam_dead" in alert_kinds(hub))
        session = hub.session("t1")
        assert session is not None
        (dead,) = [a for a in session.alerts if a.kind == "beam_dead"]
        assert "lower beam of pocket 3" in dead.en and dead.item == "p-mid"
        node.tele(up=31000, glitch=120, bu3=6, bl3=1, bu4=2, bl4=2, edrop=4)
        wait_for(lambda: {"beam_noisy", "edges_dropped"} <= alert_kinds(hub))
        assert "beam_dead" not in alert_kinds(hub)  # the lower beam blocked at last
        d = {x["id"]: x for x in hub.devices()}["p-mid"]
        assert d["counters"]["glitch"] == 120 and d["counters_before"]["glitch"] == 0
    finally:
        node.close()
