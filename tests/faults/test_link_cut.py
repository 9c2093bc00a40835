"""Fault: the network between one pocket node and the broker is cut for a minute
(virtual time) while balls drop.

The node reaches the broker through a TCP proxy (tests/support/proxy.py); the cut drops its connection and
refuses new ones, so the broker sends the node's Last Will and the node buffers its events in its outbox and
backs off. The other nodes and the hub play on. When the link returns, the outbox drains and the late balls
land in the shots they belong to. Promise: the final score equals the same match played without the fault.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from hub.service.hub import Hub
from tests.faults.conftest import Baseline, wait_stored
from tests.faults.match import events_made, prepare, run_table, score, script, until
from tests.support.broker import Mosquitto
from tests.support.proxy import TcpProxy

pytestmark = pytest.mark.mosquitto
SEED = 11
SHOTS = 16
CUT_MS = 60_000.0


def test_a_node_cut_off_for_a_minute_while_balls_drop_changes_nothing(
    mosquitto: Mosquitto, tmp_path: Path, baseline: Baseline, hubs: Callable[..., Hub]
) -> None:
    steps = script(SEED, SHOTS)  # 64 s of play: the cut spans most of it
    sc = prepare(mosquitto, tmp_path, SEED, hubs)
    table, hub = sc.table, sc.hub
    first = next(i for i, st in enumerate(steps) if i >= 1 and st.balls)
    node, group = next(
        (n, g) for n, g in zip(table.pocket_nodes, table.groups, strict=True) if steps[first].balls[0][0] in g
    )
    proxy = TcpProxy(("127.0.0.1", mosquitto.port)).start()
    node.transport.port = proxy.port  # this node (only) reaches the broker through the proxy
    cut_at: list[float] = []
    seqs: list[int] = []  # the node's seq when the link was cut, and when it came back
    offline: list[str] = []
    dropped_during = [0]

    async def cut(k: int, phase: str) -> None:
        if (k, phase) == (first, "strike"):
            proxy.cut()
            cut_at.append(table.vt.ms())
            assert node.node is not None
            seqs.append(node.node.seq)
        elif cut_at and proxy.is_cut:
            if phase == "balls":
                dropped_during[0] += sum(1 for p, _ in steps[k].balls if p in group)
            if table.vt.ms() - cut_at[0] >= CUT_MS:
                await restore()

    async def restore() -> None:
        assert node.node is not None
        seqs.append(node.node.seq)
        board = hub.state("t1")["match"]  # meanwhile the referee saw the node go (its Last Will)
        offline.extend(a["item"] for a in board["alerts"] if a["kind"] == "node_offline")
        proxy.restore()

    async def drained() -> None:
        if proxy.is_cut:  # the script was shorter than the cut: wait out the minute, then restore
            await table.vt.until(cut_at[0] + CUT_MS)
            await restore()
        await until(
            lambda: hub.stats["accepted"] >= events_made(table), 20, "the outbox to drain into the hub"
        )

    try:
        run_table(table, steps, cut, drained)
    finally:
        proxy.stop()
    wait_stored(hub, events_made(table))
    buffered = seqs[1] - seqs[0]  # numbered while cut off: they waited in the node's outbox
    assert dropped_during[0] >= 1 and buffered >= dropped_during[0]
    assert proxy.refused >= 1  # the node tried to come back while cut
    assert offline == [node.device]
    state = hub.state("t1")
    session = hub.session("t1")
    assert session is not None
    shots = {s.number: s for s in (*session.shots, session.assembler.open) if s is not None}
    # late balls in place
    assert [len(shots[n].pockets) for n in sorted(shots)] == [len(st.balls) for st in steps]
    print(
        f"\nlink cut {CUT_MS / 1000:.0f} s (virtual): {buffered} events waited in the outbox, "
        f"{proxy.refused} reconnects refused, each late ball placed in its own shot"
    )
    assert score(state["match"]) == baseline(SEED, SHOTS)
    assert [a["kind"] for a in state["alerts"]] == []
