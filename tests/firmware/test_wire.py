"""The wire protocol (luza_wire/): round trips, every rejection with its reason, fuzz, MicroPython parity."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from luza_wire import envelope, node_events, protocol, resend, telemetry
from luza_wire.frame import Rejection
from luza_wire.messages import Answer, Command, Event, Status, Telemetry, Topic
from tests.firmware import wire_runner

DEV = "pocket-a"


def ev(**over):
    obj = {"v": 1, "k": "pocket", "d": DEV, "b": 3, "s": 17, "t": 1_780_000_000_123, "p": 2}
    obj.update(over)
    return json.dumps({k: v for k, v in obj.items() if v is not ...}).encode()


# ------------------------------------------------------------------ round trips


@pytest.mark.parametrize(
    ("kind", "fields", "parsed"),
    [
        (
            "pocket",
            {"p": 4, "c": "ivory", "cf": 0.93, "dur": 34},
            {"pocket": 4, "colour": "ivory", "conf": 0.93, "dur": 34},
        ),
        ("pocket", {"p": 1}, {"pocket": 1, "colour": None, "conf": None, "dur": None}),
        # counted on one beam alone (issue 19): `bm` names the dead beam; absent on a ball both beams saw
        (
            "pocket",
            {"p": 2, "dur": 40, "bm": 1},
            {"pocket": 2, "colour": None, "conf": None, "dur": 40, "beam": 1},
        ),
        ("strike", {"pk": 7.7, "dbl": True, "gap": 11.9}, {"peak": 7.7, "double": True, "gap": 11.9}),
        ("strike", {"pk": 5}, {"peak": 5, "double": False, "gap": None}),
        ("jam", {"p": 6, "dur": 1000}, {"pocket": 6, "dur": 1000, "beam": None}),
        ("jam", {"p": 6, "dur": 1000, "bm": 1}, {"pocket": 6, "dur": 1000, "beam": 1}),
        ("clear", {"p": 6, "dur": 1500, "bm": 0}, {"pocket": 6, "dur": 1500, "beam": 0}),
        ("out", {"p": 2, "dur": 60, "bm": 0}, {"pocket": 2, "dur": 60, "beam": 0}),
        ("flag", {"p": 3, "why": "two", "bm": 0}, {"pocket": 3, "dur": None, "beam": 0, "why": "two"}),
        (
            "calib",
            {"p": 3, "c": "red", "rgb": [900, 300, 250, 1600]},
            {"pocket": 3, "colour": "red", "conf": None, "dur": None, "rgb": [900, 300, 250, 1600]},
        ),
    ],
)
def test_event_round_trip(kind, fields, parsed):
    payload = protocol.encode_event(kind, DEV, 3, 17, 1_780_000_000_123, **fields)
    e = protocol.parse("evt", payload, DEV)
    assert isinstance(e, Event)
    assert (e.kind, e.key, e.t, e.synced) == (kind, (DEV, 3, 17), 1_780_000_000_123, True)
    assert e.fields == parsed


def test_unsynced_event_and_none_fields_left_out():
    payload = protocol.encode_event("pocket", DEV, 1, 2, 5000, synced=False, p=1, c=None)
    assert json.loads(payload) == {"v": 1, "k": "pocket", "d": DEV, "b": 1, "s": 2, "t": 5000, "u": 1, "p": 1}
    e = protocol.parse_event(payload)
    assert isinstance(e, Event) and e.synced is False and e.get("colour") is None


def test_an_event_carries_the_node_uptime_and_restamping_keeps_it():
    payload = protocol.encode_event("pocket", DEV, 1, 2, 5000, synced=False, up=5000, p=1)
    e = protocol.parse_event(payload)
    assert (
        isinstance(e, Event)
        and e.up == 5000
        and e.fields == {"pocket": 1, "dur": None, "colour": None, "conf": None}
    )
    moved = protocol.parse_event(node_events.restamp_event(payload, 1, 1_700_000_000_000))
    assert isinstance(moved, Event) and (moved.t, moved.up, moved.synced) == (1_700_000_005_000, 5000, True)
    # no `up`: older
    old = protocol.parse_event(protocol.encode_event("pocket", DEV, 1, 3, 1_700_000_006_000, p=1))
    assert isinstance(old, Event) and old.up is None


def test_status_round_trip():
    s = protocol.parse("status", protocol.encode_status("online", 4, fw="0.1.0", ip="10.0.0.7", role="cue"))
    assert isinstance(s, Status)
    assert (s.state, s.boot, s.fw, s.ip, s.role, s.error, s.ota) == (
        "online",
        4,
        "0.1.0",
        "10.0.0.7",
        "cue",
        None,
        None,
    )
    err = protocol.parse("status", protocol.encode_status("error", 4, error="pockets[0].upper: bad pin"))
    assert isinstance(err, Status) and err.error == "pockets[0].upper: bad pin"
    lost = protocol.parse("status", b'{"v": 1, "st": "lost"}')  # a Last Will need not know the boot
    assert isinstance(lost, Status) and lost.boot is None


def test_status_carries_an_update_and_keeps_only_its_known_keys():
    ota = {"st": "fetch", "r": "0.2.0-1f2e3d4c", "to": "0.2.0", "n": 3, "of": 27, "extra": 1}
    s = protocol.parse("status", protocol.encode_status("online", 4, fw="0.1.0", ota=ota))
    assert isinstance(s, Status) and s.ota == {
        "st": "fetch",
        "r": "0.2.0-1f2e3d4c",
        "to": "0.2.0",
        "n": 3,
        "of": 27,
    }
    back = protocol.parse(
        "status", protocol.encode_status("online", 5, ota={"st": "rolled_back", "r": "x", "err": "crash"})
    )
    assert isinstance(back, Status) and back.ota == {"st": "rolled_back", "r": "x", "err": "crash"}


def test_tele_round_trip_keeps_known_fields_only():
    t = protocol.parse(
        "tele", telemetry.encode_tele(4, up=1000, heap=81234, rssi=-61, bat=3.9, ob=0, drop=0, extra=5)
    )
    assert isinstance(t, Telemetry)
    assert t.boot == 4 and t.fields == {
        "up": 1000,
        "heap": 81234,
        "rssi": -61,
        "bat": 3.9,
        "ob": 0,
        "drop": 0,
    }


def test_tele_carries_the_health_counters():
    t = protocol.parse(
        "tele", telemetry.encode_tele(2, glitch=40, edrop=3, bu3=12, bl3=0, outs=1, strikes=9, rej=1)
    )
    assert isinstance(t, Telemetry)
    assert t.fields == {"glitch": 40, "edrop": 3, "bu3": 12, "bl3": 0, "outs": 1, "strikes": 9, "rej": 1}
    assert isinstance(protocol.parse("tele", telemetry.encode_tele(2, bu3=-1)), Rejection)


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("time", {"hub": 1_780_000_000_000}),
        ("identify", {"s": 5}),
        ("identify", {}),
        ("config", {"set": {"tele_s": 10}}),
        ("reboot", {}),
        ("stored", {"b": 2, "s": 40}),
        ("stored", {"b": 2, "s": 0}),
        ("resend", {"b": 2, "lo": 3, "hi": 9}),
        ("ota", {"r": "0.2.0-1f2e3d4c", "port": 8000}),
        ("ota", {"r": "0.2.0-1f2e3d4c", "port": 80, "host": "10.0.0.2"}),
        ("ota", {"r": "cfg-00aa", "do": "swap"}),
        ("ota", {"r": "cfg-00aa", "do": "cancel"}),
    ],
)
def test_command_round_trip(name, args):
    c = protocol.parse("cmd", protocol.encode_command(name, 9, **args))
    assert isinstance(c, Command) and (c.name, c.cid, c.args) == (name, 9, args)


def test_answer_to_resend_round_trip_and_gone_ranges_capped():
    a = protocol.parse("ans", resend.encode_answer("resend", 7, 2, 3, 40, [(3, 4), (9, 9)], 30))
    assert isinstance(a, Answer)
    assert (a.re, a.cid, a.boot, a.lo, a.hi, a.gone, a.sent) == ("resend", 7, 2, 3, 40, [(3, 4), (9, 9)], 30)
    many = [(i, i) for i in range(1, 60, 2)]
    capped = protocol.parse("ans", resend.encode_answer("resend", 0, 1, 1, 100, many, 0))
    assert isinstance(capped, Answer) and capped.gone == many[: resend.MAX_GONE]
    assert resend.runs([1, 2, 3, 7, 9, 10]) == [(1, 3), (7, 7), (9, 10)]


def test_serial_envelope_round_trip_and_rejections():
    line = envelope.encode_serial(
        "luza/v1/t1/p-head/evt", protocol.encode_event("pocket", "p-head", 1, 2, 5, p=1)
    )
    assert line.endswith("\n") and json.loads(line)["payload"]["s"] == 2
    topic, payload = envelope.parse_serial(line.encode())
    assert topic == "luza/v1/t1/p-head/evt" and isinstance(protocol.parse("evt", payload, "p-head"), Event)
    assert envelope.parse_serial(b'{"topic": "x", "payload": "raw"}') == ("x", b"raw")
    assert envelope.parse_serial(b"nope") == Rejection("malformed", "serial line is not valid JSON")
    assert envelope.parse_serial(b'{"topic": 1}').code == "malformed"  # type: ignore[union-attr]
    assert envelope.parse_serial(b"x" * 5000).code == "oversized"  # type: ignore[union-attr]


def test_restamp_moves_only_unsynced_events_of_this_boot():
    early = protocol.encode_event("pocket", DEV, 3, 1, 250, synced=False, p=1)
    moved = json.loads(node_events.restamp_event(early, 3, 1_700_000_000_000))
    assert moved["t"] == 1_700_000_000_250 and "u" not in moved
    assert node_events.restamp_event(early, 2, 1000) == early  # another boot: its offset is not known here
    assert node_events.restamp_event(early, 3, None) == early  # not synced yet
    synced = protocol.encode_event("pocket", DEV, 3, 1, 250, p=1)
    assert node_events.restamp_event(synced, 3, 1000) == synced
    assert node_events.event_key(early) == (3, 1) and node_events.event_key(b"torn {") is None


def test_state_and_hub_status_payloads():
    state = {"v": protocol.STATE_VERSION, "table": "t1", "name": "Стол 1"}
    assert json.loads(protocol.encode_state(state)) == state and "Стол".encode() in protocol.encode_state(
        state
    )
    with pytest.raises(ValueError):
        protocol.encode_state({"v": 99})
    assert json.loads(protocol.encode_hub_status("online", "abc", "1.0", 5)) == {
        "v": 1,
        "st": "online",
        "boot": "abc",
        "ver": "1.0",
        "t": 5,
    }
    assert protocol.HUB_STATUS_TOPIC == "luza/v1/hub/status"


def test_calibrate_colour_travels_as_col_and_parses_as_c():
    payload = protocol.encode_command("calibrate", 3, p=2, col="yellow", n=5)
    assert json.loads(payload) == {"v": 1, "c": "calibrate", "id": 3, "p": 2, "col": "yellow", "n": 5}
    c = protocol.parse("cmd", payload)
    assert isinstance(c, Command) and c.args == {"p": 2, "col": "yellow", "c": "yellow", "n": 5}
    with pytest.raises(ValueError, match="clashes"):
        protocol.encode_command("calibrate", 3, p=2, c="yellow")


def test_topics():
    assert protocol.topic("club-1", DEV, "evt") == "luza/v1/club-1/pocket-a/evt"
    assert protocol.state_topic("club-1") == "luza/v1/club-1/state"
    assert protocol.subscriptions() == [
        "luza/v1/+/+/status",
        "luza/v1/+/+/evt",
        "luza/v1/+/+/tele",
        "luza/v1/+/+/ans",
    ]
    t = protocol.parse_topic("luza/v1/club-1/pocket-a/tele")
    assert isinstance(t, Topic) and (t.table, t.device, t.channel) == ("club-1", DEV, "tele")
    with pytest.raises(ValueError, match="bad topic parts"):
        protocol.topic("Club 1", DEV, "evt")
    with pytest.raises(ValueError, match="bad table id"):
        protocol.state_topic("")


# ------------------------------------------------------------------ every rejection, with its reason

REJECTIONS = [
    # (vector, code, reason)
    (
        ["topic", "home/v1/a/b/evt"],
        "bad_topic",
        "topic 'home/v1/a/b/evt' is not luza/v1/<table>/<device>/<channel>",
    ),
    (
        ["topic", "luza/v1/a/evt"],
        "bad_topic",
        "topic 'luza/v1/a/evt' is not luza/v1/<table>/<device>/<channel>",
    ),
    (
        ["topic", "luza/v2/a/b/evt"],
        "bad_version",
        "topic 'luza/v2/a/b/evt' uses protocol 'v2'; this hub speaks v1",
    ),
    (
        ["topic", "luza/v1/A/b/evt"],
        "bad_id",
        "table and device ids must be 1-32 of a-z, 0-9 and '-' (topic 'luza/v1/A/b/evt')",
    ),
    (
        ["topic", "luza/v1/a/b/log"],
        "bad_channel",
        "unknown channel 'log' (expected one of status, evt, tele, cmd, ans)",
    ),
    (["parse", "log", "{}", None], "bad_channel", "unknown channel 'log'"),
    (["parse", "evt", "x" * 1025, None], "oversized", "payload is 1025 bytes; the limit is 1024"),
    (["parse", "evt", "{not json", None], "malformed", "payload is not valid JSON"),
    (["parse", "evt", '{"v": 1, "pk": NaN}', None], "malformed", "payload is not valid JSON"),
    (["parse", "evt", "[1, 2]", None], "malformed", "payload must be a JSON object"),
    (["parse", "evt", '{"k": "pocket"}', None], "bad_version", "payload version None; this hub speaks v1"),
    (["parse", "evt", '{"v": true}', None], "bad_version", "payload version True; this hub speaks v1"),
    (["parse", "evt", '{"v": 2}', None], "bad_version", "payload version 2; this hub speaks v1"),
    (
        ["parse", "evt", ev(k="goal").decode(), None],
        "unknown_kind",
        "unknown event kind 'goal' (expected one of pocket, strike, jam, clear, calib, out, flag)",
    ),
    (
        ["parse", "evt", ev(d="Pocket A").decode(), None],
        "bad_field",
        "field 'd' must be a device id (1-32 of a-z, 0-9, '-'), got 'Pocket A'",
    ),
    (
        ["parse", "evt", ev().decode(), "pocket-b"],
        "device_mismatch",
        "payload says device 'pocket-a' but was published on 'pocket-b''s topic",
    ),
    (["parse", "evt", ev(s=...).decode(), None], "missing_field", "field 's' is missing"),
    (
        ["parse", "evt", ev(s=-1).decode(), None],
        "bad_field",
        "field 's' must be an integer 0..9007199254740992, got -1",
    ),
    (
        ["parse", "evt", ev(t=1.5).decode(), None],
        "bad_field",
        "field 't' must be an integer 0..9007199254740992, got 1.5",
    ),
    (
        ["parse", "evt", ev(up=-5).decode(), None],
        "bad_field",
        "field 'up' must be an integer 0..9007199254740992, got -5",
    ),
    (["parse", "evt", ev(p=7).decode(), None], "bad_field", "field 'p' must be an integer 1..6, got 7"),
    (["parse", "evt", ev(p=...).decode(), None], "missing_field", "field 'p' is missing"),
    (
        ["parse", "evt", ev(c="purple").decode(), None],
        "bad_field",
        "unknown colour 'purple' (expected one of ivory, yellow, blue, black, green, red)",
    ),
    (["parse", "evt", ev(cf=1.5).decode(), None], "bad_field", "field 'cf' must be a number 0..1, got 1.5"),
    (
        ["parse", "evt", ev(dur="long").decode(), None],
        "bad_field",
        "field 'dur' must be a number 0..86400000, got 'long'",
    ),
    (
        ["parse", "evt", ev(k="strike", dbl=1).decode(), None],
        "bad_field",
        "field 'dbl' must be true or false, got 1",
    ),
    (
        ["parse", "evt", ev(k="flag", why="maybe").decode(), None],
        "bad_field",
        "flag 'why' 'maybe' is not one of two, edges, noise, dead, single, full, boot, bounce",
    ),
    (
        ["parse", "evt", ev(k="jam", bm=2).decode(), None],
        "bad_field",
        "field 'bm' must be an integer 0..1, got 2",
    ),
    (["parse", "evt", ev(bm=2).decode(), None], "bad_field", "field 'bm' must be an integer 0..1, got 2"),
    (
        ["parse", "evt", ev(k="strike", pk=-3).decode(), None],
        "bad_field",
        "field 'pk' must be a number 0..1000, got -3",
    ),
    (
        ["parse", "evt", ev(k="calib", c="red", rgb=[1, 2]).decode(), None],
        "bad_field",
        "field 'rgb' must be a list of 3 or 4 integers",
    ),
    (
        ["parse", "status", '{"v": 1, "st": "sleeping", "b": 1}', None],
        "bad_field",
        "status 'sleeping' is not one of online, lost, offline, error",
    ),
    (["parse", "status", '{"v": 1, "st": "online"}', None], "missing_field", "field 'b' is missing"),
    (
        ["parse", "status", '{"v": 1, "st": "online", "b": 1, "role": "ref"}', None],
        "bad_field",
        "role 'ref' is not one of pocket, cue",
    ),
    (
        ["parse", "status", '{"v": 1, "st": "online", "b": 1, "fw": 1}', None],
        "bad_field",
        "fields 'fw', 'ip' and 'err' must be strings",
    ),
    (["parse", "tele", '{"v": 1}', None], "missing_field", "field 'b' is missing"),
    (
        ["parse", "tele", '{"v": 1, "b": 1, "rssi": 5}', None],
        "bad_field",
        "field 'rssi' must be a number -130..0, got 5",
    ),
    (
        ["parse", "cmd", '{"v": 1, "c": "dance"}', None],
        "unknown_command",
        "unknown command 'dance' (expected one of time, identify, config, calibrate, "
        "reboot, stored, resend, ota)",
    ),
    (
        ["parse", "cmd", '{"v": 1, "c": "ota", "port": 8000}', None],
        "bad_field",
        "command 'ota' needs a release id 'r' (1-64 of letters, digits, . _ + -)",
    ),
    (
        ["parse", "cmd", '{"v": 1, "c": "ota", "r": "../x", "port": 8000}', None],
        "bad_field",
        "command 'ota' needs a release id 'r' (1-64 of letters, digits, . _ + -)",
    ),
    (
        ["parse", "cmd", '{"v": 1, "c": "ota", "r": "0.2.0-ab", "do": "flash"}', None],
        "bad_field",
        "command 'ota' field 'do' 'flash' is not one of fetch, swap, cancel",
    ),
    (
        ["parse", "cmd", '{"v": 1, "c": "ota", "r": "0.2.0-ab"}', None],
        "missing_field",
        "field 'port' is missing",
    ),
    (
        ["parse", "cmd", '{"v": 1, "c": "ota", "r": "0.2.0-ab", "port": 80, "host": 5}', None],
        "bad_field",
        "command 'ota' field 'host' must be the hub's address (1-64 characters)",
    ),
    (
        ["parse", "status", '{"v": 1, "st": "online", "b": 1, "ota": {"st": "done"}}', None],
        "bad_field",
        "status field 'ota' must be an object with 'st' one of fetch, staged, "
        "trial, ok, rolled_back, refused",
    ),
    (
        ["parse", "status", '{"v": 1, "st": "online", "b": 1, "ota": {"st": "ok", "r": 7}}', None],
        "bad_field",
        "status field 'ota.r' must be a string of at most 64",
    ),
    (
        ["parse", "status", '{"v": 1, "st": "online", "b": 1, "ota": {"st": "fetch", "n": -1}}', None],
        "bad_field",
        "field 'n' must be an integer 0..10000, got -1",
    ),
    (["parse", "cmd", '{"v": 1, "c": "stored", "b": 1}', None], "missing_field", "field 's' is missing"),
    (
        ["parse", "cmd", '{"v": 1, "c": "stored", "b": 1, "s": -1}', None],
        "bad_field",
        "field 's' must be an integer 0..9007199254740992, got -1",
    ),
    (
        ["parse", "cmd", '{"v": 1, "c": "resend", "b": 1, "lo": 0, "hi": 3}', None],
        "bad_field",
        "field 'lo' must be an integer 1..9007199254740992, got 0",
    ),
    (
        ["parse", "cmd", '{"v": 1, "c": "resend", "b": 1, "lo": 5, "hi": 3}', None],
        "bad_field",
        "command 'resend' needs lo <= hi, at most 4096 seqs apart (got 5..3)",
    ),
    (
        ["parse", "cmd", '{"v": 1, "c": "resend", "b": 1, "lo": 1, "hi": 5000}', None],
        "bad_field",
        "command 'resend' needs lo <= hi, at most 4096 seqs apart (got 1..5000)",
    ),
    (
        ["parse", "ans", '{"v": 1, "re": "time", "b": 1, "lo": 1, "hi": 2}', None],
        "bad_field",
        "answer 're' 'time' is not a command that is answered (resend)",
    ),
    (
        ["parse", "ans", '{"v": 1, "re": "resend", "b": 1, "lo": 3, "hi": 9, "gone": [[2, 4]]}', None],
        "bad_field",
        "field 'gone' must be a list of at most 16 ascending [first, last] ranges within 3..9",
    ),
    (
        [
            "parse",
            "ans",
            '{"v": 1, "re": "resend", "b": 1, "lo": 3, "hi": 9, "gone": [[5, 6], [4, 4]]}',
            None,
        ],
        "bad_field",
        "field 'gone' must be a list of at most 16 ascending [first, last] ranges within 3..9",
    ),
    (
        ["parse", "cmd", '{"v": 1, "c": "reboot", "id": "x"}', None],
        "bad_field",
        "field 'id' must be an integer 0..9007199254740992, got 'x'",
    ),
    (["parse", "cmd", '{"v": 1, "c": "time"}', None], "missing_field", "field 'hub' is missing"),
    (
        ["parse", "cmd", '{"v": 1, "c": "config", "set": 3}', None],
        "bad_field",
        "command 'config' needs an object 'set' of settings to change",
    ),
    (
        ["parse", "cmd", '{"v": 1, "c": "calibrate", "p": 0, "c2": 1}', None],
        "bad_field",
        "field 'p' must be an integer 1..6, got 0",
    ),
    (
        ["parse", "cmd", '{"v": 1, "c": "calibrate", "p": 2}', None],
        "bad_field",
        "command 'calibrate' needs a colour 'col', one of ivory, yellow, blue, black, green, red",
    ),
    (
        ["parse", "cmd", '{"v": 1, "c": "identify", "s": 601}', None],
        "bad_field",
        "field 's' must be a number 0..600, got 601",
    ),
]


@pytest.mark.parametrize(
    ("vector", "code", "reason"), REJECTIONS, ids=[f"{r[1]}-{i}" for i, r in enumerate(REJECTIONS)]
)
def test_rejection_code_and_reason(vector, code, reason):
    assert wire_runner.run(vector) == ["rejection", code, reason]


def test_every_rejection_code_is_covered():
    codes = {code for _v, code, _r in REJECTIONS}
    # parser_error is the guard around a parser bug: unreachable by input, by design
    assert codes == {
        "bad_topic",
        "bad_version",
        "bad_id",
        "bad_channel",
        "oversized",
        "malformed",
        "unknown_kind",
        "bad_field",
        "device_mismatch",
        "missing_field",
        "unknown_command",
    }


def test_non_bytes_payload_is_malformed():
    assert protocol.parse("evt", 42) == Rejection("malformed", "payload must be bytes, got int")  # type: ignore[arg-type]
    assert protocol.parse("evt", b"\xff\xfe") == Rejection("malformed", "payload is not valid JSON")


# ------------------------------------------------------------------ fuzz

KEYS = [
    "v",
    "k",
    "d",
    "b",
    "s",
    "t",
    "u",
    "p",
    "c",
    "col",
    "cf",
    "dur",
    "pk",
    "dbl",
    "gap",
    "rgb",
    "st",
    "fw",
    "ip",
    "role",
    "err",
    "up",
    "heap",
    "rssi",
    "bat",
    "ob",
    "drop",
    "id",
    "hub",
    "set",
    "n",
    "ota",
    "r",
    "do",
    "port",
]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**60), 2**60),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    st.sampled_from(["pocket", "strike", "calib", "ivory", "online", "time", "calibrate", "config", DEV]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
OBJECTS = st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=10).map(
    lambda d: {"v": 1, **d} if d.get("v", 1) == 1 else d
)
PARSED = (Event, Status, Telemetry, Command, Answer, Rejection)


@settings(max_examples=400, deadline=None)
@given(channel=st.sampled_from(["evt", "status", "tele", "cmd", "nope"]), payload=st.binary(max_size=1100))
def test_fuzz_random_bytes_never_raise(channel, payload):
    assert isinstance(protocol.parse(channel, payload, DEV), PARSED)


@settings(max_examples=600, deadline=None)
@given(channel=st.sampled_from(["evt", "status", "tele", "cmd", "ans"]), obj=OBJECTS)
def test_fuzz_json_objects_never_raise_and_never_hit_the_guard(channel, obj):
    result = protocol.parse(channel, json.dumps(obj).encode(), DEV)
    assert isinstance(result, PARSED)
    assert not (isinstance(result, Rejection) and result.code == "parser_error"), result


@settings(max_examples=200, deadline=None)
@given(name=st.text(max_size=60))
def test_fuzz_topics_never_raise(name):
    assert isinstance(protocol.parse_topic(name), Topic | Rejection)


# ------------------------------------------------------------------ the same vectors under MicroPython


def parity_vectors() -> list[list]:
    vectors: list[list] = [r[0] for r in REJECTIONS]
    vectors += [
        ["encode", "encode_event", [k, DEV, 3, 17, 1_780_000_000_123], f]
        for k, f in [
            ("pocket", {"p": 4, "c": "ivory", "cf": 0.93, "dur": 34}),
            ("strike", {"pk": 7.7, "dbl": True, "gap": 11.9}),
            ("jam", {"p": 6, "dur": 1000}),
            ("calib", {"p": 3, "c": "red", "rgb": [900, 300, 250]}),
            ("pocket", {"p": 2, "dur": 40, "bm": 0}),
        ]
    ]
    vectors += [
        ["encode", "encode_status", ["online", 4], {"fw": "0.1.0", "ip": "10.0.0.7", "role": "pocket"}],
        ["encode", "encode_status", ["online", 4], {"fw": "0.1.0", "ota": {"st": "ok", "r": "0.2.0-ab"}}],
        ["encode", "encode_command", ["ota", 3], {"r": "0.2.0-ab", "port": 8000}],
        ["encode", "encode_tele", [4], {"up": 1000, "heap": 81234, "bat": 3.9}],
        ["encode", "encode_command", ["calibrate", 9], {"p": 2, "col": "yellow"}],
        ["encode", "encode_command", ["stored", 1], {"b": 3, "s": 17}],
        ["encode", "encode_command", ["resend", 2], {"b": 3, "lo": 5, "hi": 9}],
        ["encode", "encode_answer", ["resend", 2, 3, 5, 9, [[5, 6], [9, 9]], 1], {}],
    ]
    for enc in [v for v in vectors if v[0] == "encode"]:
        channel = {
            "encode_event": "evt",
            "encode_status": "status",
            "encode_tele": "tele",
            "encode_answer": "ans",
        }.get(enc[1], "cmd")
        vectors.append(["parse", channel, wire_runner.encode(enc), None])
    evt = protocol.encode_event("pocket", DEV, 3, 1, 250, synced=False, p=1).decode()
    vectors += [
        ["serial", envelope.encode_serial("luza/v1/a/b/evt", evt)],
        ["serial", "nope"],
        ["serial", '{"topic": 5, "payload": {}}'],
        ["serial", "x" * 5000],
        ["restamp", evt, 3, 1_700_000_000_000],
        ["restamp", evt, 2, 1000],
    ]
    # a deterministic sample of generated objects (standard JSON, so both parsers must agree)
    import random

    rng = random.Random(7)
    for _ in range(300):
        obj = _random_object(rng)
        vectors.append(
            [
                "parse",
                rng.choice(["evt", "status", "tele", "cmd", "ans"]),
                json.dumps(obj),
                rng.choice([None, DEV]),
            ]
        )
    return vectors


def _random_object(rng) -> dict:
    pool = [
        None,
        True,
        False,
        0,
        1,
        2,
        6,
        7,
        -1,
        2**53,
        2**53 + 1,
        0.5,
        1.5,
        1e9,
        "pocket",
        "strike",
        "jam",
        "clear",
        "calib",
        "ivory",
        "red",
        "online",
        "lost",
        "time",
        "calibrate",
        "config",
        "identify",
        "ota",
        DEV,
        "x",
        [1, 2, 3],
        [1, 2, 3, 4, 5],
        {"a": 1},
        [],
    ]
    obj = {"v": 1}
    for key in rng.sample(KEYS[1:], rng.randint(0, 12)):
        obj[key] = rng.choice(pool)
    if rng.random() < 0.1:
        obj["v"] = rng.choice(pool)
    return obj


@pytest.mark.micropython
def test_same_vectors_identical_under_micropython(micropython):
    vectors = parity_vectors()
    expected = json.loads(json.dumps(wire_runner.run_all(vectors)))
    code = (
        "import json\nfrom tests.firmware import wire_runner\nwith open('/wire_vectors.json') as f:\n"
        "    vectors = json.load(f)\nprint(json.dumps(wire_runner.run_all(vectors)))"
    )
    files = (
        *micropython.WIRE,
        "tests/__init__.py",
        "tests/firmware/__init__.py",
        "tests/firmware/wire_runner.py",
    )
    got = micropython.run_json(code, files, extra={"/wire_vectors.json": json.dumps(vectors)})
    differ = [(vec, a, b) for vec, a, b in zip(vectors, expected, got, strict=True) if a != b]
    assert not differ, (
        f"MicroPython disagrees on {len(differ)} of {len(vectors)} vectors, first: {differ[0]!r}"
    )
