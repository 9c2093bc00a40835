"""Random physical passages through a pocket throat, judged against the truth (issue 19, item 3).

Each passage is drawn from the first-principles throat model (tests/firmware/throat.py): one to three balls at
0.2-5 m/s, anywhere across the throat, alone, touching or a few mm apart, a fast one catching a slow one; a
net that is empty, full (the balls rest in the throat), soft (it brakes them), springy (they bounce, some back
out), or that gives way; a hand lifting a resting ball out; jitter and contact chatter, a flickering lamp on a
beam, a dead or stuck receiver, and a node that reboots during the passage. The node's detector
(firmware/pocket.py, through tests/firmware/fw_runner.py) reports balls in, balls out and flags; the hub
un-counts a ball for each `out` (hub/reconcile/throat.py),
so the node's count is ins - outs. Each run is one of:

* `right`: that count is the truth (flags or not);
* `flagged`: the count is wrong, but a flag (or a jam) says the referee must look (the hub asks or alerts,
  docs/firmware.md);
* `silent`: the count is wrong and nothing says so — the one outcome the detector must never give.

`python -m tests.firmware.passages [N] [SEED] [restarts]` runs N passages (default 10,000; `restarts`: the
node restarts during every one) and prints the rate of each outcome and of each flag;
tests/firmware/test_passages.py runs a seeded few hundred and requires 0 `silent`.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from firmware import doubt
from tests.firmware import fw_runner
from tests.firmware import throat as th


@dataclass(frozen=True)
class Passage:
    """One drawn passage: what to simulate, and whether the node boots in the middle of it."""

    balls: tuple[th.Fall, ...]
    kw: tuple[tuple[str, Any], ...]
    noise_seed: int | None
    boot_ms: float | None

    def describe(self) -> str:
        return f"balls={list(self.balls)} kw={dict(self.kw)} noise={self.noise_seed} boot={self.boot_ms}"


def draw(rng: random.Random) -> Passage:
    """One random passage from the physics model's space."""
    n = rng.choice((1, 1, 1, 2, 2, 3))
    balls: list[th.Fall] = []
    for i in range(n):
        v0, offset = rng.uniform(0.2, 5.0), rng.uniform(0.0, 20.0)
        if i and rng.random() < 0.5:  # touching the one before, or a few mm behind it
            lead = balls[i - 1].t_ms  # it starts with its leader, touching-plus-gap behind it
            balls.append(th.Fall(lead, v0, offset, behind=i - 1, gap=rng.choice((0.0, rng.uniform(0, 40)))))
        else:
            balls.append(
                th.Fall(100 + rng.uniform(0, 200) * i + 300 * i, v0, offset, after=i - 1 if i else None)
            )
    kw: dict[str, Any] = {"end_ms": 2500.0}
    net = rng.random()
    if net < 0.25:  # a full net: the pile's top in or under the beams
        kw["floor"] = rng.uniform(40, 160)
        if rng.random() < 0.4:
            kw["drop_ms"], kw["floor_to"] = rng.uniform(400, 1500), rng.choice((None, rng.uniform(80, 200)))
        if rng.random() < 0.2:
            kw["lift"], kw["end_ms"] = th.Lift(rng.uniform(1600, 2200), rng.uniform(0.2, 0.5)), 4000.0
    elif net < 0.4:  # springy: balls bounce off the pile, some back out of the pocket
        kw["floor"], kw["bounce"], kw["leaves"] = (
            rng.uniform(90, 160),
            rng.uniform(0.3, 0.9),
            rng.random() < 0.5,
        )
    elif net < 0.5:  # soft: the net brakes them
        kw["floor"], kw["brake"] = rng.uniform(60, 140), rng.uniform(0.005, 0.05)
    fault = rng.random()
    if fault < 0.05:
        kw["dead"] = rng.choice((0, 1))
    elif fault < 0.08:
        kw["stuck"] = rng.choice((0, 1))
    elif fault < 0.18:
        kw["flicker"] = th.Flicker(rng.choice((0, 1)), 0, rng.uniform(300, 2000), rng.uniform(5, 40))
    noise_seed = rng.randrange(1 << 30) if rng.random() < 0.5 else None
    boot_ms = rng.uniform(50, 700) if rng.random() < 0.05 else None
    return Passage(tuple(balls), tuple(sorted(kw.items(), key=lambda x: x[0])), noise_seed, boot_ms)


