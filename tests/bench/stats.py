"""Statistics benchmark: 1,000 stored matches -> every player's figures (issue 22: under 2 s).

Run: `python -m tests.bench.stats [--matches N] [--players P] [--repeat R]`

The matches are played through a real Hub (no broker) into a real SQLite store on a fixed clock: P registered
players, each match between two of them drawn with a seeded random generator, one of the scripts of
tests/stats/seeded.py (a Classic match of 9 shots, a 100 points match with a called foul, a match ended after
the break). Then the figures of every player are computed two ways: cold (every match folded from its inputs:
what the first look after an upgrade costs; the web app does it in the background at start,
hub/web/routes_players.py) and warm (the facts of each match cached in `match_facts`: every look after that,
and after a new match only that one is folded). The best of `--repeat` runs is reported (the machine is
shared). Nothing asserts a time: it prints.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from hub.stats import registry
from hub.stats.compute import compute
from hub.stats.figures import leaderboard
from tests.export.matchkit import Clock, Table, open_hub
from tests.stats.seeded import abandoned, classic, hundred

GOAL_S = 2.0
NAMES = ("Иван", "Сергей", "Анна", "Ольга", "Пётр", "Мария", "Алексей", "Елена", "Дмитрий", "Наталья")
SURNAMES = ("Петров", "Кузнецов", "Смирнов", "Попов", "Соколов", "Лебедев", "Козлов", "Новиков")


def fill(db: Path, matches: int, players: int, seed: int = 22) -> float:
    """Register `players` and play `matches` into `db`; seconds it took."""
    rnd = random.Random(seed)
    clock = Clock()
    names = {
        registry.add(db, {"name": name}, clock.ms).id: name
        for name in (f"{rnd.choice(NAMES)} {rnd.choice(SURNAMES)} {i}" for i in range(players))
    }
    ids = sorted(names)
    start = time.perf_counter()
    hub = open_hub(db, clock)
    try:
        t = Table(hub, clock)
        t.births()
        hub.wait_idle()
        for _ in range(matches):
            a, b = rnd.sample(ids, 2)
            script = rnd.choices((classic, hundred, abandoned), weights=(5, 4, 1))[0]
            script(t, [names[a], names[b]], [a, b])
            t.wait(rnd.randint(60_000, 900_000))
    finally:
        hub.stop()
    return time.perf_counter() - start


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--players", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "luza.db"
        played = fill(db, args.matches, args.players)
        print(
            f"stored {args.matches} matches of {args.players} players in {played:.1f} s "
            f"({db.stat().st_size / 1e6:.1f} MB)"
        )
        cold = best(lambda: compute(db, use_cache=False), 1)
        first, run = compute(db)  # fills the cache
        warm = best(lambda: compute(db), args.repeat)
        again, _ = compute(db)
        same = leaderboard(first) == leaderboard(again)
        print(f"cold (every match folded):   {cold:.2f} s  ({cold / args.matches * 1000:.1f} ms a match)")
        print(
            f"warm (facts cached):         {warm:.3f} s  for {len(first.players)} players, "
            f"{first.counted} matches counted   goal < {GOAL_S:.0f} s: "
            f"{'met' if warm < GOAL_S else 'NOT met'}"
        )
        print(f"recomputed figures identical: {same}; folded on the first warm run: {run.folded}")


if __name__ == "__main__":
    main()
