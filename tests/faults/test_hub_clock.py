"""Fault: the hub's own clock is wrong after a restart — a Raspberry Pi has no real-time clock, so after a
power cut it boots at its last saved time until NTP answers (behind by seconds to an hour), and a bad NTP
answer can put it ahead.

The hub runs in a child process (tests/faults/hubproc.py). It is SIGKILLed right after a strike, while the
nodes play on, and started again with its clock −15 s, −1 h or +1 h off the nodes' (the virtual table's) time;
it plays the rest of the match so. Promise: no step of the hub's clock changes a score — the final score
equals the same match played without the fault, every event is stored once and counted, `luza replay` verifies
the match; a clock found behind what the store already holds raises the `clock_behind` hub alert (logged) and
the hub keeps the store's timeline (hub/hubclock.py).
"""

from __future__ import annotations

import asyncio
import re
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
HOUR = 3_600_000


@pytest.mark.parametrize("skew_ms", [-15_000, -HOUR, HOUR], ids=["minus-15s", "minus-1h", "plus-1h"])
def test_the_hub_restarted_with_its_clock_off_scores_as_without_the_fault(
    mosquitto: Mosquitto,
    tmp_path: Path,
    baseline: Baseline,
    hubs: Callable[..., Hub],
    capsys: pytest.CaptureFixture[str],
    skew_ms: int,
) -> None:
    steps = m.script(SEED)
    k = next(i for i, st in enumerate(steps) if i >= 3 and st.balls)  # its balls drop while the hub is down
    sc = m.prepare(mosquitto, tmp_path, SEED, hubs)
    db, table = sc.db, sc.table
    procs = [sc.hand_over()]
    restarted: list[asyncio.Task[HubProcess]] = []

    async def power_cut(i: int, phase: str) -> None:
        if restarted and phase == "balls":
            procs.append(await restarted.pop())
        if (i, phase) != (k, "strike"):
            return
        procs[-1].kill()
        restarted.append(
            asyncio.ensure_future(asyncio.to_thread(HubProcess, sc.toml, table.vt, clock_ms=skew_ms))
        )

    async def settle() -> None:
        if restarted:
            procs.append(await restarted.pop())
        deadline = asyncio.get_running_loop().time() + 20
        while m.stored_events(db) < m.events_made(table):
            assert asyncio.get_running_loop().time() < deadline, (
                f"{m.stored_events(db)} of {m.events_made(table)} stored"
            )
            await asyncio.sleep(0.05)

    try:
        m.run_table(table, steps, power_cut, settle)
    finally:
        for p in procs:
            p.stop()
    log = "".join(procs[-1].lines)
    assert len(procs) == 2 and m.stored_events(db) == m.events_made(table)
    with sc.rebuilt() as after:  # the log rebuilt by a hub whose clock is right again
        state = after.state("t1")
        assert m.score(state["match"]) == baseline(SEED), f"the restarted hub's log:\n{log[-3000:]}"
        assert [a["kind"] for a in state["alerts"] if a["kind"] != "node_offline"] == []
        assert after.store is not None
        flagged = after.store.conn.execute(
            "SELECT count(*) FROM inputs WHERE json_extract(record, '$.suspect') IS NOT NULL"
        ).fetchone()[0]
        assert flagged == 0  # every event counted, none set aside as dated impossibly
    # behind the store's timeline: the alert, for as long as the wall clock stays behind
    # (in this test: to the end)
    assert ("clock_behind" in log and "waiting for time sync" in log) == (skew_ms < 0)
    capsys.readouterr()
    assert main(["replay", str(db), "--match", str(sc.match_id)]) == 0
    assert "verified" in capsys.readouterr().out
    joined = re.findall(r"timeline moved ([+-][0-9.]+) s to join", log)
    floor = re.findall(r"clock is ([0-9.]+) s behind what the store holds", log)
    print(
        f"\nhub clock {skew_ms / 1000:+.0f} s after a restart: started {floor[0] if floor else 0} s up to "
        f"the store's mark, timeline joined by {joined[0] if joined else 'nothing'} s; "
        f"{m.events_made(table)} events, all counted; faultless score"
    )
