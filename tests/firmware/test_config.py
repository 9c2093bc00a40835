"""firmware/config.py: defaults, layering, and validation errors that name the key and the fix."""

from __future__ import annotations

import json

import pytest

from firmware import config

SITE = {"table": "club-1", "device": "pocket-a", "wifi": {"ssid": "club", "password": "pw"}}


def cfg(**changes):
    return config.merge(config.merge(config.DEFAULTS, SITE), changes)


def test_defaults_with_site_settings_are_valid():
    assert config.validate(cfg()) == []
    assert config.validate(cfg(role="cue")) == []


def test_merge_layers_nested_objects_without_touching_defaults():
    merged = config.merge(config.DEFAULTS, {"beam": {"jam_ms": 2000}, "pockets": []})
    assert (
        merged["beam"]["jam_ms"] == 2000
        and merged["beam"]["debounce_ms"] == config.DEFAULTS["beam"]["debounce_ms"]
    )
    assert merged["pockets"] == [] and config.DEFAULTS["beam"]["jam_ms"] == 1000


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"role": "referee"}, "role: is 'referee'; use one of pocket, cue"),
        ({"device": "Pocket A"}, "device: must be 1-32 of a-z, 0-9 and '-', got 'Pocket A'; e.g. 'node-1'"),
        (
            {"wifi": {"ssid": ""}},
            "wifi.ssid: must be a non-empty string, got ''; set the club's Wi-Fi network name"
            " (or serial.enabled)",
        ),
        (
            {"wfi": {}},
            "wfi: unknown setting; known: beam, broker, colour, cue, device, outbox, pockets, role, serial,"
            " table, tele_s, time_sync_s, wifi",
        ),
        ({"broker": {"port": 0}}, "broker.port: must be an integer 1..65535, got 0; e.g. 1883"),
        (
            {"broker": {"hots": "x"}},
            "broker.hots: unknown setting; known: host, keepalive, password, port, tls, user",
        ),
        ({"beam": {"ring": 48}}, "beam.ring: must be a power of two, got 48; e.g. 64"),
        ({"beam": {"debounce_ms": True}}, "beam.debounce_ms: must be a number 0..50, got True; e.g. 2"),
        (
            {"pockets": [{"pocket": 7, "upper": 1, "lower": 2, "colour": False}]},
            "pockets[0].pocket: must be 1..6, got 7; pockets are numbered 1-6 from the head end",
        ),
        (
            {"pockets": [{"pocket": 1, "upper": 40, "lower": 2, "colour": False}]},
            "pockets[0].upper: must be an ESP32 GPIO number 0..39, got 40; "
            "check the wiring table in hardware/",
        ),
        (
            {"pockets": [{"pocket": 1, "upper": 5, "lower": 6}, {"pocket": 1, "upper": 7, "lower": 5}]},
            "pockets[1].pocket: pocket 1 is listed twice; give each pocket one entry",
        ),
        (
            {"pockets": []},
            'pockets: must be a list of 1..6 pocket entries, got []; e.g. [{"pocket": 1, "upper": 32,'
            ' "lower": 33, "colour": false}]',
        ),
        ({"colour": {"scl": 36}}, "colour.scl: GPIO 36 is input-only; use a pin below 34"),
        ({"colour": {"gain": 3}}, "colour.gain: is 3; use one of 1, 4, 16, 60"),
        (
            {"colour": {"calibration": {"1": {"pink": [0.3, 0.3, 0.5, 0.02]}}}},
            "colour.calibration.1.pink: must be a known colour with [r, g, brightness, spread]; colours: "
            "ivory, yellow, blue, black, green, red; re-run `calibrate`",
        ),
        (
            {"serial": {"baud": 1234}},
            "serial.baud: is 1234; use one of 9600, 57600, 115200, 230400, 460800, 921600",
        ),
        ({"outbox": {"max": 0}}, "outbox.max: must be an integer 1..10000, got 0; e.g. 200"),
    ],
)
def test_each_problem_names_key_and_fix(changes, error):
    assert error in config.validate(cfg(**changes))


@pytest.mark.parametrize(
    ("cue", "error"),
    [
        ({"sensor": "mpu6050"}, "cue.sensor: is 'mpu6050'; use one of adxl345, lis3dh"),
        (
            {"release_g": 4.0},
            "cue.release_g: must be below cue.strike_g (3.0) for hysteresis; e.g. half of strike_g",
        ),
        (
            {"double_min_ms": 50, "double_max_ms": 40},
            "cue.double_max_ms: must be above cue.double_min_ms (50); e.g. 5 and 40",
        ),
        ({"odr_hz": 1000}, "cue.odr_hz: is 1000; use one of 100, 200, 400, 800, 1600, 3200"),
    ],
)
def test_cue_problems(cue, error):
    assert error in config.validate(cfg(role="cue", cue=cue))


def test_colours_are_the_wire_protocols():
    """A calibrated colour is checked against the wire protocol's colours (their one definition)."""
    from luza_wire import protocol

    assert (
        config.validate(cfg(colour={"calibration": {"1": {c: [1, 2, 3, 4] for c in protocol.COLOURS}}})) == []
    )
    errors = config.validate(cfg(colour={"calibration": {"1": {"purple": [1, 2, 3, 4]}}}))
    assert errors == [
        "colour.calibration.1.purple: must be a known colour with [r, g, brightness, spread]; "
        "colours: " + ", ".join(protocol.COLOURS) + "; re-run `calibrate`"
    ]


def test_serial_mode_needs_no_wifi():
    assert config.validate(cfg(wifi={"ssid": ""}, serial={"enabled": True})) == []


def test_not_an_object():
    assert config.validate([1]) == [
        "config: must be a JSON object {...}; start from firmware/config.py DEFAULTS"
    ]
    assert config.validate(cfg(beam=3))[0].startswith("beam: must be an object, got 3; e.g. {")


def test_load_file(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({**SITE, "beam": {"jam_ms": 50}}))
    loaded, errors = config.load(str(path))
    assert loaded["device"] == "pocket-a" and errors == [
        "beam.jam_ms: must be a number 100..60000, got 50; e.g. 1000"
    ]
    missing, errors = config.load(str(tmp_path / "none.json"))
    assert missing == config.DEFAULTS and "file not found" in errors[0]
    path.write_text("{oops")
    assert "not valid JSON" in config.load(str(path))[1][0]
    path.write_text("[]")
    assert config.load(str(path))[1] == [f"{path}: must hold a JSON object {{...}}"]


@pytest.mark.micropython
def test_same_errors_under_micropython(micropython):
    cases = [
        cfg(),
        cfg(role="cue", cue={"release_g": 4.0, "sensor": "x"}),
        cfg(wfi=1, beam={"ring": 48}),
        cfg(pockets=[{"pocket": 1, "upper": 5, "lower": 6}, {"pocket": 1, "upper": 7, "lower": 5, "x": 1}]),
        cfg(colour={"calibration": {"1": {"pink": [1, 2]}, "9": {}}}),
        [1],
    ]
    expected = [config.validate(c) for c in cases]
    code = (
        "import json\nfrom firmware import config\nwith open('/cases.json') as f:\n    cases = json.load(f)\n"
        "print(json.dumps([config.validate(c) for c in cases]))"
    )
    got = micropython.run_json(code, micropython.FIRMWARE, extra={"/cases.json": json.dumps(cases)})
    assert got == expected
