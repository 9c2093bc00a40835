"""Fixtures of the installation tests: the locked-down broker (the appliance's generated config) and MQTT v5
clients that report the broker's reason codes."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from hub import config, configfile
from tests.support.broker import Mosquitto

NO_MATCHING_SUBSCRIBERS = 16
TABLES = [
    {
        "id": "t1",
        "name": "Table 1",
        "pockets": {"pockets-123": [1, 2, 3], "pockets-456": [4, 5, 6]},
        "cues": {"cue-a": 0, "cue-b": 1},
    },
    {"id": "t2", "pockets": {"t2-p": [1, 2, 3, 4, 5, 6]}},
]


def tables_config() -> config.Config:
    return configfile.parse({"tables": TABLES})


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[Mosquitto]:
    """The appliance's locked-down Mosquitto (generated config, password file, ACL) for TABLES."""
    broker = Mosquitto.locked(tmp_path / "broker", tables_config()).start()
    try:
        yield broker
    finally:
        broker.stop()


class Client:
    """A paho MQTT v5 client that records CONNACK/PUBACK/SUBACK reason codes and the messages it receives."""

    def __init__(
        self, broker: Mosquitto, user: str | None, password: str | None, client_id: str = ""
    ) -> None:
        self.c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
        if user is not None:
            self.c.username_pw_set(user, password)
        self.port = broker.port
        self.connack: Any = None
        self.connected = threading.Event()
        self.disconnected = threading.Event()
        self.pubacks: dict[int, int] = {}
        self.subacks: dict[int, list[int]] = {}
        self.messages: list[tuple[str, bytes, bool]] = []
        self.cond = threading.Condition()
        self.c.on_connect = self._on_connect
        self.c.on_disconnect = lambda *a: self.disconnected.set()
        self.c.on_publish = self._on_publish
        self.c.on_subscribe = self._on_subscribe
        self.c.on_message = self._on_message

    def _on_connect(self, c: Any, u: Any, flags: Any, reason: Any, props: Any) -> None:
        self.connack = reason
        self.connected.set()

    def _on_publish(self, c: Any, u: Any, mid: int, reason: Any, props: Any) -> None:
        with self.cond:
            self.pubacks[mid] = int(reason.value)
            self.cond.notify_all()

    def _on_subscribe(self, c: Any, u: Any, mid: int, reasons: Any, props: Any) -> None:
        with self.cond:
            self.subacks[mid] = [int(r.value) for r in reasons]
            self.cond.notify_all()

    def _on_message(self, c: Any, u: Any, msg: mqtt.MQTTMessage) -> None:
        with self.cond:
            self.messages.append((msg.topic, bytes(msg.payload), bool(msg.retain)))
            self.cond.notify_all()

    def connect(self, timeout: float = 5.0) -> int:
        """Connect and return the CONNACK reason code (0 = accepted)."""
        self.c.connect("127.0.0.1", self.port)
        self.c.loop_start()
        assert self.connected.wait(timeout), "no CONNACK"
        return int(self.connack.value)

    def publish(self, topic: str, payload: bytes = b"{}", retain: bool = False, timeout: float = 5.0) -> int:
        """QoS 1 publish; returns the PUBACK reason code: 0 success (also for 16, "accepted, no matching
        subscribers"), 135 not authorized."""
        mid = self.c.publish(topic, payload, qos=1, retain=retain).mid
        with self.cond:
            assert self.cond.wait_for(lambda: mid in self.pubacks, timeout), f"no PUBACK for {topic}"
            code = self.pubacks[mid]
        return 0 if code == NO_MATCHING_SUBSCRIBERS else code

    def subscribe(self, topic: str, timeout: float = 5.0) -> int:
        """QoS 1 subscribe; returns the SUBACK reason code (1 granted QoS 1, 135 not authorized)."""
        _, mid = self.c.subscribe(topic, qos=1)
        with self.cond:
            assert self.cond.wait_for(lambda: mid in self.subacks, timeout), f"no SUBACK for {topic}"
            return self.subacks[mid][0]

    def wait_message(self, topic: str, timeout: float = 5.0) -> bytes:
        with self.cond:
            assert self.cond.wait_for(lambda: any(t == topic for t, _, _ in self.messages), timeout), (
                f"nothing on {topic}; got {[t for t, _, _ in self.messages]}"
            )
            return [p for t, p, _ in self.messages if t == topic][-1]

    def close(self) -> None:
        self.c.disconnect()
        self.c.loop_stop()


@pytest.fixture
def clients() -> Iterator[Any]:
    """`clients(broker, user, password, client_id="")` -> a connected-on-demand
    Client; all closed at the end."""
    made: list[Client] = []

    def make(broker: Mosquitto, user: str | None, password: str | None, client_id: str = "") -> Client:
        c = Client(broker, user, password, client_id)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()
