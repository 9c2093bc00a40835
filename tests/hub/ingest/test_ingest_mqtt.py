"""MQTT ingest against a real Mosquitto: persistent session, QoS 1,
acknowledgement only when the hub says so."""

from __future__ import annotations

import queue
import time

import paho.mqtt.client as mqtt
import pytest

from hub.config import BrokerConfig
from hub.ingest.mqtt import MqttIngest, RawMessage
from luza_wire import protocol
from luza_wire.messages import Event
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto


def node(broker: Mosquitto, cid: str = "node") -> mqtt.Client:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=cid, protocol=mqtt.MQTTv5)
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    return c


def send(c: mqtt.Client, seq: int) -> None:
    info = c.publish(
        "luza/v1/t1/p1/evt", protocol.encode_event("pocket", "p1", 1, seq, 1000 + seq, p=1), qos=1
    )
    info.wait_for_publish(5)


def drain(q: queue.Queue[RawMessage], n: int, timeout: float = 5) -> list[RawMessage]:
    deadline = time.monotonic() + timeout
    out = []
    while len(out) < n and time.monotonic() < deadline:
        try:
            out.append(q.get(timeout=max(0.01, deadline - time.monotonic())))
        except queue.Empty:
            break
    return out


def seqs(msgs: list[RawMessage]) -> list[int]:
    out = []
    for m in msgs:
        ev = protocol.parse_event(m.payload)
        assert isinstance(ev, Event)
        out.append(ev.seq)
    return out


def test_unacknowledged_messages_are_redelivered_acknowledged_ones_are_not(mosquitto: Mosquitto) -> None:
    cfg = BrokerConfig(port=mosquitto.port, client_id="hub-under-test")
    got: queue.Queue[RawMessage] = queue.Queue()
    hub = MqttIngest(cfg, got.put)
    hub.start()
    assert hub.wait_connected(5)  # connected and subscribed
    n = node(mosquitto)
    for s in range(1, 5):
        send(n, s)
    first = drain(got, 4)
    assert seqs(first) == [1, 2, 3, 4]
    for m in first[:2]:  # "committed" 1 and 2 only
        assert m.ack is not None
        m.ack()
    hub.stop()  # the hub goes away with 3 and 4 unacknowledged (paho sends the PUBACKs before its DISCONNECT)
    send(n, 5)  # queued by the broker for the persistent session while the hub is away
    again: queue.Queue[RawMessage] = queue.Queue()
    hub2 = MqttIngest(cfg, again.put)
    hub2.start()
    try:
        redelivered = drain(again, 3)
        assert seqs(redelivered) == [3, 4, 5]
        assert drain(again, 1, timeout=0.5) == []
    finally:
        hub2.stop()
        n.loop_stop()
        n.disconnect()


def test_reconnects_after_a_broker_restart(mosquitto: Mosquitto) -> None:
    cfg = BrokerConfig(port=mosquitto.port, client_id="hub-reconnect", reconnect_min_s=1, reconnect_max_s=1)
    got: queue.Queue[RawMessage] = queue.Queue()
    hub = MqttIngest(cfg, got.put)
    hub.start()
    try:
        assert hub.wait_connected(5)
        mosquitto.restart()
        deadline = time.monotonic() + 10
        while hub.connects < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert hub.connects >= 2
        n = node(mosquitto, "node-after")
        send(n, 9)
        msgs = drain(got, 1)
        assert seqs(msgs) == [9]
        n.loop_stop()
        n.disconnect()
    finally:
        hub.stop()


def test_tcp_nodelay_is_set(mosquitto: Mosquitto) -> None:
    import socket

    hub = MqttIngest(BrokerConfig(port=mosquitto.port, client_id="hub-nodelay"), lambda m: None)
    hub.start()
    try:
        assert hub.wait_connected(5)
        sock = hub.client.socket()
        assert sock is not None and sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
    finally:
        hub.stop()
