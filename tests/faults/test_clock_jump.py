"""Fault: a pocket node's clock jumps an hour ahead mid-match (after a strike, before the shot's balls drop),
before that node has reported anything — a node on firmware older than the uptime stamp (`up`), whose events
carry its clock alone. (Current firmware stamps the uptime, which no clock step moves, and the hub places its
events by that: the same jump changes nothing, tests/faults/test_node_clock_step.py.)

Its events are dated impossibly (`future`: the node's clock ran an hour ahead of the hub's within one boot),
so the hub stores them flagged and folds none into play (hub.ingest.timecheck). Each of its balls raises a
question on the shot being played (hub.ingest.suspects: `suspect:<item>`, add the ball or say none fell); the
referee answers as the panel would, adding the ball. Promise: the score the referee confirms equals the same
match played without the fault; every flagged event is kept in the log and shown in the table's alert.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hub.ingest.suspects import answer
from hub.service.hub import Hub
from hub.virtual.node import VirtualNode
from tests.faults.conftest import Baseline, wait_stored
from tests.faults.match import Step, events_made, prepare, run_table, score, script, until
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
SEED = 41
JUMP_MS = 3_600_000


def suspect_questions(hub: Hub) -> list[dict[str, Any]]:
    return [q for q in hub.state("t1")["match"]["questions"] if q["kind"] == "impossible_time"]


def without_uptime(node: VirtualNode) -> None:
    """Make a node send its events as firmware before the uptime stamp did: `t` (its clock) only."""
    assert node.node is not None
    outbox = node.node.outbox
    put = outbox.put

    def put_old(payload: bytes) -> None:
        obj = json.loads(payload)
        obj.pop("up", None)
        put(json.dumps(obj, separators=(",", ":")).encode())

    outbox.put = put_old  # type: ignore[method-assign]


def seen_before(steps: list[Step], k: int, groups: list[tuple[int, ...]]) -> bool:
    """Did the node of shot k's first ball report a ball before? The scenario jumps a node that has not: its
    first event of the boot is judged against the other nodes' clocks (hub.ingest.timecheck)."""
    group = next(g for g in groups if steps[k].balls[0][0] in g)
    return any(p in group for st in steps[:k] for p, _ in st.balls)


def test_a_node_clock_jump_asks_the_referee_and_the_answers_give_the_faultless_score(
    mosquitto: Mosquitto, tmp_path: Path, baseline: Baseline, hubs: Callable[..., Hub]
) -> None:
    steps = script(SEED)
    sc = prepare(mosquitto, tmp_path, SEED, hubs)
    table, hub = sc.table, sc.hub
    k0 = next(
        k for k, st in enumerate(steps) if k >= 2 and st.balls and not seen_before(steps, k, table.groups)
    )
    node, group = next(
        (n, g) for n, g in zip(table.pocket_nodes, table.groups, strict=True) if steps[k0].balls[0][0] in g
    )
    asked: list[dict[str, Any]] = []

    async def jump(k: int, phase: str) -> None:
        if (k, phase) == (0, "strike"):
            without_uptime(node)  # before it reports anything
        if (k, phase) == (k0, "strike"):
            assert node.node is not None
            node.node.clock.offset += JUMP_MS  # the node's clock steps an hour ahead
        if k < k0 or phase != "balls":
            return
        mine = sum(1 for st in steps[k0 : k + 1] for p, _ in st.balls if p in group)
        await until(lambda: len(asked) + len(suspect_questions(hub)) >= mine, 10, "the referee's questions")
        for q in suspect_questions(hub):  # the referee adds each ball the node saw
            assert q["shot"] == hub.state("t1")["match"]["shot_count"] and q["action"] == "add_ball"
            assert "impossible" in q["en"] and "невозможным" in q["ru"]
            kind, args = answer(q, "add")
            hub.submit("t1", {"kind": kind, **args})
            asked.append(q)
        assert suspect_questions(hub) == []  # answered: the question is gone

    run_table(table, steps, jump)
    wait_stored(hub, events_made(table))
    flagged = sum(1 for st in steps[k0:] for p, _ in st.balls if p in group)
    assert flagged >= 1 and len(asked) == flagged and hub.stats["suspect_time"] == flagged
    state = hub.state("t1")
    assert score(state["match"]) == baseline(SEED)
    assert [a["kind"] for a in state["alerts"]] == ["impossible_time"]
    assert state["alerts"][0]["count"] == flagged
    hub.stop()
    again = hubs(sc.cfg, clock=table.vt.hub_ms)  # rebuilt from the log
    assert score(again.state("t1")["match"]) == baseline(SEED) and suspect_questions(again) == []
    print(
        f"\nnode clock +1 h: {flagged} balls flagged `future`, {len(asked)} questions answered by the referee"
    )
