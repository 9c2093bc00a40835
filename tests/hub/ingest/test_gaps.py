"""Holes in a node's seq (hub.store.gaps): seen at once on the table,
named in `luza replay`, gone when filled."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hub import config
from hub.service.hub import Hub
from hub.store.gaps import _ranges
from tests.hub.holes import hole_in_sequence
from tests.hub.service.test_service import wait_for
from tests.support.broker import Mosquitto


def test_ranges() -> None:
    assert _ranges([1, 2, 5, 9], 1, 9) == [(3, 4), (6, 8)]
    assert _ranges([3, 4], 1, 6) == [(1, 2), (5, 6)]
    assert _ranges([1, 2, 3], 1, 3) == []


def missing(hub: Hub) -> list[Any]:
    return [a["ranges"] for a in hub.state("t1")["alerts"] if a["kind"] == "missing_events"]


@pytest.mark.mosquitto
def test_a_hole_is_alerted_at_once_named_by_replay_and_cleared_when_filled(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub], capsys: pytest.CaptureFixture[str]
) -> None:
    with hole_in_sequence(cfg, mosquitto, hubs, sent=(0, 1, 4), pockets=(1, 2)) as hole:  # seq 3 and 4 lost
        hub, head, ev = hole.hub, hole.node, hole.events
        wait_for(lambda: hub.stats["accepted"] == 3)
        assert hub.wait_idle(5)
        assert missing(hub) == [[["p-head", 1, 3, 4]]]
        alert = next(a for a in hub.state("t1")["alerts"] if a["kind"] == "missing_events")
        assert alert["count"] == 2 and "p-head boot 1 seq 3-4" in alert["en"] and "неполные" in alert["ru"]
        code, out = hole.replay(capsys)
        assert code == 1
        assert "missing: p-head boot 1 seq 3-4 never reached the hub" in out and "INCOMPLETE" in out
        assert "verified:" not in out
        head.send(ev[2])  # seq 3 arrives late
        wait_for(lambda: hub.stats["accepted"] == 4)
        assert hub.wait_idle(5)
        assert missing(hub) == [[["p-head", 1, 4, 4]]]
        hub.stop()
        again = hubs(cfg, clock=hole.clock)  # rebuilt from the log, the hole is still shown
        assert missing(again) == [[["p-head", 1, 4, 4]]]
        head.send(ev[3])
        wait_for(lambda: again.stats["accepted"] == 1)
        assert again.wait_idle(5)
        assert missing(again) == []
        again.stop()
        code, out = hole.replay(capsys)
        assert code == 0 and "verified:" in out


@pytest.mark.parametrize("seed", range(8))
def test_the_live_holes_always_equal_the_stores(tmp_path: Any, seed: int) -> None:
    """Holes.update decides the usual case (a node's next seq, no holes) without the store: whatever order the
    events of two nodes arrive in (some never), after every one its holes are exactly what the store says."""
    import random

    from hub.store import gaps
    from hub.store.database import Store

    rnd = random.Random(seed)
    store = Store(tmp_path / "luza.db")
    with store.transaction():
        store.ensure_table("t1", "Table 1", 1)
        match_id = store.new_match("t1", "free", ["A", "B"], {}, 0)
    arrivals = [
        (dev, boot, seq)
        for dev in ("p-a", "p-b")
        for boot in (1, 2)
        for seq in range(1, 40)
        if rnd.random() > 0.1
    ]
    if seed % 2:  # half the runs in order (the usual case), half shuffled (an outbox after an outage)
        rnd.shuffle(arrivals)
    holes, changes = gaps.Holes(), 0
    holes.load(store, "t1", match_id)
    for i, (dev, boot, seq) in enumerate(arrivals):
        with store.transaction():
            store.append_sensor("t1", match_id, "mqtt", (dev, boot, seq), i, i, {"k": "pocket"})
        changes += holes.update(store, "t1", match_id, dev, boot, seq)
        assert holes.alert("t1", match_id) == gaps.alert(match_id, gaps.of_match(store, match_id)), (
            i,
            dev,
            seq,
        )
    assert changes > 0 and holes.alert("t1", match_id) is not None  # a tenth never came: holes were seen
