"""A scripted node for the hub's tests: a real paho client that speaks the wire protocol as a node does
(retained birth with a Last Will, QoS 1 events numbered (device, boot, seq), telemetry), plus `script` helpers
that build the matching hub inputs, so a test can feed the same facts straight into a TableSession.

The firmware's virtual nodes (hub.virtual) run the real node logic; this helper is the smaller tool for the
infrastructure's own tests (exact payloads, duplicates, reordering, hostile bytes).
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterable
from typing import Any

import paho.mqtt.client as mqtt

from hub.reconcile.table import TableSession
from hub.view.build import scoreboard
from hub.vocab.checks import RefereeInputError
from hub.vocab.inputs import RefereeAction, SensorInput, parse_referee_action
from luza_wire import protocol, telemetry
from luza_wire.messages import Event


class Node:
    def __init__(
        self,
        port: int,
        table: str,
        device: str,
        role: str,
        boot: int = 1,
        fw: str = "test-1",
        login: tuple[str, str] | None = None,
    ) -> None:
        self.table, self.device, self.role, self.boot, self.fw = table, device, role, boot, fw
        self.seq = 0
        self.sent: list[bytes] = []
        self.commands: list[dict[str, Any]] = []
        self._got_cmd = threading.Condition()
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=f"node-{device}",
            protocol=mqtt.MQTTv311,
            clean_session=False,
        )
        self.client.max_inflight_messages_set(1000)
        if login is not None:  # its own (user, password) on the locked broker (Mosquitto.locked(...).login)
            self.client.username_pw_set(*login)
        self.client.will_set(self.topic("status"), json.dumps({"v": 1, "st": "lost"}), qos=1, retain=True)
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.client.reconnect_delay_set(1, 1)
        self.client.connect("127.0.0.1", port, keepalive=5)
        self.client.loop_start()

    def topic(self, channel: str) -> str:
        return protocol.topic(self.table, self.device, channel)

    def _connected(self, client: mqtt.Client, *args: object) -> None:
        client.subscribe(self.topic("cmd"), qos=1)
        client.publish(
            self.topic("status"),
            protocol.encode_status("online", self.boot, fw=self.fw, role=self.role),
            qos=1,
            retain=True,
        )

    def _message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        with self._got_cmd:
            self.commands.append(json.loads(msg.payload))
            self._got_cmd.notify_all()

    def wait_command(self, timeout: float = 5.0) -> dict[str, Any] | None:
        with self._got_cmd:
            self._got_cmd.wait_for(lambda: bool(self.commands), timeout)
            return self.commands[0] if self.commands else None

    def event(self, kind: str, t: int, synced: bool = True, **fields: object) -> bytes:
        """Build the next event (not sent)."""
        self.seq += 1
        return protocol.encode_event(kind, self.device, self.boot, self.seq, t, synced, **fields)

    def send(self, payload: bytes, wait: bool = True) -> None:
        self.sent.append(payload)
        info = self.client.publish(self.topic("evt"), payload, qos=1)
        if wait:
            info.wait_for_publish(10)

    def raw(self, channel: str, payload: bytes) -> None:
        self.client.publish(self.topic(channel), payload, qos=1).wait_for_publish(10)

    def tele(self, **fields: object) -> None:
        self.raw("tele", telemetry.encode_tele(self.boot, **fields))

    def close(self, graceful: bool = True) -> None:
        if graceful:
            self.client.publish(
                self.topic("status"), protocol.encode_status("offline", self.boot), qos=1, retain=True
            ).wait_for_publish(5)
        self.client.disconnect()
        self.client.loop_stop()


def sensor_input(payload: bytes, role: str, seat: int | None, received_ms: int = 0) -> SensorInput:
    ev = protocol.parse_event(payload)
    assert isinstance(ev, Event), ev
    return SensorInput(ev, role, seat, ev.t, received_ms)


def action(d: dict[str, object], at_ms: int) -> RefereeAction:
    return parse_referee_action(d, at_ms)


class Clock:
    """A hub clock the test sets (ms): referee actions get exactly the times the expected session gets."""

    def __init__(self, now: int) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


def expected_board(
    variant: str,
    players: tuple[str, str],
    options: dict[str, object],
    match_id: int,
    table: str,
    inputs: Iterable[SensorInput | RefereeAction],
) -> dict[str, Any]:
    """The scoreboard of a TableSession fed these facts directly (no broker,
    no store): what the hub must show."""
    s = TableSession(table, variant, players, options, match_id=match_id)
    for inp in inputs:
        with contextlib.suppress(RefereeInputError):  # the hub refused it too, and stored nothing
            s.apply(inp)
    return json.loads(json.dumps(scoreboard(s)))  # a single frame: the race section of a race to 1
