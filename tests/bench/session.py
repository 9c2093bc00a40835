"""Long matches in the hub's fold: `python -m tests.bench.session [--tables 16] [--shots 1500]` (prints, never asserts).

1. A club of `--tables` tables each plays `--shots` shots (a strike per shot, balls, a doubled strike now and
   then), all live in one process as in `luza serve`: per input, `apply` + the match's typed view and its JSON
   (what the service does per event); p50/p99 over all inputs and over the last 100 shots (is it flat?), and
   the process's RSS before and after (the hub's modules imported first, so the baseline is the service's).
2. Late inputs in a 400-shot match: one ball of shot 396 arriving after shot 400, one of shot 200, and 20 late
   balls of the last shots (a node's outbox after an outage);
   what each costs and how many inputs were refolded.

Targets (issue 13): 16 tables x 1,500 shots under 100 MB RSS, p99 per-input overhead <= 5 ms, a late event at
shot 400 < 10 ms.
"""  # noqa: E501

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from pathlib import Path

import hub.service.hub
import hub.web.app  # noqa: F401
from hub.reconcile.fold import HubInput
from hub.reconcile.table import TableSession
from hub.view.build import match_view, scoreboard
from tests.hub.tablekit import Kit


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def match_inputs(shots: int, seed: int, boot: int = 1) -> list[HubInput]:
    """A Free match's inputs in time order: a strike per shot, 14 balls spread over the match, a doubled
    strike (the cue bounced) every 50 shots. Nobody reaches the target, so every shot is scored."""
    rnd, k = random.Random(seed), Kit(boot)
    out: list[HubInput] = [k.ref("lag", 0, winner=0)]
    t, left = 1000, 14
    for i in range(shots):
        out.append(k.strike(t, seat=None))
        if i % 50 == 7:
            out.append(k.strike(t + 20, seat=None))
        if left and rnd.random() < 14 / shots:
            left -= 1
            out.append(k.pocket(t + 900, rnd.randint(1, 6), rnd.choice(["ivory", None])))
        t += rnd.randint(15000, 40000)
    return out


def percentile(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else 0.0


class FullCollections:
    """Time spent in the garbage collector's full (generation 2) collections: with a club's matches live, one
    scans every object, and that, not the fold, is the tail of the per-input times."""

    def __init__(self) -> None:
        self.count, self.ms, self._t0 = 0, 0.0, 0.0
        gc.callbacks.append(self._cb)

    def _cb(self, phase: str, info: dict[str, int]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._t0 = time.perf_counter()
        else:
            self.count += 1
            self.ms += (time.perf_counter() - self._t0) * 1e3

    def close(self) -> None:
        gc.callbacks.remove(self._cb)


def club(tables: int, shots: int) -> None:
    gc.collect()
    base = rss_mb()
    full = FullCollections()
    inputs = [match_inputs(shots, seed=t) for t in range(tables)]
    sessions = [
        TableSession(f"t{t + 1}", "free", ("Ivan", "Petr"), {"target": 1000}, match_id=t + 1)
        for t in range(tables)
    ]
    times: list[float] = []
    tail: list[float] = []
    n = max(len(x) for x in inputs)
    for i in range(n):  # round-robin over the tables, as a club's events arrive
        for s, ins in zip(sessions, inputs, strict=True):
            if i >= len(ins):
                continue
            t0 = time.perf_counter()
            s.apply(ins[i])
            match_view(s, 0).model_dump(mode="json")
            dt = (time.perf_counter() - t0) * 1e3
            times.append(dt)
            if i >= len(ins) - 100:
                tail.append(dt)
    full.close()
    gc.collect()
    total = sum(len(x) for x in inputs)
    print(
        f"club: {tables} tables x {shots} shots ({total} inputs), per input apply + scoreboard + enrich: "
        f"p50 {statistics.median(times):.2f} ms, p99 {percentile(times, 0.99):.2f} ms, max {max(times):.1f} "
        f"ms; last 100 shots p99 {percentile(tail, 0.99):.2f} ms (target p99 <= 5 ms)"
    )
    print(
        f"club: {full.count} full garbage collections took {full.ms:.0f} ms in all "
        f"(the slowest inputs are the ones they fell on)"
    )
    print(
        f"club: RSS {base:.1f} MB with the hub's modules, {rss_mb():.1f} MB with every match live "
        f"({(rss_mb() - base) * 1024 / total:.2f} KB per input, inputs included; target < 100 MB)"
    )


def late(shots: int = 400) -> None:
    inputs = match_inputs(shots, seed=99)
    strikes = [i.at_ms for i in inputs[1:] if getattr(getattr(i, "event", None), "kind", "") == "strike"]

    def fresh() -> TableSession:
        s = TableSession("t1", "free", ("Ivan", "Petr"), {"target": 1000})
        for inp in inputs:
            s.apply(inp)
        scoreboard(s)
        return s

    k = Kit(boot=7)
    for at in (shots - 5, shots // 2):
        s = fresh()
        t0 = time.perf_counter()
        s.apply(k.pocket(strikes[at - 1] + 900, 2))
        scoreboard(s)
        dt = (time.perf_counter() - t0) * 1e3
        print(
            f"late: a ball of shot {at} arriving after shot {shots}: {dt:.2f} ms (apply + scoreboard), "
            f"{s.refolded} inputs refolded (target < 10 ms at shot 400)"
        )
    s = fresh()
    t0 = time.perf_counter()
    for j in range(20):
        s.apply(k.pocket(strikes[shots - 21 + j] + 900, 1 + j % 6))
        scoreboard(s)
    dt = (time.perf_counter() - t0) * 1e3
    print(
        f"late: 20 late balls of shots {shots - 20}..{shots - 1} arriving after shot {shots}: {dt:.1f} ms in "
        f"all ({s.rewinds} rewinds, {s.refolded} inputs refolded, 0 re-derivations from the start)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=16)
    ap.add_argument("--shots", type=int, default=1500)
    a = ap.parse_args()
    late()
    club(a.tables, a.shots)


if __name__ == "__main__":
    main()
