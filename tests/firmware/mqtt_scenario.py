"""Byte-level cases for firmware/mqtt.py that run unchanged on CPython and the real MicroPython.

A fake socket (`FakeSock`) records every byte the client sends and hands it scripted chunks; a fake clock
moves time. `run()` plays each case and returns a JSON-able dict (bytes as hex) that the test compares with
bytes written out by hand from the MQTT 3.1.1 specification (tests/firmware/test_mqtt.py).
"""

from firmware.mqtt import MqttTransport


def hx(b):
    return "".join(f"{x:02x}" for x in b)


class FakeSock:
    """A non-blocking socket: `feed()` chunks for recv, `take` bytes accepted per send, `stall` = EAGAIN."""

    def __init__(self):
        self.tx = bytearray()
        self.rx = []
        self.eof = False
        self.take = 1 << 20
        self.stall = False
        self.closed = False

    def feed(self, data):
        self.rx.append(bytes(data))

    def send(self, buf):
        if self.closed:
            raise OSError(9)  # EBADF
        if self.stall:
            raise OSError(11)  # EAGAIN: the TCP window is full
        n = min(len(buf), self.take)
        self.tx += bytes(buf[:n])
        return n

    def recv(self, n):
        if self.closed:
            raise OSError(9)
        if not self.rx:
            if self.eof:
                return b""
            raise OSError(11)
        data = b"".join(self.rx)  # like TCP: whatever has arrived, up to n bytes
        self.rx = [data[n:]] if len(data) > n else []
        return data[:n]

    def close(self):
        self.closed = True

    def sent(self):
        """Bytes sent since the last call, as hex."""
        out = hx(self.tx)
        self.tx = bytearray()
        return out


def _client(**kw):
    clock = [1000]
    socks = []

    def opener(host, port):
        s = FakeSock()
        socks.append(s)
        return s

    def ticks():
        return clock[0]

    c = MqttTransport("10.0.0.1", 1883, window=kw.pop("window", 4), opener=opener, ticks=ticks, **kw)
    return c, socks, clock


def _poll(c):
    """poll() as data: [events] or "OSError: <message>"."""
    try:
        return [[e[0], e[1], hx(e[2])] if e[0] == "msg" else list(e) for e in c.poll()]
    except OSError as exc:
        return "OSError: " + str(exc.args[0] if exc.args else exc)


def case_session():
    c, socks, clock = _client(user="pocket-4", password="pw")
    r = {}
    c.connect("pocket-4", 30, "t/s", b"L")
    s = socks[0]
    r["connect"] = s.sent()
    c.subscribe("t/cmd")
    r["birth_pid"] = c.publish("t/s", b"on", True, 1)
    r["before_connack"] = [c.connected, s.sent()]
    s.feed(b"\x20\x02\x00\x00")
    s.feed(b"\x90\x03\x00\x01\x01")
    r["connack"] = [_poll(c), c.connected]
    r["pids"] = [c.publish("t/e", b"a"), c.publish("t/e", b"b"), c.publish("t/e", b"c")]
    r["publishes"] = s.sent()
    s.feed(b"\x40\x02\x00\x04\x40\x02\x00\x02")  # out of order, in one read
    s.feed(b"\x40\x02\x00\x09")  # an id not in flight
    r["acks_1"] = _poll(c)
    s.feed(b"\x40\x02\x00\x03\x40")  # the ack of 3, then the first byte of the next packet
    r["acks_2"] = _poll(c)
    s.feed(b"\x02\x00\x05")
    r["acks_3"] = [_poll(c), c.stray]
    r["tele"] = [c.publish("t/tele", b"x", False, 0), s.sent()]
    s.feed(b"\x32\x0a\x00\x05t/cmd\x00\x07{}")  # a QoS 1 command, pid 7
    r["incoming"] = [_poll(c), s.sent()]
    clock[0] += 7499
    r["no_ping_yet"] = [_poll(c), s.sent()]
    clock[0] += 1
    r["ping"] = [_poll(c), s.sent()]
    clock[0] += 5000
    r["one_ping_outstanding"] = [_poll(c), s.sent()]
    s.feed(b"\xd0\x00")
    r["pingresp"] = [_poll(c), c.connected]
    c.disconnect()
    r["disconnect"] = [s.sent(), s.closed, c.connected]
    return r


