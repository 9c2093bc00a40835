"""Node settings: one DEFAULTS dict, the site's config.json layered on top, and `validate`.

`load()` reads /config.json (or the given path), merges it over DEFAULTS and returns (cfg, errors);
`validate(cfg)` returns a list of error strings, each naming the key, what is wrong and how to fix it, so the
node can print them on the serial console at boot and put the first one into its `status` message.
Runs on MicroPython and CPython (the hub's `luza firmware flash` validates node.json with it).
"""

import json

from firmware import pins
from luza_wire import frame, protocol

DEFAULTS = {  # type: dict
    "role": "pocket",  # "pocket" (beams, optional colour sensors) or "cue" (accelerometer)
    "table": "table-1",
    "device": "node-1",
    "wifi": {"ssid": "", "password": "", "hostname": ""},
    "broker": {
        "host": "192.168.4.1",
        "port": 1883,
        "user": "",
        "password": "",
        "keepalive": 30,
        "tls": False,
    },
    "serial": {"enabled": False, "baud": 115200},  # USB-serial gateway mode instead of Wi-Fi/MQTT
    # One entry per pocket this node serves: pocket number 1..6 and its two beam input pins.
    "pockets": [{"pocket": 1, "upper": pins.POCKET_UPPER, "lower": pins.POCKET_LOWER, "colour": False}],
    "beam": {
        "active_low": True,  # receiver output low when the beam is interrupted
        "debounce_ms": 2,  # shorter level changes are chatter
        "jam_ms": 1000,  # a beam blocked longer than this is a jam (issue 3)
        "ring": 64,  # edges the interrupt handler can buffer between two drains (power of two)
        "poll_ms": 20,
        "spacing_mm": 30,  # upper to lower beam as mounted (hardware/mounting.md): tells one ball from two
    },
    "colour": {
        "sda": pins.COLOUR_SDA,
        "scl": pins.COLOUR_SCL,
        "freq": 400000,
        "gain": 4,  # TCS34725 analogue gain: 1, 4, 16 or 60
        "atime_ms": 24,  # integration time per reading
        "min_conf": 0.5,  # below this the pocket event carries no colour
        "calibration": {},  # {"<pocket>": {"<colour>": [r, g, brightness, spread]}}, learned by `calibrate`
    },
    "cue": {
        "sensor": "adxl345",  # or "lis3dh"
        "sda": pins.CUE_SDA,
        "scl": pins.CUE_SCL,
        "int_pin": pins.CUE_INT,  # accelerometer interrupt (FIFO watermark / activity wake)
        "odr_hz": 1600,
        "range_g": 16,
        "strike_g": 3.0,  # contact starts at this magnitude (gravity removed)
        "release_g": 1.5,  # and ends below this (hysteresis)
        "max_contact_ms": 8,  # longer pulses are knocks, not tip contacts
        "double_min_ms": 5,  # second contact this soon after the first is the same contact ringing
        "double_max_ms": 40,  # second contact within this window is a double hit
        "refractory_ms": 300,
        "sleep_after_s": 30,  # idle this long -> light sleep until the activity interrupt
        "battery_pin": pins.CUE_BATTERY,
        "battery_divider": 2.0,
    },
    "tele_s": 30,
    "time_sync_s": 600,
    "outbox": {"max": 200, "flash": True},
}

# Roles, colours and ids have one definition, the wire protocol's (luza_wire.protocol, luza_wire.frame).
SENSORS = ("adxl345", "lis3dh")
GAINS = (1, 4, 16, 60)
ODRS = (100, 200, 400, 800, 1600, 3200)


def merge(base, site):
    """A new dict: `site` layered over `base`; nested dicts merge, everything else replaces."""
    out = {}
    for key in base:
        out[key] = base[key]
    for key in site:
        if key in out and isinstance(out[key], dict) and isinstance(site[key], dict):
            out[key] = merge(out[key], site[key])
        else:
            out[key] = site[key]
    return out


def load(path="/config.json"):
    """(cfg, errors): DEFAULTS with the file's settings on top. A missing or unreadable file is an error."""
    try:
        with open(path) as f:
            site = json.load(f)
    except OSError:
        return merge(DEFAULTS, {}), [
            "%s: file not found; copy a node.json there (luza firmware flash --config)" % path
        ]
    except ValueError as exc:
        return merge(DEFAULTS, {}), ["%s: not valid JSON (%s); fix the syntax" % (path, exc)]
    if not isinstance(site, dict):
        return merge(DEFAULTS, {}), ["%s: must hold a JSON object {...}" % path]
    cfg = merge(DEFAULTS, site)
    return cfg, validate(cfg)


