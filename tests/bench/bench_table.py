"""How fast the hub's reconciliation folds inputs: `python3 -m
tests.bench.bench_table` (prints, never asserts).

Measures, for a long Free match played as hub inputs (strikes, balls, fouls, penalty choices):
- `apply` of one in-order input, and `apply` + `scoreboard()` (what the service does per event);
- a late input landing mid-match (a node's outbox after an outage):
  the fold goes back to it and forward again;
- rebuilding a whole match from its log (the hub's start-up).
"""

from __future__ import annotations

import random
import statistics
import time

from hub.reconcile.fold import HubInput
from hub.reconcile.table import TableSession
from hub.view.build import scoreboard
from tests.hub.tablekit import Kit


def free_match(shots: int, seed: int = 7) -> list[HubInput]:
    """A Free match's inputs in time order: 14 of the 16 balls fall over `shots` shots (no one reaches the
    target, so every shot is scored); some misses with a penalty ball (the choice read from the session)."""
    rnd, k = random.Random(seed), Kit()
    s = TableSession("t1", "free", ("Ivan", "Petr"), {"target": 1000})
    out: list[HubInput] = []

    def put(inp: HubInput) -> None:
        s.apply(inp)
        out.append(inp)

    put(k.ref("lag", 0, winner=0))
    t, left = 1000, 14
    for i in range(shots):
        seat = scoreboard(s)["to_play"]  # after the previous (still open) shot
        put(k.strike(t, seat=seat))
        if left and rnd.random() < 10 / shots:
            left -= 1
            put(k.pocket(t + 800, rnd.randint(1, 6), rnd.choice(["ivory", None])))
        elif left and i % 13 == 5:
            left -= 1
            put(k.ref("foul", t + 4000, foul="miss"))
            need = s.provisional().needs[0]  # type: ignore[union-attr]
            put(k.ref("choose", t + 8000, player=need.player, option="take_ball", ball=need.balls[-1]))
        t += rnd.randint(15000, 40000)
    return out


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def timed_fold(inputs: list[HubInput], board: bool) -> tuple[TableSession, list[float]]:
    s = TableSession("t1", "free", ("Ivan", "Petr"), {"target": 1000})
    times = []
    for inp in inputs:
        t0 = time.perf_counter()
        s.apply(inp)
        if board:
            scoreboard(s)
        times.append((time.perf_counter() - t0) * 1e3)
    return s, times


def main() -> None:
    inputs = free_match(200)
    for board in (False, True):
        s, times = timed_fold(inputs, board)
        what = "apply + scoreboard" if board else "apply          "
        print(
            f"{what} ({len(inputs)} inputs, {s.match.state.shots} shots): p50 {statistics.median(times):.3f} "
            f"ms, p99 {percentile(times, 0.99):.3f} ms, max {max(times):.3f} ms"
        )
    for shots in (25, 50, 100, 200):
        part = free_match(shots)
        s, _ = timed_fold(part, False)
        # mid-match: rewind to it, refold the rest
        late = Kit(boot=9).pocket(part[len(part) // 2].at_ms + 300, 1)
        t0 = time.perf_counter()
        s.apply(late)
        dt = (time.perf_counter() - t0) * 1e3
        t0 = time.perf_counter()
        TableSession.replay("t1", "free", ("Ivan", "Petr"), {"target": 1000}, part)
        rebuild = (time.perf_counter() - t0) * 1e3
        print(
            f"{shots:4d} shots ({len(part)} inputs): late input mid-match (rewind + refold of what follows) "
            f"{dt:.2f} ms, rebuild from log "
            f"{rebuild:.2f} ms"
        )


if __name__ == "__main__":
    main()
