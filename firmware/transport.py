"""The small network interface the connection manager talks to: Wi-Fi and an MQTT client.

Two MQTT implementations behind one interface (duck-typed; MicroPython has no ABCs):

    connected                                   -> bool (True once the broker accepted the connection)
    connect(client_id, keepalive, will_topic, will_payload)   LWT is retained, QoS 1; raises OSError;
                                                   subscribe/publish may follow before `connected`
    publish(topic, payload, retain=False, qos=1) -> token; its PUBACK shows up later in poll(); raises OSError
    subscribe(topic)                            QoS 1; raises OSError
    poll()                                      -> [("ack", token) | ("msg", topic, payload)]; raises OSError
                                                   when the connection is gone (never blocks)
    disconnect()                                polite goodbye (no Last Will)

- `MqttTransport` (firmware/mqtt.py): on the device, our own non-blocking MQTT 3.1.1 client; nothing in it
  waits (CONNECT, PUBLISH and SUBSCRIBE are queued, `poll()` does the I/O and the deadlines), `connected`
  turns True on the CONNACK.
- `PahoTransport`: on CPython (virtual nodes), over paho-mqtt 2.x with the callback API v2, TCP_NODELAY set
  (Nagle would add tens of ms), and `loop(0)` driven from `poll()`: no thread, so many virtual nodes share
  one asyncio loop.

The Wi-Fi interface (`up()`, `connect()`, `ip()`, `rssi()`): `WlanNet` on the device (`network.WLAN`),
`StaticNet` for virtual nodes (always up unless a test takes it down).

Every session is clean: the outbox re-sends whatever was not acknowledged, and a clean session means a
stale `cmd` (an old time exchange) is never delivered after a reconnect.
"""

import time

from luza_wire import envelope
from luza_wire.frame import Rejection

# ---------------------------------------------------------------- Wi-Fi


class StaticNet:
    """A network that is simply there (a PC's loopback); `down = True` simulates a lost access point."""

    def __init__(self, ip="127.0.0.1", rssi=-55):
        self.down = False
        self._ip = ip
        self._rssi = rssi

    def up(self):
        return not self.down

    def connect(self):
        pass

    def ip(self):
        return self._ip if not self.down else ""

    def rssi(self):
        return self._rssi if not self.down else None


class WlanNet:  # pragma: no cover - needs an ESP32
    """The ESP32 station interface. `connect()` only starts joining; the link polls `up()` with a timeout."""

    def __init__(self, ssid, password, hostname=None):
        import network

        self.ssid = ssid
        self.password = password
        self.wlan = network.WLAN(network.STA_IF)
        if hostname:
            try:
                network.hostname(hostname)
            except (AttributeError, ValueError, OSError):
                pass  # older ports: the default hostname is fine
        self.wlan.active(True)

    def up(self):
        return self.wlan.isconnected()

    def connect(self):
        if not self.wlan.isconnected():
            self.wlan.connect(self.ssid, self.password)

    def ip(self):
        return self.wlan.ifconfig()[0] if self.wlan.isconnected() else ""

    def rssi(self):
        try:
            return self.wlan.status("rssi")
        except (ValueError, OSError):
            return None


# ---------------------------------------------------------------- MQTT on CPython (virtual nodes)