class _Checker:
    """Collects errors; each check names the key, the problem and the fix."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.errors = []

    def fail(self, key, problem, fix):
        self.errors.append("%s: %s; %s" % (key, problem, fix))

    def section(self, name):
        sect = self.cfg.get(name)
        if not isinstance(sect, dict):
            self.fail(name, "must be an object, got %r" % (sect,), "e.g. %s" % json.dumps(DEFAULTS[name]))
            return None
        for key in sect:
            if key not in DEFAULTS[name]:
                self.fail(name + "." + key, "unknown setting", "known: " + ", ".join(sorted(DEFAULTS[name])))
        return sect

    def number(self, sect, name, lo, hi, integer=False):
        src = self.cfg if sect is None else self.cfg.get(sect)
        key = name if sect is None else sect + "." + name
        if not isinstance(src, dict):
            return None
        x = src.get(name)
        ok = isinstance(x, int) if integer else isinstance(x, (int, float))
        if not ok or isinstance(x, bool) or x < lo or x > hi:
            kind = "an integer" if integer else "a number"
            self.fail(
                key, "must be %s %s..%s, got %r" % (kind, lo, hi, x), "e.g. %r" % (_default(sect, name),)
            )
            return None
        return x

    def text(self, sect, name, allow_empty=True, fix=None):
        src = self.cfg if sect is None else self.cfg.get(sect)
        key = name if sect is None else sect + "." + name
        if not isinstance(src, dict):
            return None
        x = src.get(name)
        if not isinstance(x, str) or (not allow_empty and not x):
            what = "a string" if allow_empty else "a non-empty string"
            self.fail(key, "must be %s, got %r" % (what, x), fix or "e.g. %r" % (_default(sect, name),))
            return None
        return x

    def flag(self, sect, name):
        src = self.cfg.get(sect)
        if isinstance(src, dict) and not isinstance(src.get(name), bool):
            self.fail(
                sect + "." + name, "must be true or false, got %r" % (src.get(name),), "use true or false"
            )

    def choice(self, sect, name, options):
        src = self.cfg if sect is None else self.cfg.get(sect)
        key = name if sect is None else sect + "." + name
        if isinstance(src, dict) and src.get(name) not in options:
            self.fail(key, "is %r" % (src.get(name),), "use one of " + ", ".join(str(o) for o in options))

    def pin(self, key, x, output=False):
        if not isinstance(x, int) or isinstance(x, bool) or x not in pins.GPIOS:
            self.fail(
                key,
                "must be an ESP32 GPIO number 0..39, got %r" % (x,),
                "check the wiring table in hardware/",
            )
        elif output and x in pins.INPUT_ONLY:
            self.fail(key, "GPIO %d is input-only" % x, "use a pin below 34")


def _default(sect, name):
    return DEFAULTS[name] if sect is None else DEFAULTS[sect][name]


def validate(cfg):
    """Every problem with a merged config, as strings 'key: problem; fix'. Empty list = valid."""
    if not isinstance(cfg, dict):
        return ["config: must be a JSON object {...}; start from firmware/config.py DEFAULTS"]
    c = _Checker(cfg)
    for key in cfg:
        if key not in DEFAULTS:
            c.fail(key, "unknown setting", "known: " + ", ".join(sorted(DEFAULTS)))
    c.choice(None, "role", protocol.ROLES)
    for name in ("table", "device"):
        if not frame.valid_id(cfg.get(name)):
            c.fail(
                name,
                "must be 1-32 of a-z, 0-9 and '-', got %r" % (cfg.get(name),),
                "e.g. %r" % DEFAULTS[name],
            )
    _check_link(c)
    if cfg.get("role") == "cue":
        _check_cue(c)
    else:
        _check_pockets(c)
    c.number(None, "tele_s", 1, 3600)
    c.number(None, "time_sync_s", 10, 86400)
    if c.section("outbox") is not None:
        c.number("outbox", "max", 1, 10000, integer=True)
        c.flag("outbox", "flash")
    return c.errors


def _check_link(c):
    serial = c.section("serial")
    if serial is not None:
        c.flag("serial", "enabled")
        c.choice("serial", "baud", (9600, 57600, 115200, 230400, 460800, 921600))
    if c.section("wifi") is not None:
        c.text("wifi", "password")
        c.text("wifi", "hostname")
        if not (serial and serial.get("enabled") is True):
            c.text(
                "wifi", "ssid", allow_empty=False, fix="set the club's Wi-Fi network name (or serial.enabled)"
            )
    if c.section("broker") is not None:
        c.text("broker", "host", allow_empty=False)
        c.number("broker", "port", 1, 65535, integer=True)
        c.number("broker", "keepalive", 5, 3600, integer=True)
        c.text("broker", "user")
        c.text("broker", "password")
        c.flag("broker", "tls")


_EXAMPLE_POCKET = '{"pocket": 1, "upper": %d, "lower": %d, "colour": false}' % pins.SLOTS[0]


def _check_pockets(c):
    pockets = c.cfg.get("pockets")
    if not isinstance(pockets, list) or not 1 <= len(pockets) <= 6:
        c.fail(
            "pockets",
            "must be a list of 1..6 pocket entries, got %r" % (pockets,),
            "e.g. [%s]" % _EXAMPLE_POCKET,
        )
        pockets = []
    seen_pockets = []
    seen_pins = []
    for i, p in enumerate(pockets):
        key = "pockets[%d]" % i
        if not isinstance(p, dict):
            c.fail(key, "must be an object", "e.g. " + _EXAMPLE_POCKET)
            continue
        n = p.get("pocket")
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 6:
            c.fail(
                key + ".pocket", "must be 1..6, got %r" % (n,), "pockets are numbered 1-6 from the head end"
            )
        elif n in seen_pockets:
            c.fail(key + ".pocket", "pocket %d is listed twice" % n, "give each pocket one entry")
        seen_pockets.append(n)
        for beam in ("upper", "lower"):
            pin = p.get(beam)
            c.pin(key + "." + beam, pin)
            if pin in seen_pins:
                c.fail(
                    key + "." + beam,
                    "GPIO %r is already used by another beam" % (pin,),
                    "wire each beam to its own pin",
                )
            seen_pins.append(pin)
        if not isinstance(p.get("colour", False), bool):
            c.fail(key + ".colour", "must be true or false", "true if this pocket has a TCS34725")
        for extra in p:
            if extra not in ("pocket", "upper", "lower", "colour"):
                c.fail(key + "." + extra, "unknown setting", "known: pocket, upper, lower, colour")
    if c.section("beam") is not None:
        c.flag("beam", "active_low")
        c.number("beam", "debounce_ms", 0, 50)
        c.number("beam", "jam_ms", 100, 60000)
        c.number("beam", "poll_ms", 1, 1000)
        c.number("beam", "spacing_mm", 20, 45)
        ring = c.number("beam", "ring", 8, 1024, integer=True)
        if ring is not None and ring & (ring - 1):
            c.fail("beam.ring", "must be a power of two, got %d" % ring, "e.g. 64")
    if c.section("colour") is not None:
        c.pin("colour.sda", c.cfg["colour"].get("sda"), output=True)
        c.pin("colour.scl", c.cfg["colour"].get("scl"), output=True)
        c.number("colour", "freq", 10000, 1000000, integer=True)
        c.choice("colour", "gain", GAINS)
        c.number("colour", "atime_ms", 2.4, 614)
        c.number("colour", "min_conf", 0, 1)
        _check_calibration(c, c.cfg["colour"].get("calibration"))


def _check_calibration(c, cal):
    if not isinstance(cal, dict):
        c.fail("colour.calibration", "must be an object", "leave it {} and run `calibrate`")
        return
    for pocket in cal:
        colours = cal[pocket]
        key = "colour.calibration." + str(pocket)
        if pocket not in ("1", "2", "3", "4", "5", "6") or not isinstance(colours, dict):
            c.fail(
                key, "must be a pocket number '1'..'6' mapping colours", "re-run `calibrate` for that pocket"
            )
            continue
        for colour in colours:
            v = colours[colour]
            ok = isinstance(v, list) and len(v) == 4
            if ok:
                for x in v:
                    if not isinstance(x, (int, float)) or isinstance(x, bool) or x < 0:
                        ok = False
            if colour not in protocol.COLOURS or not ok:
                c.fail(
                    key + "." + str(colour),
                    "must be a known colour with [r, g, brightness, spread]",
                    "colours: " + ", ".join(protocol.COLOURS) + "; re-run `calibrate`",
                )


def _check_cue(c):
    if c.section("cue") is None:
        return
    cue = c.cfg["cue"]
    c.choice("cue", "sensor", SENSORS)
    c.pin("cue.sda", cue.get("sda"), output=True)
    c.pin("cue.scl", cue.get("scl"), output=True)
    c.pin("cue.int_pin", cue.get("int_pin"))
    c.pin("cue.battery_pin", cue.get("battery_pin"))
    c.choice("cue", "odr_hz", ODRS)
    c.choice("cue", "range_g", (2, 4, 8, 16))
    strike = c.number("cue", "strike_g", 0.5, 16)
    release = c.number("cue", "release_g", 0.1, 16)
    if strike is not None and release is not None and release >= strike:
        c.fail(
            "cue.release_g",
            "must be below cue.strike_g (%s) for hysteresis" % strike,
            "e.g. half of strike_g",
        )
    c.number("cue", "max_contact_ms", 1, 100)
    lo = c.number("cue", "double_min_ms", 1, 100)
    hi = c.number("cue", "double_max_ms", 2, 200)
    if lo is not None and hi is not None and lo >= hi:
        c.fail("cue.double_max_ms", "must be above cue.double_min_ms (%s)" % lo, "e.g. 5 and 40")
    c.number("cue", "refractory_ms", 0, 5000)
    c.number("cue", "sleep_after_s", 1, 3600)
    c.number("cue", "battery_divider", 1, 10)
