"""Fault: a stored row of another table's live match is damaged (a failing disk, a stray editor) while the
hub is down mid-match, and the hub starts again.

Table t1 is played by the virtual table; table t2 has a match of its own. Between two shots of t1 the hub
process is stopped, one input row of t2's match is overwritten with broken JSON, and the hub restarts.
Promise: damage stays local — t2's match is set aside (`match_quarantined`, listed in `quarantine`), t1 plays
on, and t1's final score equals the same match played without the fault.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from hub.service.hub import Hub
from tests.faults import match as m
from tests.faults.conftest import Baseline
from tests.faults.hubproc import HubProcess
from tests.hub.store.test_damage import damage
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
SEED = 71
AT = 4  # the hub goes down after this shot's balls


def test_a_corrupt_row_of_one_table_leaves_the_other_tables_match_whole(
    mosquitto: Mosquitto, tmp_path: Path, baseline: Baseline, hubs: Callable[..., Hub]
) -> None:
    sc = m.prepare(mosquitto, tmp_path, SEED, hubs, t2=True)
    db, table = sc.db, sc.table
    other = int(sc.hub.new_match("t2", "free", m.PLAYERS)["match_id"])
    sc.hub.submit("t2", {"kind": "lag", "winner": 1})
    procs = [sc.hand_over()]

    async def corrupt(k: int, phase: str) -> None:
        if (k, phase) != (AT, "balls"):
            return
        await m.until(lambda: m.stored_events(db) >= m.events_made(table), 10, "the hub to catch up")
        assert await asyncio.to_thread(procs[-1].stop) == 0
        damage(
            db,
            'UPDATE inputs SET record = \'{"type": "referee", "ki\' WHERE id = '
            "(SELECT max(id) FROM inputs WHERE match_id = ?)",
            other,
        )
        procs.append(await asyncio.to_thread(HubProcess, sc.toml, table.vt))

    async def settle() -> None:
        await m.until(lambda: m.stored_events(db) >= m.events_made(table), 20, "every event stored")

    try:
        m.run_table(table, m.script(SEED), corrupt, settle)
    finally:
        for p in procs:
            p.stop()
    assert len(procs) == 2 and "set aside (quarantined)" in "".join(procs[1].lines)
    with sc.rebuilt() as after:
        t1, t2 = after.state("t1"), after.state("t2")
        assert m.score(t1["match"]) == baseline(SEED)
        assert [a["kind"] for a in t1["alerts"] if a["kind"] != "node_offline"] == []
        assert t2["match"] is None and [a["kind"] for a in t2["alerts"]] == ["match_quarantined"]
        assert t2["alerts"][0]["match_id"] == other
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        assert conn.execute("SELECT match_id FROM quarantine").fetchall() == [(other,)]
