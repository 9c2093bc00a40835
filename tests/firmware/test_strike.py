"""The cue-strike detector on generated accelerometer traces; the same vectors under MicroPython."""

from __future__ import annotations

import pytest

from firmware import config, strike
from firmware.compat import isqrt
from hub.virtual import traces as tr
from tests.firmware import fw_runner
from tests.firmware import vectors as v


def run(script, **kw):
    return fw_runner.run_strike(v.strike_vector(script, **kw)[1])


@pytest.mark.parametrize("name", sorted(v.STRIKE_CASES))
@pytest.mark.parametrize("wrap", [False, True])
def test_strike_suite(name, wrap):
    script, doubles = v.STRIKE_CASES[name]
    result = run(script, seed=len(name), t0_us=v.NEAR_WRAP if wrap else 0)
    assert [s[2] for s in result["strikes"]] == doubles, result


def test_single_strike_time_and_peak():
    (s,) = run([tr.Strike(100, peak_g=8)])["strikes"]
    t, peak, double, gap = s
    assert 100_000 <= t <= 101_000  # first sample over the threshold
    assert 6_000 <= peak <= 8_200  # the 1.5 ms contact is sampled at 0.625 ms steps
    assert (double, gap) == (0, 0)


def test_double_hit_reports_gap_between_contacts():
    (s,) = run([tr.Strike(100, peak_g=8, double_gap_ms=12)])["strikes"]
    assert s[2] == 1 and 11_000 <= s[3] <= 13_000


def test_configurable_double_window():
    script = [tr.Strike(100, peak_g=8, double_gap_ms=30)]
    assert run(script)["strikes"][0][2] == 1
    assert run(script, double_max_ms=20)["strikes"][0][2] == 0


def test_knock_is_counted_not_reported():
    result = run([tr.Knock(100, peak_g=6)])
    assert result["strikes"] == [] and result["knocks"] == 1


def test_soft_touch_below_threshold_is_nothing():
    result = run([tr.Touch(100, peak_g=1.5)])
    assert result["strikes"] == [] and result["knocks"] == 0


def test_follow_through_inside_refractory_is_ignored():
    result = run([tr.Strike(100), tr.Strike(250)])
    assert len(result["strikes"]) == 1


def test_tilted_cue_gravity_is_tracked():
    d = strike.StrikeDetector()
    # cue held at 45 degrees: gravity split between x and z, no shock -> nothing
    for i in range(2000):
        d.sample(i * 625, 707, 0, 707)
    d.poll(2000 * 625 + 1_000_000)
    assert d.take() is None and d.idle()


def test_gravity_estimate_recovers_from_a_bad_start():
    d = strike.StrikeDetector()
    d.sample(0, 0, 0, 3000)  # first sample taken mid-swing: 2 g off
    for i in range(1, 3000):
        d.sample(i * 625, 0, 0, 1000)
    assert d.knocks == 0 and d.idle()
    t = 3000 * 625
    for i, x in enumerate((0, 6000, 8000, 2000, 0, 0)):
        d.sample(t + i * 625, x, 0, 1000)
    d.poll(t + 100_000)
    s = d.take()
    assert s is not None and s[1] >= 7000


def test_long_pulse_after_a_tip_contact_keeps_the_strike():
    d = strike.StrikeDetector()
    d.feed(0, 0)
    d.feed(1000, 9000)
    d.feed(2000, 0)  # tip contact ended
    for i in range(20):  # 10 ms later: a broad 20 ms push
        d.feed(12_000 + i * 1000, 4000)
    assert d.take() == (1000, 9000, 1, 11_000) and d.knocks == 0


def test_strike_waits_for_window_then_poll_emits():
    d = strike.StrikeDetector(double_max_ms=40)
    d.feed(0, 0)
    d.feed(1000, 9000)
    d.feed(2000, 0)
    assert d.take() is None
    d.poll(30_000)
    assert d.take() is None
    d.poll(41_001)
    assert d.take() == (1000, 9000, 0, 0)
    assert not d.idle()  # refractory
    d.poll(400_000)
    assert d.idle()


def test_isqrt_matches_floor_sqrt():
    for n in [*range(2000), 2**29, 2**30 - 1, 867_000_000]:
        r = isqrt(n)
        assert r * r <= n < (r + 1) * (r + 1)


def test_detector_from_config():
    cfg = config.merge(config.DEFAULTS, {"role": "cue", "cue": {"double_max_ms": 25}})
    d = strike.detector_from_config(cfg)
    assert d.double_max_us == 25_000 and d.on_mg == 3000


@pytest.mark.micropython
def test_same_vectors_identical_under_micropython(micropython):
    v.mp_identical(micropython, v.strike_vectors())
