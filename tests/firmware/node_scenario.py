"""A node scenario that runs unchanged on CPython and under the real MicroPython (no broker, no Node.js
sockets: a loopback transport), so the node app, link, outbox and clock are checked on the device's runtime.

`await scenario(root)` boots a pocket node, drops two balls through pocket 4, sends a time exchange and a
malformed command, takes the link down for a while (events buffer), brings it back (they drain in order),
and returns what the "broker" saw as a JSON-able dict.
"""

import asyncio
import json
import time

from firmware.clock import Clock
from firmware.node import Node
from firmware.outbox import DirStore
from firmware.transport import StaticNet
from luza_wire import node_events, protocol

try:
    from time import ticks_add, ticks_us
except ImportError:
    from firmware.compat import ticks_add, ticks_us


class LoopTransport:
    """The transport interface with the broker replaced by lists; `up = False` is an outage.

    With `confirm` (the default) it also plays the hub's part of end-to-end delivery: each event it takes
    moves a contiguous per-boot mark, answered with a `stored` command on the node's
    `cmd` topic at the next poll.
    """

    def __init__(self, confirm=True):
        self.connected = False
        self.up = True
        self.sent = []
        self.inbox = []
        self._acks = []
        self._token = 0
        self.will = None
        self.connects = 0
        self.confirm = confirm
        self.seen = {}  # boot -> seqs taken
        self.marks = {}  # boot -> contiguous mark

    def connect(self, client_id, keepalive, will_topic, will_payload):
        if not self.up:
            raise OSError("broker unreachable")
        self.connected = True
        self.connects += 1
        self.will = (will_topic, will_payload)

    def publish(self, topic, payload, retain=False, qos=1):
        if not self.connected or not self.up:
            self.connected = False
            raise OSError("connection lost")
        self._token += 1
        self.sent.append((topic, payload, retain))
        self._acks.append(("ack", self._token))
        if self.confirm and topic.endswith("/evt"):
            self._stored(topic[:-3] + "cmd", payload)
        return self._token

    def _stored(self, cmd_topic, payload):
        key = node_events.event_key(payload)
        if key is None:
            return
        boot, seq = key
        seen = self.seen.setdefault(boot, set())
        seen.add(seq)
        mark = self.marks.get(boot, 0)
        while mark + 1 in seen:
            mark += 1
        self.marks[boot] = mark
        self.inbox.append(("msg", cmd_topic, protocol.encode_command("stored", 0, b=boot, s=mark)))

    def subscribe(self, topic):
        self.sub = topic

    def poll(self):
        if not self.connected or not self.up:
            self.connected = False
            raise OSError("connection lost")
        out = self._acks + self.inbox
        self._acks = []
        self.inbox = []
        return out

    def disconnect(self):
        self.connected = False


class FakeBoard:
    def __init__(self):
        self.ring = None
        self.feeds = 0
        self.leds = 0

    def ticks_us(self):
        return ticks_us()

    def attach_beams(self, pockets, ring, active_low):
        self.ring = ring

    async def wait_edges(self, ms):
        await asyncio.sleep(ms / 1000)

    def colour(self, slot):
        return None

    def sample_colour(self, sensor, log, ms):
        raise AssertionError("this board has no colour sensor")

    def stop_colour(self):
        pass

    def accel(self):
        return None

    async def light_sleep(self, ms):
        await asyncio.sleep(ms / 1000)

    def led(self, on):
        self.leds += 1 if on else 0

    def feed(self):
        self.feeds += 1

    def reset(self):
        pass

    def heap(self):
        return 100000

    def battery(self):
        return None

    def ball(self, slot):
        """Edges of one ball through `slot`, all in the past: upper, lower, upper clears, lower clears."""
        t0 = ticks_add(ticks_us(), -60000)
        base = slot << 2
        for beam, level, dt in ((0, 1, 0), (1, 1, 15000), (0, 0, 34000), (1, 0, 49000)):
            self.ring.put(base | beam << 1 | level, ticks_add(t0, dt))


