"""A late or reordered input takes the fold back to its place and plays forward: the result is exactly what a
fold of the same inputs in time order gives, and the cost is the inputs after it, not the match."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.reconcile import fold as fold_module
from hub.reconcile.board import enrich
from hub.reconcile.inputs import RefereeAction, RefereeInputError, SensorInput
from hub.reconcile.table import HubInput, TableSession, rederived
from tests.hub.tablekit import Kit, item
from tests.hub.test_late_events import matches


def state(s: TableSession) -> str:
    """Everything a screen or a replay sees, and the engine's own log."""
    steps = [(st.status, st.shot.number if st.shot else None, st.action.kind if st.action else None)
             for st in s.steps]
    return json.dumps({"board": s.scoreboard(), "history": [repr(i) for i in s.match.history], "steps": steps,
                       "shots": [(x.number, x.closed_at, x.voided, len(x.pockets), len(x.late)) for x in s.shots]},
                      sort_keys=True, default=str)


def referee_actions(data: st.DataObject, inputs: list[SensorInput]) -> list[RefereeAction]:
    """Corrections a referee makes during play: fouls, answers, removed strikes and balls, undo, added balls."""
    strikes = [i for i in inputs if i.event.kind == "strike"]
    balls = [i for i in inputs if i.event.kind == "pocket"]
    out: list[RefereeAction] = []
    for s in strikes[:4]:
        choice = data.draw(st.sampled_from(["foul", "confirm", "remove", "add", "none"]))
        t = s.at_ms + data.draw(st.sampled_from([300, 2500, 40000]))
        if choice == "foul":
            out.append(Kit.ref("foul", t, foul=data.draw(st.sampled_from(["miss", "touch"]))))
        elif choice == "confirm":
            out.append(Kit.ref("confirm", t, question=f"early_start:{item(s)}", answer="foul"))
        elif choice == "remove":
            out.append(Kit.ref("remove", t, item=item(s)))  # a bump: the shots are cut again without it
        elif choice == "add":
            out.append(Kit.ref("add_ball", t, pocket=data.draw(st.integers(1, 6))))
    for b in balls[:2]:
        if data.draw(st.booleans()):
            out.append(Kit.ref("confirm", b.at_ms + 20000, question=f"late_drop:{item(b)}",
                               answer=data.draw(st.sampled_from(["count", "new_shot", "return"]))))
    if inputs and data.draw(st.booleans()):
        out.append(Kit.ref("undo", inputs[-1].at_ms + 1000))
    return out


def arrive(inputs: list[HubInput]) -> TableSession:
    live = TableSession("t1", "free", ("Ivan", "Petr"), {})
    live.apply(Kit.ref("lag", 0, winner=0))
    for inp in inputs:
        try:
            live.apply(inp)
        except RefereeInputError:
            continue
    return live


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_refold_is_exactly_a_fold_in_time_order(data: st.DataObject) -> None:
    sensors = data.draw(matches())
    inputs: list[HubInput] = [*sensors, *referee_actions(data, sensors)]
    live = arrive(list(data.draw(st.permutations(inputs))))
    assert state(rederived(live)) == state(live)


def test_a_late_ball_at_shot_400_refolds_only_what_follows() -> None:
    k = Kit()
    inputs: list[HubInput] = [Kit.ref("lag", 0, winner=0)]
    for n in range(400):
        inputs.append(k.strike(1000 + 30000 * n, seat=None))
    s = arrive(inputs[1:])
    late = k.pocket(1000 + 30000 * 395 + 900, 3)  # a ball of shot 396, arriving after shot 400
    s.apply(late)
    assert (s.rewinds, s.refolded) == (1, 4)
    assert [p.id for p in s.shots[395].pockets] == [item(late)]
    assert state(s) == state(rederived(s))


def test_the_board_history_of_a_long_match_is_the_same_after_a_late_ball() -> None:
    """The screens' history rows carry running scores kept every 32 outcomes: a rewind makes them again."""
    k = Kit()
    inputs: list[HubInput] = []
    for n in range(120):
        inputs.append(k.strike(1000 + 30000 * n, seat=None))
        if n % 7 == 3 and n < 90:
            inputs.append(k.pocket(1000 + 30000 * n + 900, 1 + n % 6))
    s = arrive(inputs)
    before = enrich(s.scoreboard(), s)["history"]
    s.apply(k.pocket(1000 + 30000 * 40 + 900, 2))  # a ball of shot 41, late: every running sum after it changes
    history = enrich(s.scoreboard(), s)["history"]
    assert history == enrich(rederived(s).scoreboard(), rederived(s))["history"]
    assert history[-1]["scores"] == list(s.match.state.scores) and history != before


def _broken_sensor(monkeypatch: pytest.MonkeyPatch) -> None:
    real = fold_module.Fold._sensor

    def sensor(self: fold_module.Fold, inp: SensorInput, mark: object) -> None:
        if inp.event.kind == "pocket" and inp.event.get("pocket") == 6:
            raise KeyError("a bug")  # a deterministic bug on one kind of event
        real(self, inp, mark)  # type: ignore[arg-type]
    monkeypatch.setattr(fold_module.Fold, "_sensor", sensor)


def test_in_strict_mode_an_internal_error_is_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUZA_STRICT", "1")
    _broken_sensor(monkeypatch)
    k = Kit()
    s = arrive([k.strike(1000)])
    with pytest.raises(KeyError, match="a bug"):
        s.apply(k.pocket(1800, 6))


def test_an_internal_error_holds_scoring_with_an_alert_and_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUZA_STRICT", "0")
    _broken_sensor(monkeypatch)
    k = Kit()
    s = arrive([k.strike(1000), k.pocket(1800, 1)])
    s.apply(k.pocket(1900, 6))
    assert s.errors == 1 and s.status == "held" and len(s.log) == 4  # kept in the log, not skipped silently
    alert = next(a for a in s.alerts if a.kind == "internal_error")
    assert alert.severity == "error" and alert.shot == 1
    assert alert.en.startswith("Scoring held at shot 1: internal error — the referee can correct or undo")
    assert alert.ru.startswith("Подсчёт остановлен на ударе 1: внутренняя ошибка")
    s.apply(k.strike(20000))  # play goes on; the input is tried again whenever the fold passes it
    assert s.match.state.shots == 1 and s.status == "held"
    monkeypatch.undo()  # the bug is fixed (say, the hub restarted on a new version): a refold takes the input
    monkeypatch.setenv("LUZA_STRICT", "1")
    s.apply(k.pocket(1850, 2))  # a late ball of shot 1 takes the fold back past the failed input
    assert not s.faults and s.status == "live"
    assert [int(p.pocket) for p in s.shots[0].pockets] == [1, 2, 6] and s.match.state.scores == (3, 0)
