"""The pocket role's colour timing, run the same under CPython and the real MicroPython.

The colour sensor is read by its own timer into a `ColourLog`; the detector loop may come round late (a busy
node, a Wi-Fi stall). Each case feeds the beam ring and the log exactly as the IRQ and the timer would, at
their own times, then lets the detector loop run once, late, and reports what the node published.
Kept free of CPython-only syntax: it is copied into MicroPython's file system as it is.
"""

from firmware import colour as colours
from firmware import config
from firmware.compat import ticks_add
from firmware.pocket_role import PocketRole

BLUE = (600, 960, 1440, 11800)  # a blue ball under the default LED (chromaticity 0.20/0.32, brightness 0.18)
PERIOD_MS = 24  # the sensor's integration time (config colour.atime_ms)


class Board:
    def __init__(self, now):
        self.now = now
        self.ring = None
        self.sampling = None

    def ticks_us(self):
        return self.now

    def attach_beams(self, pockets, ring, active_low):
        self.ring = ring

    def colour(self, slot):
        return "sensor-" + str(slot)

    def sample_colour(self, sensor, log, ms):
        self.sampling = (sensor, log, ms)

    def stop_colour(self):
        self.sampling = None


class Clock:
    def uptime(self):
        return 100000


class Node:
    """What PocketRole uses of firmware.node.Node: config, board, clock, emit."""

    def __init__(self, board):
        self.cfg = config.merge(
            config.DEFAULTS, {"pockets": [{"pocket": 3, "upper": 32, "lower": 33, "colour": True}]}
        )
        self.board = board
        self.clock = Clock()
        self.stopping = False
        self.events = []

    def log(self, msg):
        pass

    def uptime_of(self, t_us, now_us, up_now):
        return up_now

    def emit(self, kind, up_ms, **fields):
        self.events.append([kind, fields.get("p"), fields.get("c")])


def ball(board, log, t0, speed_mm_per_ms=2.0, reading=BLUE, sampler=True, after_ms=72):
    """One ball through slot 0 from `t0` (ticks_us): edges into the ring, and the sampler's ticks every
    PERIOD_MS from 48 ms before to `after_ms` after it left
    (the sensor sees the ball while it is in the throat)."""
    upper_us = int(68 / speed_mm_per_ms * 1000)  # the ball's diameter through the upper beam
    gap_us = int(30 / speed_mm_per_ms * 1000)  # upper to lower beam (config beam.spacing_mm)
    edges = ((0, 1, 0), (1, 1, gap_us), (0, 0, upper_us), (1, 0, upper_us + gap_us))
    if sampler:
        t = -48000
        while t <= upper_us + gap_us + after_ms * 1000:
            seen = reading if 0 <= t <= upper_us + gap_us + 20000 else None
            log.put(ticks_add(t0, t), seen)
            t += PERIOD_MS * 1000
    for beam, level, dt in edges:
        board.ring.put(beam << 1 | level, ticks_add(t0, dt))
    return ticks_add(t0, upper_us + gap_us)


def run_case(t0, late_ms, speed=2.0, sampler=True, steps=1):
    """A ball at `t0`; the detector loop runs `steps` times, the first `late_ms` after the ball left."""
    board = Board(t0)
    node = Node(board)
    role = PocketRole(node)
    log = board.sampling[1]
    end = ball(board, log, t0, speed, sampler=sampler)
    board.now = ticks_add(end, late_ms * 1000)
    for _ in range(steps):
        role.step()
        board.now = ticks_add(board.now, 30000)
    return [node.events, len(role.held)]


def held_case():
    """The loop comes round before the sampler has read past the ball's exit:
    the ball waits for its colour."""
    board = Board(0)
    node = Node(board)
    role = PocketRole(node)
    log = board.sampling[1]
    end = ball(board, log, 500000, after_ms=0)
    board.now = ticks_add(end, 5000)
    role.step()
    first = [list(node.events), len(role.held)]
    log.put(ticks_add(end, PERIOD_MS * 1000 + 1000), None)  # the timer's next tick (the ball has gone)
    board.now = ticks_add(end, 30000)
    role.step()
    return [first, node.events, len(role.held)]


def log_case():
    """The log alone: brightest in a window, across the ticks wrap, oldest overwritten when full."""
    log = colours.ColourLog(4)
    out = [log.best(0, 10), log.looked_after(0)]
    near_wrap = (1 << 30) - 3000
    log.put(near_wrap, (1, 1, 1, 100))
    log.put(ticks_add(near_wrap, 2000), (2, 2, 2, 900))
    log.put(ticks_add(near_wrap, 4000), (3, 3, 3, 500))  # past the wrap
    out.append(list(log.best(near_wrap, ticks_add(near_wrap, 5000))))
    out.append(list(log.best(ticks_add(near_wrap, 3000), ticks_add(near_wrap, 5000))))
    out.append(log.looked_after(ticks_add(near_wrap, 4000)))
    out.append(log.looked_after(ticks_add(near_wrap, 4001)))
    log.put(ticks_add(near_wrap, 5000), None)  # a tick with no reading still moves the clock on
    out.append(log.looked_after(ticks_add(near_wrap, 4500)))
    for i in range(4):
        log.put(ticks_add(near_wrap, 6000 + i), (4, 4, 4, 10 + i))
    out.append(log.best(near_wrap, ticks_add(near_wrap, 5000)))  # all four older ones overwritten
    out.append([log.count, log.samples])
    return out


def scenario():
    return {
        "on_time": run_case(500000, 3),
        "late_300ms": run_case(500000, 300),
        "across_wrap": run_case((1 << 30) - 40000, 300),
        "fast_ball": run_case(500000, 200, speed=5.0),
        "held": held_case(),
        "no_sampler": run_case(500000, 3, sampler=False, steps=4),
        "log": log_case(),
    }
