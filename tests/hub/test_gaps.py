"""Holes in a node's seq (hub.store.gaps): seen at once on the table, named in `luza replay`, gone when filled."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hub import config
from hub.cli import main
from hub.service.hub import Hub
from hub.store.gaps import _ranges
from tests.hub.nodes import Clock, Node
from tests.hub.test_service import T0, start_free_match, wait_for
from tests.support.broker import Mosquitto


def test_ranges() -> None:
    assert _ranges([1, 2, 5, 9], 1, 9) == [(3, 4), (6, 8)]
    assert _ranges([3, 4], 1, 6) == [(1, 2), (5, 6)]
    assert _ranges([1, 2, 3], 1, 3) == []


def missing(hub: Hub) -> list[Any]:
    return [a["ranges"] for a in hub.state("t1")["alerts"] if a["kind"] == "missing_events"]


@pytest.mark.mosquitto
def test_a_hole_is_alerted_at_once_named_by_replay_and_cleared_when_filled(
        cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub], capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    match_id, _ = start_free_match(hub, clock)
    head = Node(mosquitto.port, "t1", "p-head", "pocket")
    ev = [head.event("pocket", T0 + 1000 + 1000 * i, p=1 + i % 2, c="ivory") for i in range(5)]
    for i in (0, 1, 4):  # seq 3 and 4 lost on the way
        head.send(ev[i])
    wait_for(lambda: hub.stats["accepted"] == 3)
    assert hub.wait_idle(5)
    assert missing(hub) == [[["p-head", 1, 3, 4]]]
    alert = next(a for a in hub.state("t1")["alerts"] if a["kind"] == "missing_events")
    assert alert["count"] == 2 and "p-head boot 1 seq 3-4" in alert["en"] and "неполные" in alert["ru"]
    capsys.readouterr()
    assert main(["replay", cfg.store.path, "--match", str(match_id)]) == 1
    out = capsys.readouterr().out
    assert "missing: p-head boot 1 seq 3-4 never reached the hub" in out and "INCOMPLETE" in out
    assert "verified:" not in out
    head.send(ev[2])  # seq 3 arrives late
    wait_for(lambda: hub.stats["accepted"] == 4)
    assert hub.wait_idle(5)
    assert missing(hub) == [[["p-head", 1, 4, 4]]]
    hub.stop()
    again = hubs(cfg, clock=clock)  # rebuilt from the log, the hole is still shown
    assert missing(again) == [[["p-head", 1, 4, 4]]]
    head.send(ev[3])
    wait_for(lambda: again.stats["accepted"] == 1)
    assert again.wait_idle(5)
    assert missing(again) == []
    again.stop()
    capsys.readouterr()
    assert main(["replay", cfg.store.path, "--match", str(match_id)]) == 0
    assert "verified:" in capsys.readouterr().out
    head.close()
