"""Test vectors for the firmware logic, built from the trace generator (CPython side only).

Each builder returns [runner name, vector] as `fw_runner.run_all` takes it, so the same list runs on CPython
and, copied as JSON, under the real MicroPython.
"""

from __future__ import annotations

import functools
from typing import Any

from firmware import doubt
from hub.virtual import traces as tr
from tests.firmware import throat as th

WRAP = tr.TICKS_PERIOD
NEAR_WRAP = WRAP - 250_000  # 250 ms before the ticks wrap: every trace that starts here crosses it


def pocket_vector(
    script: list[Any],
    noise: tr.Noise | None = None,
    seed: int = 0,
    t0_us: int = 0,
    settle_ms: int = 3000,
    **settings: Any,
) -> list[Any]:
    edges = tr.beam_edges(script, pockets=(1,), noise=noise, seed=seed, t0_us=t0_us)
    last = max((h.t_ms for h in script), default=0) + 3000
    end = (t0_us + int((last + settle_ms) * 1000)) % WRAP
    vec = {"edges": [[e.beam, e.level, e.t_us] for e in edges], "end": end, **settings}
    return ["pocket", vec]


def strike_vector(
    script: list[Any], seed: int = 0, t0_us: int = 0, odr_hz: int = 1600, **cfg: Any
) -> list[Any]:
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
    "mixed_game": (
        [
            tr.Ball(100),
            tr.Rattle(700),
            tr.Hand(1500),
            tr.Ball(2600, speed=3.0),
            tr.Ball(2630, speed=3.0),
            tr.Out(3500),
            tr.Bounce(4200),
        ],
        4,
    ),
}