class PahoTransport:
    """MQTT over paho-mqtt 2.x for virtual nodes; a fresh client per connection (clean session)."""

    def __init__(self, host="127.0.0.1", port=1883, user=None, password=None, connect_timeout=2.0):
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.connect_timeout = connect_timeout
        self.client = None
        self.connected = False
        self._events = []
        self._failed = None

    def connect(self, client_id, keepalive, will_topic, will_payload):
        import socket

        import paho.mqtt.client as mqtt

        self._drop_client()
        client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311, clean_session=True
        )
        if self.user:
            client.username_pw_set(self.user, self.password)
        client.will_set(will_topic, will_payload, qos=1, retain=True)

        def nodelay(_c, _u, sock):
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except (OSError, AttributeError):
                pass  # not a TCP socket (websockets/unix); Nagle is then not our problem

        client.on_socket_open = nodelay
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        self.client = client
        self._events = []
        self._failed = None
        client.connect(self.host, self.port, keepalive)  # OSError (refused, unreachable) propagates
        deadline = time.monotonic() + self.connect_timeout
        while not self.connected and self._failed is None and time.monotonic() < deadline:
            client.loop(0.01)
        if not self.connected:
            reason = self._failed or "no CONNACK within %.1f s" % self.connect_timeout
            self._drop_client()
            raise OSError("mqtt connect to %s:%d failed: %s" % (self.host, self.port, reason))

    def _on_connect(self, _c, _u, _flags, reason_code, _props):
        if reason_code.is_failure:
            self._failed = str(reason_code)
        else:
            self.connected = True

    def _on_disconnect(self, _c, _u, _flags, reason_code, _props):
        self.connected = False
        self._failed = str(reason_code)

    def _on_publish(self, _c, _u, mid, _reason_code, _props):
        self._events.append(("ack", mid))

    def _on_message(self, _c, _u, msg):
        self._events.append(("msg", msg.topic, bytes(msg.payload)))

    def _c(self):
        if self.client is None:
            raise OSError("mqtt: no client")
        return self.client

    def _check(self):
        if not self.connected or self.client is None:
            raise OSError("mqtt connection lost: %s" % (self._failed or "not connected",))

    def publish(self, topic, payload, retain=False, qos=1):
        self._check()
        info = self._c().publish(topic, payload, qos=qos, retain=retain)
        if info.rc != 0:
            self.connected = False
            raise OSError("mqtt publish failed: rc=%s" % (info.rc,))
        return info.mid

    def subscribe(self, topic):
        self._check()
        rc, _mid = self._c().subscribe(topic, qos=1)
        if rc != 0:
            self.connected = False
            raise OSError("mqtt subscribe failed: rc=%s" % (rc,))

    def poll(self):
        self._check()
        rc = self._read_all()
        out, self._events = self._events, []
        if rc != 0:
            self.connected = False
        if not self.connected:
            self._failed = self._failed or "rc=%s" % (rc,)
            if out:
                return out  # hand over the last acks; the next poll reports the loss
            raise OSError("mqtt connection lost: %s" % (self._failed,))
        return out

    def _read_all(self, limit=64):
        """paho's loop() reads one packet when nothing of ours is in flight; read all that is waiting."""
        import select

        rc = 0
        for _ in range(limit):
            client = self._c()
            rc = client.loop(0)
            sock = client.socket()
            if rc != 0 or not self.connected or sock is None or not select.select([sock], [], [], 0)[0]:
                break
        return rc

    def disconnect(self):
        if self.client is not None and self.connected:
            self.client.disconnect()
            self.client.loop(0.05)
        self._drop_client()

    def abort(self):
        """Vanish without a DISCONNECT (a power cut), so the broker publishes the Last Will."""
        self._drop_client()

    def _drop_client(self):
        """Close the socket (and paho's wake-up socket pair) now rather than at garbage collection."""
        if self.client is not None:
            try:
                self.client._reset_sockets()  # paho's own cleanup; it has no public close()
            except (AttributeError, OSError):
                sock = self.client.socket()
                if sock is not None:
                    sock.close()
        self.client = None
        self.connected = False


# ---------------------------------------------------------------- USB serial (no Wi-Fi)


class SerialTransport:
    """The same payloads as JSON lines on USB serial, for the hub's pyserial ingest (hub/ingest/serial.py).

    Node -> hub, one line per message: `{"topic": "luza/v1/<table>/<device>/<channel>", "payload": {...}}`.
    Hub -> node, the same shape on the node's `cmd` topic. There is no broker to acknowledge anything, so a
    line written is taken as delivered (the USB link is a wire, not a radio); no Last Will either: the hub
    notices the port closing. `write(str)` and `read_line() -> str or None` (never blocking) default to the
    USB REPL's stdout and stdin; virtual nodes and tests pass their own.
    """

    MAX_LINE = 2048

    def __init__(self, write=None, read_line=None):
        self._write = write or _stdout_write
        self._read_line = read_line or _stdin_reader()
        self.connected = False
        self._token = 0
        self._acks = []
        self._topic = None
        self.bad_lines = 0

    def connect(self, client_id, keepalive, will_topic, will_payload):
        self.connected = True
        self._acks = []

    def publish(self, topic, payload, retain=False, qos=1):
        if not self.connected:
            raise OSError("serial port closed")
        self._write(envelope.encode_serial(topic, payload))
        self._token += 1
        self._acks.append(("ack", self._token))
        return self._token

    def subscribe(self, topic):
        self._topic = topic

    def poll(self):
        if not self.connected:
            raise OSError("serial port closed")
        out, self._acks = self._acks, []
        for _ in range(8):  # bounded per poll, like the MQTT transports
            line = self._read_line()
            if not line:
                break
            msg = self._decode(line)
            if msg is not None:
                out.append(msg)
        return out

    def _decode(self, line):
        if len(line) > self.MAX_LINE:
            self.bad_lines += 1
            return ("msg", self._topic, b"")  # parse_command rejects it: counted where cmds are counted
        got = envelope.parse_serial(line)
        if isinstance(got, Rejection):
            self.bad_lines += 1
            return ("msg", self._topic, line.encode() if isinstance(line, str) else bytes(line))
        if got[0] != self._topic:
            return None
        return ("msg", got[0], got[1])

    def disconnect(self):
        self.connected = False


def _stdout_write(s):
    import sys

    sys.stdout.write(s)


def _stdin_reader():  # pragma: no cover - the device's USB REPL
    def read_line():
        import select
        import sys

        p = select.poll()
        p.register(sys.stdin, select.POLLIN)
        if not p.poll(0):
            return None
        return sys.stdin.readline()

    return read_line
