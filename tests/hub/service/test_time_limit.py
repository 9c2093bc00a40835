"""A match time limit through the hub service (real Mosquitto, real SQLite; general A-G6): the hub stores a
`time_up` by itself once its clock passes the match's start + the limit (once: its uid), the leader in frames
wins when the frame in play ends, and a restarted hub and `luza replay` rebuild the same board."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from hub import config
from hub.cli import main
from hub.service.hub import Hub
from hub.service.rebuild import replay_match, stored_differences
from hub.vocab.checks import RefereeInputError
from tests.hub.nodes import Clock
from tests.hub.service.test_race import PLAYERS, T0, act, board, empty_shot, play_frame

pytestmark = pytest.mark.mosquitto


def race(hub: Hub) -> dict[str, Any]:
    return hub.state("t1")["match"]["race"]


def until(pred: Callable[[], bool], timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end, "condition not met in time"
        time.sleep(0.05)


def time_ups(hub: Hub, match_id: int) -> list[dict[str, Any]]:
    assert hub.store is not None
    return [
        r.record
        for r in hub.store.inputs(match_id=match_id)
        if r.record.get("type") == "referee" and r.record.get("kind") == "time_up"
    ]


def test_general_a_g6_time_up_once_then_the_leader_wins_at_the_frame_end(
    cfg: config.Config, hubs: Callable[..., Hub], capsys: pytest.CaptureFixture[str]
) -> None:
    """general A-G6: a race to 3 with a 1-minute limit; the board counts down to start + 60 s; past it the hub
    stores one `time_up` (uid time-up-<match>, a resend answered from the store, another refused); frame 2
    ends 2-0 and seat 0 wins the match on time (cited A-G6);
    a restarted hub and the replay give the same board."""
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    state = hub.new_match("t1", "free", PLAYERS, race={"race_to": 3, "time_limit_min": 1})
    mid, started = state["match_id"], state["match"]["clock"]["started_ms"]
    r = state["match"]["race"]
    assert r["time_limit_min"] == 1 and r["time_rule"] == "finish_frame" and not r["time_called"]
    assert r["deadline_ms"] == started + 60_000
    play_frame(hub, clock, winner=0, shots=1)
    act(hub, clock, "next_frame")
    empty_shot(hub, clock)
    assert not race(hub)["time_called"] and time_ups(hub, mid) == []
    clock.now = started + 60_000
    until(lambda: race(hub)["time_called"])
    assert [t.get("uid") for t in time_ups(hub, mid)] == [f"time-up-{mid}"]
    hub.submit("t1", {"kind": "time_up", "uid": f"time-up-{mid}"})  # a resend: the first answer, nothing new
    with pytest.raises(RefereeInputError) as e:
        act(hub, clock, "time_up")
    assert "already" in e.value.en and e.value.ru
    assert len(time_ups(hub, mid)) == 1
    b = race(hub)
    assert b["winner"] is None and b["frame"] == 2  # the frame in play is finished first
    act(hub, clock, "concede", player=1)
    b = race(hub)
    assert b["winner"] == 0 and b["over"] and b["score"] == [2, 0] and "A-G6" in b["reason"]["en"]
    with pytest.raises(RefereeInputError):
        act(hub, clock, "next_frame")
    before = board(hub)
    hub.stop()
    clock.now += 5_000
    again = hubs(cfg, clock=clock)
    assert board(again) == before and len(time_ups(again, mid)) == 1
    assert again.store is not None
    match = again.store.match(mid)
    assert match is not None and match.last_state is not None
    assert stored_differences(match.last_state, replay_match(again.store, match, {}).scoreboard()) == []
    assert main(["replay", str(cfg.store.path), "--match", str(mid)]) == 0  # luza replay: the same board
    out = capsys.readouterr().out
    assert "time limit 1 min (finish_frame), time up" in out and "won by seat 0" in out, out


def test_general_a_g6_a_tie_plays_a_decider_and_the_time_survives_a_restart(
    cfg: config.Config, hubs: Callable[..., Hub]
) -> None:
    """general A-G6: the limit runs out while the hub is down; the restarted hub calls it once; 1-1 at the end
    of the frame in play: one more frame, whose winner wins."""
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    state = hub.new_match("t1", "free", PLAYERS, race={"race_to": 5, "time_limit_min": 1})
    mid, started = state["match_id"], state["match"]["clock"]["started_ms"]
    play_frame(hub, clock, winner=1, shots=0)
    act(hub, clock, "next_frame")
    hub.stop()
    clock.now = started + 61_000
    hub = hubs(cfg, clock=clock)
    until(lambda: race(hub)["time_called"])
    act(hub, clock, "concede", player=1)  # seat 0 wins frame 2: 1-1
    assert race(hub)["winner"] is None and race(hub)["frame_over"]
    act(hub, clock, "next_frame")  # the decider
    act(hub, clock, "concede", player=0)
    assert race(hub)["winner"] == 1 and race(hub)["score"] == [1, 2]
    assert len(time_ups(hub, mid)) == 1


def test_general_a_g6_referee_rule_and_a_match_without_a_limit(
    cfg: config.Config, hubs: Callable[..., Hub]
) -> None:
    """general A-G6: by the rule referee the time up decides nothing: the referee plays on, then ends the
    match (abandoned with the reason). A match with no limit refuses time_up (en/ru)."""
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    hub.new_match("t1", "free", PLAYERS, race={"race_to": 3})
    with pytest.raises(RefereeInputError) as e:
        act(hub, clock, "time_up")
    assert "no time limit" in e.value.en and "лимит" in e.value.ru
    assert race(hub)["deadline_ms"] is None
    act(hub, clock, "end_match", reason="next")
    hub.new_match("t1", "free", PLAYERS, race={"race_to": 3, "time_limit_min": 30, "time_rule": "referee"})
    play_frame(hub, clock, winner=0, shots=0)
    act(hub, clock, "time_up")  # the referee calls it early
    b = race(hub)
    assert b["time_called"] and b["winner"] is None and not b["over"]
    act(hub, clock, "next_frame")
    act(hub, clock, "end_match", reason="time / время")
    last = hub.state("t1")["last_match"]["race"]
    assert last["abandoned"] == "time / время" and last["winner"] is None and last["time_called"]
