"""The shot clock from the sensors (issue 22, item 3; hub/reconcile/shotclock.py): it starts when the previous
shot has settled and stops at the cue strike; a shot struck after its time is a referee question (the rules
set no penalty for the time: general §26, slow play, where the regulation says so); extensions are counted per
frame. Everything comes from the inputs' times: the same log in any arrival order gives the same clock."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from hub import config
from hub.config import ShotTiming
from hub.export import build, load
from hub.reconcile.fold import HubInput
from hub.reconcile.shotclock import ShotClock, over_time, shot_ms
from hub.reconcile.table import TableSession, rederived
from hub.service.hub import Hub
from hub.store.database import Store
from hub.view.build import match_view
from hub.vocab.checks import RefereeInputError
from shared_rules import Foul
from tests.hub.nodes import Clock, Node
from tests.hub.service.test_service import T0, wait_for
from tests.hub.tablekit import Kit, item
from tests.support.broker import Mosquitto

CLOCK = ShotClock(limit_ms=45_000, extensions=1)


def session(inputs: list[HubInput], clock: ShotClock = CLOCK, variant: str = "free") -> TableSession:
    s = TableSession("t1", variant, ("Ivan", "Petr"), {}, clock=clock)
    for inp in inputs:
        s.apply(inp)
    return s


def state(s: TableSession) -> dict[str, Any]:
    """The match view's shot_clock, as screens get it (JSON)."""
    out: dict[str, Any] = match_view(s).shot_clock.model_dump(mode="json")
    return out


def opening(k: Kit) -> list[HubInput]:
    """The lag, then Ivan's break at 1 s with a ball at 2.5 s (free: he plays on)."""
    return [k.ref("lag", 500, winner=0), k.strike(1000), k.pocket(2500, 5, "ivory", 0.95)]


def test_the_clock_starts_when_the_previous_shot_has_settled() -> None:
    """The settle is min_shot_ms after the strike and pocket_settle_ms after the
    last ball (the §14.2 bound)."""
    k = Kit()
    s = session(opening(k))
    timing = ShotTiming()
    assert (
        s.shots[0].settled_at(timing)
        == max(1000 + timing.min_shot_ms, 2500 + timing.pocket_settle_ms)
        == 3500
    )
    c = state(s)
    assert c["on"] and c["running"] and c["shot"] == 2 and c["player"] == 0
    assert c["started_at"] == 3500 and c["expires_at"] == 3500 + 45_000 and c["limit_ms"] == 45_000
    assert c["warn_ms"] == 10_000 and c["last"] is None  # the break had nothing settled before it


def test_the_clock_stops_at_the_cue_strike_and_the_shot_keeps_its_time() -> None:
    k = Kit()
    s = session([*opening(k), k.strike(20_000)])
    shot = s.shots[1]
    assert shot.clock_from == 3500 and shot_ms(shot) == 16_500 and not over_time(shot)
    c = state(s)
    assert c["last"] == {"shot": 2, "shot_ms": 16_500, "allowed_ms": 45_000, "expired": False}
    assert c["started_at"] == 20_000 + 2000  # the next shot's clock: shot 2 settles 2 s after its strike
    assert shot_ms(s.shots[0]) is None


def test_balls_stopped_by_the_referee_start_the_clock_then() -> None:
    """close_shot ("balls stopped") before the hub's own settle starts the clock at the close."""
    k = Kit()
    s = session([k.ref("lag", 500, winner=0), k.strike(1000), k.ref("close_shot", 1800)])
    assert state(s)["started_at"] == 1800


def test_an_early_strike_took_no_time_and_is_the_section_14_2_question() -> None:
    k = Kit()
    s = session([*opening(k), k.strike(3000)])
    assert shot_ms(s.shots[1]) == 0
    assert any(q.kind == "early_start" for q in s.questions)


def test_a_pocket_opened_shot_has_no_shot_time() -> None:
    """Without a strike the hub does not know when the shot started: no time, no question."""
    k = Kit()
    s = session(
        [k.ref("lag", 500, winner=0), k.pocket(1000, 5, "ivory", 0.9), k.pocket(90_000, 3, "ivory", 0.9)]
    )
    assert [sh.opened_by for sh in s.shots] == ["pocket", "pocket"]
    assert shot_ms(s.shots[1]) is None and not any(q.kind == "shot_clock" for q in s.questions)


def expired(k: Kit) -> list[HubInput]:
    """Shot 2 struck 50 s after shot 1 settled: 5 s over a 45 s clock."""
    return [*opening(k), k.strike(53_500)]


