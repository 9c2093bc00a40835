"""Fault: a pocket node loses power mid-shot (after the strike, before its balls drop) and boots again.

The node's RAM is lost, its outbox on flash stays; the new boot numbers its events from 1 under a new boot id,
takes the hub's time on its birth, and the shot's balls drop through it. Promise: the final score equals the
same match played without the fault; nothing is missing (no `missing_events`), nothing is counted twice.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from hub.service.hub import Hub
from tests.faults.conftest import Baseline, wait_stored
from tests.faults.match import events_made, prepare, run_table, score, script, until
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
SEED = 7


def test_a_node_rebooted_mid_shot_changes_nothing(
    mosquitto: Mosquitto, tmp_path: Path, baseline: Baseline, hubs: Callable[..., Hub]
) -> None:
    steps = script(SEED)
    k = next(i for i, st in enumerate(steps) if i >= 2 and st.balls)  # a shot with balls, past the break
    sc = prepare(mosquitto, tmp_path, SEED, hubs)
    table, hub = sc.table, sc.hub
    pocket = steps[k].balls[0][0]
    node = next(n for n, g in zip(table.pocket_nodes, table.groups, strict=True) if pocket in g)
    old: list[int] = []

    async def reboot(i: int, phase: str) -> None:
        if (i, phase) != (k, "strike"):
            return
        assert node.node is not None
        old.append(node.node.boot)
        await node.power_cut()
        old.append(node.node.seq)  # what the lost boot numbered (its unacknowledged ones stay on flash)
        node.boot_again()
        await until(
            lambda: node.node is not None and node.node.link.up and node.node.clock.synced,
            15,
            "the rebooted node's link and time",
        )

    run_table(table, steps, reboot)
    assert node.node is not None and node.node.boot == old[0] + 1
    wait_stored(hub, events_made(table, earlier_boots=old[1]))
    state = hub.state("t1")
    assert score(state["match"]) == baseline(SEED)
    assert [a["kind"] for a in state["alerts"]] == []
    assert hub.stats["rejected"] == 0
    assert hub.store is not None
    boots = hub.store.conn.execute(
        "SELECT DISTINCT boot FROM inputs WHERE device = ?", (node.device,)
    ).fetchall()
    assert sorted(b for (b,) in boots) == [old[0], old[0] + 1]  # the shot's balls came from the new boot
