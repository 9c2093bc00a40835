"""Fault: a node's clock steps 20 s back or ahead mid-match (a bad time exchange, a firmware bug), within one
boot, after it has reported for a while.

A pocket node and a cue node both step, right after a strike; neither reboots, the hub is not told. Their
events still carry their uptime (the node's monotonic clock, which no time exchange moves), so the hub places
them by that and its own measured offset for the boot (hub/ingest/clockmap.py), not by the stepped clock.
Promise: the final score equals the same match played without the fault; every event is stored once and
counted (none set aside as dated impossibly, no question); `luza replay` verifies the match.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from hub.cli import main
from hub.service.hub import Hub
from tests.faults.conftest import Baseline, wait_stored
from tests.faults.match import events_made, prepare, run_table, score, script
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
SEED = 17


@pytest.mark.parametrize("step_ms", [-20_000, 20_000], ids=["back-20s", "ahead-20s"])
def test_a_node_clock_step_mid_match_changes_nothing(
    mosquitto: Mosquitto,
    tmp_path: Path,
    baseline: Baseline,
    hubs: Callable[..., Hub],
    capsys: pytest.CaptureFixture[str],
    step_ms: int,
) -> None:
    steps = script(SEED)
    sc = prepare(mosquitto, tmp_path, SEED, hubs)
    table, hub = sc.table, sc.hub

    def node_of(p: int) -> int:
        return next(i for i, g in enumerate(table.groups) if p in g)

    # a shot with balls into a node that has reported balls before: that node steps after the strike
    k = next(
        i
        for i, st in enumerate(steps)
        if i >= 3
        and st.balls
        and any(node_of(p) == node_of(st.balls[0][0]) for s in steps[:i] for p, _ in s.balls)
    )
    pocket = table.pocket_nodes[node_of(steps[k].balls[0][0])]
    cue = table.cue_nodes[steps[k].player]  # the striker of that shot (it has just struck)
    stepped: list[int] = []

    async def step(i: int, phase: str) -> None:
        if (i, phase) != (k, "strike"):
            return
        for n in (pocket, cue):
            assert n.node is not None and n.node.clock.synced and n.node.seq > 0  # it has reported already
            n.node.clock.offset += step_ms  # its clock steps; the hub is not told
            stepped.append(n.node.seq)

    run_table(table, steps, step)
    wait_stored(hub, events_made(table))
    state = hub.state("t1")
    assert score(state["match"]) == baseline(SEED)
    assert hub.stats["suspect_time"] == 0 and hub.stats["rejected"] == 0
    assert [q["kind"] for q in state["match"]["questions"]] == []
    assert [a["kind"] for a in state["alerts"]] == []
    assert hub.store is not None
    off = [
        (d, abs(t - at))
        for d, t, at in hub.store.conn.execute(
            "SELECT device, json_extract(record, '$.t'), at_ms FROM inputs WHERE "
            "device IN (?, ?) AND seq > ? ",
            (pocket.device, cue.device, 0),
        )
        if abs(t - at) > abs(step_ms) // 2
    ]
    # their clocks said otherwise; their uptimes placed them
    assert {d for d, _ in off} == {pocket.device, cue.device}
    hub.stop()
    capsys.readouterr()
    assert main(["replay", str(sc.db), "--match", str(sc.match_id)]) == 0
    assert "verified" in capsys.readouterr().out
    export = tmp_path / "match.json"  # the log's new fields (`up`, `off`) export and verify
    assert (
        main(
            ["export", "--db", str(sc.db), "--match", str(sc.match_id), "--format", "json", "-o", str(export)]
        )
        == 0
    )
    assert main(["verify", str(export)]) == 0
    print(
        f"\nnode clocks {step_ms / 1000:+.0f} s mid-match ({pocket.device} after seq {stepped[0]}, "
        f"{cue.device} after seq {stepped[1]}): {len(off)} events whose clock was "
        f"{max(x for _, x in off) / 1000:.1f} s off placed by their uptime; faultless score, nothing "
        "flagged, replay and export verified"
    )