@functools.cache
def throat_cases() -> dict[str, tuple[list[Any], int, int, list[str]]]:
    """The hard cases of issue 11, from first principles (tests/firmware/throat.py): name -> (vector, balls
    counted, upward passages, flags raised). Each is counted right, or flagged for the referee."""
    F = th.Fall
    cases: dict[str, tuple[list[Any], int, int, list[str]]] = {}
    for v0 in (0.2, 1.0, 1.7, 3.0, 5.0):
        for off in (0, 10, 20):
            cases[f"one_ball_{v0}ms_off{off}"] = (th.vector([F(100, v0, off)]), 1, 0, [])
        for off in (0, 10):
            seen = ["bounce"] if (v0, off) == (0.2, 10) else []
            cases[f"two_touching_{v0}ms_off{off}"] = (
                th.vector([F(100, v0, off), F(100, v0, off, behind=0)]),
                2,
                0,
                seen,
            )
        # slow enough that both beams see the gap: the same edges as one ball bouncing back up into the upper
        # beam off a high pile and falling on (issue 19): two counted, and `bounce` ("check the count")
        seen = ["bounce"] if v0 < 3 else []
        cases[f"two_2mm_apart_{v0}ms"] = (
            th.vector([F(100, v0, 10), F(100, v0, 10, behind=0, gap=2)]),
            2,
            0,
            seen,
        )
    cases["fast_catches_slow"] = (th.vector([F(100, 0.3), F(100, 3.0, behind=0, gap=40)]), 2, 0, [])
    # 0.9 mm apart at 1.4 m/s: the upper beam sees light between them for just over
    # the debounce, the lower not
    cases["apart_on_upper_merged_on_lower"] = (
        th.vector([F(100, 1.424, 9.9), F(100, 1.424, 9.9, behind=0, gap=0.9)]),
        2,
        0,
        [],
    )
    # longer than two balls: one counted and `two` (a `two` flag always goes with one ball:
    # the hub asks "one or two?")
    cases["three_touching"] = (
        th.vector([F(100, 2.0), F(100, 2.0, behind=0), F(100, 2.0, behind=1)]),
        1,
        0,
        ["two"],
    )
    cases["spacing_25mm"] = (th.vector([F(100, 2.0), F(100, 2.0, behind=0)], spacing=25.0), 2, 0, [])
    cases["spacing_40mm"] = (th.vector([F(100, 0.5)], spacing=40.0), 1, 0, [])
    cases["bounces_back_out"] = (th.vector([F(100, 1.5)], floor=140, bounce=0.9, leaves=True), 1, 1, [])
    cases["bounces_out_falls_back"] = (th.vector([F(100, 1.5)], floor=110, bounce=0.75), 2, 1, [])
    cases["bounces_into_lower_only"] = (th.vector([F(100, 1.5)], floor=110, bounce=0.6), 1, 0, [])
    cases["flickering_lamp_upper"] = (
        th.vector([F(500, 2.0)], flicker=th.Flicker(0, 100, 1400)),
        1,
        0,
        ["noise"],
    )
    cases["flickering_ir_lower"] = (
        th.vector([F(500, 1.0)], flicker=th.Flicker(1, 100, 1400, 5, 900)),
        1,
        0,
        ["noise"],
    )
    seven = [F(100 + 200 * i, 2.0) for i in range(7)]
    # issue 19: a dead receiver is named with the first ball it misses (a one-beam block as short as a falling
    # ball's; for the lower beam alone, not within 2 s of a ball going in: that is a ball bouncing in the
    # net), and called dead at the fifth
    # declared dead at the fifth: from it on, balls are counted on the working beam alone (single-beam
    # evidence: `dead_beam_cases()`); within 2 s of one so counted,
    # a lower-only block may be its net bounce: asked
    cases["lower_receiver_dead"] = (th.vector(seven, dead=1), 3, 0, ["single"] * 4 + ["dead"])
    cases["lower_receiver_dead_first_ball"] = (th.vector([F(100, 1.0)], dead=1), 0, 0, ["single"])
    cases["lower_receiver_dead_slow_ball"] = (th.vector([F(100, 0.3)], dead=1), 0, 0, ["single"])
    cases["upper_receiver_dead"] = (
        th.vector(seven, dead=0),
        1,
        0,
        ["single"] * 4 + ["dead", "single", "single"],
    )
    cases["upper_receiver_dead_first_ball"] = (th.vector([F(100, 1.0)], dead=0), 0, 0, ["single"])
    cases["lower_receiver_stuck"] = (
        th.vector([F(1200, 2.0), F(1400, 2.0)], stuck=1, end_ms=2000),
        0,
        0,
        ["single", "single"],
    )
    cases["rests_in_upper_on_full_net"] = (
        th.vector([F(1200, 1.0)], floor=60, stuck=1, end_ms=2000),
        1,
        0,
        ["full"],
    )
    cases["rests_spanning_both_beams"] = (th.vector([F(100, 1.0)], floor=60), 1, 0, ["full"])
    cases["rests_in_lower_beam"] = (th.vector([F(100, 1.0)], floor=84), 1, 0, [])
    cases.update(resting_cases())
    cases.update(random_regressions())
    cases["reboot_ball_spanning"] = (th.after_boot([F(100, 0.5)], boot_ms=150), 1, 0, ["boot", "boot"])
    cases["reboot_ball_in_lower"] = (th.after_boot([F(100, 0.5)], boot_ms=190), 0, 0, ["boot"])
    return cases


