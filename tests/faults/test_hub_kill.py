"""Fault: the hub is SIGKILLed four times during a match, twice while a shot is open, and restarted each time;
and once, mid-match, a second hub is started on the same database.

The hub runs in a child process (tests/faults/hubproc.py: the `Hub` of `luza serve`, on the virtual clock).
While it is down the nodes play on; the broker queues their events for the hub's persistent session. Each new
hub rebuilds the match from the log and takes the queued events. Promise: nothing lost, nothing counted twice,
the final score equals the same match played without the fault, and `luza replay` verifies the match; the
second hub is refused (exit 3, naming the running one's pid) and changes nothing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from hub.cli import main
from hub.service.hub import Hub
from tests.faults import match as m
from tests.faults.conftest import Baseline
from tests.faults.hubproc import HubProcess
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
SEED = 23
KILLS = ((2, "strike"), (4, "balls"), (6, "strike"), (8, "balls"))  # (shot, after which phase)
SECOND = 5  # after this shot's balls a second hub tries the same database


def test_the_hub_killed_four_times_mid_match_loses_nothing(
    mosquitto: Mosquitto,
    tmp_path: Path,
    baseline: Baseline,
    hubs: Callable[..., Hub],
    capsys: pytest.CaptureFixture[str],
) -> None:
    sc = m.prepare(mosquitto, tmp_path, SEED, hubs)  # the referee's part, then the hub process runs the match
    db, toml, table = sc.db, sc.toml, sc.table
    procs = [sc.hand_over()]
    restarts: list[asyncio.Task[HubProcess]] = []
    second: list[HubProcess] = []
    running: list[int] = []
    down_s: list[float] = []

    async def kill(k: int, phase: str) -> None:
        if restarts and phase == "balls":  # a restart may take a while: wait between shots, never mid-shot
            procs.append(await restarts.pop())
        if (k, phase) == (SECOND, "balls"):  # the running hub is procs[-1] (its restart awaited above)
            second.append(await asyncio.to_thread(HubProcess, toml, table.vt))
            running.append(procs[-1].pid)
        if (k, phase) not in KILLS:
            return
        if restarts:
            procs.append(await restarts.pop())
        procs[-1].kill()
        killed = time.monotonic()

        def again() -> HubProcess:
            p = HubProcess(toml, table.vt)
            down_s.append(time.monotonic() - killed)
            return p

        restarts.append(asyncio.ensure_future(asyncio.to_thread(again)))

    async def settle() -> None:
        if restarts:
            procs.append(await restarts.pop())
        deadline = asyncio.get_running_loop().time() + 20
        while m.stored_events(db) < m.events_made(table):
            assert asyncio.get_running_loop().time() < deadline, (
                f"{m.stored_events(db)} of {m.events_made(table)} stored"
            )
            await asyncio.sleep(0.05)

    steps = m.script(SEED)
    try:
        m.run_table(table, steps, kill, settle)
    finally:
        for p in procs:
            p.stop()
    assert len(procs) == 1 + len(KILLS)
    assert second[0].refused and second[0].proc.wait(10) == 3
    assert f"pid {running[0]} " in "".join(second[0].lines)  # names the hub that runs
    assert m.stored_events(db) == m.events_made(table)  # every event stored once (the log's key is unique)
    with sc.rebuilt() as after:
        state = after.state("t1")
        assert m.score(state["match"]) == baseline(SEED)
        assert [a["kind"] for a in state["alerts"] if a["kind"] != "node_offline"] == []
    capsys.readouterr()
    assert main(["replay", str(db), "--match", str(sc.match_id)]) == 0
    assert "verified" in capsys.readouterr().out
    print(
        f"\nhub SIGKILLed {len(KILLS)} times: down {min(down_s):.1f}-{max(down_s):.1f} s wall each "
        f"(x{m.SPEED:.0f} virtual), {m.events_made(table)} events, all stored once"
    )
