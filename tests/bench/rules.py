"""Rules-engine throughput: replay random legal matches per registered variant and print shots/s.

Run: `python -m tests.bench.rules [--matches N] [--seed S] [--repeat R] [--profile VARIANT]`

The matches are generated first with a seeded `random.Random` (tests/rules/strategies.py), then replayed
through `Match.play` on fresh matches; only the replay is timed. The best of `--repeat` runs is reported
(the machine is shared). Target (docs/rules-engine.md): ≥ 50,000 shots/s on one core for every variant.
Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from shared_rules import VARIANTS, Input, Match, ShotReport
from tests.rules.strategies import random_inputs


def replay(variant: str, matches: list[list[Input]]) -> float:
    """Seconds to replay every match once."""
    start = time.perf_counter()
    for inputs in matches:
        m = Match.new(variant, ("A", "B"))
        play = m.play
        for inp in inputs:
            play(inp)
    return time.perf_counter() - start


def bench(variant: str, n_matches: int, seed: int, repeat: int) -> dict[str, float]:
    matches = [random_inputs(variant, seed + i) for i in range(n_matches)]
    shots = sum(1 for inputs in matches for i in inputs if type(i) is ShotReport)
    inputs = sum(len(x) for x in matches)
    replay(variant, matches[: max(1, n_matches // 10)])  # warm the effect cache and the interpreter
    best = min(replay(variant, matches) for _ in range(repeat))
    return {
        "matches": n_matches,
        "inputs": inputs,
        "shots": shots,
        "seconds": best,
        "shots_per_s": shots / best,
        "us_per_shot": best / shots * 1e6,
        "inputs_per_s": inputs / best,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=500)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--profile", metavar="VARIANT", help="profile the replay of one variant instead")
    args = p.parse_args(argv)
    if args.profile:
        matches = [random_inputs(args.profile, args.seed + i) for i in range(args.matches)]
        cProfile.runctx(
            "replay(v, ms)",
            globals(),
            {"v": args.profile, "ms": matches, "replay": replay},
            "/tmp/rules.prof",
        )
        pstats.Stats("/tmp/rules.prof").sort_stats("tottime").print_stats(20)
        return 0
    print(
        f"{'variant':<10} {'matches':>7} {'shots':>7} {'inputs':>7} {'shots/s':>10} "
        f"{'µs/shot':>8} {'inputs/s':>10}"
    )
    for name in sorted(VARIANTS):
        r = bench(name, args.matches, args.seed, args.repeat)
        print(
            f"{name:<10} {r['matches']:>7.0f} {r['shots']:>7.0f} {r['inputs']:>7.0f} "
            f"{r['shots_per_s']:>10,.0f} {r['us_per_shot']:>8.1f} {r['inputs_per_s']:>10,.0f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
