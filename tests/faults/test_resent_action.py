"""Fault: a referee action re-sent with the same uid — the lag, sent again in mid-match after a hub restart (a
panel that never saw the first answer), and again at once.

Promise: the re-send is answered with the first result (`replayed`, the first cursor and match) and applied
once; the final score equals the same match played without the fault. tests/hub/service/test_idempotent.py
covers the other cases (five in one batch, after a refusal, `luza referee` against a held commit).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hub.service.hub import Hub
from tests.faults.conftest import Baseline, wait_stored
from tests.faults.match import PLAYERS, events_made, prepare, run_table, score, script, until
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
SEED = 97
AT = 3  # the hub restarts after this shot, and the panel sends the lag again
LAG = {"kind": "lag", "winner": 0, "uid": "panel-lag-1"}


def test_a_resent_referee_action_is_answered_with_the_first_result_and_applied_once(
    mosquitto: Mosquitto, tmp_path: Path, baseline: Baseline, hubs: Callable[..., Hub]
) -> None:
    sc = prepare(mosquitto, tmp_path, SEED, hubs, begin=False)  # the panel sends the lag itself, with a uid
    cfg, table, hub = sc.cfg, sc.table, [sc.hub]
    hub[0].new_match("t1", "free", PLAYERS)
    first = hub[0].submit("t1", LAG)
    answers: list[dict[str, Any]] = []
    made: list[int] = []

    async def resend(k: int, phase: str) -> None:
        if (k, phase) != (AT, "balls"):
            return
        await until(lambda: hub[0].stats["accepted"] >= events_made(table), 10, "the hub to catch up")
        made.append(events_made(table))
        await asyncio.to_thread(hub[0].stop)
        hub[0] = await asyncio.to_thread(hubs, cfg, clock=table.vt.hub_ms)
        for _ in range(2):
            answers.append(await asyncio.to_thread(hub[0].submit, "t1", LAG))

    run_table(table, script(SEED), resend)
    wait_stored(hub[0], events_made(table) - made[0])
    assert [a.get("replayed") for a in answers] == [True, True]
    assert {(a["cursor"], a["match_id"]) for a in answers} == {(first["cursor"], first["match_id"])}
    assert hub[0].stats["referee_resent"] == 2
    assert hub[0].store is not None
    lags = hub[0].store.conn.execute(
        "SELECT count(*) FROM inputs WHERE json_extract(record, '$.kind') = 'lag'"
    )
    assert lags.fetchone()[0] == 1  # stored once
    assert score(hub[0].state("t1")["match"]) == baseline(SEED)
