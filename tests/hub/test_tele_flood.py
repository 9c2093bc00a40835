"""Attack: one node floods telemetry with its own login (a process of its own, QoS 0 and 1, as fast as the broker
takes it) while another node of the same table sends real events through the same real Mosquitto.

Promise (docs/security.md): telemetry is shed per node on the MQTT thread, so the flood never sits in the ingest
queue ahead of the events (before: thousands of reports queued, events seconds late). The promise the issue asks
for — every event in the state within 100 ms of its publish — is not kept yet: a flood faster than the hub's
MQTT client reads still waits in the broker's and the kernel's buffers of the hub's one connection (strict
xfail below, with the figures in docs/security.md)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from hub import config
from hub.service.hub import Hub
from tests.hub.nodes import Node
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
ROOT = Path(__file__).resolve().parents[2]
EVENTS = 40
BOUND_S = 0.100

FLOODER = """
import sys, time
import paho.mqtt.client as mqtt
port, topic, seconds = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="flooder-p-head")
c.max_queued_messages_set(0)
c.max_inflight_messages_set(1000)
c.connect("127.0.0.1", port)
c.loop_start()
payload = b'{"v":1,"b":1,"up":1234,"bat":3.9,"rssi":-60,"ob":0}'
end, n = time.monotonic() + seconds, 0
print("flooding", flush=True)
while time.monotonic() < end:
    infos = [c.publish(topic, payload, qos=n % 2) for _ in range(200)]  # QoS 0 and 1, half each
    if n % 10 == 0:
        infos[-1].wait_for_publish(5)
    n += 1
print(n * 200, flush=True)
c.loop_stop()
"""


def wait_for(cond: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


def offered(hub: Hub) -> int:
    """Payloads the hub's MQTT client handed to the ingest queue: taken, or shed at once."""
    return hub.stats.get("received", 0) + hub._queue.shed["tele"]


def flood_and_measure(mosquitto: Mosquitto, hub: Hub) -> tuple[list[float], int]:
    """Events of cue-a sent one at a time while p-head floods: (each one's publish -> state delay, largest
    ingest queue seen)."""
    hub.new_match("t1", "free", ("A", "B"))
    cue = Node(mosquitto.port, "t1", "cue-a", "cue")
    flooder = subprocess.Popen([sys.executable, "-c", FLOODER, str(mosquitto.port), "luza/v1/t1/p-head/tele", "40"],
                               cwd=ROOT, stdout=subprocess.PIPE, text=True)
    delays: list[float] = []
    deepest = 0
    try:
        assert flooder.stdout is not None and flooder.stdout.readline().strip() == "flooding"
        assert wait_for(lambda: offered(hub) > 30_000, 30), "the flood did not reach the hub"
        for _ in range(EVENTS):
            target = hub.stats.get("accepted", 0) + 1
            sent = time.monotonic()
            cue.send(cue.event("strike", int(time.time() * 1000), pk=2.0, dbl=False), wait=False)
            assert wait_for(lambda t=target: hub.stats.get("accepted", 0) >= t, 30), "an event never arrived"
            delays.append(time.monotonic() - sent)
            deepest = max(deepest, hub.queue_depth())
            time.sleep(0.05)  # a shot's pace, not a handshake: the next event is a new one
        assert flooder.poll() is None, "the flood ended before the sample did"
    finally:
        flooder.kill()
        flooder.wait(10)
        cue.close()
    delays.sort()
    print(f"\n{EVENTS} events under a telemetry flood ({offered(hub)} payloads offered, {hub._queue.shed['tele']} "
          f"telemetry shed, ingest queue at most {deepest}): median {delays[len(delays) // 2] * 1000:.1f} ms, "
          f"max {delays[-1] * 1000:.1f} ms")
    return delays, deepest


def test_one_nodes_telemetry_flood_is_shed_before_the_ingest_queue(
        mosquitto: Mosquitto, cfg: config.Config, hubs: Callable[..., Hub]) -> None:
    hub = hubs(cfg)
    _delays, deepest = flood_and_measure(mosquitto, hub)
    assert hub._queue.shed["tele"] > 0.99 * offered(hub) - EVENTS - 100  # all but a node's rate
    assert deepest < 50  # the worker never has the flood ahead of an event (before: thousands)


@pytest.mark.xfail(strict=True, reason="a flood faster than the hub's MQTT client reads waits in the broker's "
                   "and the kernel's buffers of the one hub connection, ahead of the events: telemetry needs a "
                   "connection of its own (docs/security.md, open)")
def test_another_nodes_events_reach_the_state_within_100_ms_under_a_telemetry_flood(
        mosquitto: Mosquitto, cfg: config.Config, hubs: Callable[..., Hub]) -> None:
    hub = hubs(cfg)
    delays, _ = flood_and_measure(mosquitto, hub)
    assert delays[-1] < BOUND_S
