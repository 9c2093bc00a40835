"""The colour classifier and calibrator on generated TCS34725 readings; the same vectors under MicroPython."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware import colour, config
from hub.virtual import traces as tr
from tests.firmware import colour_scenario, fw_runner, mp
from tests.firmware import vectors as v

STAR = ("ivory", "yellow", "red", "blue", "green", "black")
WARM = (1.25, 1.0, 0.8)  # a pocket whose LED is warmer: everything reads redder
SCENARIO_SRC = (Path(__file__).parent / "colour_scenario.py").read_text()


def colour_vector(bias=WARM, calibrate=True, seed=0):
    cal = {}
    if calibrate:
        cal = {
            c: [list(r) for r in tr.colour_readings(c, 5, seed=seed + i, bias=bias)]
            for i, c in enumerate(STAR)
        }
    readings, truth = [], []
    for i, c in enumerate(STAR):
        for r in tr.colour_readings(c, 10, seed=100 + seed + i, bias=bias):
            readings.append(list(r))
            truth.append(c)
    return ["colour", {"calibrate": cal, "readings": readings}], truth


def test_defaults_classify_every_star_colour_on_a_neutral_pocket():
    vec, truth = colour_vector(bias=(1.0, 1.0, 1.0), calibrate=False)
    result = fw_runner.run_colour(vec[1])
    assert [c for c, _ in result["classes"]] == truth
    assert min(conf for _, conf in result["classes"]) >= 0.5


def test_calibration_fixes_a_biased_pocket():
    vec, truth = colour_vector(bias=WARM, calibrate=False)
    before = fw_runner.run_colour(vec[1])
    wrong_before = sum(c != t for (c, _), t in zip(before["classes"], truth, strict=True))
    vec, truth = colour_vector(bias=WARM, calibrate=True)
    after = fw_runner.run_colour(vec[1])
    assert [c for c, _ in after["classes"]] == truth
    assert wrong_before > 0  # the defaults alone are fooled by this pocket


def test_far_reading_is_no_colour():
    cl = colour.Classifier()
    assert cl.classify(0, 0, 60000, 60000) == (None, 0.0)  # pure blue light: no ball looks like that
    assert cl.classify(0, 0, 0, 0) == (None, 0.0)


def test_confidence_is_lower_between_two_colours():
    cl = colour.Classifier({"ivory": [0.37, 0.36, 0.6, 0.03], "yellow": [0.46, 0.41, 0.45, 0.03]})
    mid_r, mid_g = 0.415, 0.385
    s = 30000
    name, conf = cl.classify(int(mid_r * s), int(mid_g * s), int((1 - mid_r - mid_g) * s), 34000)
    assert name in ("ivory", "yellow") and conf < 0.8
    name, conf = cl.classify(*tr.colour_readings("ivory", 1, seed=1, noise=0.0)[0])
    assert name == "ivory" and conf > 0.95


COLOUR_TIMING = {
    # the ball's colour reaches the wire whether the detector loop runs 3 ms or 300 ms after the ball left
    "on_time": [[["pocket", 3, "blue"]], 0],
    "late_300ms": [[["pocket", 3, "blue"]], 0],
    "across_wrap": [[["pocket", 3, "blue"]], 0],
    "fast_ball": [[["pocket", 3, "blue"]], 0],  # 5 m/s: in view for less than one integration
    # a loop quicker than the sampler holds the ball until a reading has finished past its exit
    "held": [[[], 1], [["pocket", 3, "blue"]], 0],
    # a sampler that never reads (sensor gone): the ball goes out without colour after three periods
    "no_sampler": [[["pocket", 3, None]], 0],
    "log": [None, False, [2, 2, 2, 900], [3, 3, 3, 500], True, False, True, None, [4, 8]],
}


def test_colour_is_read_from_the_balls_own_window_however_late_the_loop():
    assert colour_scenario.scenario() == COLOUR_TIMING


@pytest.mark.micropython
def test_colour_timing_identical_under_micropython():
    mp.require()
    code = "import json, colour_scenario\nprint(json.dumps(colour_scenario.scenario()))"
    got = mp.run_json(code, mp.FIRMWARE, extra={"colour_scenario.py": SCENARIO_SRC})
    assert got == json.loads(json.dumps(COLOUR_TIMING))


def test_calibrator_learns_centroid_and_spread():
    k = colour.Calibrator(3, "green", balls=4)
    done = [k.add(*r) for r in tr.colour_readings("green", 4, seed=2)]
    assert done == [False, False, False, True]
    rn, gn, bri, spread = k.centroid()
    assert abs(rn - 0.24) < 0.02 and abs(gn - 0.50) < 0.02 and abs(bri - 0.22) < 0.03
    assert colour.MIN_SPREAD <= spread < 0.1


def test_calibrator_errors_are_clear():
    with pytest.raises(ValueError, match="at least 1 ball"):
        colour.Calibrator(1, "ivory", balls=0)
    with pytest.raises(ValueError, match="no readings yet for ivory in pocket 1"):
        colour.Calibrator(1, "ivory").centroid()


def test_classifier_for_uses_pocket_calibration():
    cfg = config.merge(config.DEFAULTS, {"colour": {"calibration": {"2": {"ivory": [0.5, 0.3, 0.5, 0.02]}}}})
    assert colour.classifier_for(cfg, 2).centroids["ivory"] == [0.5, 0.3, 0.5, 0.02]
    assert colour.classifier_for(cfg, 1).centroids["ivory"] == colour.DEFAULT_CENTROIDS["ivory"]
    assert config.validate({**cfg, "wifi": {**cfg["wifi"], "ssid": "club"}}) == []


@pytest.mark.micropython
def test_same_vectors_identical_under_micropython(micropython):
    named = []
    for seed in range(4):
        for bias in ((1.0, 1.0, 1.0), WARM):
            vec, _ = colour_vector(bias=bias, calibrate=seed % 2 == 0, seed=seed)
            named.append((f"colour/{seed}/{bias}", vec))
    v.mp_identical(micropython, named)
