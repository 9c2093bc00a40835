"""The store failing under the hub: a locked database (operational: retried until it works) and an input the
store refuses every time (quarantined as a rejection). Nothing is lost and ingest goes on in both."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable

import pytest

from hub import config
from hub.service.hub import Hub
from tests.hub.nodes import Clock, Node, expected_board
from tests.hub.service.test_service import (
    PLAYERS,
    T0,
    board,
    facts,
    nodes_for_t1,
    shots,
    start_free_match,
    wait_for,
)
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto


def test_a_locked_database_is_retried_and_nothing_is_lost(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    match_id, referee = start_free_match(hub, clock)
    assert hub.store is not None
    hub.store.conn.execute("PRAGMA busy_timeout = 50")  # fail fast instead of waiting 5 s for the lock
    other = sqlite3.connect(cfg.store.path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN EXCLUSIVE")  # a backup tool (or anything) holds the database
    cue, pockets, all_nodes = nodes_for_t1(mosquitto.port)
    sent = shots(cue, pockets, 4, seed=8)
    for node, payload in sent:
        node.send(payload)
    wait_for(lambda: hub.stats["commit_failures"] >= 2)
    assert hub.stats["accepted"] == 0
    threading.Timer(0.2, lambda: other.execute("ROLLBACK")).start()
    wait_for(lambda: hub.stats["accepted"] == len(sent), 15)
    assert hub.wait_idle(5)
    assert board(hub) == expected_board("free", PLAYERS, {}, match_id, "t1", referee + facts(sent))
    other.close()
    for n in all_nodes:
        n.close()


def test_an_input_the_store_always_refuses_is_quarantined(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    hub = hubs(cfg)
    with sqlite3.connect(cfg.store.path) as db:  # a poisoned row: the store refuses this one event every time
        db.execute(
            "CREATE TRIGGER poison BEFORE INSERT ON inputs WHEN NEW.seq = 2 "
            "BEGIN SELECT RAISE(ABORT, 'poisoned row'); END"
        )
    node = Node(mosquitto.port, "t1", "p-head", "pocket")
    for i in range(4):
        node.send(node.event("pocket", T0 + i * 5000, p=1), wait=False)
    wait_for(lambda: hub.stats["accepted"] == 3 and hub.stats["rejected"] == 1, 15)
    assert hub.store is not None
    (row,) = hub.store.rejected()
    assert row.code == "store_error" and "poisoned row" in row.reason and b'"s": 2' in row.payload
    assert [r.seq for r in hub.store.inputs() if r.device] == [1, 3, 4]
    time.sleep(0.1)
    node.close()