def test_expiry_raises_a_referee_question_citing_general_26() -> None:
    k = Kit()
    s = session(expired(k))
    assert over_time(s.shots[1]) and state(s)["last"]["expired"] is True
    q = next(q for q in s.questions if q.kind == "shot_clock")
    strike = item(expired(Kit())[-1])
    assert q.id == f"shot_clock:{strike}" and q.action == "confirm" and q.shot == 2
    assert q.options == ("foul", "no_foul") and q.default == "no_foul" and q.cite == "general 26"
    assert q.player == 0 and "50 s" in q.en and "50 с" in q.ru and "§26" in q.en and "§26" in q.ru
    assert s.status == "live"  # a question, not a hold: the provisional shot counts as no foul


def test_the_referee_answers_the_expiry_with_the_regulation() -> None:
    """ "foul" is general §26's slow play (29.1(11)); "no_foul" leaves the shot as it was."""
    k = Kit()
    inputs = expired(k)
    qid = f"shot_clock:{item(inputs[-1])}"
    s = session(
        [
            *inputs,
            k.pocket(55_000, 3, "ivory", 0.9),
            k.ref("confirm", 60_000, question=qid, answer="foul"),
            k.strike(90_000, seat=1),
        ]
    )
    played = s.match.history[2]
    assert Foul.SLOW_PLAY in played.fouls  # type: ignore[union-attr]
    assert any(r.cite() == "general 26" for r in s.match.outcomes[2].reasons)
    assert not any(q.kind == "shot_clock" for q in s.questions)
    k2 = Kit()
    inputs2 = expired(k2)
    s2 = session(
        [
            *inputs2,
            k2.ref("confirm", 60_000, question=f"shot_clock:{item(inputs2[-1])}", answer="no_foul"),
            k2.strike(90_000, seat=1),
        ]
    )
    assert not s2.match.history[2].fouls  # type: ignore[union-attr]


def test_no_question_while_the_clock_is_off_but_the_time_is_still_kept() -> None:
    k = Kit()
    s = session(expired(k), clock=ShotClock())
    assert shot_ms(s.shots[1]) == 50_000 and not over_time(s.shots[1])
    assert not any(q.kind == "shot_clock" for q in s.questions)
    c = state(s)
    assert c["on"] is False and c["expires_at"] is None and c["last"]["shot_ms"] == 50_000


def test_an_extension_gives_the_shot_the_time_again() -> None:
    k = Kit()
    s = session([*opening(k), k.ref("extension", 30_000)])
    c = state(s)
    assert c["extended"] == 1 and c["expires_at"] == 3500 + 90_000 and c["extensions_left"] == [0, 1]
    s.apply(k.strike(53_500))  # 50 s: within 45 + 45
    assert s.shots[1].allowed_ms == 90_000 and not over_time(s.shots[1])
    assert not any(q.kind == "shot_clock" for q in s.questions)
    assert state(s)["extended"] == 0  # the next shot has its own time


def test_extensions_are_counted_per_player_per_frame() -> None:
    k = Kit()
    s = session([*opening(k), k.ref("extension", 30_000), k.strike(53_500)])
    with pytest.raises(RefereeInputError) as exc:
        s.apply(k.ref("extension", 60_000, player=0))
    assert "player 1 has no extension left" in exc.value.en and "не осталось продлений" in exc.value.ru
    s.apply(k.ref("extension", 61_000))  # shot 2 missed: Petr is to play, and he still has his
    assert state(s)["player"] == 1
    assert state(s)["extensions_left"] == [0, 0]
    # a frame is a session: the next one starts with every extension again (a race opens one per frame)
    assert state(session(opening(Kit())))["extensions_left"] == [1, 1]


def test_an_extension_is_refused_with_the_clock_off_or_before_the_first_shot() -> None:
    k = Kit()
    with pytest.raises(RefereeInputError, match="shot clock is off"):
        session([*opening(k), k.ref("extension", 30_000)], clock=ShotClock())
    with pytest.raises(RefereeInputError, match="not running"):
        session([Kit().ref("lag", 500, winner=0), Kit().ref("extension", 600)])


@pytest.mark.parametrize(
    ("clock", "field", "en", "ru"),
    [
        (
            {"limit_s": -5},
            "shot_clock.limit_s",
            "whole number from 0 to 600, got -5",
            "целое число от 0 до 600",
        ),
        ({"limit_s": 45, "extensions": 11}, "shot_clock.extensions", "from 0 to 10, got 11", "от 0 до 10"),
        ({"limit_s": True}, "shot_clock.limit_s", "got True", "получено True"),
        ({"seconds": 45}, "shot_clock", "limit_s", "секунд на удар"),
        (45, "shot_clock", "limit_s", "секунд на удар"),
    ],
)
def test_a_bad_shot_clock_setting_is_refused_in_both_languages(
    clock: object, field: str, en: str, ru: str
) -> None:
    with pytest.raises(RefereeInputError) as exc:
        Kit.ref("new_match", 0, variant="free", players=["Ivan", "Petr"], shot_clock=clock)
    assert exc.value.field == field and en in exc.value.en and ru in exc.value.ru


