"""The detector loop's longest gap while the broker stalls and while the Wi-Fi is gone, with the device's own
MQTT client (firmware/mqtt.py) over a scripted broker socket;
runs unchanged on CPython and the real MicroPython.

`FakeBroker` answers like Mosquitto (CONNACK, SUBACK, PUBACK, PINGRESP) while `mode` is "up"; "stall" takes
bytes and answers nothing (a stopped broker: TCP still accepted); "wifi" takes nothing and answers nothing
(the access point is gone; the node's Wi-Fi also reports down). `await scenario(root)` returns the longest gap
between two detector-loop turns in each phase (ms, the runtime's own ticks) and what was delivered.
"""

import asyncio

from firmware.clock import Clock
from firmware.mqtt import MqttTransport
from firmware.node import Node
from firmware.outbox import DirStore
from firmware.transport import StaticNet
from luza_wire import protocol

try:
    from node_scenario import FakeBoard, _until  # MicroPython: copied into /lib
except ImportError:
    from tests.firmware.node_scenario import FakeBoard, _until

try:
    from time import ticks_diff, ticks_us
except ImportError:
    from firmware.compat import ticks_diff, ticks_us


class FakeBroker:
    """One scripted broker; `sock()` opens a connection to it."""

    def __init__(self):
        self.mode = "up"
        self.published = []  # (topic, payload) of every PUBLISH received while up
        self.conns = 0

    def sock(self, host, port):
        if self.mode == "wifi":
            raise OSError(113)  # EHOSTUNREACH
        self.conns += 1
        return _Conn(self)


class _Conn:
    def __init__(self, broker):
        self.broker = broker
        self.tx = bytearray()
        self.rx = bytearray()

    def send(self, buf):
        if self.broker.mode == "wifi":
            raise OSError(11)  # EAGAIN: nothing leaves
        self.tx += bytes(buf)
        if self.broker.mode == "up":
            self._answer()
        return len(buf)

    def recv(self, n):
        if self.broker.mode != "up" or not self.rx:
            raise OSError(11)
        out = bytes(self.rx[:n])
        self.rx = self.rx[n:]
        return out

    def close(self):
        pass

    def _answer(self):
        while len(self.tx) >= 2:
            size, shift, i = 0, 0, 1
            while True:
                b = self.tx[i]
                size |= (b & 0x7F) << shift
                i += 1
                if not b & 0x80:
                    break
                shift += 7
            if len(self.tx) < i + size:
                return
            first, body = self.tx[0], bytes(self.tx[i : i + size])
            self.tx = self.tx[i + size :]
            kind = first & 0xF0
            if kind == 0x10:
                self.rx += b"\x20\x02\x00\x00"
            elif kind == 0x80:
                self.rx += b"\x90\x03" + body[:2] + b"\x01"
            elif kind == 0x30:
                n = body[0] << 8 | body[1]
                self.broker.published.append(
                    (body[2 : 2 + n].decode(), body[2 + n + (2 if first & 6 else 0) :])
                )
                if first & 6:
                    self.rx += b"\x40\x02" + body[2 + n : 4 + n]
            elif kind == 0xC0:
                self.rx += b"\xd0\x00"


class GapBoard(FakeBoard):
    def __init__(self):
        FakeBoard.__init__(self)
        self.last = 0
        self.max_gap = 0
        self.turns = 0

    def feed(self):
        now = ticks_us()
        if self.last:
            gap = ticks_diff(now, self.last)
            if gap > self.max_gap:
                self.max_gap = gap
        self.last = now
        self.turns += 1

    def phase(self):
        """The longest gap so far (ms) and the turns; starts a new phase."""
        out = [self.max_gap // 1000, self.turns]
        self.max_gap = 0
        self.turns = 0
        return out


async def scenario(root):
    cfg = {
        "role": "pocket",
        "table": "t1",
        "device": "pocket-4",
        "wifi": {"ssid": "club"},
        "broker": {"keepalive": 5},
        "beam": {"poll_ms": 2},
        "pockets": [{"pocket": 4, "upper": 32, "lower": 33, "colour": False}],
    }
    broker = FakeBroker()
    board = GapBoard()
    net = StaticNet()
    # Deadlines of 1 s: a client that waited for a CONNACK or a PUBACK would stall the loop for a second.
    tr = MqttTransport("10.0.0.1", opener=broker.sock, connack_ms=1000, ack_ms=1000, write_ms=1000)
    node = Node(
        board,
        tr,
        net,
        DirStore(root + "/ob"),
        Clock(speed=20),
        cfg=cfg,
        cfg_path=root + "/config.json",
        log=lambda m: None,
    )
    node.link.backoff_min = 100
    node.link.backoff_max = 200
    task = asyncio.create_task(node.run())

    def evts():
        return [p for t, p in broker.published if t.endswith("/evt")]

    await _until(lambda: node.link.up, 2000)
    board.ball(0)
    await _until(lambda: len(evts()) == 1, 2000)
    board.phase()
    broker.mode = "stall"
    board.ball(0)
    await _until(lambda: node.link.downs == 1, 3000)
    await asyncio.sleep(1.5)  # reconnects meet a broker that never answers
    stall = board.phase()
    broker.mode = "up"
    await _until(lambda: node.link.up and node.outbox.depth == 0, 3000)
    board.phase()
    broker.mode = "wifi"
    net.down = True
    board.ball(0)
    await _until(lambda: node.link.downs == 2, 3000)
    await asyncio.sleep(1.5)
    wifi = board.phase()
    broker.mode = "up"
    net.down = False
    await _until(lambda: node.link.up and node.outbox.depth == 0, 3000)
    node.stop()
    await task
    seqs = []
    for p in evts():
        s = protocol.parse("evt", p).seq
        if s not in seqs:
            seqs.append(s)
    return {
        "stall_ms": stall[0],
        "stall_turns": stall[1] > 50,
        "wifi_ms": wifi[0],
        "wifi_turns": wifi[1] > 50,
        "seqs": seqs,
        "downs": node.link.downs,
        "connects": broker.conns >= 3,
    }
