"""The project's foundation: the broker fixture works and the CLI lists only real commands."""

from __future__ import annotations

import subprocess
import sys

import paho.mqtt.client as mqtt

from tests.support.broker import Mosquitto


def test_mosquitto_fixture_round_trip(mosquitto: Mosquitto) -> None:
    got: list[bytes] = []
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="t-roundtrip")
    c.on_message = lambda _c, _u, m: got.append(m.payload)
    c.connect("127.0.0.1", mosquitto.port)
    c.subscribe("luza/v1/t1/x/evt", qos=1)
    c.loop_start()
    try:
        import time

        time.sleep(0.2)
        c.publish("luza/v1/t1/x/evt", b"hello", qos=1).wait_for_publish(5)
        deadline = time.monotonic() + 5
        while not got and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        c.loop_stop()
        c.disconnect()
    assert got == [b"hello"]


def test_cli_help_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "hub.cli", "--help"], capture_output=True, text=True, check=True
    )
    assert "usage: luza" in out.stdout
