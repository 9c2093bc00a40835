"""Intake: every kind of bad payload is a Rejected with a code and a reason; good ones become inputs."""

from __future__ import annotations

import json

import pytest

from hub import configfile
from hub.ingest.clockmap import ClockMap
from hub.ingest.intake import EventIn, Rejected, StatusIn, TeleIn, classify
from hub.ingest.mqtt import RawMessage
from hub.ingest.registry import Registry
from luza_wire import protocol, telemetry

CFG = configfile.parse(
    {
        "tables": [
            {"id": "t1", "pockets": {"p1": [1, 2]}, "cues": {"c0": 0}},
            {"id": "t2", "pockets": {"q1": [1]}},
        ]
    }
)
NOW = 1_700_000_000_000
HOUR = 3_600_000


def run(
    topic: str,
    payload: bytes,
    registry: Registry | None = None,
    clocks: ClockMap | None = None,
    received: int = NOW,
):
    return classify(
        RawMessage("mqtt", topic, payload, received),
        CFG,
        registry or Registry(CFG),
        clocks or ClockMap(),
        HOUR,
    )


def evt(
    device: str = "p1",
    boot: int = 1,
    seq: int = 1,
    t: int = NOW - 5,
    kind: str = "pocket",
    synced: bool = True,
    **f: object,
) -> bytes:
    if kind == "pocket" and "p" not in f:
        f["p"] = 1
    return protocol.encode_event(kind, device, boot, seq, t, synced, **f)


@pytest.mark.parametrize(
    ("topic", "payload", "code"),
    [
        ("luza/v2/t1/p1/evt", evt(), "bad_version"),
        ("luza/v1/t1/p1", evt(), "bad_topic"),
        ("luza/v1/T1/p1/evt", evt(), "bad_id"),
        ("luza/v1/t1/p9/evt", evt("p9"), "unknown_device"),
        ("luza/v1/t2/p1/evt", evt(), "wrong_table"),
        ("luza/v1/t1/p1/cmd", protocol.encode_command("time", 1, hub=1), "bad_channel"),
        ("luza/v1/t1/p1/evt", b"{not json", "malformed"),
        ("luza/v1/t1/p1/evt", b'{"v": 2, "k": "pocket"}', "bad_version"),
        ("luza/v1/t1/p1/evt", b"x" * 2000, "oversized"),
        ("luza/v1/t1/p1/evt", evt("c0"), "device_mismatch"),
        ("luza/v1/t1/p1/evt", evt(p=3), "wrong_pocket"),
        ("luza/v1/t1/p1/evt", evt(kind="strike", pk=3.0), "wrong_role"),
        ("luza/v1/t1/c0/evt", evt("c0"), "wrong_role"),
        ("luza/v1/t1/p1/status", b'{"v": 1, "st": "asleep"}', "bad_field"),
        ("luza/v1/t1/p1/tele", b'{"v": 1, "b": 1, "rssi": 5}', "bad_field"),
    ],
)
def test_rejections(topic: str, payload: bytes, code: str) -> None:
    r = run(topic, payload)
    assert isinstance(r, Rejected), r
    assert r.code == code and r.reason


def test_rejected_names_device_when_known() -> None:
    r = run("luza/v1/t2/p1/evt", evt())
    assert isinstance(r, Rejected) and r.device == "p1" and "t1" in r.reason and "luza.toml" in r.reason
    r = run("junk", b"")
    assert isinstance(r, Rejected) and r.device is None


def test_framing_error_from_transport() -> None:
    raw = RawMessage("serial", "", b"zz", NOW, error=("malformed", "serial line is not valid JSON"))
    r = classify(raw, CFG, Registry(CFG), ClockMap(), HOUR)
    assert r == Rejected("malformed", "serial line is not valid JSON", None)


def test_good_event_becomes_sensor_input() -> None:
    r = run("luza/v1/t1/c0/evt", evt("c0", kind="strike", pk=2.5, seq=4))
    assert isinstance(r, EventIn)
    assert (
        r.input.role == "cue"
        and r.input.seat == 0
        and r.input.at_ms == NOW - 5
        and r.input.received_ms == NOW
    )
    assert r.input.event.key == ("c0", 1, 4)


def test_unsynced_event_is_mapped_by_clock() -> None:
    clocks = ClockMap()
    r = run("luza/v1/t1/p1/evt", evt(t=2000, synced=False), clocks=clocks)
    assert isinstance(r, EventIn) and r.input.at_ms == NOW
    r = run("luza/v1/t1/p1/evt", evt(t=1000, synced=False, seq=2), clocks=clocks, received=NOW + 60_000)
    assert isinstance(r, EventIn) and r.input.at_ms == NOW - 1000  # late, placed by its own time


def test_stale_boot() -> None:
    reg = Registry(CFG)
    reg.on_status("p1", "online", 5, "", "", None, NOW)
    # an old boot's uptime event with no known clock: cannot be placed
    r = run("luza/v1/t1/p1/evt", evt(boot=4, synced=False, t=100), registry=reg)
    assert isinstance(r, Rejected) and r.code == "stale_boot"
    # an old boot's synced event from two hours ago: beyond the late window
    r = run("luza/v1/t1/p1/evt", evt(boot=4, t=NOW - 2 * HOUR), registry=reg)
    assert isinstance(r, Rejected) and r.code == "stale_boot" and "late_window_s" in r.reason
    # an old boot's recent synced event (an outbox reloaded after a reboot) is accepted
    assert isinstance(run("luza/v1/t1/p1/evt", evt(boot=4, t=NOW - 60_000), registry=reg), EventIn)
    # an old boot with a known clock offset, recent: accepted
    clocks = ClockMap({("p1", 4): NOW - 10_000})
    assert isinstance(
        run("luza/v1/t1/p1/evt", evt(boot=4, synced=False, t=100), registry=reg, clocks=clocks), EventIn
    )


def test_status_and_tele() -> None:
    st = run("luza/v1/t1/p1/status", protocol.encode_status("online", 3, fw="1.0", role="pocket"))
    assert isinstance(st, StatusIn) and st.status.boot == 3
    te = run("luza/v1/t1/p1/tele", telemetry.encode_tele(3, rssi=-60, bat=3.9, ob=2))
    assert isinstance(te, TeleIn) and te.tele.get("ob") == 2
    will = run("luza/v1/t1/p1/status", json.dumps({"v": 1, "st": "lost"}).encode())
    assert isinstance(will, StatusIn) and will.status.state == "lost"
