"""Late, repeated and reordered inputs: exactly once, in order, whatever the arrival order."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.reconcile.fold import HubInput
from hub.reconcile.table import TableSession
from hub.view.build import scoreboard
from hub.vocab.inputs import SensorInput, input_from_record, input_to_record
from shared_rules import Lag, Match, Pocket, PocketedBall, ShotReport
from tests.hub.tablekit import Kit, item, session


def outage_script(k: Kit) -> tuple[list[HubInput], list[HubInput]]:
    """A Free match where the cue node is cut off for 60 s; returns (live arrivals, its buffered outbox)."""
    live: list[HubInput] = [k.ref("lag", 0, winner=0), k.strike(1000), k.pocket(2500, 1)]
    buffered = [k.strike(20000, delay=51000), k.strike(40000, delay=31000), k.strike(60000, delay=11000)]
    live += [k.pocket(21500, 2), k.pocket(41000, 3), k.pocket(41500, 4)]
    after = [k.strike(80000, seat=1), k.pocket(81000, 5)]
    return live, [*buffered, *after]


def direct() -> Match:
    m = Match.new("free", players=("Ivan", "Petr"))
    for inp in [
        Lag(0),
        ShotReport(0, pocketed=(PocketedBall(Pocket(1)),)),
        ShotReport(0, pocketed=(PocketedBall(Pocket(2)),)),
        ShotReport(0, pocketed=(PocketedBall(Pocket(3)), PocketedBall(Pocket(4)))),
        ShotReport(0),
    ]:
        m.play(inp)
    return m


def test_a_60_s_outage_replayed_late_lands_in_the_right_shots() -> None:
    k = Kit()
    live, late = outage_script(k)
    s = session("free", live)
    # Meanwhile the pockets had no strikes: the hub flags them as late drops of shot 1 instead of guessing.
    assert [q.kind for q in s.questions].count("late_drop") == 3 and s.match.state.scores == (0, 0)
    for inp in late:
        s.apply(inp)
    m = direct()
    assert s.match.history == m.history and s.match.state == m.state
    assert [[p.pocket for p in sh.pockets] for sh in s.shots] == [[1], [2], [3, 4], [], [5]]
    assert not [q for q in s.questions if q.kind == "late_drop"]
    m.play(ShotReport(1, pocketed=(PocketedBall(Pocket(5)),)))
    assert scoreboard(s)["scores"] == list(m.state.scores) == [4, 1]  # Petr's open shot, provisionally
    in_order = session("free", sorted([*live, *late], key=lambda i: i.at_ms))
    assert json.dumps(scoreboard(in_order), sort_keys=True) == json.dumps(scoreboard(s), sort_keys=True)


def test_an_input_given_twice_is_applied_once() -> None:
    k = Kit()
    live, late = outage_script(k)
    s = session("free", [*live, *late])
    once = json.dumps(scoreboard(s), sort_keys=True)
    sensors = [i for i in [*live, *late] if isinstance(i, SensorInput)]
    for inp in sensors:
        s.apply(input_from_record(input_to_record(inp)))  # as the store would hand it back: a new object
    assert json.dumps(scoreboard(s), sort_keys=True) == once and len(s.log) == len(live) + len(late)


def test_in_order_inputs_do_not_rewind_and_a_late_one_refolds_only_what_follows() -> None:
    k = Kit()
    live, late = outage_script(k)
    s = session("free", sorted([*live, *late], key=lambda i: i.at_ms))
    assert s.rewinds == 0 and s.refolded == 0
    s.apply(k.pocket(50000, 6))  # older than what was applied: the fold goes back to 50 s and forward again
    assert s.rewinds == 1 and s.refolded == 3 and [p.pocket for p in s.shots[2].pockets] == [3, 4, 6]


# ---------------------------------------------------------------- any arrival order, same state


@st.composite
def matches(draw: st.DrawFn) -> list[SensorInput]:
    """A random Free match's sensor evidence: strikes (some doubled,
    some missing) and balls, distinct times."""
    k = Kit()
    t, out, balls = 1000, [], 0
    for _ in range(draw(st.integers(1, 8))):
        struck = draw(st.integers(0, 5)) > 0  # sometimes the cue node missed the strike
        if struck:
            out.append(k.strike(t, seat=draw(st.sampled_from([0, 1, None]))))
            if draw(st.integers(0, 6)) == 0:
                out.append(k.strike(t + 20))  # a bounce: two strikes within 50 ms
        for j in range(draw(st.integers(0, 3))):
            if balls < 14:
                balls += 1
                out.append(
                    k.pocket(
                        t + 700 + 900 * j,
                        draw(st.integers(1, 6)),
                        draw(st.sampled_from([None, "ivory", "yellow"])),
                    )
                )
        gap = draw(st.sampled_from([1500, 9000, 15000, 26000]))  # some strikes come early (§14.2)
        if gap > 15000 and balls < 14 and draw(st.integers(0, 3)) == 0:
            balls += 1
            out.append(k.pocket(t + 14500, draw(st.integers(1, 6))))  # long after: a late drop (§23)
        t += gap
    return out


def fold(inputs: list[HubInput]) -> str:
    s = TableSession("t1", "free", ("Ivan", "Petr"), {})
    s.apply(Kit.ref("lag", 0, winner=0))
    for inp in inputs:
        s.apply(inp)
    return json.dumps(scoreboard(s), sort_keys=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_arrival_order_gives_the_same_state(data: st.DataObject) -> None:
    inputs = data.draw(matches())
    order = data.draw(st.permutations(inputs))
    assert fold(list(order)) == fold(sorted(inputs, key=lambda i: i.at_ms))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_with_referee_actions_the_state_is_the_fold_of_what_was_accepted(data: st.DataObject) -> None:
    """Referee actions may be refused when they arrive (the panel shows why); what was accepted, folded in
    time order, is the state, whatever the arrival order."""
    inputs: list[HubInput] = list(data.draw(matches()))
    strikes = [i for i in inputs if isinstance(i, SensorInput) and i.event.kind == "strike"]
    for s in strikes[:3]:
        inputs.append(
            Kit.ref("foul", s.at_ms + 300, foul=data.draw(st.sampled_from(["miss", "touch", "jumped"])))
        )
        inputs.append(Kit.ref("confirm", s.at_ms + 400, question=f"early_start:{item(s)}", answer="foul"))
    order = list(data.draw(st.permutations(inputs)))
    live = TableSession("t1", "free", ("Ivan", "Petr"), {})
    live.apply(Kit.ref("lag", 0, winner=0))
    for inp in order:
        try:
            live.apply(inp)
        except ValueError:
            continue
    accepted = sorted(live.log, key=lambda i: i.at_ms)
    again = TableSession.replay("t1", "free", ("Ivan", "Petr"), {}, accepted)
    assert again.match.history == live.match.history
    assert scoreboard(again)["scores"] == scoreboard(live)["scores"]
