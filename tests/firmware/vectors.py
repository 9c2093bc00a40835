"""Test vectors for the firmware logic, built from the trace generator (CPython side only).

Each builder returns [runner name, vector] as `fw_runner.run_all` takes it, so the same list runs on CPython
and, copied as JSON, under the real MicroPython.
"""

from __future__ import annotations

from typing import Any

from hub.virtual import traces as tr

WRAP = tr.TICKS_PERIOD
NEAR_WRAP = WRAP - 250_000  # 250 ms before the ticks wrap: every trace that starts here crosses it


def pocket_vector(script: list[Any], noise: tr.Noise | None = None, seed: int = 0, t0_us: int = 0,
                  settle_ms: int = 3000, **settings: Any) -> list[Any]:
    edges = tr.beam_edges(script, pockets=(1,), noise=noise, seed=seed, t0_us=t0_us)
    last = max((h.t_ms for h in script), default=0) + 3000
    end = (t0_us + int((last + settle_ms) * 1000)) % WRAP
    vec = {"edges": [[e.beam, e.level, e.t_us] for e in edges], "end": end, **settings}
    return ["pocket", vec]


def strike_vector(script: list[Any], seed: int = 0, t0_us: int = 0, odr_hz: int = 1600, **cfg: Any) -> list[Any]:
    samples = tr.strike_samples(script, odr_hz=odr_hz, seed=seed, t0_us=t0_us)
    end = (samples[-1].t_us + 1_000_000) % WRAP
    return ["strike", {"cfg": cfg, "samples": [[s.t_us, s.x, s.y, s.z] for s in samples], "end": end}]


NOISY = tr.Noise(jitter_us=200, chatter=0.7, pulses=3, chatter_us=400)

# name -> (script, expected IN count); the nasty-trace suite (docs/firmware.md lists these names)
POCKET_CASES: dict[str, tuple[list[Any], int]] = {
    "single_ball": ([tr.Ball(100)], 1),
    "fast_ball": ([tr.Ball(100, speed=5.0)], 1),
    "slow_ball": ([tr.Ball(100, speed=0.4)], 1),
    "two_balls_30ms_apart_fast": ([tr.Ball(100, speed=3.0), tr.Ball(130, speed=3.0)], 2),
    "two_balls_30ms_gap_slow": ([tr.Ball(100, speed=1.5), tr.Ball(175, speed=1.5)], 2),
    "rattle_deep_rolls_back_out": ([tr.Rattle(100, deep=True)], 0),
    "rattle_shallow_rolls_back_out": ([tr.Rattle(100, deep=False)], 0),
    "hand_reaches_in_and_out": ([tr.Hand(100, hold_ms=600)], 0),
    "hand_shallow": ([tr.Hand(100, hold_ms=300, deep=False)], 0),
    "ball_taken_out_from_below": ([tr.Out(100)], 0),
    "bounce_in_jaws_then_in": ([tr.Bounce(100)], 1),
    "ball_then_net_bounce": ([tr.Ball(100), tr.NetBounce(220)], 1),
    "jam_upper_1500ms": ([tr.Jam(100, hold_ms=1500)], 0),
    "jam_lower_full_net": ([tr.Ball(100), tr.Jam(200, hold_ms=2500, beam=tr.LOWER)], 1),
    "rattle_then_ball": ([tr.Rattle(100), tr.Ball(400)], 1),
    "mixed_game": ([tr.Ball(100), tr.Rattle(700), tr.Hand(1500), tr.Ball(2600, speed=3.0),
                    tr.Ball(2630, speed=3.0), tr.Out(3500), tr.Bounce(4200)], 4),
}


def pocket_vectors() -> list[tuple[str, list[Any]]]:
    """Every pocket case clean, noisy, and starting just before the ticks wrap."""
    out = []
    for name, (script, _n) in POCKET_CASES.items():
        out.append((name, pocket_vector(script)))
        out.append((name + "/noisy", pocket_vector(script, noise=NOISY, seed=len(name))))
        out.append((name + "/wrap", pocket_vector(script, noise=NOISY, seed=3, t0_us=NEAR_WRAP)))
    return out


STRIKE_CASES: dict[str, tuple[list[Any], list[int]]] = {
    "single_strike": ([tr.Strike(100, peak_g=8)], [0]),
    "hard_strike_clipped": ([tr.Strike(100, peak_g=20)], [0]),
    "double_hit_12ms": ([tr.Strike(100, peak_g=8, double_gap_ms=12)], [1]),
    "double_hit_6ms": ([tr.Strike(100, peak_g=8, double_gap_ms=6)], [1]),
    "double_hit_38ms": ([tr.Strike(100, peak_g=8, double_gap_ms=38)], [1]),
    "second_contact_after_window": ([tr.Strike(100, peak_g=8, double_gap_ms=60)], [0]),
    "soft_touch": ([tr.Touch(100)], []),
    "table_knock": ([tr.Knock(100)], []),
    "hard_table_knock": ([tr.Knock(100, peak_g=10, width_ms=25)], []),
    "two_strikes_apart": ([tr.Strike(100), tr.Strike(900, peak_g=6)], [0, 0]),
    "knock_then_strike": ([tr.Knock(100), tr.Strike(400)], [0]),
}


def strike_vectors() -> list[tuple[str, list[Any]]]:
    out = []
    for name, (script, _d) in STRIKE_CASES.items():
        out.append((name, strike_vector(script, seed=len(name))))
        out.append((name + "/wrap", strike_vector(script, seed=1, t0_us=NEAR_WRAP)))
    return out


RUNNER_FILES = ("firmware/**/*.py", "shared_rules/wire.py", "tests/__init__.py", "tests/firmware/__init__.py",
                "tests/firmware/fw_runner.py")

_MP_RUN = """
import json
from tests.firmware import fw_runner
with open('/vectors.json') as f:
    vectors = json.load(f)
print(json.dumps(fw_runner.run_all(vectors)))
"""


def mp_identical(micropython: Any, named: list[tuple[str, list[Any]]], timeout: float = 120) -> None:
    """Run the named vectors through fw_runner on CPython and under MicroPython; assert identical results."""
    import json

    from tests.firmware import fw_runner

    vectors = [vec for _name, vec in named]
    expected = json.loads(json.dumps(fw_runner.run_all(vectors)))
    got = micropython.run_json(_MP_RUN, RUNNER_FILES, extra={"/vectors.json": json.dumps(vectors)}, timeout=timeout)
    assert len(got) == len(expected)
    differ = [name for (name, _v), a, b in zip(named, expected, got, strict=True) if a != b]
    if differ:
        i = [n for n, _ in named].index(differ[0])
        raise AssertionError(f"MicroPython disagrees with CPython on: {differ}\nfirst: CPython {expected[i]!r}\n"
                             f"MicroPython {got[i]!r}")