def resting_cases() -> dict[str, tuple[list[Any], int, int, list[str]]]:
    """Balls that come to rest in the throat (issue 19): each counted once, from its passage, whatever its
    rest. A pile `floor` mm below the upper beam (55: a ball on it lies across both beams; 80: in the lower
    one only) that may give way or sag (`drop_ms`, `floor_to`); a hand lifting a resting ball out. On the main
    branch before issue 19 the pause made the ball's block look like two balls."""
    F = th.Fall
    slow = [F(100, 0.5)]
    pair = [F(100, 1.5), F(100, 1.5, behind=0)]
    return {
        # across both beams for 0.4 s, then the pile gives way: one ball, said to have rested
        "rest_slow_ball_across_the_lower_beam_then_drops": (
            th.vector(slow, floor=55, drop_ms=600),
            1,
            0,
            ["full"],
        ),
        # it cleared the upper beam moving: measured, one, nothing to say
        "rest_slow_ball_in_the_lower_beam_then_drops": (th.vector(slow, floor=80, drop_ms=700), 1, 0, []),
        # across both, then the pile settles and it lies in the lower beam; 2.4 s later a hand lifts it out
        "rest_then_lifted_out_by_hand": (
            th.vector(slow, floor=55, drop_ms=500, floor_to=85, lift=th.Lift(2500, 0.3), end_ms=4000),
            1,
            0,
            ["full"],
        ),
        "rest_across_both_beams_then_lifted_out_by_hand": (
            th.vector(slow, floor=55, lift=th.Lift(2500, 0.3), end_ms=4000),
            1,
            0,
            ["full"],
        ),
        # a full net: the ball stops on the pile across both beams, the net sags and it stays in the lower one
        "rest_on_a_full_net_that_sags": (
            th.vector([F(100, 1.0)], floor=50, drop_ms=500, floor_to=80, end_ms=2500),
            1,
            0,
            ["full"],
        ),
        # two touching balls stop one on the other, the upper across both beams: they look like one ball
        # resting there, so one is counted and the node says so (`full`: "if two went in together, add one")
        "rest_two_one_on_the_other_then_drop": (th.vector(pair, floor=110, drop_ms=700), 1, 0, ["full"]),
        "rest_two_one_on_the_other": (th.vector(pair, floor=110, end_ms=2500), 1, 0, ["full"]),
        # the upper one in the upper beam only: falling from there is further than one ball could; two
        "rest_two_one_in_each_beam_then_drop": (th.vector(pair, floor=75, drop_ms=700), 2, 0, []),
    }


def random_regressions() -> dict[str, tuple[list[Any], int, int, list[str]]]:
    """Passages the random survey (tests/firmware/passages.py) found counted wrong with no flag, one of each
    kind (issue 19); each was silent on the detector before it, and is now right or flagged. The model's truth
    is in the comment: what the node counts is the vector's expectation."""
    F = th.Fall
    springy = {"bounce": 0.6, "leaves": True, "end_ms": 2500}
    return {
        # truth 0: it goes down past the upper beam, bounces off the pile inside the lower one and leaves
        # upwards; the same edges as a second ball following it in: one counted, `bounce`
        "random_bounce_out_of_the_lower_beam": (
            th.vector([F(100, 3.539, 2.976)], floor=90.47, **{**springy, "bounce": 0.589}),
            1,
            0,
            ["bounce"],
        ),
        # truth 2: touching, the upper beam's 1.8 ms gap between them under the debounce, the lower's seen:
        # one ball bouncing between the beams gives the same; one counted, `two`
        "random_two_touching_upper_gap_lost": (
            th.vector([F(100, 4.957, 12.39), F(100, 4.555, 7.65, behind=0)], end_ms=2500),
            1,
            0,
            ["two"],
        ),
        # truth 1: a dead receiver, the ball rests on a full net in the other beam for 0.5 s (not a fall's
        # time), then the pile gives way; no passage had shown the dead receiver working: `single`
        "random_dead_upper_ball_rests_on_full_net": (
            th.vector(
                [F(100, 4.945, 18.37)], dead=0, floor=40.84, drop_ms=596.3, floor_to=174.2, end_ms=2500
            ),
            0,
            0,
            ["single"],
        ),
        "random_dead_lower_ball_rests_on_full_net": (
            th.vector([F(100, 3.862, 7.03)], dead=1, floor=42.13, drop_ms=700, floor_to=130.8, end_ms=2500),
            0,
            0,
            ["single"],
        ),
        # truth 0: the first bounces back up as the second comes in; both leave upwards, the second's blocks
        # hiding the first's: a deep rattle just after a ball went in, `bounce`
        "random_ball_from_below_hidden_by_one_from_above": (
            th.vector(
                [F(100, 3.061, 10.62), F(100, 2.235, 11.26, behind=0, gap=20.22)],
                floor=130.56,
                **{**springy, "bounce": 0.704},
            ),
            1,
            0,
            ["bounce"],
        ),
        # truth 1: as the second enters the upper beam the first bounces up into the lower one 1.7 ms later
        # (no ball falls 30 mm that fast): two objects at once, `bounce`
        "random_lower_blocks_too_soon_after_the_upper": (
            th.vector(
                [F(100, 2.222, 10.14), F(100, 0.684, 3.57, behind=0, gap=29.62)],
                floor=145.74,
                **{**springy, "bounce": 0.628},
            ),
            2,
            0,
            ["bounce"],
        ),
        # truth 2: the second rests on the first (which rests in the lower beam) for 0.7 s, then both drop:
        # its passage onto a resting ball cannot be measured (it looked like two stacked balls): one, `full`
        "random_falls_onto_a_resting_ball": (
            th.vector(
                [F(100, 3.457, 6.96), F(100, 0.335, 0.73, behind=0, gap=29.76)],
                floor=71.03,
                drop_ms=826.4,
                end_ms=2500,
            ),
            2,
            0,
            ["full"],
        ),
        # truth 3: the third catches the second falling from rest and is slowed in the beams (it looked like
        # the upper of two stacked balls): one, `two`
        "random_slowed_by_the_ball_below": (
            th.vector(
                [F(100, 2.024, 11.62), F(406.5, 1.058, 4.91, after=0), F(1008.1, 4.725, 15.09, after=1)],
                floor=149.27,
                drop_ms=939.2,
                end_ms=2500,
            ),
            3,
            0,
            ["two"],
        ),
        # a node that stops between a ball clearing the upper beam and the lower beam clearing (a restart) has
        # said the ball already
        # truth 1: the second ball bounces back up out of the pocket and the node restarts 0.9 ms after it
        # left the upper beam, inside the 2 ms debounce: that `out` dies unconfirmed with the old life, and
        # the ball falling back in is counted again (the old life said pocket, out, pocket). The new life's
        # first passage within 1 s of its start may be the rest of one it saw in part: `boot`
        "random_restart_inside_the_debounce": (RESTART_AFTER_OUT[1], 1, 0, ["boot"]),
        "random_restart_inside_the_debounce_before": (RESTART_AFTER_OUT[0], 2, 1, []),
        "random_stops_before_the_verdict": (
            ["pocket", {"edges": [[0, 1, 100_000], [1, 1, 110_000], [0, 0, 130_000]], "end": 140_000}],
            1,
            0,
            [],
        ),
    }


