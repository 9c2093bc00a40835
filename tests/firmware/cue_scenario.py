"""The cue role's node scenario, run unchanged on CPython and under the real MicroPython (like
node_scenario.py for the pocket role): the node app, CueRole, StrikeDetector, link,
outbox and clock on the device's runtime.

`await scenario(root)` boots a cue node over the loopback transport, plays a clean strike, a double hit and a
knock on the cue (accelerometer samples at 1600 Hz written from first principles: gravity on z, a 1.5 ms
half-sine tip contact along the cue, a 30 ms bump for a knock), lets the cue fall asleep and wakes it with the
next strike, strikes once during an outage (buffered, delivered after it), and returns what the "broker" saw.
"""

import asyncio
import math

from firmware.clock import Clock
from firmware.node import Node
from firmware.outbox import DirStore
from firmware.transport import StaticNet
from luza_wire import protocol

try:
    from node_scenario import FakeBoard, LoopTransport, _until  # MicroPython: both files are copied into /lib
except ImportError:
    from tests.firmware.node_scenario import FakeBoard, LoopTransport, _until

try:
    from time import ticks_add, ticks_us
except ImportError:
    from firmware.compat import ticks_add, ticks_us

PERIOD_US = 625  # 1600 Hz


class FakeAccel:
    """The accelerometer's FIFO: samples (t, x, y, z) in mg,
    drained into the detector like the driver does."""

    def __init__(self):
        self.fifo = []

    def drain(self, detector):
        n = 0
        while self.fifo:
            t, x, y, z = self.fifo.pop(0)
            detector.sample(t, x, y, z)
            n += 1
        return n


def _shock_g(kind, ms):
    """The shock along the cue (g) `ms` after the motion began."""
    if kind == "knock":
        return 4.0 * math.sin(math.pi * ms / 30.0) if 0 <= ms <= 30 else 0.0
    g = 0.0
    contacts = [(0.0, 8.0)]
    if kind == "double":
        contacts.append((12.0, 4.0))  # the tip meets the ball again 12 ms later (a double hit)
    for start, peak in contacts:
        d = ms - start
        if 0 <= d <= 1.5:
            g += peak * math.sin(math.pi * d / 1.5)
    return g


class CueBoard(FakeBoard):
    def __init__(self):
        FakeBoard.__init__(self)
        self.acc = FakeAccel()
        self.slept = 0

    def accel(self):
        return self.acc

    def battery(self):
        return 3.9

    async def light_sleep(self, ms):
        """Sleeps until motion fills the FIFO (the activity interrupt) or `ms` pass."""
        self.slept += 1
        for _ in range(ms // 5):
            if self.acc.fifo:
                return
            await asyncio.sleep(0.005)

    def motion(self, kind):
        """60 ms of samples, all in the past: 10 ms still, then the motion."""
        n = 60000 // PERIOD_US
        t0 = ticks_add(ticks_us(), -n * PERIOD_US)
        for i in range(n):
            ms = (i * PERIOD_US - 10000) / 1000
            x = int(_shock_g(kind, ms) * 1000) + (7 if i % 2 else -7)  # a little sensor noise
            self.acc.fifo.append((ticks_add(t0, i * PERIOD_US), x, 3, 1000))


async def scenario(root):
    cfg = {
        "role": "cue",
        "table": "t1",
        "device": "cue-a",
        "wifi": {"ssid": "club"},
        "cue": {"sleep_after_s": 1},
    }
    board = CueBoard()
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

    def strikes():
        return [s for s in tr.sent if s[0].endswith("/evt")]

    board.motion("strike")
    await _until(lambda: len(strikes()) == 1, 2000)
    await asyncio.sleep(0.4)  # past the 300 ms refractory time
    board.motion("double")
    await _until(lambda: len(strikes()) == 2, 2000)
    await asyncio.sleep(0.4)
    board.motion("knock")
    await _until(lambda: node.role.detector.knocks == 1, 2000)
    await _until(lambda: board.slept >= 1, 3000)  # idle for sleep_after_s: light sleep
    board.motion("strike")  # wakes it
    await _until(lambda: len(strikes()) == 3, 2000)
    await asyncio.sleep(0.4)
    tr.up = False
    await _until(lambda: not node.link.up, 2000)
    board.motion("strike")
    await _until(lambda: node.outbox.depth == 1, 2000)
    tr.up = True
    await _until(lambda: node.link.up and node.outbox.depth == 0, 3000)
    tele = protocol.parse("tele", node.tele()).fields
    node.stop()
    await task
    events = []
    for _topic, payload, _retain in strikes():
        e = protocol.parse("evt", payload)
        events.append([e.kind, e.seq, e.get("double"), e.get("gap") is not None, e.get("peak") >= 7])
    d = node.role.detector
    return {
        "events": events,
        "strikes": d.strikes,
        "doubles": d.doubles,
        "knocks": d.knocks,
        "slept": board.slept >= 1,
        "downs": node.link.downs,
        "tele": [
            tele.get("strikes"),
            tele.get("doubles"),
            tele.get("knocks"),
            tele.get("bat"),
            tele.get("sleeps", 0) >= 1,
        ],
    }