def test_the_setting_is_kept_as_checked() -> None:
    act = Kit.ref(
        "new_match",
        0,
        variant="free",
        players=["Ivan", "Petr"],
        shot_clock={"limit_s": 40, "extensions": 2, "extension_s": 20},
    )
    assert act.args["shot_clock"] == {"limit_s": 40, "extensions": 2, "extension_s": 20}
    clock = ShotClock.of_request(act.args["shot_clock"])
    assert clock == ShotClock(40_000, 2, 20_000) and clock.allowed(2) == 80_000
    assert ShotClock.of_snapshot({"shot_clock": clock.to_dict()}) == clock
    assert (
        ShotClock.of_snapshot({}) == ShotClock()
        and not ShotClock.of_request({"limit_s": 0, "extensions": 3}).on
    )


def script(k: Kit) -> list[HubInput]:
    """Ivan: an extension, shot 2 in 56.5 s, then shot 3 after 77.5 s (over); Petr: shot 4, a ball, an
    extension and shot 5 in 78 s (within 45 + 45)."""
    return [
        *opening(k),
        k.ref("extension", 30_000),
        k.strike(60_000),
        k.pocket(61_500, 2, "ivory", 0.9),
        k.strike(140_000),
        k.strike(150_000, seat=1),
        k.pocket(151_000, 3, "ivory", 0.9),
        k.ref("extension", 170_000),
        k.strike(230_000, seat=1),
    ]


def clocks(s: TableSession) -> list[tuple[int | None, int | None, bool]]:
    return [(sh.clock_from, shot_ms(sh), over_time(sh)) for sh in s.shots]


def test_the_clock_is_a_function_of_the_log_in_any_arrival_order() -> None:
    """A late ball (the node's outbox after an outage) moves the settle back where it belongs; the refold and
    a fold of the whole log from the start agree, and so does the state the screens get."""
    in_order = session(script(Kit()))
    inputs = script(Kit())
    late = inputs.pop(5)  # the ball at 61.5 s arrives after the strike that follows it
    s = session([*inputs[:6], late, *inputs[6:]])
    assert s.rewinds >= 1
    assert clocks(s) == clocks(in_order) == clocks(rederived(s))
    assert state(s) == state(in_order)
    assert [q.id for q in s.questions] == [q.id for q in in_order.questions]
    assert clocks(in_order) == [
        (None, None, False),
        (3500, 56_500, False),
        (62_500, 77_500, True),
        (142_000, 8000, False),
        (152_000, 78_000, False),
    ]
    assert [q.kind for q in in_order.questions if q.kind == "shot_clock"] == []  # shot 3's is two shots back
    assert state(in_order)["extensions_left"] == [0, 0]


def test_the_clock_starts_again_from_a_replay_of_the_stored_inputs() -> None:
    s = session(script(Kit()))
    again = TableSession.replay("t1", "free", ("Ivan", "Petr"), {}, s.log, clock=CLOCK)
    assert clocks(again) == clocks(s) and state(again) == state(s)


# ---------------------------------------------------------------- the hub: scripted nodes over a real broker


