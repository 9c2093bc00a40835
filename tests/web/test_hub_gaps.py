"""The hub features the web layer stands on: a worker that survives abandoned callers, error categories, the
state envelope (rev, boot, hub time, last_match, devices), cue pairing per match, amendments by shot number,
node commands, and the screen-facing scoreboard (hub.view)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

import pytest

from hub.ingest.mqtt import RawMessage
from hub.service.changes import Change
from hub.service.hub import Hub
from hub.vocab.checks import RefereeInputError
from luza_wire import protocol
from tests.export.matchkit import PLAYERS, Clock, Table, play_classic


def _blocked(hub: Hub) -> tuple[threading.Event, threading.Event, Callable[[], None]]:
    """Make the worker wait inside its next publish (a subscriber runs on the
    worker) until `release` is set."""
    entered, release = threading.Event(), threading.Event()

    def hold(change: Change) -> None:
        entered.set()
        release.wait(10)

    return entered, release, hub.subscribe(hold)


def test_a_cancelled_future_does_not_kill_the_worker(hub: Hub) -> None:
    entered, release, unsubscribe = _blocked(hub)
    fut = hub.submit_async("t1", {"kind": "new_match", "variant": "free", "players": list(PLAYERS)})
    assert entered.wait(10)
    assert fut.cancel()  # the caller gave up while the worker was publishing: its answer has nowhere to go
    unsubscribe()
    release.set()
    assert hub.submit("t1", {"kind": "lag", "winner": 0})["match"]["to_play"] == 0
    assert hub.worker_alive


def test_a_timed_out_caller_does_not_kill_the_worker(hub: Hub) -> None:
    entered, release, unsubscribe = _blocked(hub)
    with pytest.raises(FutureTimeout):
        hub.submit("t1", {"kind": "new_match", "variant": "free", "players": list(PLAYERS)}, timeout=0.05)
    assert entered.wait(10)
    unsubscribe()
    release.set()
    assert hub.submit("t1", {"kind": "lag", "winner": 1})["match"]["to_play"] == 1
    assert hub.worker_alive


def test_the_worker_survives_an_item_that_raises_and_keeps_the_rest_of_its_batch(
    hub: Hub, table: Table
) -> None:
    hub.new_match("t1", "free", PLAYERS)
    entered, release, unsubscribe = _blocked(hub)
    # stored and published: the worker stops in the publish
    hub.submit_async("t1", {"kind": "lag", "winner": 0})
    assert entered.wait(10)  # the worker is busy: what comes now is one batch
    unsubscribe()
    table.strike(0)
    hub.feed(object())  # type: ignore[arg-type]  # not a payload at all: a bug elsewhere must not stop the hub
    table.pot(5)
    release.set()
    assert hub.wait_idle(10)
    assert hub.worker_alive and hub.stats["worker_errors"] >= 1
    shot = hub.state("t1")["match"]["shot"]
    assert shot["strike"] is not None and [p["pocket"] for p in shot["pocketed"]] == [5]
    assert hub.store is not None and hub.store.count_inputs() == hub.state("t1")["cursor"]
    assert hub.submit("t1", {"kind": "close_shot"})["match"]["scores"] == [1, 0]


@pytest.mark.parametrize(
    ("table", "action", "code", "field"),
    [
        ("t9", {"kind": "lag", "winner": 0}, "unknown_table", "table"),
        ("t2", {"kind": "lag", "winner": 0}, "no_match", "table"),
        ("t1", {"kind": "lag", "winner": 3}, "malformed", "winner"),
        ("t1", {"kind": "lag", "winner": 0, "loser": 1}, "malformed", "loser"),
        ("t1", {"kind": "shout"}, "malformed", "kind"),
        ("t1", {"kind": "undo"}, "refused", None),
        ("t2", {"kind": "new_match", "variant": "snooker", "players": ["A", "B"]}, "malformed", "variant"),
        ("t1", {"kind": "new_match", "variant": "free", "players": ["A", "B"]}, "refused", "table"),
    ],
)
def test_refusals_carry_their_category(
    hub: Hub, table: str, action: dict[str, Any], code: str, field: str | None
) -> None:
    hub.new_match("t1", "free", PLAYERS)
    with pytest.raises(RefereeInputError) as exc:
        hub.submit(table, action)
    assert (exc.value.code, exc.value.field) == (code, field)
    assert exc.value.en and exc.value.ru and exc.value.en != exc.value.ru


def test_an_unknown_field_is_refused_in_both_languages(hub: Hub) -> None:
    hub.new_match("t1", "free", PLAYERS)
    with pytest.raises(RefereeInputError) as exc:
        hub.submit("t1", {"kind": "lag", "winner": 0, "loser": 1})
    assert exc.value.en == "loser: 'lag' has no field 'loser'; its fields: winner"
    assert exc.value.ru == "loser: у действия 'lag' нет поля 'loser'; его поля: winner"


def test_rev_strictly_increases_and_the_envelope_carries_boot_and_hub_time(
    hub: Hub, table: Table, clock: Clock
) -> None:
    changes: list[Change] = []
    hub.subscribe(changes.append)
    first = hub.state("t1")
    assert first["rev"] >= 1 and first["boot"] == hub.boot and first["hub_ms"] == clock.ms
    assert first["match"] is None and first["last_match"] is None
    hub.new_match("t1", "free", PLAYERS)
    table.ref("lag", winner=0)
    table.births()
    table.strike(0)
    table.pot(5)
    hub.wait_idle()
    revs = [c.rev for c in changes if c.table_id == "t1"]
    assert revs == sorted(set(revs)) and revs[0] > first["rev"]
    assert hub.state("t1")["rev"] == revs[-1]
    assert hub.state("t2")["rev"] < hub.state("t1")["rev"] or [c for c in changes if c.table_id == "t2"] == []


def test_a_device_change_is_pushed_with_its_table(hub: Hub, clock: Clock) -> None:
    before = hub.state("t2")["rev"]
    hub.feed(
        RawMessage(
            "mqtt",
            protocol.topic("t2", "t2-p", "status"),
            protocol.encode_status("online", 3, fw="0.4.0", ip="10.0.0.9", role="pocket"),
            clock.ms,
        )
    )
    assert hub.wait_idle(10)
    state = hub.state("t2")
    assert state["rev"] > before
    dev = next(d for d in state["devices"] if d["device"] == "t2-p")
    assert dev["online"] and dev["fw"] == "0.4.0" and dev["pockets"] == [1, 2, 3, 4, 5, 6] and not dev["jam"]


def test_last_match_stays_after_end_until_the_next_match_and_across_a_restart(
    open_hub: Callable[..., Hub], clock: Clock
) -> None:
    hub = open_hub()
    play_classic(Table(hub, clock))
    state = hub.state("t1")
    assert state["match"] is None
    last = state["last_match"]
    assert last["status"] == "ended" and last["scores"] == [71, 8] and last["winner"] == 0
    assert last["clock"]["ended_ms"] == clock.ms and last["clock"]["started_ms"] < clock.ms
    hub.stop()
    again = open_hub()
    assert again.state("t1")["last_match"]["scores"] == [71, 8]
    assert again.boot != hub.boot
    again.new_match("t1", "free", PLAYERS)
    assert again.state("t1")["last_match"] is None


def test_cue_nodes_are_paired_per_match(hub: Hub, table: Table) -> None:
    hub.submit(
        "t1",
        {"kind": "new_match", "variant": "free", "players": list(PLAYERS), "cues": {"cue-a": 1, "cue-b": 0}},
    )
    table.ref("lag", winner=1)
    table.strike(0)  # the matchkit strikes seat 0 with cue-a, which plays for seat 1 in this match
    hub.wait_idle()
    board = hub.state("t1")["match"]
    assert board["shot"]["strike"]["seat"] == 1
    assert {d["device"]: d["seat"] for d in hub.state("t1")["devices"] if d["role"] == "cue"} == {
        "cue-a": 1,
        "cue-b": 0,
    }
    assert not [q for q in board["questions"] if q["kind"] == "out_of_turn"]


def test_a_cue_pairing_with_a_stranger_is_refused(hub: Hub) -> None:
    with pytest.raises(RefereeInputError) as exc:
        hub.submit(
            "t1", {"kind": "new_match", "variant": "free", "players": list(PLAYERS), "cues": {"pk-12": 0}}
        )
    assert exc.value.code == "malformed" and exc.value.field == "cues"
    assert "cue-a, cue-b" in exc.value.en and "датчики кия" in exc.value.ru


def test_an_amendment_targets_a_shot_by_number_and_records_who_and_when(
    hub: Hub, table: Table, clock: Clock
) -> None:
    hub.new_match("t1", "free", PLAYERS)
    table.ref("lag", winner=0)
    table.wait(5000)
    table.shot(0, [5])  # shot 1: a ball, the turn is kept
    table.shot(0, [6])  # shot 2
    hub.wait_idle()
    assert hub.state("t1")["match"]["scores"] == [2, 0]
    when = clock.ms
    state = hub.submit("t1", {"kind": "foul", "foul": "touch", "shot_number": 1, "by": "panel"})
    board = state["match"]
    first = next(h for h in board["history"] if h["number"] == 1)
    assert first["fouls"] and first["deltas"][0] <= 0
    assert hub.session("t1").amendments[1] == [{"kind": "foul", "at_ms": when, "by": "panel"}]  # type: ignore[union-attr]
    with pytest.raises(RefereeInputError) as exc:
        hub.submit("t1", {"kind": "foul", "foul": "touch", "shot_number": 9})
    assert exc.value.code == "refused" and exc.value.en == "there is no shot 9 in this match"


def test_node_commands_need_a_link(hub: Hub) -> None:
    assert hub.command("pk-12", "identify", s=5) is False  # no broker, no serial link: nothing can carry it
    with pytest.raises(KeyError):
        hub.command("nobody", "identify")
