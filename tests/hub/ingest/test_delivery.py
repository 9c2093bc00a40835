"""End-to-end delivery, the hub's side (hub.ingest.delivery): stored marks per (device, boot), rate-limited;
`resend` for a hole, with backoff; a node's `gone` answer makes the hole final (kept across restarts); a
re-sent duplicate brings the mark again. Unit tests on a real store, then the whole loop through Mosquitto."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hub import config
from hub.ingest.delivery import Marks, Outgoing
from hub.service.hub import Hub
from hub.store import conflicts
from hub.store.database import Store
from luza_wire import resend
from luza_wire.messages import Answer
from tests.hub.holes import hole_in_sequence
from tests.hub.nodes import Node
from tests.hub.service.test_service import T0, wait_for
from tests.support.broker import Mosquitto


class Tick:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def store_seqs(store: Store, device: str, boot: int, seqs: list[int]) -> None:
    with store.transaction():
        for s in seqs:
            store.append_sensor(
                "t1", None, "mqtt", (device, boot, s), T0 + s, T0 + s, {"type": "sensor", "s": s}
            )


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path / "luza.db")
    with s.transaction():
        s.ensure_table("t1", "Table 1", T0)
    return s


def test_the_mark_is_contiguous_and_a_hole_is_asked_for(store: Store) -> None:
    tick = Tick()
    marks = Marks(monotonic=tick)
    store_seqs(store, "p1", 1, [1, 2, 3, 5, 6])
    out = marks.after_commit(store, [("p1", 1)], [])
    assert out == [
        Outgoing("p1", "resend", {"b": 1, "lo": 4, "hi": 4}),
        Outgoing("p1", "stored", {"b": 1, "s": 3}),
    ]
    store_seqs(store, "p1", 1, [4])
    assert marks.after_commit(store, [("p1", 1)], []) == []  # moved to 6, but told less than a second ago
    assert marks.due_in() == pytest.approx(1.0)
    tick.t += 1.0
    assert marks.flush() == [Outgoing("p1", "stored", {"b": 1, "s": 6})]
    assert marks.due_in() is None and marks.flush() == []


def test_a_duplicate_brings_the_mark_again_and_refused_events_are_settled(store: Store) -> None:
    tick = Tick()
    marks = Marks(monotonic=tick)
    store_seqs(store, "p1", 2, [1, 2])
    assert marks.after_commit(store, [("p1", 2)], []) == [Outgoing("p1", "stored", {"b": 2, "s": 2})]
    tick.t += 5
    assert marks.after_commit(store, [("p1", 2)], [("p1", 2)]) == [Outgoing("p1", "stored", {"b": 2, "s": 2})]
    marks.settle("p1", 2, 3)  # refused (wrong pocket): it would be refused again
    store_seqs(store, "p1", 2, [4])
    tick.t += 5
    assert marks.after_commit(store, [("p1", 2)], []) == [Outgoing("p1", "stored", {"b": 2, "s": 4})]


def test_a_hole_is_asked_again_with_backoff_and_a_gone_answer_makes_it_final(
    store: Store, tmp_path: Path
) -> None:
    tick = Tick()
    marks = Marks(monotonic=tick)
    store_seqs(store, "p1", 1, [1, 5])
    ask = Outgoing("p1", "resend", {"b": 1, "lo": 2, "hi": 4})
    asked = []
    for dt in (0, 4, 1, 9, 1, 19, 1):  # 5 s, then 10 s, then 20 s
        tick.t += dt
        asked.append(ask in marks.after_commit(store, [("p1", 1)], []))
    assert asked == [True, False, True, False, True, False, True]
    answer = resend.parse_answer(resend.encode_answer("resend", 0, 1, 2, 4, [(2, 3)], 1))
    assert isinstance(answer, Answer)
    with store.transaction():
        assert marks.record_gone(store, "p1", answer, T0) == [(2, 3)]
        assert marks.record_gone(store, "p1", answer, T0) == []  # said twice: kept once
    store_seqs(store, "p1", 1, [4])  # the one the node still had
    tick.t += 5
    assert marks.after_commit(store, [("p1", 1)], []) == [Outgoing("p1", "stored", {"b": 1, "s": 5})]
    again = Marks(monotonic=tick)
    again.load(store)  # a restarted hub knows the gone ranges
    assert again.final("p1", 1) == [(2, 3)]
    assert again.after_commit(store, [("p1", 1)], []) == [Outgoing("p1", "stored", {"b": 1, "s": 5})]


def test_an_answer_is_taken_only_for_the_seqs_the_hub_asked_for(store: Store) -> None:
    marks = Marks(monotonic=Tick())
    store_seqs(store, "p1", 1, [1, 2, 5])
    unasked = resend.parse_answer(resend.encode_answer("resend", 0, 1, 1, 100, [(1, 100)], 0))
    assert isinstance(unasked, Answer)
    # nobody asked: seqs 1-100 do not become final holes (today's main kept all 100)
    with store.transaction():
        assert marks.record_gone(store, "p1", unasked, T0) == []
    assert marks.unasked == 100 and marks.final("p1", 1) == []
    assert Outgoing("p1", "resend", {"b": 1, "lo": 3, "hi": 4}) in marks.after_commit(store, [("p1", 1)], [])
    with store.transaction():  # asked for 3..4: only those are taken from an answer that says more
        assert marks.record_gone(store, "p1", unasked, T0) == [(3, 4)]
    assert marks.unasked == 198 and marks.final("p1", 1) == [(3, 4)]
    assert store.conn.execute("SELECT first_seq, last_seq FROM gone_events").fetchall() == [(3, 4)]


def test_after_the_broker_lost_the_session_every_node_is_asked_for_everything_above_its_mark(
    store: Store,
) -> None:
    store_seqs(store, "p1", 3, [1, 2])
    out = Marks().reconnected(store, [("p1", 3), ("p2", 1)])
    assert out == [
        Outgoing("p1", "stored", {"b": 3, "s": 2}),
        Outgoing("p1", "resend", {"b": 3, "lo": 3, "hi": 2 + resend.MAX_RESEND}),
        Outgoing("p2", "stored", {"b": 1, "s": 0}),
        Outgoing("p2", "resend", {"b": 1, "lo": 1, "hi": resend.MAX_RESEND}),
    ]


def test_a_resent_event_moved_onto_the_hub_clock_is_a_duplicate_not_a_conflict(store: Store) -> None:
    first = {"type": "sensor", "kind": "pocket", "t": 250, "synced": False, "fields": {"pocket": 1}}
    with store.transaction():
        store.append_sensor("t1", None, "mqtt", ("p1", 1, 1), T0, T0, first)
        moved = {**first, "t": 1_700_000_000_250, "synced": True}  # the same event, restamped
        assert conflicts.check(store, "t1", None, ("p1", 1, 1), moved, T0) is None
        other = {**moved, "fields": {"pocket": 2}}  # another pocket: a real conflict
        assert conflicts.check(store, "t1", None, ("p1", 1, 1), other, T0) is True


# ------------------------------------------------------------------ through Mosquitto and the hub


def commands(node: Node, name: str) -> list[dict[str, Any]]:
    return [c for c in list(node.commands) if c.get("c") == name]


def missing(hub: Hub) -> dict[str, Any] | None:
    return next((a for a in hub.state("t1")["alerts"] if a["kind"] == "missing_events"), None)


@pytest.mark.mosquitto
def test_the_hub_confirms_asks_for_a_hole_and_shows_it_final_when_the_node_says_gone(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub], capsys: pytest.CaptureFixture[str]
) -> None:
    with hole_in_sequence(cfg, mosquitto, hubs, sent=(0, 1, 3)) as hole:  # seq 3 lost on the way
        hub, head, ev = hole.hub, hole.node, hole.events
        wait_for(lambda: bool(commands(head, "resend")) and bool(commands(head, "stored")))
        assert commands(head, "resend")[0] == {
            "v": 1,
            "c": "resend",
            "id": commands(head, "resend")[0]["id"],
            "b": 1,
            "lo": 3,
            "hi": 3,
        }
        assert commands(head, "stored")[0]["b"] == 1 and commands(head, "stored")[0]["s"] in (1, 2)
        wait_for(lambda: commands(head, "stored")[-1]["s"] == 2)
        alert = missing(hub)
        assert alert is not None and "asked for again" in alert["en"] and alert["final"] == []
        head.raw("ans", resend.encode_answer("resend", 1, 1, 3, 3, [(3, 3)], 0))  # the node no longer has it
        wait_for(lambda: hub.stats["gone"] == 1)
        assert hub.wait_idle(5)
        alert = missing(hub)
        assert alert is not None and alert["final"] == [["p-head", 1, 3, 3]]
        assert "final: the node no longer has them" in alert["en"] and "окончательно" in alert["ru"]
        code, out = hole.replay(capsys)
        assert code == 1  # the evidence stays incomplete
        assert (
            "missing: p-head boot 1 seq 3 never reached the hub (final: the node no longer has them)" in out
        )
        assert "INCOMPLETE" in out
        head.send(ev[4])
        wait_for(lambda: commands(head, "stored")[-1]["s"] == 5)  # past the gone seq
        hub.stop()
        again = hubs(cfg, clock=hole.clock)  # after a restart the hole is still final
        alert = missing(again)
        assert alert is not None and alert["final"] == [["p-head", 1, 3, 3]]
        head.send(ev[4])  # a re-sent duplicate: the node did not hear the mark, so it comes again
        wait_for(lambda: again.stats["duplicates"] == 1)
        wait_for(lambda: commands(head, "stored")[-1]["s"] == 5 and len(commands(head, "stored")) >= 3)


@pytest.mark.mosquitto
def test_an_unsolicited_answer_through_the_broker_marks_nothing_gone(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    with hole_in_sequence(cfg, mosquitto, hubs, sent=(0, 1, 2)) as hole:  # no hole: the hub asks for nothing
        hub, head = hole.hub, hole.node
        wait_for(lambda: hub.stats["accepted"] == 3)
        head.raw("ans", resend.encode_answer("resend", 0, 1, 1, 100, [(1, 100)], 0))
        wait_for(lambda: hub.stats["gone_unasked"] == 100)
        assert hub.wait_idle(5) and hub.stats["gone"] == 0 and missing(hub) is None
        head.send(hole.events[3])  # seq 4 still counts as stored, not as gone
        wait_for(lambda: hub.stats["accepted"] == 4)
        conn = sqlite3.connect(f"file:{cfg.store.path}?mode=ro", uri=True)
        assert conn.execute("SELECT count(*) FROM gone_events").fetchone() == (0,)
        conn.close()
