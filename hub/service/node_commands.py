"""Commands from the hub to its nodes (`cmd`, luza_wire.protocol.COMMANDS): back over the serial link a node
was last born on, else over MQTT. The time goes out on every birth and again when it is due
(hub.ingest.resync); delivery's `stored` marks and `resend` requests
(hub.ingest.delivery) go out after the commits that make them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from hub.config import Config
from hub.ingest.clockmap import time_command_args
from hub.ingest.delivery import Outgoing
from hub.ingest.mqtt import MqttIngest
from hub.ingest.resync import Resync
from hub.ingest.serial import SerialIngest
from luza_wire import protocol


class NodeCommands:
    """The way back to each configured node, and the commands the worker sends after a commit."""

    def __init__(self, config: Config, clock: Callable[[], int], mqtt: MqttIngest | None) -> None:
        self.config = config
        self.clock = clock
        self.mqtt = mqtt
        # device -> the serial link it was last born on (None: born over MQTT, answered over MQTT)
        self.links: dict[str, SerialIngest | None] = {}
        self.resync = Resync()  # the time again every RESYNC_S while a node talks

    def send(self, device: str, name: str, **args: Any) -> bool:
        """One command to a configured node (KeyError if it is not); False if there is no way to reach it."""
        dev = self.config.device(device)
        if dev is None:
            raise KeyError(device)
        return self._send(dev.table, device, self.links.get(device), name, **args)

    def born(self, table_id: str, device: str, link: object) -> None:
        """A node's birth: remember its link (`RawMessage.link`, the transport it came by) and give it the
        time."""
        self.links[device] = link if isinstance(link, SerialIngest) else None
        self.resync.sent(device)
        self._send(table_id, device, link, "time", **time_command_args(self.clock()))

    def time_to_all(self) -> None:
        """The time to every configured node (the hub connected to the broker, or its timeline moved): each
        answers with a fresh sample of its clock (hub.ingest.timebase)."""
        for t in self.config.tables:
            for d in t.devices:
                self.resync.sent(d.id)
                self.send(d.id, "time", **time_command_args(self.clock()))

    def resync_due(self, devices: Iterable[str]) -> None:
        """The time again to each of `devices` (nodes heard in a batch) whose re-sync is due."""
        for device in self.resync.due(d for d in devices if self.config.device(d) is not None):
            self.send(device, "time", **time_command_args(self.clock()))

    def deliver(self, commands: list[Outgoing]) -> None:
        """Send the delivery commands (`stored`, `resend`) to their nodes."""
        for o in commands:
            if self.config.device(o.device) is not None:
                self.send(o.device, o.name, **o.args)

    def _send(self, table_id: str, device: str, link: object, name: str, **args: Any) -> bool:
        payload = protocol.encode_command(name, self.clock() % 2**31, **args)
        topic = protocol.topic(table_id, device, "cmd")
        if isinstance(link, SerialIngest):
            link.send(topic, payload)
        elif self.mqtt:
            self.mqtt.publish(topic, payload, qos=1)
        else:
            return False
        return True
