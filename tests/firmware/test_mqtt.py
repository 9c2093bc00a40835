"""firmware/mqtt.py byte for byte (fake socket, fake clock) on CPython and the real MicroPython.

The expected bytes are written out here from the MQTT 3.1.1 specification, field by field, not produced by
the module under test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.firmware import mp, mqtt_scenario

SRC = (Path(__file__).parent / "mqtt_scenario.py").read_text()


def h(*parts: bytes) -> str:
    return b"".join(parts).hex()


def s(text: str) -> bytes:
    """An MQTT UTF-8 string: two length bytes, then the text."""
    b = text.encode()
    return len(b).to_bytes(2, "big") + b


CONNECT = h(
    b"\x10\x2a",
    s("MQTT"),
    b"\x04",
    # user, password, will retain, will QoS 1, will, clean
    bytes([0x80 | 0x40 | 0x20 | 0x08 | 0x04 | 0x02]),
    b"\x00\x1e",
    s("pocket-4"),
    s("t/s"),
    s("L"),
    s("pocket-4"),
    s("pw"),
)
SUBSCRIBE = h(b"\x82\x0a\x00\x01", s("t/cmd"), b"\x01")  # pid 1, QoS 1
BIRTH = h(b"\x33\x09", s("t/s"), b"\x00\x02", b"on")  # QoS 1 + retain, pid 2
NOT_CONNECTED = (
    "OSError: mqtt: not connected (mqtt: nothing from the broker for 30000 ms (half-open connection))"
)

EXPECTED = {
    "session": {
        "connect": CONNECT,
        "birth_pid": 2,
        "before_connack": [False, SUBSCRIBE + BIRTH],  # sent before the CONNACK, as 3.1.1 allows
        "connack": [[], True],
        "pids": [3, 4, 5],
        "publishes": h(
            *(b"\x32\x08" + s("t/e") + bytes([0, pid]) + p for pid, p in ((3, b"a"), (4, b"b"), (5, b"c")))
        ),
        "acks_1": [["ack", 4], ["ack", 2]],  # out of order, matched by id; the stray id 9 is ignored
        "acks_2": [["ack", 3]],
        "acks_3": [[["ack", 5]], 1],  # a PUBACK split across two reads
        "tele": [None, h(b"\x30\x09", s("t/tele"), b"x")],  # QoS 0: no id
        "incoming": [[["msg", "t/cmd", "7b"]], h(b"\x40\x02\x00\x07")],  # a QoS 1 command is acknowledged
        "no_ping_yet": [[], ""],
        "ping": [[], "c000"],  # keepalive / 4 of silence from the broker: PINGREQ
        "one_ping_outstanding": [[], ""],
        "pingresp": [[], True],
        "disconnect": ["e000", True, False],
    },
    "silent": {
        "at_limit": [[], False],
        "after": ["OSError: mqtt: no CONNACK within 3000 ms", True, True],
        "publish_after": "OSError: mqtt: not connected (mqtt: no CONNACK within 3000 ms)",
    },
    "lost_puback": {
        "pids": [1, 2],
        "partial": [["ack", 2]],
        "timeout": ["OSError: mqtt: no PUBACK for packet 1 within 2000 ms", True],
    },
    "refused": {"refused": ["OSError: mqtt: broker refused the connection: not authorised", False]},
    "cut": {
        "last_acks": [[["ack", 1]], False],
        "then": ["OSError: mqtt: connection closed by the broker", True],
    },
    "half_open": {
        "steps": [
            [[], "c000"],
            [[], ""],
            [[], ""],
            ["OSError: mqtt: nothing from the broker for 30000 ms (half-open connection)", ""],
            [NOT_CONNECTED, ""],
            [NOT_CONNECTED, ""],
        ]
    },
    "stalled": {
        "waiting": [],
        "trickle": [[], h(b"\x32\x06", s("t"), b"\x00\x01", b"1")],
        "stalled": "OSError: mqtt: the socket took no byte for 2000 ms",
    },
    "window": {
        "pids": [1, 2],
        "third": "RuntimeError",
        "next": 3,
        "wrap": [65535, None],
        "skips_in_flight": 4,
    },
    "bytes": {"states": [[[], False]] * 3 + [[[], True]] * 7 + [[[["msg", "t", "6f6b"]], True]]},
}


def test_mqtt_bytes_on_cpython() -> None:
    got = mqtt_scenario.run()
    for case, want in EXPECTED.items():
        assert got[case] == want, case


@pytest.mark.micropython
def test_mqtt_bytes_identical_under_real_micropython() -> None:
    mp.require()
    code = "import json, mqtt_scenario\nprint(json.dumps(mqtt_scenario.run()))"
    got = mp.run_json(code, mp.FIRMWARE, extra={"mqtt_scenario.py": SRC})
    assert got == json.loads(json.dumps(EXPECTED))


def test_packet_builders_match_the_spec() -> None:
    from firmware import mqtt

    assert mqtt.connect_packet("a", 0).hex() == h(b"\x10\x0d", s("MQTT"), b"\x04\x02\x00\x00", s("a"))
    assert mqtt.puback_packet(0x1234) == b"\x40\x02\x12\x34"
    big = mqtt.publish_packet("t", b"x" * 200, 1, False, 1)
    assert big[:3] == bytes([0x32, 0xCD, 0x01])  # 205 = 0xCD | 0x80, then 1: a two-byte remaining length
    with pytest.raises(ValueError):
        mqtt.publish_packet("t" * 70000, b"")
