"""A conflicting duplicate: the same (device, boot, seq) with different content is kept apart and alerted."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hub import config
from hub.service.hub import Hub
from luza_wire import protocol
from tests.hub.nodes import Clock, Node, expected_board
from tests.hub.service.test_service import PLAYERS, T0, board, facts, start_free_match, wait_for
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto


def test_same_key_other_content_is_kept_as_a_conflict_and_alerted(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    match_id, referee = start_free_match(hub, clock)
    cue, head = Node(mosquitto.port, "t1", "cue-a", "cue"), Node(mosquitto.port, "t1", "p-head", "pocket")
    sent = [
        (cue, cue.event("strike", T0 + 1000, pk=3.0)),
        (head, head.event("pocket", T0 + 1700, p=1, c="ivory")),
    ]
    for node, payload in sent:
        node.send(payload)
    head.send(sent[1][1])  # a plain redelivery: a duplicate, not a conflict
    # same key, other ball
    forged = protocol.encode_event("pocket", "p-head", 1, 1, T0 + 1800, True, p=2, c="ivory")
    head.send(forged)
    head.send(forged)  # the same conflict again: counted, stored once
    wait_for(lambda: hub.stats["accepted"] + hub.stats["duplicates"] == 5)
    assert hub.wait_idle(5)
    assert hub.stats["accepted"] == 2 and hub.stats["duplicates"] == 3 and hub.stats["conflicts"] == 2
    # first counts
    assert board(hub) == expected_board("free", PLAYERS, {}, match_id, "t1", referee + facts(sent))
    alerts = [a for a in hub.state("t1")["alerts"] if a["kind"] == "conflicting_event"]
    assert len(alerts) == 1 and alerts[0]["count"] == 1 and alerts[0]["keys"] == [["p-head", 1, 1]]
    assert "p-head boot 1 seq 1" in alerts[0]["en"] and "p-head" in alerts[0]["ru"]
    assert hub.store is not None
    rows = hub.store.conn.execute("SELECT device, boot, seq, content FROM conflicts").fetchall()
    assert len(rows) == 1 and '"pocket":2' in rows[0][3]
    hub.stop()
    again = hubs(cfg, clock=clock)  # the alert comes back with the rebuilt match
    assert [a["keys"] for a in again.state("t1")["alerts"] if a["kind"] == "conflicting_event"] == [
        [["p-head", 1, 1]]
    ]
    again.submit("t1", {"kind": "end_match"})
    again.new_match("t1", "free", PLAYERS)  # a new match starts without it
    assert not [a for a in again.state("t1")["alerts"] if a["kind"] == "conflicting_event"]
    for n in (cue, head):
        n.close()
