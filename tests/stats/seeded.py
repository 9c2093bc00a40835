"""Seeded matches for the statistics, played through a real Hub into a real SQLite store
(tests/export/matchkit.py): three registered players, a duplicate of one of them, a guest typed in by name.
Each stroke waits its own time after the balls stop, so the shot times differ; the hand count of every figure
is in tests/stats/test_figures.py.

    A  classic  Иван Петров (1) v Сергей Кузнецов (2)   71:8, Иван wins (the Classic script of the goldens)
    B  hundred  Anna Kozlova (3) v Иван Петров (1)      52:0, Anna wins (a referee-called foul by Иван)
    C  classic  Сергей Кузнецов (2) v «Гость» (typed)   ended after the break: unfinished
    D  classic  Ivan Petrov (4, a duplicate of 1) v Сергей Кузнецов (2): as A
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hub.stats import registry
from tests.export.matchkit import Clock, Table, open_hub

ROLL_MS = 12_000  # the hub's default: balls are taken to have stopped 12 s after the last strike or ball


def stroke(
    t: Table,
    seat: int,
    pots: tuple[int, ...] = (),
    call: tuple[int, int] | None = None,
    colour: str = "ivory",
    after_ms: int = 15_000,
) -> None:
    """The referee's call (1 s before the stroke), the stroke, the balls 0.8 s apart, then `after_ms`."""
    if call is not None:
        t.ref("declare", ball=call[0], pocket=call[1])
        t.wait(1000)
    t.strike(seat)
    for p in pots:
        t.wait(800)
        t.pot(p, colour)
    t.wait(after_ms)


def classic(t: Table, players: list[str], ids: list[int | None]) -> None:
    """Seat 0 breaks and pots (the referee names the ball 4), runs 15, misses 14; seat 1 pots 13 then the cue
    ball (classic 5.5); seat 0 runs 14, 12, 11, 10 and wins 71:8."""
    hub = t.hub
    t.ref("new_match", variant="classic", players=players, player_ids=ids)
    t.ref("lag", winner=0)
    t.wait(5000)
    stroke(t, 0, (5,), after_ms=15_000)
    hub.wait_idle()
    q = next(q for q in hub.state("t1")["match"]["questions"] if q["action"] == "identify")
    t.ref("identify", item=q["item"], ball=4)
    stroke(t, 0, (3,), (15, 3), after_ms=20_000)
    stroke(t, 0, (), (14, 2), after_ms=13_000)
    stroke(t, 1, (4,), (13, 4), after_ms=25_000)
    stroke(t, 1, (1,), (1, 1), colour="yellow", after_ms=15_000)
    stroke(t, 0, (2,), (14, 2), after_ms=15_000)
    stroke(t, 0, (6,), (12, 6), after_ms=16_000)
    stroke(t, 0, (3,), (11, 3), after_ms=15_000)
    stroke(t, 0, (5,), (10, 5), after_ms=15_000)
    t.ref("end_match")
    hub.wait_idle()


def hundred(t: Table, players: list[str], ids: list[int | None]) -> None:
    """Seat 0 pots 15, misses 14; seat 1 pots 13, then is called for a touch (hundred 19: the 13 goes back);
    seat 0 runs 14, 12, 11 and wins 52:0."""
    hub = t.hub
    t.ref("new_match", variant="hundred", players=players, player_ids=ids)
    t.ref("lag", winner=0)
    t.wait(5000)
    stroke(t, 0, (3,), (15, 3), after_ms=15_000)
    stroke(t, 0, (), (14, 2), after_ms=18_000)
    stroke(t, 1, (4,), (13, 4), after_ms=15_000)
    t.ref("declare", ball=12, pocket=5)
    t.wait(1000)
    t.strike(1)
    t.wait(600)
    t.ref("foul", foul="touch")
    t.wait(15_000)
    stroke(t, 0, (2,), (14, 2), after_ms=15_000)
    stroke(t, 0, (6,), (12, 6), after_ms=15_000)
    stroke(t, 0, (3,), (11, 3), after_ms=15_000)
    t.ref("end_match")
    hub.wait_idle()


def abandoned(t: Table, players: list[str], ids: list[int | None]) -> None:
    """Seat 0 breaks, nothing falls; the match is ended there."""
    t.ref("new_match", variant="classic", players=players, player_ids=ids)
    t.ref("lag", winner=0)
    t.wait(5000)
    stroke(t, 0, (), after_ms=15_000)
    t.ref("end_match")
    t.hub.wait_idle()


def seed(db: Path, clock: Clock | None = None) -> dict[str, Any]:
    """Register the players and play A, B, C, D into `db`; {name: player id}."""
    clock = clock or Clock()
    ivan = registry.add(db, {"name": "Иван Петров"}, clock.ms).id
    sergei = registry.add(db, {"name": "Сергей Кузнецов", "nickname": "Серый"}, clock.ms).id
    anna = registry.add(db, {"name": "Anna Kozlova", "club": "Luza"}, clock.ms).id
    dup = registry.add(db, {"name": "Ivan Petrov"}, clock.ms).id
    hub = open_hub(db, clock)
    try:
        t = Table(hub, clock)
        t.births()
        hub.wait_idle()
        classic(t, ["Иван Петров", "Сергей Кузнецов"], [ivan, sergei])
        t.wait(600_000)
        hundred(t, ["Anna Kozlova", "Иван Петров"], [anna, ivan])
        t.wait(600_000)
        abandoned(t, ["Сергей Кузнецов", "Гость"], [sergei, None])
        t.wait(600_000)
        classic(t, ["Ivan Petrov", "Сергей Кузнецов"], [dup, sergei])
    finally:
        hub.stop()
    return {"ivan": ivan, "sergei": sergei, "anna": anna, "dup": dup}