def vectors(p: Passage) -> tuple[dict[str, Any] | None, dict[str, Any], int]:
    """The passage simulated: (the vector of the node's life before a restart, or None; the vector the
    detector runs on; the true count). Vectors are `fw_runner.run_pocket`'s, the same under MicroPython."""
    kw = dict(p.kw)
    sim = th.simulate(list(p.balls), **kw)
    trace = sim.edges
    if p.noise_seed is not None:
        trace = th.noisy(trace, random.Random(p.noise_seed))
    vec: dict[str, Any] = {"edges": trace, "end": round((kw["end_ms"] + 2000) * 1000), "spacing_mm": 30.0}
    if p.boot_ms is None:
        return None, vec, sim.balls_in()
    boot_us = round(p.boot_ms * 1000)  # the node starts then: the levels at that moment, the later edges
    levels = [0, 0]
    for beam, level, t in trace:
        if t <= boot_us:
            levels[beam] = level
    vec.update(edges=[e for e in trace if e[2] > boot_us], start=levels, t0=boot_us)
    before = {"edges": [e for e in trace if e[2] <= boot_us], "end": boot_us, "spacing_mm": 30.0}
    return before, vec, sim.balls_in()


def judge(p: Passage) -> tuple[str, int, int, list[str]]:
    """Simulate, run the node's detector on it: (outcome, truth, the node's count, flags)."""
    before_vec, vec, truth = vectors(p)
    # what the node's previous life reported before it restarted was sent (its outbox keeps it over a reboot)
    before, said = (0, False) if before_vec is None else _net(fw_runner.run_pocket(before_vec))
    result = fw_runner.run_pocket(vec)
    kinds = [d[0] for d in result["det"]]
    flags = [doubt.FLAG_NAMES[d[3]] for d in result["det"] if d[0] == "flag"]
    count = before + kinds.count("pocket") - kinds.count("out")
    if count == truth:
        return "right", truth, count, flags
    # a jam is an alert on the hub too (hub/ingest/health.py), as loud as a flag; so is a ball counted on one
    # beam alone (single-beam evidence, after `dead`)
    loud = said or flags or "jam" in kinds or _alone(result) or result["counters"]["dropped"]
    return ("flagged" if loud else "silent"), truth, count, flags


def _net(result: dict[str, Any]) -> tuple[int, bool]:
    """(balls in - balls out, whether anything was flagged or jammed) of one detector run."""
    kinds = [d[0] for d in result["det"]]
    return kinds.count("pocket") - kinds.count("out"), "flag" in kinds or "jam" in kinds or _alone(result)


def _alone(result: dict[str, Any]) -> bool:
    """A ball counted on one beam alone (its detection's beam ONE_BEAM + the dead
    one): the hub alerts on it."""
    return any(d[0] == "pocket" and d[4] >= doubt.ONE_BEAM for d in result["det"])


def survey(n: int, seed: int, restarts: bool = False) -> tuple[Counter[str], Counter[str], list[str]]:
    """Outcomes and flags over `n` passages drawn with `seed`; the first few `silent` ones described.
    `restarts`: the node restarts during every passage (50-700 ms in), not one in twenty."""
    rng = random.Random(seed)
    when = random.Random(seed + 1)
    outcomes: Counter[str] = Counter()
    flags: Counter[str] = Counter()
    silent: list[str] = []
    for _ in range(n):
        p = draw(rng)
        if restarts and p.boot_ms is None:
            p = replace(p, boot_ms=when.uniform(50, 700))
        outcome, truth, count, fl = judge(p)
        outcomes[outcome] += 1
        flags.update(set(fl))
        if outcome == "silent" and len(silent) < 5:
            silent.append(f"truth {truth}, counted {count}: {p.describe()}")
    return outcomes, flags, silent


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 19
    restarts = sys.argv[3:] == ["restarts"]
    t0 = time.perf_counter()
    outcomes, flags, silent = survey(n, seed, restarts)
    took = time.perf_counter() - t0
    each = ", a restart in each" if restarts else ""
    print(f"pocket detector over {n:,} random physical passages (seed {seed}{each}, {took:.0f} s):")
    for k in ("right", "flagged", "silent"):
        print(f"  {k:8s} {outcomes[k]:6d}  {100 * outcomes[k] / n:6.2f} %")
    print(
        "  runs with each flag: "
        + ", ".join(f"{k} {v} ({100 * v / n:.1f} %)" for k, v in flags.most_common())
    )
    for s in silent:
        print("  SILENT: " + s)


if __name__ == "__main__":
    main()