def _restart_after_out() -> tuple[list[Any], list[Any]]:
    """The survey's one silent run with seed 19 (issue 19):
    (the node's life before the restart, the one after)."""
    F = th.Fall
    balls = [
        F(100.0, 4.5153829086961546, 19.0130548478248),
        F(519.8238941776196, 3.4439710092750646, 5.357173226238738, after=0),
    ]
    kw = {"bounce": 0.4655130663632575, "end_ms": 2500.0, "floor": 135.427429335769, "leaves": True}
    trace = th.edges(balls, **kw)
    boot_us = 667041
    levels = [0, 0]
    for beam, level, t in trace:
        if t <= boot_us:
            levels[beam] = level
    before = {"edges": [e for e in trace if e[2] <= boot_us], "end": boot_us, "spacing_mm": 30.0}
    after = {
        "edges": [e for e in trace if e[2] > boot_us],
        "end": 4_500_000,
        "spacing_mm": 30.0,
        "start": levels,
        "t0": boot_us,
    }
    return ["pocket", before], ["pocket", after]


RESTART_AFTER_OUT = _restart_after_out()


def dead_beam_cases() -> dict[str, tuple[list[Any], int, int, list[str]]]:
    """A receiver dead or blind (issue 19, item 2): named with the first ball it misses (`single`), declared
    dead at the fifth one-beam passage in a row (`dead`), and from then on each one-beam passage as short as a
    fall is counted on the working beam alone, marked as single-beam evidence: name -> (vector, balls counted
    on both beams, balls counted on one beam, flags). A passage through both beams
    shows both working again."""
    F = th.Fall
    apart = [F(100 + 2500 * i, 2.0) for i in range(7)]  # 2.5 s apart: no ball is another's net bounce
    one = [[doubt.UPPER, 1, 100_000 + 1_000_000 * i] for i in range(6)]
    upper_only = sorted([*one, *[[doubt.UPPER, 0, e[2] + 40_000] for e in one]], key=lambda e: e[2])
    both = [[0, 1, 7_000_000], [1, 1, 7_015_000], [0, 0, 7_035_000], [1, 0, 7_047_000]]
    after = [[0, 1, 8_000_000], [0, 0, 8_040_000]]
    return {
        "dead_lower_counts_on_the_upper_beam": (
            th.vector(apart, dead=1, end_ms=16000),
            0,
            3,
            ["single"] * 4 + ["dead"],
        ),
        "dead_upper_counts_on_the_lower_beam": (
            th.vector(apart, dead=0, end_ms=16000),
            0,
            3,
            ["single"] * 4 + ["dead"],
        ),
        # six upper-only blocks as short as a fall: four asked, the fifth declares the lower beam dead and
        # counts, the sixth counts; then a ball through both beams (the lower works again), and an upper-only
        # block is asked once more, not counted
        "dead_lower_then_both_beams_again": (
            ["pocket", {"edges": [*upper_only, *both, *after], "end": 9_000_000}],
            1,
            2,
            ["single"] * 4 + ["dead", "single"],
        ),
    }


