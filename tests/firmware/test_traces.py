"""The trace generator (hub/virtual/traces.py): geometry, noise, wrap, determinism."""

from __future__ import annotations

import itertools

import pytest

from hub.virtual import traces as tr
from tests.firmware import vectors as v


def test_ball_geometry_upper_then_lower():
    edges = tr.beam_edges([tr.Ball(100, speed=2.0)], pockets=(1,))
    assert [(e.t_us, e.beam, e.level) for e in edges] == [
        (100_000, tr.UPPER, 1),
        (115_000, tr.LOWER, 1),
        (134_000, tr.UPPER, 0),
        (149_000, tr.LOWER, 0),
    ]


def test_out_is_lower_first():
    edges = tr.beam_edges([tr.Out(0)], pockets=(1,))
    assert [(e.beam, e.level) for e in edges] == [(1, 1), (0, 1), (1, 0), (0, 0)]


def test_hand_has_finger_gaps_shorter_than_debounce():
    edges = tr.beam_edges([tr.Hand(0, hold_ms=500)], pockets=(1,))
    upper = [e for e in edges if e.beam == tr.UPPER]
    assert len(upper) == 2 + 4 * 2
    gaps = [b.t_us - a.t_us for a, b in itertools.pairwise(upper) if a.level == 0 and b.level == 1]
    assert gaps and max(gaps) < 2000


def test_slots_and_codes():
    edges = tr.beam_edges([tr.Ball(0, pocket=6)], pockets=(2, 6))
    assert {e.slot for e in edges} == {1}
    assert edges[0].code == 1 << 2 | 0 << 1 | 1


def test_unknown_pocket_is_an_error():
    with pytest.raises(ValueError):
        tr.beam_edges([tr.Ball(0, pocket=3)], pockets=(1, 2))


def test_overlapping_blocks_on_one_beam_merge():
    edges = tr.beam_edges([tr.Ball(100), tr.Jam(110, hold_ms=1200)], pockets=(1,))
    upper = [(e.t_us, e.level) for e in edges if e.beam == tr.UPPER]
    assert upper == [(100_000, 1), (1_310_000, 0)]


def test_noise_is_deterministic_per_seed_and_reverts():
    script = [tr.Ball(100), tr.Ball(400)]
    a = tr.beam_edges(script, noise=v.NOISY, seed=1)
    assert a == tr.beam_edges(script, noise=v.NOISY, seed=1)
    assert a != tr.beam_edges(script, noise=v.NOISY, seed=2)
    assert len(a) > 8  # chatter added
    for beam in (0, 1):
        levels = [e.level for e in a if e.beam == beam]
        assert all(x != y for x, y in itertools.pairwise(levels))  # strictly alternating per beam


def test_times_wrap_like_ticks_us():
    edges = tr.beam_edges([tr.Ball(100), tr.Ball(300)], pockets=(1,), t0_us=tr.TICKS_PERIOD - 200_000)
    assert all(0 <= e.t_us < tr.TICKS_PERIOD for e in edges)
    assert edges[0].t_us > edges[-1].t_us  # the later ball is after the wrap


def test_expected_counts():
    script = [
        tr.Ball(0),
        tr.Bounce(1, pocket=2),
        tr.Rattle(2),
        tr.Hand(3),
        tr.Jam(4, hold_ms=1500),
        tr.Jam(5, hold_ms=500),
    ]
    assert tr.expected_ins(script) == {1: 1, 2: 1}
    assert tr.jams(script) == 1


def test_strike_samples_rate_gravity_and_clipping():
    samples = tr.strike_samples([tr.Strike(100, peak_g=40)], odr_hz=1600, duration_ms=200, noise_mg=0)
    assert len(samples) == 321 and samples[1].t_us - samples[0].t_us == 625
    assert all(s.z == 1000 and s.y == 0 for s in samples)
    assert max(s.x for s in samples) == 16_000  # clipped at the +-16 g range


def test_expected_strikes():
    assert tr.expected_strikes([tr.Strike(1), tr.Touch(2), tr.Knock(3), tr.Strike(4, double_gap_ms=9)]) == [
        (1, False),
        (4, True),
    ]


def test_colour_readings_bias_and_determinism():
    neutral = tr.colour_readings("ivory", 20, seed=3)
    warm = tr.colour_readings("ivory", 20, seed=3, bias=(1.3, 1.0, 1.0))
    assert neutral == tr.colour_readings("ivory", 20, seed=3)
    assert all(w[0] > n[0] for w, n in zip(warm, neutral, strict=True))
    assert all(0 <= c <= 65535 for r in neutral for c in r)
