"""Attack: one node floods telemetry with its own login (a process of its own, QoS 0 and 1, as fast as the
broker takes it) while another node of the same table sends real events through the same real Mosquitto.

Promises (docs/security.md):
- telemetry is shed per node on the MQTT thread, so the flood never sits in the ingest queue ahead of the
  events (before: thousands of reports queued, events seconds late);
- through the installation's locked broker, where the hub reads telemetry on a connection of its own (its own
  account, `luza-hub-tele`, read at most 200 reports a second), another node's events reach the table's state
  within 100 ms as they do with no flood: the broker queues the flood for the telemetry connection, never
  ahead of an event, and not one report comes on the hub's connection. With one connection (before) the flood
  waited in the broker's queue and the kernel's buffers of that connection, ahead of the events (100,000
  reports read there, 10-17 in 100 events over 100 ms, up to 0.9 s);
- the backlog a flood leaves in the broker is dropped: another node's report is current seconds after the
  flood (without that, 5 minutes).
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from hub import config
from hub.ingest.mqtt import TELE_FLUSH_S, TELE_READ_BURST, TELE_READ_PER_S
from hub.service.changes import Change
from hub.service.hub import Hub
from tests.hub.conftest import locked_config
from tests.hub.nodes import Node
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
ROOT = Path(__file__).resolve().parents[3]
EVENTS = 200  # under the flood
CALM = 100  # before it, the same hub and node: what this machine gives without a flood
BOUND_S = 0.100

# The flooding node is a machine of its own on the club's Wi-Fi; here it is a process on the hub's machine, at
# the lowest CPU priority so that it takes the CPU the hub would not share with it there (the broker it
# floods, which does share the hub's machine, runs as usual).
FLOODER = """
import os, sys, time
import paho.mqtt.client as mqtt
port, topic, seconds, user, password = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4], sys.argv[5]
os.nice(19)
c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="flooder-p-head")
if user:
    c.username_pw_set(user, password)
c.max_queued_messages_set(0)
c.max_inflight_messages_set(1000)
c.connect("127.0.0.1", port)
c.loop_start()
payload = b'{"v":1,"b":1,"up":1234,"bat":3.9,"rssi":-60,"ob":0}'
end, n = time.monotonic() + seconds, 0
while time.monotonic() < end:
    infos = [c.publish(topic, payload, qos=n % 2) for _ in range(200)]  # QoS 0 and 1, half each
    if n % 10 == 0:
        infos[-1].wait_for_publish(5)
    n += 1
    if n == 150:  # 30,000 sent: the flood is on
        print("flooding", flush=True)
        start = time.monotonic()
    if n > 150 and n % 50 == 0:
        print((n - 150) * 200, time.monotonic() - start, flush=True)
print(n * 200, flush=True)
c.loop_stop()
"""  # noqa: E501


def wait_for(cond: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


def offered(hub: Hub) -> int:
    """Payloads the hub's MQTT clients handed to the ingest queue: taken, or shed at once."""
    return hub.stats.get("received", 0) + hub._queue.shed["tele"]


class StateTimes:
    """When each new state of t1 was published, with the count of events accepted by then (worker thread)."""

    def __init__(self, hub: Hub) -> None:
        self.hub, self.seen, self.cond = hub, [0.0, 0], threading.Condition()
        self.unsubscribe = hub.subscribe(self._changed)

    def _changed(self, change: Change) -> None:
        if change.table_id == "t1":
            with self.cond:
                self.seen = [time.monotonic(), self.hub.stats.get("accepted", 0)]
                self.cond.notify_all()

    def wait(self, accepted: int, timeout: float) -> float:
        """The time the first state holding `accepted` events was published."""
        with self.cond:
            assert self.cond.wait_for(lambda: self.seen[1] >= accepted, timeout), (
                "an event never reached the state"
            )
            return float(self.seen[0])


@dataclass
class Sample:
    """Each event's publish -> state delay (s, sorted) without the flood (`calm`,
    measured first) and under it."""

    calm: list[float]
    flood: list[float]
    deepest: int  # the largest ingest queue seen under the flood
    rate: float  # the flood's messages a second, as its sender counted them