def case_silent_broker():
    """Accepts TCP and never answers: no CONNACK within connack_ms."""
    c, socks, clock = _client(connack_ms=3000)
    c.connect("n", 30, None, b"")
    socks[0].sent()
    clock[0] += 3000
    r = {"at_limit": [_poll(c), c.connected]}
    clock[0] += 1
    r["after"] = [_poll(c), socks[0].closed, c.sock is None]
    r["publish_after"] = _publish_error(c)
    return r


def _publish_error(c):
    try:
        c.publish("t", b"x")
    except OSError as exc:
        return "OSError: " + str(exc.args[0])
    return "published"


def _connected(**kw):
    c, socks, clock = _client(**kw)
    c.connect("n", 30, None, b"")
    socks[0].feed(b"\x20\x02\x00\x00")
    c.poll()
    socks[0].sent()
    return c, socks[0], clock


def case_lost_puback():
    c, s, clock = _connected(ack_ms=2000)
    a = c.publish("t", b"1")
    b = c.publish("t", b"2")
    s.feed(b"\x40\x02\x00" + bytes((b,)))  # the second is acked, the first's PUBACK never comes
    clock[0] += 1000
    r = {"pids": [a, b], "partial": _poll(c)}
    clock[0] += 1001
    r["timeout"] = [_poll(c), s.closed]
    return r


def case_refused():
    c, s, _clock = _client()
    c.connect("n", 30, None, b"")
    socks = s[0]
    socks.feed(b"\x20\x02\x00\x05")
    return {"refused": [_poll(c), c.connected]}


def case_cut_mid_packet():
    c, s, _clock = _connected()
    pid = c.publish("t", b"1")
    s.feed(b"\x40\x02\x00" + bytes((pid,)) + b"\x32\x0a\x00\x05t/cm")  # an ack, then half a command
    s.eof = True
    r = {"last_acks": [_poll(c), s.closed]}
    r["then"] = [_poll(c), s.closed]
    return r


def case_half_open():
    """Pings go out, nothing ever comes back: keepalive s of silence ends the connection."""
    c, s, clock = _connected()
    sent = []
    for _ in range(6):
        clock[0] += 7500
        sent.append([_poll(c), s.sent()])
    return {"steps": sent}


def case_stalled_socket():
    """The socket takes nothing (Wi-Fi gone, TCP window full): write_ms without progress ends it."""
    c, s, clock = _connected(write_ms=2000)
    s.stall = True
    c.publish("t", b"1")
    clock[0] += 1500
    r = {"waiting": _poll(c)}
    s.stall = False
    s.take = 3  # progress, three bytes at a time: the deadline runs from the last byte written
    clock[0] += 1500
    r["trickle"] = [_poll(c), s.sent()]
    s.stall = True
    c.publish("t", b"2")
    clock[0] += 2001
    r["stalled"] = _poll(c)
    return r


def case_window_and_pids():
    c, s, _clock = _connected(window=2)
    r = {}
    r["pids"] = [c.publish("t", b"1"), c.publish("t", b"2")]
    try:
        c.publish("t", b"3")
        r["third"] = "published"
    except RuntimeError:
        r["third"] = "RuntimeError"
    s.feed(b"\x40\x02\x00\x01")
    _poll(c)
    r["next"] = c.publish("t", b"3")
    c._pid = 65534
    s.feed(b"\x40\x02\x00\x02")
    _poll(c)
    r["wrap"] = [c.publish("t", b"4"), c.publish("t", b"5") if len(c._inflight) < 2 else None]
    s.feed(b"\x40\x02\xff\xff")
    _poll(c)
    c._pid = 2  # the next id would be 3, still in flight: it is skipped
    r["skips_in_flight"] = c.publish("t", b"6")
    return r


def case_byte_by_byte():
    c, socks, _clock = _client()
    c.connect("n", 0, None, b"")
    s = socks[0]
    states = []
    for b in b"\x20\x02\x00\x00\x30\x05\x00\x01tok":
        s.feed(bytes((b,)))
        states.append([_poll(c), c.connected])
    return {"states": states}


def run():
    return {
        "session": case_session(),
        "silent": case_silent_broker(),
        "lost_puback": case_lost_puback(),
        "refused": case_refused(),
        "cut": case_cut_mid_packet(),
        "half_open": case_half_open(),
        "stalled": case_stalled_socket(),
        "window": case_window_and_pids(),
        "bytes": case_byte_by_byte(),
    }
