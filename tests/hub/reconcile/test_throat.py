"""A pocket node's `out` and `flag` events through the table session: un-counted balls, questions, alerts."""

from __future__ import annotations

from hub.view.build import scoreboard
from hub.vocab.inputs import SensorInput
from tests.hub.tablekit import Kit, item, session


def out(k: Kit, t: int, pocket: int) -> SensorInput:
    return k._event("out", f"pk-{pocket}", t, "pocket", None, 0, p=pocket, dur=60, bm=0)


def flag(k: Kit, t: int, pocket: int, why: str, beam: int = 0) -> SensorInput:
    return k._event("flag", f"pk-{pocket}", t, "pocket", None, 0, p=pocket, why=why, bm=beam)


def start(k: Kit) -> list:
    return [k.ref("lag", 500, winner=0), k.strike(1000)]


def test_a_ball_that_bounces_back_out_is_un_counted_with_an_alert() -> None:
    k = Kit()
    s = session("free", [*start(k), k.pocket(2500, 3, "ivory"), out(k, 2900, 3)])
    assert scoreboard(s)["scores"] == [0, 0]
    (alert,) = [a for a in s.alerts if a.kind == "ball_out"]
    assert "came back out" in alert.en and "выскочил" in alert.ru


def test_bounce_out_and_back_in_counts_one() -> None:
    k = Kit()
    s = session("free", [*start(k), k.pocket(2500, 3), out(k, 2700, 3), k.pocket(3100, 3)])
    assert scoreboard(s)["scores"] == [1, 0]


def test_a_ball_lifted_out_of_the_net_later_changes_nothing() -> None:
    k = Kit()
    s = session("free", [*start(k), k.pocket(2500, 3), out(k, 9000, 3)])
    assert scoreboard(s)["scores"] == [1, 0]
    assert not [a for a in s.alerts if a.kind == "ball_out"]


def test_maybe_two_balls_is_asked_and_two_counts_two() -> None:
    k = Kit()
    ball = k.pocket(2500, 4, "ivory")
    s = session("free", [*start(k), ball, flag(k, 2520, 4, "two")])
    assert scoreboard(s)["scores"] == [1, 0]  # one meanwhile
    (q,) = [q for q in s.questions if q.kind == "maybe_two"]
    assert q.options == ("one", "two") and q.default == "one" and q.item == item(ball)
    assert "One ball or two?" in q.en and "Один шар или два?" in q.ru
    s.apply(k.ref("confirm", 4000, question=q.id, answer="two"))
    assert scoreboard(s)["scores"] == [2, 0]
    assert not [q for q in s.questions if q.kind == "maybe_two"]


def test_sensor_flags_become_alerts_naming_pocket_and_beam() -> None:
    k = Kit()
    s = session("free", [*start(k), flag(k, 2000, 2, "noise", beam=1), flag(k, 2100, 5, "edges")])
    alerts = {a.kind: a for a in s.alerts}
    assert "lower beam" in alerts["sensor_noise"].en and "нижний луч" in alerts["sensor_noise"].ru
    assert alerts["sensor_edges"].severity == "warning" and "add it" in alerts["sensor_edges"].en
    assert scoreboard(s)["scores"] == [0, 0]


def test_a_passage_only_the_upper_beam_saw_is_asked_for_that_shot_and_ball_counts_it() -> None:
    """Issue 19: the node flags `single` (naming the lower beam) with the first ball its dead lower receiver
    misses; the hub asks about that shot, names pocket and beam in an alert, and "ball" counts it there."""
    k = Kit()
    s = session("free", [*start(k), flag(k, 2500, 3, "single", beam=1)])
    assert scoreboard(s)["scores"] == [0, 0]  # nothing counted meanwhile
    (q,) = [q for q in s.questions if q.kind == "single_beam"]
    assert q.options == ("ball", "nothing") and q.default == "nothing" and q.shot == 1
    assert "lower beam" in q.en and "upper beam" in q.en and "нижний луч" in q.ru and "Шар упал?" in q.ru
    alert = next(a for a in s.alerts if a.kind == "sensor_single")
    assert "lower beam" in alert.en and "нижний луч" in alert.ru
    s.apply(k.ref("confirm", 4000, question=q.id, answer="ball"))
    assert scoreboard(s)["scores"] == [1, 0]
    assert not [q for q in s.questions if q.kind == "single_beam"]