async def _until(pred, ms):
    for _ in range(ms // 5):
        if pred():
            return True
        await asyncio.sleep(0.005)
    return pred()


async def scenario(root):
    cfg = {
        "role": "pocket",
        "table": "t1",
        "device": "pocket-4",
        "wifi": {"ssid": "club"},
        "pockets": [{"pocket": 4, "upper": 32, "lower": 33, "colour": False}],
    }
    board = FakeBoard()
    tr = LoopTransport()
    clock = Clock(speed=20)  # backoff waits 20x shorter
    node = Node(
        board,
        tr,
        StaticNet(),
        DirStore(root + "/ob"),
        clock,
        cfg=cfg,
        cfg_path=root + "/config.json",
        log=lambda m: None,
    )
    task = asyncio.create_task(node.run())
    await _until(lambda: node.link.up, 2000)
    cmd = protocol.topic("t1", "pocket-4", "cmd")
    await asyncio.sleep(0.07)
    board.ball(0)
    await _until(lambda: len([s for s in tr.sent if s[0].endswith("/evt")]) == 1, 2000)
    teles = len([s for s in tr.sent if s[0].endswith("/tele")])
    tr.inbox.append(("msg", cmd, protocol.encode_command("time", 1, hub=1700000000000)))
    tr.inbox.append(("msg", cmd, b"{not json"))
    tr.inbox.append(("msg", cmd, b'{"v": 1, "c": "calibrate", "p": 4}'))
    await _until(lambda: clock.synced and node.link.rejected == 2, 2000)
    # the time is answered with telemetry
    answered = len([s for s in tr.sent if s[0].endswith("/tele")]) > teles
    tr.up = False  # outage: the next two balls stay in the outbox
    await _until(lambda: not node.link.up, 2000)
    board.ball(0)
    await asyncio.sleep(0.1)
    board.ball(0)
    await _until(lambda: node.outbox.depth == 2, 2000)
    depth_in_outage = node.outbox.depth
    tr.up = True
    await _until(lambda: node.link.up and node.outbox.depth == 0, 3000)
    tele = protocol.parse("tele", node.tele()).fields
    node.stop()
    await task
    events = []
    statuses = []
    for topic, payload, retain in tr.sent:
        ch = protocol.parse_topic(topic).channel
        msg = protocol.parse(ch, payload)
        if ch == "evt":
            events.append(
                [
                    msg.kind,
                    msg.seq,
                    msg.get("pocket"),
                    msg.synced,
                    abs(msg.t - 1700000000000) < 10000,
                    # its uptime, whatever `t` is
                    msg.t - msg.up == (clock.offset if msg.synced else 0),
                ]
            )
        elif ch == "status":
            statuses.append([msg.state, retain])
    return {
        "events": events,
        "statuses": statuses,
        "rejected": node.link.rejected,
        "depth_in_outage": depth_in_outage,
        "ups": node.link.ups,
        "downs": node.link.downs,
        "connects": tr.connects,
        "will": json.loads(tr.will[1])["st"],
        "feeds": board.feeds > 0,
        "boot": node.boot,
        "time_ok": time.time() > 0,
        "time_answered": answered,
        "tele": [
            tele.get("bu4"),
            tele.get("bl4"),
            tele.get("edrop"),
            tele.get("rej"),
            tele.get("flags"),
            tele.get("rsd"),
            tele.get("gone"),
        ],
    }


async def dead_lower_beam(root):
    """Issue 19, item 2: pocket 4's lower receiver is dead; six upper-only passages as short as a fall (1 s
    apart, in the past). Returns the events as [kind, why, bm]: four asked (`single`), the fifth declares the
    lower beam `dead` and is counted on the upper beam alone, the sixth too (`pocket` events with `bm` 1)."""
    cfg = {
        "role": "pocket",
        "table": "t1",
        "device": "pocket-4",
        "wifi": {"ssid": "club"},
        "pockets": [{"pocket": 4, "upper": 32, "lower": 33, "colour": False}],
    }
    board = FakeBoard()
    tr = LoopTransport()
    node = Node(
        board,
        tr,
        StaticNet(),
        DirStore(root + "/ob"),
        Clock(speed=20),
        cfg=cfg,
        cfg_path=root + "/config.json",
        log=lambda m: None,
    )
    task = asyncio.create_task(node.run())
    await _until(lambda: node.link.up, 2000)
    t0 = ticks_add(ticks_us(), -7000000)
    for i in range(6):
        board.ring.put(0 << 1 | 1, ticks_add(t0, 1000000 * i))
        board.ring.put(0 << 1 | 0, ticks_add(t0, 1000000 * i + 40000))
    await _until(lambda: len([s for s in tr.sent if s[0].endswith("/evt")]) == 7, 3000)
    node.stop()
    await task
    out = []
    for topic, payload, _retain in tr.sent:
        if topic.endswith("/evt"):
            e = protocol.parse("evt", payload)
            out.append([e.kind, e.get("why"), e.get("beam")])
    return out
