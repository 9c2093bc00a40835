"""Sensor health: the nodes' telemetry counters in the registry,
and the alerts they raise (hub/ingest/health.py)."""

from __future__ import annotations

from hub import configfile
from hub.ingest.registry import Registry
from tests.hub.tablekit import Kit, session

CFG = configfile.parse(
    {"tables": [{"id": "t1", "pockets": {"pa": [1, 2], "pb": [3], "pc": [4]}, "cues": {"c0": 0}}]}
)


def kinds(r: Registry) -> dict[str, str]:
    return {a.kind + ":" + (a.item or ""): a.en for a in r.health("t1")}


def test_counters_are_kept_with_the_report_before() -> None:
    r = Registry(CFG)
    r.on_tele("pa", 1, {"up": 1000, "glitch": 3, "bu1": 4, "bl1": 4, "edrop": 0}, 10)
    r.on_tele("pa", 1, {"up": 2000, "glitch": 5, "bu1": 6, "bl1": 6, "edrop": 0}, 20)
    d = r.get("pa")
    assert d is not None and d.counters == {"glitch": 5, "bu1": 6, "bl1": 6, "edrop": 0}
    assert d.counters_before["glitch"] == 3
    r.on_tele("pa", 2, {"glitch": 0, "bu1": 0, "bl1": 0}, 30)  # rebooted: no rate across boots
    d = r.get("pa")
    assert d is not None and d.counters_before == {}
    assert r.health("t1") == []


def test_a_dead_lower_beam_is_named() -> None:
    r = Registry(CFG)
    r.on_tele("pa", 1, {"bu1": 6, "bl1": 0, "bu2": 3, "bl2": 3}, 10)
    (alert,) = r.health("t1")
    assert alert.kind == "beam_dead" and alert.id == "beam_dead:pa:1:1" and alert.item == "pa"
    assert "lower beam of pocket 1 (head left corner)" in alert.en and "Нижний луч" in alert.ru


def test_flicker_and_dropped_edges_raise_alerts() -> None:
    r = Registry(CFG)
    r.on_tele("pb", 1, {"glitch": 10, "bu3": 2, "bl3": 2, "edrop": 0}, 10)
    assert r.health("t1") == []
    r.on_tele("pb", 1, {"glitch": 75, "bu3": 2, "bl3": 2, "edrop": 12}, 20)
    alerts = {a.kind: a for a in r.health("t1")}
    assert "flickered 65 times" in alerts["beam_noisy"].en and "мерцали 65 раз" in alerts["beam_noisy"].ru
    assert "lost 12 beam signals" in alerts["edges_dropped"].en
    r.on_tele("pb", 1, {"glitch": 76, "bu3": 2, "bl3": 2, "edrop": 12}, 30)
    assert {a.kind for a in r.health("t1")} == {"edges_dropped"}  # the flicker stopped; lost edges stay


def test_a_pocket_silent_while_the_others_fire() -> None:
    r = Registry(CFG)
    r.on_tele("pc", 1, {"bu4": 2, "bl4": 2}, 10)
    r.on_tele("pa", 1, {"bu1": 0, "bl1": 0, "bu2": 0, "bl2": 0}, 10)
    r.on_tele("pb", 1, {"bu3": 0, "bl3": 0}, 10)
    assert r.health("t1") == []
    r.on_tele("pa", 1, {"bu1": 10, "bl1": 10, "bu2": 10, "bl2": 10}, 20)
    r.on_tele("pb", 1, {"bu3": 2, "bl3": 2}, 20)
    got = kinds(r)
    assert "pocket_silent:pc" in got and "44 times" in got["pocket_silent:pc"]
    r.on_tele("pc", 1, {"bu4": 3, "bl4": 3}, 30)  # it saw a ball: quiet again
    assert "pocket_silent:pc" not in kinds(r)


def test_jam_and_clear_name_their_beam() -> None:
    k = Kit()
    s = session("free", [k.ref("lag", 500, winner=0), k.strike(1000)])
    s.apply(k._event("jam", "pk-3", 2000, "pocket", None, 0, p=3, dur=1000, bm=1))
    (alert,) = [a for a in s.alerts if a.kind == "jam"]
    assert alert.en.startswith("The lower beam of pocket 3 (middle left) is blocked") and alert.ru.startswith(
        "Нижний луч"
    )
    s.apply(k._event("jam", "pk-3", 2100, "pocket", None, 0, p=3, dur=1000, bm=0))
    s.apply(k._event("clear", "pk-3", 3000, "pocket", None, 0, p=3, dur=1000, bm=1))
    (alert,) = [a for a in s.alerts if a.kind == "jam"]
    assert alert.en.startswith("The upper beam of pocket 3 (middle left)")
    s.apply(k._event("clear", "pk-3", 3100, "pocket", None, 0, p=3, dur=1000, bm=0))
    assert not [a for a in s.alerts if a.kind == "jam"]


def test_health_alerts_reach_the_session() -> None:
    k = Kit()
    s = session("free", [k.ref("lag", 500, winner=0), k.strike(1000)])
    r = Registry(CFG)
    r.on_tele("pa", 1, {"bu1": 6, "bl1": 0}, 10)
    s.health = tuple(r.health("t1"))
    assert [a.kind for a in s.alerts if a.kind == "beam_dead"] == ["beam_dead"]