@pytest.mark.mosquitto
def test_the_hub_runs_the_clock_from_the_nodes_and_rebuilds_it(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    """A match with a 30 s clock and one extension: the cue node's strikes and the pocket node's ball start
    and stop it on the hub (retained state), the over-time strike asks the referee, a restarted hub rebuilds
    the same clock from the store, and the export keeps every shot's time."""
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    hub.submit(
        "t1",
        {
            "kind": "new_match",
            "args": {
                "variant": "free",
                "players": ["Ivan", "Petr"],
                "shot_clock": {"limit_s": 30, "extensions": 1},
            },
        },
    )
    clock.now = T0 + 100
    hub.submit("t1", {"kind": "lag", "winner": 0})
    cue, foot = Node(mosquitto.port, "t1", "cue-a", "cue"), Node(mosquitto.port, "t1", "p-foot", "pocket")
    sent = [
        (cue, cue.event("strike", T0 + 1000, pk=3.0)),
        (foot, foot.event("pocket", T0 + 2500, p=5, c="ivory", cf=0.9)),
    ]
    for node, payload in sent:
        node.send(payload)
    wait_for(lambda: hub.stats["accepted"] == 2)
    assert hub.wait_idle(5)
    c = hub.state("t1")["match"]["shot_clock"]
    assert (
        c["running"] and c["started_at"] == T0 + 3500 and c["expires_at"] == T0 + 33_500 and c["player"] == 0
    )
    clock.now = T0 + 20_000
    hub.submit("t1", {"kind": "extension"})
    assert hub.wait_idle(5)
    assert hub.state("t1")["match"]["shot_clock"]["expires_at"] == T0 + 63_500
    strikes = [cue.event("strike", T0 + 40_000, pk=3.0), cue.event("strike", T0 + 90_000, pk=3.0)]
    for payload in strikes:
        cue.send(payload)
    wait_for(lambda: hub.stats["accepted"] == 4)
    assert hub.wait_idle(5)
    m = hub.state("t1")["match"]
    assert m["shot_clock"]["last"] == {"shot": 3, "shot_ms": 48_000, "allowed_ms": 30_000, "expired": True}
    assert m["shot_clock"]["extensions_left"] == [0, 1]
    q = next(q for q in m["questions"] if q["kind"] == "shot_clock")
    assert (
        q["shot"] == 3
        and q["cite"] == "general 26"
        and [c["value"] for c in q["choices"]] == ["foul", "no_foul"]
    )
    before = json.loads(json.dumps(m["shot_clock"]))
    hub.stop()
    again = hubs(cfg, clock=clock)  # rebuilt from the log, with the clock from the match's settings
    assert again.state("t1")["match"]["shot_clock"] == before
    again.stop()
    store = Store(cfg.store.path, readonly=True)
    try:
        doc = build(load(store, 1))
    finally:
        store.close()
    assert doc["settings"]["shot_clock"] == {
        "limit_ms": 30_000,
        "extensions": 1,
        "extension_ms": 30_000,
        "warn_ms": 10_000,
    }
    assert [s["shot_ms"] for s in doc["shots"]] == [None, 36_500, 48_000]
    assert doc["shots"][1]["shot_clock"] == {"allowed_ms": 60_000, "extensions": 1, "expired": False}
    assert doc["shots"][2]["shot_clock"]["expired"] is True
    for n in (cue, foot):
        n.close()


@pytest.mark.mosquitto
def test_a_race_keeps_the_clock_in_every_frame_and_gives_the_extensions_again(
    cfg: config.Config, hubs: Callable[..., Hub]
) -> None:
    """A race to 2 with a 30 s clock and one extension per player per frame: Petr (to play after Ivan's empty
    break) uses his in frame 1; frame 2 (a
    new session, hub/reconcile/frames.py) has the same clock and every extension again; a restarted hub and
    the export fold each frame with the match's clock."""
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    hub.submit(
        "t1",
        {
            "kind": "new_match",
            "args": {
                "variant": "free",
                "players": ["Ivan", "Petr"],
                "race": {"race_to": 2},
                "shot_clock": {"limit_s": 30, "extensions": 1},
            },
        },
    )
    for kind, args in (("lag", {"winner": 0}), ("open_shot", {}), ("close_shot", {}), ("extension", {})):
        clock.now += 1000
        hub.submit("t1", {"kind": kind, **args})
    c = hub.state("t1")["match"]["shot_clock"]
    assert (
        c["on"]
        and c["running"]
        and c["player"] == 1
        and c["extended"] == 1
        and c["extensions_left"] == [1, 0]
    )
    with pytest.raises(RefereeInputError) as exc:  # one per frame, and Petr has used his
        hub.submit("t1", {"kind": "extension"})
    assert "player 2 has no extension left" in exc.value.en and "не осталось продлений" in exc.value.ru
    for kind, args in (("concede", {"player": 1}), ("next_frame", {})):
        clock.now += 1000
        hub.submit("t1", {"kind": kind, **args})
    m = hub.state("t1")["match"]
    assert m["race"]["frame"] == 2
    c = m["shot_clock"]
    assert c["on"] and c["limit_ms"] == 30_000 and c["extensions_left"] == [1, 1] and not c["running"]
    for kind in ("open_shot", "close_shot"):
        clock.now += 1000
        hub.submit("t1", {"kind": kind})
    before = hub.state("t1")["match"]["shot_clock"]
    assert before["running"] and before["expires_at"] == before["started_at"] + 30_000
    hub.stop()
    again = hubs(cfg, clock=clock)  # both frames rebuilt from the log, each with the match's clock
    assert again.state("t1")["match"]["shot_clock"] == before
    again.stop()
    store = Store(cfg.store.path, readonly=True)
    try:
        doc = build(load(store, 1))
    finally:
        store.close()
    frame1 = [s for s in doc["shots"] if s["frame"] == 1]
    assert frame1[0]["shot_clock"] == {"allowed_ms": 30_000, "extensions": 0, "expired": False}
