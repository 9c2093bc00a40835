"""MQTT ingest: paho-mqtt 2.x against Mosquitto, acknowledging each message only after it is committed.

- Persistent session: a fixed client id, MQTT v5 with clean start off and a session expiry, QoS 1
  subscriptions to luza/v1/+/+/{evt,status,tele}. While the hub is down the broker queues what the nodes send.
- Manual acknowledgement: `on_message` only hands a `RawMessage` to the hub; the hub calls `msg.ack()` after
  the transaction holding it has committed. A crash in between leaves the message unacknowledged, so the
  broker redelivers it, and the store's (device, boot, seq) key makes the redelivery harmless.
- An ack is sent only on the connection the message arrived on: after a reconnect a packet id may be reused
  for another message, and the broker redelivers the old one anyway.
- TCP_NODELAY on the socket (Nagle would add a 20-45 ms tail to small messages); reconnect with backoff.
- The hub's own status, retained on `luza/v1/hub/status`: `online` on every connect (the birth), `offline` on
  a clean stop, `lost` as the Last Will the broker publishes when the hub vanishes; each carries the hub's
  version and a boot id new at every start, so a screen knows when the scoreboard it holds is stale.
- Telemetry on a connection of its own (`telemetry=True`, when luza.toml's `[broker] tele_username` is set):
  the same class with its own login and client id subscribes to luza/v1/+/+/tele alone, at QoS 0 with a clean
  session (health data: nothing is queued for it while the hub is away), and feeds the same inbox. The broker
  keeps one queue per client, so one node's telemetry flood waits in the telemetry connection's queue and
  socket, never ahead of an event (docs/security.md). The main connection then unsubscribes from telemetry
  (its persistent session may hold the subscription from before).
  Either connection may drop without touching the other.
  The telemetry connection reads at most `TELE_READ_PER_S` reports a second (all nodes together; a node sends
  one every 30 s by default): past that its reading thread waits, so a flood stays in the broker, which drops
  what does not fit in that client's queue (QoS 0), instead of taking the hub's CPU (and the GIL) from events.
  Once it has read at that pace without a break for `TELE_FLUSH_S`, it drops its link and reconnects with a
  clean session: the broker forgets the backlog (up to its whole client queue, minutes of reading), so the
  other nodes' reports are current again seconds after a flood ends.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from hub.config import BrokerConfig
from luza_wire import protocol
from luza_wire.frame import PREFIX

log = logging.getLogger("luza.mqtt")

# unacknowledged messages the broker may have in flight to us (the group-commit window)
RECEIVE_MAXIMUM = 1000
HUB_STATUS_TOPIC = protocol.HUB_STATUS_TOPIC
TELE_FILTER = PREFIX + "/+/+/tele"
TELE_READ_PER_S = 200.0  # telemetry reports read a second on the telemetry connection (module docstring)
TELE_READ_BURST = 200.0
TELE_FLUSH_S = 10.0  # reading at the pace without a break this long: reconnect, dropping the broker's backlog


def topic_filters(cfg: BrokerConfig, telemetry: bool) -> tuple[list[tuple[str, int]], list[str]]:
    """(filters to subscribe with their QoS, filters to unsubscribe) of the main or
    the telemetry connection."""
    if telemetry:
        return [(TELE_FILTER, 0)], []
    if cfg.tele_username is None:  # one connection reads everything
        return [(f, 1) for f in protocol.subscriptions()], []
    return [(f, 1) for f in protocol.subscriptions() if f != TELE_FILTER], [TELE_FILTER]


def hub_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("luza")
    except PackageNotFoundError:
        return "0+unknown"


def hub_status(state: str, boot: str, t_ms: int) -> bytes:
    """The payload of luza/v1/hub/status: {"v": 1, "st":
    online|offline|lost, "boot": …, "ver": …, "t": ms}."""
    return protocol.encode_hub_status(state, boot, hub_version(), t_ms)


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class RawMessage:
    """One payload as received, before parsing. `ack` (if any) must be called once it is stored."""

    source: str  # "mqtt" | "serial"
    topic: str
    payload: bytes
    received_ms: int
    ack: Callable[[], None] | None = None
    error: tuple[str, str] | None = None  # framing error found by the transport: (code, reason)
    link: Any = field(default=None, repr=False)  # the transport it came by, for replies (serial)
    # the payload's size as received, when `payload` is a cut sample (hub.service.inbox)
    size: int | None = None


class Pace:
    """A token bucket that holds the calling thread: `wait()` returns at once within `per_s` a second (bursts
    of `burst`), and sleeps until the next token past that. `behind_s()`: how long it has been holding the
    caller back without a break (the bucket has not refilled to half since)."""

    def __init__(
        self,
        per_s: float,
        burst: float,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.per_s, self.burst, self.monotonic, self.sleep = per_s, burst, monotonic, sleep
        self.tokens, self.then = burst, monotonic()
        self.waited_s = 0.0
        self._dry_since: float | None = None

    def wait(self) -> None:
        now = self.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.then) * self.per_s)
        self.then = now
        if self.tokens < 1.0:
            if self._dry_since is None:
                self._dry_since = now
            delay = (1.0 - self.tokens) / self.per_s
            self.sleep(delay)
            self.waited_s += delay
            self.tokens, self.then = 1.0, now + delay
        elif self.tokens >= self.burst / 2:
            self._dry_since = None
        self.tokens -= 1.0

    def behind_s(self) -> float:
        return 0.0 if self._dry_since is None else self.monotonic() - self._dry_since

    def reset(self) -> None:
        self._dry_since = None


class MqttIngest:
    """The hub's MQTT client. `on_message` runs on paho's network thread and must only enqueue.

    `telemetry=True`: the second connection, which reads telemetry alone (module docstring); it has no Last
    Will, says no status and publishes nothing."""

    def __init__(
        self,
        cfg: BrokerConfig,
        on_message: Callable[[RawMessage], None],
        on_link: Callable[[bool], None] | None = None,
        clock: Callable[[], int] = now_ms,
        telemetry: bool = False,
    ) -> None:
        self.cfg = cfg
        self.telemetry = telemetry
        self.name = "telemetry connection" if telemetry else "hub connection"
        self._on_message = on_message
        self._on_link = on_link
        self._clock = clock
        self._generation = 0
        self._lock = threading.Lock()
        self.connected = threading.Event()
        self.subscribed = threading.Event()  # the broker's SUBACK for this connection: nothing can pass us by
        self.connects = 0
        self.received = 0  # messages read on this connection (paho's thread)
        self.flushes = 0  # times the telemetry connection dropped the broker's backlog (_drop_backlog)
        self.session_present = False  # whether the broker kept our session at the last connect
        self._subscribe, self._unsubscribe = topic_filters(cfg, telemetry)
        self.pace = Pace(TELE_READ_PER_S, TELE_READ_BURST) if telemetry else None
        client_id, user, password = (
            (cfg.tele_client_id, cfg.tele_username, cfg.tele_password)
            if telemetry
            else (cfg.client_id, cfg.username, cfg.password)
        )
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5, manual_ack=not telemetry
        )
        if user is not None:
            self.client.username_pw_set(user, password)
        self.client.reconnect_delay_set(cfg.reconnect_min_s, cfg.reconnect_max_s)
        self.client.max_queued_messages_set(0)  # unbounded: state we publish while the broker is away waits
        self.client.on_socket_open = self._socket_open
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        self.client.on_subscribe = self._subscribed
        self.client.on_message = self._message
        self.boot_id = uuid.uuid4().hex[:12]
        if not telemetry:
            self.client.will_set(
                HUB_STATUS_TOPIC, hub_status("lost", self.boot_id, clock()), qos=1, retain=True
            )

    # ------------------------------------------------------------ lifecycle

    def start(self) -> None:
        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = 0 if self.telemetry else self.cfg.session_expiry_s
        props.ReceiveMaximum = RECEIVE_MAXIMUM
        self.client.connect_async(
            self.cfg.host,
            self.cfg.port,
            keepalive=self.cfg.keepalive_s,
            clean_start=self.telemetry,
            properties=props,
        )
        self.client.loop_start()

    def stop(self) -> None:
        # a clean goodbye; the Last Will (`lost`) is for when we cannot say it
        if self.connected.is_set() and not self.telemetry:
            info = self.client.publish(
                HUB_STATUS_TOPIC, hub_status("offline", self.boot_id, self._clock()), qos=1, retain=True
            )
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(2.0)
        self.client.disconnect()
        self.client.loop_stop()
        self.connected.clear()

    def wait_connected(self, timeout: float) -> bool:
        """Wait until connected and subscribed (the SUBACK is in:
        every event published from now on reaches us)."""
        deadline = time.monotonic() + timeout
        return self.connected.wait(timeout) and self.subscribed.wait(max(0.0, deadline - time.monotonic()))

    # ------------------------------------------------------------ paho callbacks (network thread)

    @staticmethod
    def _socket_open(client: mqtt.Client, userdata: object, sock: Any) -> None:
        # not a TCP socket (websockets wrapper): nothing to tune
        with contextlib.suppress(OSError, AttributeError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _connected(self, client: mqtt.Client, userdata: object, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            keys = "broker.tele_username/tele_password" if self.telemetry else "broker.username/password"
            log.error(
                "broker %s refused the %s: %s (check %s and the ACL)", self.cfg.url, self.name, reason, keys
            )
            return
        with self._lock:
            self._generation += 1
            self.connects += 1
        # Re-subscribing is harmless with a present session and needed without one (first start, expired).
        client.subscribe(self._subscribe)
        if self._unsubscribe:  # telemetry moved to its own connection: drop it from the persistent session
            client.unsubscribe(self._unsubscribe)
        if not self.telemetry:
            client.publish(
                HUB_STATUS_TOPIC, hub_status("online", self.boot_id, self._clock()), qos=1, retain=True
            )
        self.session_present = bool(getattr(flags, "session_present", False))
        if self.telemetry:
            log.info("telemetry connection to %s up", self.cfg.url)
        else:
            log.info("connected to %s (session present: %s)", self.cfg.url, self.session_present)
        if self._on_link:  # first: whoever waits for `connected` finds the link's consequences already queued
            self._on_link(True)
        self.connected.set()

    def _subscribed(self, client: mqtt.Client, userdata: object, mid: int, reasons: Any, props: Any) -> None:
        self.subscribed.set()

    def _disconnected(
        self, client: mqtt.Client, userdata: object, flags: Any, reason: Any, props: Any
    ) -> None:
        self.connected.clear()
        self.subscribed.clear()
        if reason.is_failure:
            log.warning("%s to %s lost (%s); reconnecting with backoff", self.name, self.cfg.url, reason)
        if self._on_link:
            self._on_link(False)

    def _message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        if self.pace is not None:
            self.pace.wait()  # a flood waits in the broker (telemetry connection only)
            if self.pace.behind_s() >= TELE_FLUSH_S:
                self._drop_backlog(client)
        self.received += 1
        with self._lock:
            gen = self._generation
        ack = self._acker(msg.mid, msg.qos, gen) if msg.qos > 0 else None
        try:
            topic = msg.topic
        except UnicodeDecodeError:  # paho decodes topics as UTF-8; a hostile one must not kill the thread
            topic = msg._topic.decode("utf-8", "replace")
        self._on_message(RawMessage("mqtt", topic, bytes(msg.payload), self._clock(), ack))

    def _drop_backlog(self, client: mqtt.Client) -> None:
        """Cut the telemetry link (paho reconnects it with a clean session):
        the broker drops what it holds for it."""
        assert self.pace is not None
        self.pace.reset()
        self.flushes += 1
        log.warning(
            "telemetry connection: read at %.0f reports/s for %.0f s without a break (a node floods?); "
            "reconnecting so the broker drops the backlog",
            self.pace.per_s,
            TELE_FLUSH_S,
        )
        sock = client.socket()
        if isinstance(sock, socket.socket):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)  # paho sees the link lost and reconnects after its delay

    def _acker(self, mid: int, qos: int, gen: int) -> Callable[[], None]:
        def ack() -> None:
            with self._lock:
                if gen != self._generation:
                    return  # that connection is gone; the broker redelivers the message on this one
            self.client.ack(mid, qos)

        return ack

    # ------------------------------------------------------------ publishing

    def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=qos, retain=retain)