def p50(xs: list[float]) -> float:
    return xs[len(xs) // 2]


def late_share(xs: list[float]) -> float:
    return sum(1 for x in xs if x >= BOUND_S) / len(xs)


def figures(xs: list[float]) -> str:
    return (
        f"p50 {p50(xs) * 1000:.1f} ms, p99 {xs[int(len(xs) * 0.99)] * 1000:.1f} ms, max {xs[-1] * 1000:.1f} "
        f"ms, {sum(1 for x in xs if x >= BOUND_S)} of {len(xs)} over {BOUND_S * 1000:.0f} ms"
    )


def send_events(hub: Hub, cue: Node, states: StateTimes, n: int) -> list[float]:
    """Send n events one at a time, each once the previous one is in the state: their delays, sorted."""
    delays = []
    for _ in range(n):
        target = hub.stats.get("accepted", 0) + 1
        sent = time.monotonic()
        cue.send(cue.event("strike", int(time.time() * 1000), pk=2.0, dbl=False), wait=False)
        delays.append(states.wait(target, 30) - sent)
        time.sleep(0.05)  # a shot's pace, not a handshake: the next event is a new one
    return sorted(delays)


def flood_and_measure(
    broker: Mosquitto,
    hub: Hub,
    label: str,
    flood_reached: Callable[[], bool],
    events: int = EVENTS,
    calm: int = 0,
) -> Sample:
    """`calm` events of cue-a, then `events` more while p-head floods (from once `flood_reached()`)."""
    hub.new_match("t1", "free", ("A", "B"))
    locked = broker.credentials is not None
    cue = Node(broker.port, "t1", "cue-a", "cue", login=broker.login("t1", "cue-a") if locked else None)
    states = StateTimes(hub)
    before = send_events(hub, cue, states, calm)
    user, password = broker.login("t1", "p-head") if locked else ("", "")
    flooder = subprocess.Popen(
        [sys.executable, "-c", FLOODER, str(broker.port), "luza/v1/t1/p-head/tele", "120", user, password],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert flooder.stdout is not None and flooder.stdout.readline().strip() == "flooding"
        assert wait_for(flood_reached, 30), "the flood did not reach the hub"
        delays, deepest = [], 0
        for _ in range(events // 10):
            delays += send_events(hub, cue, states, 10)
            deepest = max(deepest, hub.queue_depth())
        assert flooder.poll() is None, "the flood ended before the sample did"
    finally:
        states.unsubscribe()
        flooder.kill()
        flooder.wait(10)
        cue.close()
    progress = (flooder.stdout.read() if flooder.stdout else "").split()
    sample = Sample(
        before,
        sorted(delays),
        deepest,
        float(progress[-2]) / float(progress[-1]) if len(progress) >= 2 else 0.0,
    )
    print(
        f"\n{label}: events -> state; "
        + (f"without a flood {figures(sample.calm)}; " if calm else "")
        + f"under a telemetry flood of {sample.rate:,.0f}/s {figures(sample.flood)} ({offered(hub)} payloads "
        f"offered, {hub._queue.shed['tele']} telemetry shed, ingest queue at most {deepest})"
    )
    return sample


def test_one_nodes_telemetry_flood_is_shed_before_the_ingest_queue(
    mosquitto: Mosquitto, cfg: config.Config, hubs: Callable[..., Hub]
) -> None:
    hub = hubs(cfg)
    sample = flood_and_measure(
        mosquitto, hub, "one connection, open broker", lambda: offered(hub) > 30_000, events=40
    )
    assert hub._queue.shed["tele"] > 0.99 * offered(hub) - 40 - 100  # all but a node's rate
    assert sample.deepest < 50  # the worker never has the flood ahead of an event (before: thousands)


def test_another_nodes_events_reach_the_state_within_100_ms_under_a_telemetry_flood(
    locked: Mosquitto, tmp_path: Path, hubs: Callable[..., Hub]
) -> None:
    hub = hubs(locked_config(locked, tmp_path / "luza.db"))
    tele = hub.mqtt_tele
    assert tele is not None and tele.connected.is_set() and tele.pace is not None
    # the flood is on once the telemetry connection reads at its pace (the rest waits in the broker)
    started = time.monotonic()
    sample = flood_and_measure(
        locked,
        hub,
        "telemetry on its own connection, locked broker",
        lambda: tele.pace.waited_s > 1.0,
        calm=CALM,
    )  # type: ignore[union-attr]
    assert hub.registry.get("p-head").state == "online"  # type: ignore[union-attr]  # its reports came through
    # The flood never came near the events: not one report on the hub's connection (before: over 100,000 ahead
    # of the events), and on the telemetry connection no more than its pace (the rest stayed in the broker).
    assert hub.mqtt is not None and hub.mqtt.received <= CALM + EVENTS + 10  # the events and cue-a's birth
    assert tele.received < TELE_READ_BURST + TELE_READ_PER_S * (time.monotonic() - started)
    # Within 100 ms as without the flood: no more events over it than the same hub showed just before with no
    # flood, plus 3 in 100 (this shared 2-core machine stalls the odd event anyway: with no flood at all,
    # spikes of 250 ms at a load of 10, and the load changes from one minute to the next), and the median no
    # more than 20 ms above. Before: 12-13 in 100 over (max 0.3-1.2 s) and, with the flooder at the hub's CPU
    # priority, a median of 80-210 ms.
    assert late_share(sample.flood) <= late_share(sample.calm) + 0.03, figures(sample.flood)
    assert p50(sample.flood) <= p50(sample.calm) + 0.020, figures(sample.flood)
    # The backlog the flood left in the broker is dropped (the telemetry connection reconnects after reading
    # at its pace for TELE_FLUSH_S): another node's report is current seconds after the flood, not minutes.
    assert tele.flushes >= 1
    mid = Node(locked.port, "t1", "p-mid", "pocket", login=locked.login("t1", "p-mid"))
    try:
        ended = time.monotonic()
        assert wait_for(reporter(hub, mid), TELE_FLUSH_S + 20), (
            "another node's report waited behind the flood"
        )
        print(f"another node's report in the registry {time.monotonic() - ended:.1f} s after the flood ended")
    finally:
        mid.close()


def reporter(hub: Hub, node: Node) -> Callable[[], bool]:
    """A condition: True once the node's report is in the registry; until then the node sends one a second (as
    a node may)."""
    last = [-1.0]

    def reported() -> bool:
        dev = hub.registry.get(node.device)
        if dev is not None and dev.battery == 3.3:
            return True
        if time.monotonic() - last[0] >= 1.0:
            node.tele(bat=3.3, up=1000)
            last[0] = time.monotonic()
        return False

    return reported