def overflow_vector() -> list[Any]:
    """Interference floods a stalled loop's 16-edge ring while a ball falls: the lost edges are reported."""
    edges = th.edges([th.Fall(300, 2.0)], flicker=th.Flicker(0, 100, 900, 2, 500))
    return [
        "ring",
        {
            "size": 16,
            "pockets": [1],
            "edges": [[b << 1 | lv, t] for b, lv, t in edges],
            "end": 5_000_000,
            "drain_every": 0,
        },
    ]


def pocket_vectors() -> list[tuple[str, list[Any]]]:
    """Every pocket case clean, noisy, and starting just before the ticks wrap; the throat cases."""
    out = []
    for name, (script, _n) in POCKET_CASES.items():
        out.append((name, pocket_vector(script)))
        out.append((name + "/noisy", pocket_vector(script, noise=NOISY, seed=len(name))))
        out.append((name + "/wrap", pocket_vector(script, noise=NOISY, seed=3, t0_us=NEAR_WRAP)))
    out += [("throat/" + name, case[0]) for name, case in throat_cases().items()]
    out += [("dead/" + name, case[0]) for name, case in dead_beam_cases().items()]
    out.append(("throat/overflow", overflow_vector()))
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


RUNNER_FILES = (
    "firmware/**/*.py",
    "luza_wire/*.py",
    "tests/__init__.py",
    "tests/firmware/__init__.py",
    "tests/firmware/fw_runner.py",
)

_MP_RUN = """
import json
from tests.firmware import fw_runner
with open('/vectors.json') as f:
    vectors = json.load(f)
print(json.dumps(fw_runner.run_all(vectors)))
"""


def mp_results(micropython: Any, vectors: list[list[Any]], timeout: float = 120) -> list[Any]:
    """fw_runner.run_all(vectors) under the real MicroPython."""
    import json

    got = micropython.run_json(
        _MP_RUN, RUNNER_FILES, extra={"/vectors.json": json.dumps(vectors)}, timeout=timeout
    )
    assert isinstance(got, list) and len(got) == len(vectors)
    return got


def mp_identical(micropython: Any, named: list[tuple[str, list[Any]]], timeout: float = 120) -> None:
    """Run the named vectors through fw_runner on CPython and under MicroPython; assert identical results."""
    import json

    from tests.firmware import fw_runner

    vectors = [vec for _name, vec in named]
    expected = json.loads(json.dumps(fw_runner.run_all(vectors)))
    got = micropython.run_json(
        _MP_RUN, RUNNER_FILES, extra={"/vectors.json": json.dumps(vectors)}, timeout=timeout
    )
    assert len(got) == len(expected)
    differ = [name for (name, _v), a, b in zip(named, expected, got, strict=True) if a != b]
    if differ:
        i = [n for n, _ in named].index(differ[0])
        raise AssertionError(
            f"MicroPython disagrees with CPython on: {differ}\nfirst: CPython {expected[i]!r}\n"
            f"MicroPython {got[i]!r}"
        )
