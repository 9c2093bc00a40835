"""A small non-blocking MQTT 3.1.1 client: the node's device transport (replaces umqtt.simple).

Nothing here ever waits. The socket is non-blocking from before its TCP connect; `connect()`, `publish()` and
`subscribe()` only append packets to a bounded output buffer, and `poll()` (called by the link every few ms)
writes what the socket takes, reads what has arrived (a bounded amount), parses whole packets and checks the
clocks. Every wait has its own deadline, measured from the last progress, so a broker that stalls or a Wi-Fi
that vanishes becomes an `OSError` from `poll()` within a known time instead of a frozen node:

    CONNACK         `connack_ms` after the connect started (a broker that accepts TCP and never answers)
    PUBACK          `ack_ms` after the PUBLISH was queued (matched by packet id, in any order)
    output          `write_ms` with queued bytes and no byte written (a full TCP window: a dead peer)
    keep-alive      a PINGREQ every `keepalive / 4` while nothing arrives; `keepalive` s without a single
                    byte from the broker means the connection is half-open (the broker would drop us at 1.5x)

QoS 1 publishes are numbered with packet ids (1..65535, skipping ids still in flight) and at most `window`
may be in flight; the caller keeps below it (firmware/link.py: 16 events, plus its birth and goodbye). A
PUBACK for an id not in flight is counted (`stray`) and ignored. The transport interface is the one of
firmware/transport.py: `publish` returns the packet id as the token and its ("ack", pid) comes out of a later
`poll()`. MQTT 3.1.1 lets a client send packets right after CONNECT without waiting for the CONNACK, so the
link subscribes and publishes its birth at once; `connected` turns True on a good CONNACK. Only `OSError`
leaves this module for a network fault; a protocol violation by the broker is reported as one
too (the link reconnects).

The socket comes from `opener(host, port)` (default: `socket.getaddrinfo` once, then a non-blocking TCP
socket; tests pass fakes). Only the first lookup of a host name can block (DNS), so use an IP address for the
hub. TLS wraps the socket without a handshake; the handshake then runs inside the non-blocking reads/writes.
"""

from firmware.compat import const, ticks_diff, ticks_ms

CONNECT = const(0x10)
CONNACK = const(0x20)
PUBLISH = const(0x30)
PUBACK = const(0x40)
SUBSCRIBE = const(0x82)
SUBACK = const(0x90)
PINGREQ = b"\xc0\x00"
PINGRESP = const(0xD0)
DISCONNECT = b"\xe0\x00"
MAX_IN = const(4096)  # a larger incoming packet is a protocol error (commands are a few hundred bytes)
READ_CHUNK = const(512)
READS_PER_POLL = const(4)  # at most 2 KB read per poll: a flood of commands must not starve the detectors
# errno values that mean "not yet" on a non-blocking socket: EAGAIN, EINPROGRESS (Linux, lwIP), ETIMEDOUT and
# 118 which lwIP reports for a socket still connecting, ENOTCONN (Linux, lwIP) before the connect completes.
_BUSY = (11, 115, 119, 110, 118, 107, 128)
_REFUSED = {
    1: "unacceptable protocol version",
    2: "client id rejected",
    3: "server unavailable",
    4: "bad user name or password",
    5: "not authorised",
}


def _varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | 0x80 if n else b)
        if not n:
            return bytes(out)


def _str(s):
    b = s if isinstance(s, (bytes, bytearray)) else str(s).encode()
    if len(b) > 65535:
        raise ValueError("MQTT string longer than 65535 bytes")
    return bytes((len(b) >> 8, len(b) & 0xFF)) + b


def _packet(first, body):
    return bytes((first,)) + _varint(len(body)) + body


def connect_packet(client_id, keepalive, will_topic=None, will_payload=b"", user=None, password=None):
    """CONNECT, clean session; the Last Will (if any) is retained with QoS 1."""
    flags = 0x02
    tail = _str(client_id)
    if will_topic:
        flags |= 0x04 | 0x08 | 0x20
        tail += _str(will_topic) + _str(will_payload)
    if user:
        flags |= 0x80
        tail += _str(user)
        if password:
            flags |= 0x40
            tail += _str(password)
    head = _str(b"MQTT") + bytes((4, flags, (keepalive >> 8) & 0xFF, keepalive & 0xFF))
    return _packet(CONNECT, head + tail)


def publish_packet(topic, payload, qos=0, retain=False, pid=0, dup=False):
    """PUBLISH; `pid` only with QoS 1."""
    first = PUBLISH | (qos << 1) | (1 if retain else 0) | (8 if dup else 0)
    body = _str(topic)
    if qos:
        body += bytes((pid >> 8, pid & 0xFF))
    return _packet(
        first, body + (payload if isinstance(payload, (bytes, bytearray)) else str(payload).encode())
    )


