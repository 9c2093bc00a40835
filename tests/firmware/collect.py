"""A hub-like MQTT collector for the connectivity tests: persistent session, QoS 1, resubscribes on reconnect.

It records every message (topic, payload, retain) and offers the hub's de-duplication on (device, boot, seq)
so tests can check "every event exactly once" the way the hub will. With `confirm` (the default) it also plays
the hub's part of end-to-end delivery: each event moves a contiguous per-(device, boot) mark, sent back to the
node as a `stored` command (without it, nodes keep every event in their outbox, as they should).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from luza_wire import node_events, protocol
from luza_wire.messages import Event, Topic


def _nodelay(_c: Any, _u: Any, sock: Any) -> None:
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class Marks:
    """The hub's stored marks, simplified: seqs seen per (device, boot) and the contiguous mark of each."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, int], set[int]] = {}
        self.marks: dict[tuple[str, int], int] = {}

    def observe(self, topic: str, payload: bytes) -> tuple[str, bytes] | None:
        """For an `evt` message: the `stored` command (topic,
        payload) to send back; None for anything else."""
        t = protocol.parse_topic(topic)
        if not isinstance(t, Topic) or t.channel != "evt":
            return None
        key = node_events.event_key(payload)
        if key is None:
            return None
        k = (t.device, key[0])
        seen = self.seen.setdefault(k, set())
        seen.add(key[1])
        mark = self.marks.get(k, 0)
        while mark + 1 in seen:
            mark += 1
        self.marks[k] = mark
        return protocol.topic(t.table, t.device, "cmd"), protocol.encode_command(
            "stored", 0, b=key[0], s=mark
        )


class Collector:
    def __init__(
        self,
        port: int,
        topic: str = "luza/#",
        client_id: str = "collector",
        max_delay: float = 0.5,
        confirm: bool = True,
    ) -> None:
        self.port = port
        self.marks = Marks() if confirm else None
        self.topic = topic
        self.messages: list[tuple[str, bytes, bool]] = []
        self.lock = threading.Lock()
        self.connected = threading.Event()
        self.subscribed = threading.Event()  # the broker's SUBACK: from then on nothing published is missed
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False)
        self.client.reconnect_delay_set(0.05, max_delay)  # type: ignore[arg-type]  # paho takes floats
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *_a: self.subscribed.set()
        self.client.on_disconnect = lambda *_a: self.connected.clear()
        self.client.on_message = self._on_message
        self.client.on_socket_open = _nodelay  # else Nagle holds commands sent from here for tens of ms

    def _on_connect(
        self, client: mqtt.Client, _u: object, _f: object, rc: mqtt.ReasonCode, _p: object
    ) -> None:
        if not rc.is_failure:
            client.subscribe(self.topic, qos=1)
            self.connected.set()

    def _on_message(self, client: mqtt.Client, _u: object, msg: mqtt.MQTTMessage) -> None:
        with self.lock:
            self.messages.append((msg.topic, bytes(msg.payload), bool(msg.retain)))
            reply = self.marks.observe(msg.topic, bytes(msg.payload)) if self.marks else None
        if reply is not None:
            client.publish(reply[0], reply[1], qos=1)

    def start(self, timeout: float = 5.0) -> Collector:
        self.client.connect("127.0.0.1", self.port, keepalive=5)
        self.client.loop_start()
        if not self.connected.wait(timeout) or not self.subscribed.wait(timeout):
            raise TimeoutError("collector did not connect and subscribe")
        return self

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def __enter__(self) -> Collector:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def channel(self, channel: str) -> list[tuple[str, bytes, bool]]:
        with self.lock:
            return [m for m in self.messages if m[0].endswith("/" + channel)]

    def events(self) -> list[Event]:
        """Every `evt` received, parsed (a rejection fails the test: nodes must publish valid events)."""
        out = []
        for topic, payload, _r in self.channel("evt"):
            t = protocol.parse_topic(topic)
            assert isinstance(t, Topic), t
            ev = protocol.parse_event(payload, t.device)
            assert isinstance(ev, Event), (ev, payload)
            out.append(ev)
        return out

    def unique_events(self) -> list[Event]:
        """The hub's de-duplication: first copy of each (device, boot, seq), in arrival order."""
        seen: set[tuple[str, int, int]] = set()
        out = []
        for ev in self.events():
            if ev.key not in seen:
                seen.add(ev.key)
                out.append(ev)
        return out

    def wait_for(self, pred: Callable[[], bool], timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if pred():
                return True
            time.sleep(0.01)
        return pred()