def test_nothing_answers_a_one_beam_passage_and_counts_nothing() -> None:
    k = Kit()
    s = session("free", [*start(k), flag(k, 2500, 3, "single", beam=1)])
    (q,) = [q for q in s.questions if q.kind == "single_beam"]
    s.apply(k.ref("confirm", 4000, question=q.id, answer="nothing"))
    assert scoreboard(s)["scores"] == [0, 0] and not [q for q in s.questions if q.kind == "single_beam"]


def test_a_bounce_flag_is_an_alert_naming_the_pocket_and_the_count_stands() -> None:
    """Issue 19: the node counted the passage as balls following each other and says one ball bouncing would
    count differently (`bounce`); the hub keeps the count and tells the referee to check that pocket."""
    k = Kit()
    s = session("free", [*start(k), k.pocket(2500, 3, "ivory"), flag(k, 2560, 3, "bounce")])
    assert scoreboard(s)["scores"] == [1, 0]
    (alert,) = [a for a in s.alerts if a.kind == "sensor_bounce"]
    assert alert.severity == "warning" and alert.shot == 1
    assert "bounced in the throat" in alert.en and "check the balls counted" in alert.en
    assert "отскочил в горловине" in alert.ru and "проверьте" in alert.ru
    assert alert.en.startswith("Shot 1:") and "pocket 3" in alert.en and "луза 3" in alert.ru


def one_beam(k: Kit, t: int, pocket: int, dead: int) -> SensorInput:
    """A ball the node counted on one beam alone after declaring the other
    (`dead`) dead: `bm` on the event."""
    return k._event("pocket", f"pk-{pocket}", t, "pocket", None, 0, p=pocket, dur=40, bm=dead)


def test_a_ball_counted_on_one_beam_counts_with_an_alert_naming_pocket_and_beam() -> None:
    """Issue 19, item 2: after `dead`, the node counts a ball on the working beam alone and marks it (`bm`,
    the dead beam); the hub counts it, alerts naming the pocket and the dead beam,
    and the referee can remove it."""
    k = Kit()
    ball = one_beam(k, 2500, 3, dead=1)
    assert ball.event.get("beam") == 1
    s = session("free", [*start(k), flag(k, 2400, 3, "dead", beam=1), ball])
    assert scoreboard(s)["scores"] == [1, 0]  # counted, not asked
    assert not [q for q in s.questions if q.kind == "single_beam"]
    dead = next(a for a in s.alerts if a.kind == "sensor_dead")
    assert "counted on the other beam alone" in dead.en and "по другому лучу" in dead.ru
    (alert,) = [a for a in s.alerts if a.kind == "sensor_alone"]
    assert alert.item == item(ball) and alert.severity == "warning" and alert.shot == 1
    assert "pocket 3" in alert.en and "one beam alone" in alert.en and "lower beam" in alert.en
    assert "луза 3" in alert.ru and "по одному лучу" in alert.ru and "нижний луч" in alert.ru
    s.apply(k.ref("remove", 4000, item=item(ball)))  # the referee says no ball went in
    assert scoreboard(s)["scores"] == [0, 0]
    assert not [a for a in s.alerts if a.kind == "sensor_alone"]


def test_a_ball_seen_by_both_beams_carries_no_single_beam_mark() -> None:
    k = Kit()
    ball = k.pocket(2500, 3, "ivory")
    assert ball.event.get("beam") is None and "beam" not in ball.event.fields
    s = session("free", [*start(k), ball])
    assert scoreboard(s)["scores"] == [1, 0] and not [a for a in s.alerts if a.kind == "sensor_alone"]


def test_a_boot_flag_asks_the_referee_to_check_the_count_both_ways() -> None:
    """Issue 19: `boot` also follows a passage that began right after a restart, which may be a ball counted
    twice (its `out` died with the old life): the alert says check, add or remove."""
    k = Kit()
    s = session("free", [*start(k), k.pocket(2500, 2), flag(k, 2560, 2, "boot")])
    assert scoreboard(s)["scores"] == [1, 0]
    (alert,) = [a for a in s.alerts if a.kind == "sensor_boot"]
    assert "restarted" in alert.en and "remove one it counted twice" in alert.en and "pocket 2" in alert.en
    assert "перезапустился" in alert.ru and "уберите" in alert.ru