def subscribe_packet(pid, topic, qos=1):
    return _packet(SUBSCRIBE, bytes((pid >> 8, pid & 0xFF)) + _str(topic) + bytes((qos,)))


def puback_packet(pid):
    return bytes((PUBACK, 2, pid >> 8, pid & 0xFF))


def _open_tcp(host, port, tls=False):
    import socket

    addr = socket.getaddrinfo(host, port)[0][-1]
    sock = socket.socket()
    sock.setblocking(False)
    try:
        sock.connect(addr)
    except OSError as exc:
        if exc.args[0] not in _BUSY:
            sock.close()
            raise
    if tls:  # pragma: no cover - TLS is exercised on the device only
        import ssl

        sock = ssl.wrap_socket(sock, server_hostname=host, do_handshake=False)  # type: ignore[call-arg]
    return sock


class MqttTransport:
    """The device transport over our own non-blocking MQTT client. See the module docstring."""

    def __init__(
        self,
        host,
        port=1883,
        user=None,
        password=None,
        tls=False,
        window=20,
        connack_ms=5000,
        ack_ms=5000,
        write_ms=5000,
        out_max=8192,
        opener=None,
        ticks=None,
    ):
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.tls = tls
        self.window = window
        self.connack_ms = connack_ms
        self.ack_ms = ack_ms
        self.write_ms = write_ms
        self.out_max = out_max
        self._opener = opener
        self._ticks = ticks or ticks_ms
        self.connected = False
        self.sock = None
        self.stray = 0  # PUBACKs for ids not in flight
        self.dropped = 0  # QoS 0 packets not queued because the output buffer was full
        self._reset()

    def _reset(self):
        self._out = bytearray()
        self._in = bytearray()
        self._inflight = {}  # pid -> ticks when queued
        self._sub_pid = 0
        self._events = []
        self._pid = 0
        now = self._ticks()
        self._started = now
        self._last_rx = now
        self._last_tx = now
        self._last_write = now
        self._ping_out = False
        self._eof = False
        self._error = None

    # ------------------------------------------------------------ the transport interface

    def connect(self, client_id, keepalive, will_topic, will_payload):
        """Open the socket and queue CONNECT; the CONNACK is awaited by `poll()` (no wait here)."""
        self._close()
        self._reset()
        if self._opener is not None:
            self.sock = self._opener(self.host, self.port)
        else:
            self.sock = _open_tcp(self.host, self.port, self.tls)
        self.keepalive_ms = keepalive * 1000
        now = self._ticks()
        self._started = self._last_rx = self._last_tx = self._last_write = now
        self._queue(connect_packet(client_id, keepalive, will_topic, will_payload, self.user, self.password))
        self._flush()

    def publish(self, topic, payload, retain=False, qos=1):
        """Queue a PUBLISH; returns its packet id (QoS 1; the token of its later ack) or None (QoS 0)."""
        self._need_socket()
        if not qos:
            pkt = publish_packet(topic, payload, 0, retain)
            if len(self._out) + len(pkt) > self.out_max:
                self.dropped += 1  # best effort (telemetry): never worth the link
                return None
            self._queue(pkt)
            self._flush()
            return None
        if len(self._inflight) >= self.window:
            raise RuntimeError(
                "mqtt: %d publishes already in flight (the caller must wait for acks)" % self.window
            )
        pid = self._next_pid()
        self._inflight[pid] = self._ticks()
        self._queue(publish_packet(topic, payload, 1, retain, pid))
        self._flush()
        return pid

    def subscribe(self, topic):
        """Queue SUBSCRIBE (QoS 1); a refusal in the SUBACK is an OSError from `poll()`."""
        self._need_socket()
        self._sub_pid = self._next_pid()
        self._queue(subscribe_packet(self._sub_pid, topic))
        self._flush()

    def poll(self):
        """Write, read, parse, check deadlines; -> [("ack", pid) | ("msg", topic, payload)]. Never blocks."""
        self._need_socket()
        try:
            self._flush()
            self._read()
            self._parse()
            if self._eof:
                raise OSError("mqtt: connection closed by the broker")
            self._check(self._ticks())
            self._flush()
        except OSError as exc:
            self._close()
            self._error = exc
            if not self._events:
                raise
            # hand over what arrived before the loss (acks spare re-sends); the next poll reports it
        out, self._events = self._events, []
        return out

    def disconnect(self):
        """Say goodbye (DISCONNECT: no Last Will) if the socket takes it now, then close."""
        if self.sock is not None:
            try:
                self._queue(DISCONNECT)
                self._flush()
            except OSError:
                pass  # already gone: nothing to say goodbye to
        self._close()

    def abort(self):
        """Vanish without a DISCONNECT (a power cut), so the broker publishes the Last Will."""
        self._close()

    # ------------------------------------------------------------ internals

    def _need_socket(self):
        if self.sock is None:
            raise OSError(
                "mqtt: not connected (%s)" % (self._error,) if self._error else "mqtt: not connected"
            )

    def _next_pid(self):
        pid = self._pid
        while True:
            pid = pid + 1 if pid < 65535 else 1
            if pid not in self._inflight and pid != self._sub_pid:
                self._pid = pid
                return pid

    def _queue(self, pkt):
        if len(self._out) + len(pkt) > self.out_max:
            raise OSError("mqtt: output buffer full (%d bytes unsent)" % len(self._out))
        if not self._out:
            self._last_write = self._ticks()  # the write deadline runs from when bytes start waiting
        self._out += pkt
        self._last_tx = self._ticks()

    def _flush(self):
        while self._out:
            try:
                n = self.sock.send(self._out)  # type: ignore[union-attr]
            except OSError as exc:
                if exc.args and exc.args[0] in _BUSY:
                    return
                raise
            if not n:  # None (TLS wants to read first) or 0: try again on the next poll
                return
            self._out = self._out[n:]
            self._last_write = self._ticks()

    def _read(self):
        for _ in range(READS_PER_POLL):
            try:
                data = self.sock.recv(READ_CHUNK)  # type: ignore[union-attr]
            except OSError as exc:
                if exc.args and exc.args[0] in _BUSY:
                    return
                raise
            if data is None:
                return
            if not data:
                self._eof = True  # parse what is complete first: a cut mid-packet loses only that packet
                return
            self._in += data
            self._last_rx = self._ticks()
            self._ping_out = False  # any byte proves the broker alive
            if len(data) < READ_CHUNK:
                return

    def _parse(self):
        while True:
            buf = self._in
            if len(buf) < 2:
                return
            size = 0
            shift = 0
            i = 1
            while True:
                if i >= len(buf):
                    return  # length still incomplete
                b = buf[i]
                size |= (b & 0x7F) << shift
                i += 1
                if not b & 0x80:
                    break
                shift += 7
                if shift > 21:
                    raise OSError("mqtt: malformed remaining length from the broker")
            if size > MAX_IN:
                raise OSError("mqtt: %d-byte packet from the broker exceeds %d" % (size, MAX_IN))
            if len(buf) < i + size:
                return  # wait for the rest of the packet
            first = buf[0]
            body = bytes(buf[i : i + size])
            self._in = buf[i + size :]
            self._packet(first, body)

    def _packet(self, first, body):
        kind = first & 0xF0
        if kind == PUBACK and len(body) == 2:
            pid = body[0] << 8 | body[1]
            if self._inflight.pop(pid, None) is None:
                self.stray += 1
            else:
                self._events.append(("ack", pid))
        elif kind == PUBLISH:
            self._incoming(first, body)
        elif kind == CONNACK and len(body) == 2:
            if body[1]:
                reason = _REFUSED.get(body[1], "code %d" % body[1])
                raise OSError("mqtt: broker refused the connection: %s" % reason)
            self.connected = True
        elif kind == SUBACK and len(body) >= 3:
            if body[2] == 0x80:
                raise OSError("mqtt: broker refused the subscription")
            self._sub_pid = 0
        elif kind != PINGRESP:
            raise OSError("mqtt: unexpected packet 0x%02x from the broker" % first)

    def _incoming(self, first, body):
        qos = (first >> 1) & 3
        if qos > 1 or len(body) < 2:
            raise OSError("mqtt: malformed PUBLISH from the broker")
        n = body[0] << 8 | body[1]
        topic = body[2 : 2 + n].decode()
        rest = 2 + n
        if qos:
            pid = body[rest] << 8 | body[rest + 1]
            rest += 2
            self._queue(puback_packet(pid))
        self._events.append(("msg", topic, body[rest:]))

    def _check(self, now):
        if not self.connected:
            if ticks_diff(now, self._started) > self.connack_ms:
                raise OSError("mqtt: no CONNACK within %d ms" % self.connack_ms)
            return
        if self._out and ticks_diff(now, self._last_write) > self.write_ms:
            raise OSError("mqtt: the socket took no byte for %d ms" % self.write_ms)
        for pid in self._inflight:
            if ticks_diff(now, self._inflight[pid]) > self.ack_ms:
                raise OSError("mqtt: no PUBACK for packet %d within %d ms" % (pid, self.ack_ms))
        ka = self.keepalive_ms
        if not ka:
            return
        quiet = ticks_diff(now, self._last_rx)
        if quiet >= ka:
            raise OSError("mqtt: nothing from the broker for %d ms (half-open connection)" % quiet)
        if not self._ping_out and (quiet >= ka // 4 or ticks_diff(now, self._last_tx) >= ka // 2):
            self._ping_out = True
            self._queue(PINGREQ)

    def _close(self):
        self.connected = False
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass  # closing a dead socket: nothing more to lose
        self.sock = None
