"""Fault: one 4 KiB page of the hub's database is torn (a power cut mid-write, a failing SD card) while the
hub is down mid-match, and the hub starts again.

The page is the root of `conflicts_by_match`, the index of a table that is empty in this match, so nothing of
the match is lost: a `VACUUM INTO` gives a whole copy. Today's main refused to start ("restore a backup") and
the rest of the match was never stored. Promise: the start-up check (hub.store.integrity) rebuilds the file,
keeps the damaged one beside it, says so on every table (`store_repaired`), and the final score equals the
same match played without the fault.
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
from tests.support import pages
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
SEED = 73
AT = 4  # the hub goes down after this shot's balls


def test_a_torn_index_page_is_rebuilt_at_start_and_the_match_ends_as_without_it(
    mosquitto: Mosquitto, tmp_path: Path, baseline: Baseline, hubs: Callable[..., Hub]
) -> None:
    sc = m.prepare(mosquitto, tmp_path, SEED, hubs)
    db, table = sc.db, sc.table
    procs = [sc.hand_over()]

    async def tear(k: int, phase: str) -> None:
        if (k, phase) != (AT, "balls"):
            return
        await m.until(lambda: m.stored_events(db) >= m.events_made(table), 10, "the hub to catch up")
        assert await asyncio.to_thread(procs[-1].stop) == 0
        pages.tear(db, pages.root_page(db, "conflicts_by_match"))
        assert pages.quick_check(db) != ["ok"]
        procs.append(await asyncio.to_thread(HubProcess, sc.toml, table.vt))

    async def settle() -> None:
        await m.until(lambda: m.stored_events(db) >= m.events_made(table), 20, "every event stored")

    try:
        m.run_table(table, m.script(SEED), tear, settle)
    finally:
        for p in procs:
            p.stop()
    assert len(procs) == 2 and "copied everything into a fresh file" in "".join(procs[1].lines)
    (kept,) = tmp_path.glob("luza.db.damaged-*")
    assert pages.quick_check(kept) != ["ok"] and pages.quick_check(db) == ["ok"]
    with sc.rebuilt() as after:
        t1 = after.state("t1")
        assert m.score(t1["match"]) == baseline(SEED)
        assert [a["kind"] for a in t1["alerts"] if a["kind"] != "node_offline"] == []  # whole again: no alert
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        assert conn.execute("SELECT count(*) FROM conflicts").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM inputs WHERE device IS NOT NULL").fetchone()[
            0
        ] == m.events_made(table)
