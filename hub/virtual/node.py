"""Virtual nodes: the real firmware (`firmware.node.Node`) on CPython, with simulated pins, on a real broker.

    vt = VirtualTime(speed=20)                 # 20 virtual ms per wall ms: a 60 s outage takes 3 s
    node = VirtualNode(cfg, ("127.0.0.1", port), workdir, vt)
    task = asyncio.create_task(node.run())
    node.board.play_edges(traces.beam_edges([traces.Ball(0, pocket=1)], pockets=(1,)), at_ms=vt.ms() + 100)
    ...
    await node.stop()

What is simulated, behind the same board interface the ESP32 board implements (see firmware/node.py):
beam interrupts (edges from `hub.virtual.traces`, put into the node's `EdgeRing` at their exact virtual
time, as the IRQ handler stamps them), the colour sensor (an RGBC reading of the scripted ball's colour,
classified by the real `firmware.colour` code), the accelerometer FIFO (samples from
`traces.strike_samples`), light sleep (wakes on the next scripted motion), LED, watchdog, reset and the
battery. What is real: every line of firmware logic, the outbox on files in `workdir`, paho-mqtt to a
real broker. `VirtualTime` runs the ticks `speed` times faster than the wall clock; the node's timeouts
and backoffs run on it too, so long outages take seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from firmware import colour as fw_colour
from firmware import ota as fw_ota
from firmware.clock import Clock
from firmware.flash import Flash
from firmware.node import Node
from firmware.outbox import DirStore
from firmware.transport import PahoTransport, StaticNet
from hub.config import NodePocket, NodeSettings
from hub.virtual import traces

MASK = (1 << 30) - 1  # MicroPython's ticks wrap at 2**30
HUB_EPOCH_MS = 1_780_000_000_000  # the virtual hub clock's Unix ms at virtual time 0 (mid-2026)


class VirtualTime:
    """Virtual ms since creation (plus `start_ms`), running `speed` times faster than the wall clock."""

    def __init__(self, speed: float = 1.0, start_ms: float = 0.0) -> None:
        self.speed = speed
        self._wall0 = time.monotonic()
        self._start = start_ms

    def ms(self) -> float:
        return self._start + (time.monotonic() - self._wall0) * 1000.0 * self.speed

    def ticks_ms(self) -> int:
        return int(self.ms()) & MASK

    def ticks_us(self) -> int:
        return int(self.ms() * 1000) & MASK

    def hub_ms(self) -> int:
        """What a hub whose clock is right would say now (Unix ms)."""
        return HUB_EPOCH_MS + int(self.ms())

    def wall_s(self, virtual_ms: float) -> float:
        return max(0.0, virtual_ms / self.speed / 1000.0)

    async def until(self, virtual_ms: float) -> None:
        """Sleep until virtual time `virtual_ms`."""
        delay = self.wall_s(virtual_ms - self.ms())
        if delay > 0:
            await asyncio.sleep(delay)


class VirtualColour:
    """A TCS34725 that sees the scripted ball: the colour's centroid as RGBC, with a little noise."""

    def __init__(self, board: VirtualBoard, slot: int, seed: int = 0) -> None:
        self.board = board
        self.slot = slot
        self.rng = random.Random(seed)

    def read(self) -> tuple[int, int, int, int] | None:
        return self.read_at(self.board.vt.ms())

    def read_at(self, t_ms: float) -> tuple[int, int, int, int] | None:
        """The reading whose integration finished at virtual `t_ms`: a ball's colour while one is in view."""
        for start, end, colour in self.board.balls.get(self.slot, ()):
            if start <= t_ms <= end:
                rn, gn, bright, spread = fw_colour.DEFAULT_CENTROIDS[colour]
                jitter = spread / 3
                rn += self.rng.uniform(-jitter, jitter)
                gn += self.rng.uniform(-jitter, jitter)
                total = 3000.0
                r, g = rn * total, gn * total
                return (int(r), int(g), int(total - r - g), int(bright * 65535))
        return None


class VirtualAccel:
    """The accelerometer FIFO: scripted samples (absolute virtual ms, x, y,
    z mg) handed out as time passes."""

    def __init__(self, board: VirtualBoard) -> None:
        self.board = board
        self.pending: list[tuple[float, int, int, int]] = []

    def drain(self, detector: Any) -> int:
        """Feed every sample due by now to `detector.sample(t, x, y, z)` (the driver's interface)."""
        samples = self.read()
        for t, x, y, z in samples:
            detector.sample(t, x, y, z)
        return len(samples)

    def read(self) -> list[tuple[int, int, int, int]]:
        now = self.board.vt.ms()
        n = 0
        while n < len(self.pending) and self.pending[n][0] <= now:
            n += 1
        out = [(int(t * 1000) & MASK, x, y, z) for t, x, y, z in self.pending[:n]]
        del self.pending[:n]
        return out


class VirtualBoard:
    """The board interface of firmware/node.py, on simulated pins and virtual time."""

    def __init__(self, vt: VirtualTime, battery: float | None = None, seed: int = 0) -> None:
        self.vt = vt
        self.ring: Any = None
        self.volts = battery
        self.seed = seed
        self.balls: dict[int, list[tuple[float, float, str]]] = {}  # slot -> (start, end, colour) virtual ms
        # slot -> (sensor, ColourLog, period ms)
        self.samplers: dict[int, tuple[VirtualColour, Any, int]] = {}
        self.colour_ticks = 0
        self.accel_fifo = VirtualAccel(self)
        self.feeds = 0
        self.resets = 0
        self.led_on = False
        self.blinks = 0
        self.edges_put = 0
        self.edge_log: list[tuple[int, float]] | None = None  # (code, monotonic()) per edge, when a list
        self.pins: dict[int, int] = {}  # slot << 1 | beam -> level now (1 = blocked), as the pins would read
        self._edge = asyncio.Event()
        self._motion = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    # ---- the board interface
    def ticks_us(self) -> int:
        return self.vt.ticks_us()

    def attach_beams(self, pockets: Sequence[NodePocket], ring: Any, active_low: bool) -> None:
        self.ring = ring

    def beam_levels(self, slot: int) -> tuple[int, int]:
        """(upper, lower) levels of a pocket slot now: the firmware seeds its detector with them at start."""
        return self.pins.get(slot << 1, 0), self.pins.get(slot << 1 | 1, 0)

    async def wait_edges(self, ms: float) -> None:
        # At least 1 ms of wall time per wait, so a fast virtual clock does not spin the CPU.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._edge.wait(), max(self.vt.wall_s(ms), 0.001))
        self._edge.clear()

    def colour(self, slot: int) -> VirtualColour:
        return VirtualColour(self, slot, self.seed + slot)

    def sample_colour(self, sensor: VirtualColour, log: Any, ms: int) -> None:
        # The ESP32 board paces one sensor per node; the simulation has a sensor (and a timer) per slot.
        self.samplers[sensor.slot] = (sensor, log, ms)

    def stop_colour(self) -> None:
        self.samplers.clear()

    def accel(self) -> VirtualAccel:
        return self.accel_fifo

    async def light_sleep(self, ms: float) -> None:
        self._motion.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._motion.wait(), self.vt.wall_s(ms))

    def led(self, on: bool) -> None:
        if on and not self.led_on:
            self.blinks += 1
        self.led_on = on

    def feed(self) -> None:
        self.feeds += 1

    def reset(self) -> None:
        self.resets += 1

    def heap(self) -> int | None:
        return None

    def battery(self) -> float | None:
        return self.volts

    # ---- the simulation side
    def play_edges(
        self, edges: Iterable[traces.Edge], at_ms: float, balls: Sequence[tuple[int, float, float, str]] = ()
    ) -> asyncio.Task[None]:
        """Put `edges` (times relative to `at_ms`, virtual) into the beam ring as they happen; `balls` are
        (slot, start, end, colour) in absolute virtual ms: what the colour sensor sees meanwhile."""
        timeline: list[tuple[float, int, int]] = []  # (virtual ms, 0 edge / 1 colour tick, edge code or slot)
        for e in edges:
            # chatter can start before 0 and wrap
            rel_us = e.t_us - (1 << 30) if e.t_us >= 1 << 29 else e.t_us
            timeline.append((at_ms + rel_us / 1000.0, 0, e.code))
        for slot, start, end, colour in balls:
            self.add_ball(slot, start, end, colour)
            timeline.extend((t, 1, slot) for t in self._sampler_ticks(slot, start, end))
        timeline.sort()
        return self._spawn(self._play(timeline))

    def _sampler_ticks(self, slot: int, start: float, end: float) -> list[float]:
        """The sampler's timer ticks (every `period` virtual ms from 0) from just before a ball until well
        past it: the only ones that can read anything, so the simulation skips the idle ones in between."""
        period = self.samplers[slot][2] if slot in self.samplers else 24
        k = int(start // period) - 1
        ticks = []
        while k * period <= end + 2 * period:
            ticks.append(float(k * period))
            k += 1
        return ticks

    async def _play(self, timeline: list[tuple[float, int, int]]) -> None:
        """Play edges and colour-timer ticks in time order, each stamped with its own time (not the time this
        task got round to it): the IRQ and the timer fire on time on the device however busy its loop is."""
        for t_ms, what, code in timeline:
            await self.vt.until(t_ms)
            stamp = int(t_ms * 1000) & MASK
            if what == 1:
                if code in self.samplers:
                    sensor, log, _ = self.samplers[code]
                    log.put(stamp, sensor.read_at(t_ms))
                    self.colour_ticks += 1
                continue
            self.pins[code >> 1] = code & 1
            if self.ring is not None:
                self.ring.put(code, stamp)
                self.edges_put += 1
                if self.edge_log is not None:  # for latency figures (tests/bench/link.py)
                    self.edge_log.append((code, time.monotonic()))
            self._edge.set()

    def play_motions(
        self, motions: Sequence[traces.Motion], at_ms: float, odr_hz: int = 1600
    ) -> asyncio.Task[None]:
        """Feed accelerometer samples for `motions` (times relative to `at_ms`)
        into the FIFO as they happen."""
        return self._spawn(self._play_motions(sorted(motions, key=lambda m: m.t_ms), at_ms, odr_hz))

    async def _play_motions(self, motions: list[traces.Motion], at_ms: float, odr_hz: int) -> None:
        for i, m in enumerate(motions):
            start = at_ms + m.t_ms - 50  # 50 ms of quiet before, 350 ms after: enough for the detector
            local = type(m)(**{**m.__dict__, "t_ms": 50.0})
            samples = traces.strike_samples([local], odr_hz=odr_hz, duration_ms=400, seed=self.seed + i)
            await self.vt.until(start)
            self._motion.set()  # the activity interrupt wakes a sleeping cue node
            self.accel_fifo.pending.extend((start + s.t_us / 1000.0, s.x, s.y, s.z) for s in samples)

    def add_ball(self, slot: int, start_ms: float, end_ms: float, colour: str) -> None:
        self.balls.setdefault(slot, []).append((start_ms, end_ms, colour))

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def idle(self) -> None:
        """Wait until every scripted edge and motion has been played."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks))

    async def cancel(self) -> None:
        """Stop playing whatever is still scripted."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task


class VirtualNode:
    """A firmware node on CPython: config in `workdir/<device>/config.json`, outbox in `.../ob`."""

    def __init__(
        self,
        cfg: NodeSettings,
        broker: tuple[str, int],
        workdir: Path,
        vt: VirtualTime,
        battery: float | None = None,
        seed: int = 0,
        transport: Any = None,
        poll_ms: int = 10,
    ) -> None:
        self.cfg = cfg
        self.broker_host = broker[0]  # where the hub is: its HTTP serves this node's updates
        self.device = str(cfg["device"])
        self.vt = vt
        self.dir = Path(workdir) / self.device
        self.dir.mkdir(parents=True, exist_ok=True)
        self.cfg_path = self.dir / "config.json"
        if not self.cfg_path.exists():
            self.cfg_path.write_text(json.dumps(cfg))
        self.board = VirtualBoard(vt, battery=battery, seed=seed)
        self.transport = transport or PahoTransport(broker[0], broker[1])
        self.net = StaticNet()
        self.log = logging.getLogger("luza.virtual." + self.device)
        self.node: Node | None = None
        self.poll_ms = poll_ms  # wall ms between network polls (the device's default is 10)
        self.boots = 0
        self._stopping = False
        self._task: asyncio.Task[None] | None = None
        self._new_node()

    def _new_node(self) -> None:
        clock = Clock(ticks=self.vt.ticks_ms, speed=self.vt.speed)
        store = DirStore(str(self.dir / "ob"))
        # the loader's decision at boot (firmware/loader.py): an update's trial, or its rollback. The code
        # stays this process's own (hub/virtual/device.py runs a node that really boots the new build).
        _slot, cfg_path, _ = fw_ota.boot(Flash(str(self.dir)))
        self.node = Node(
            self.board,
            self.transport,
            self.net,
            store,
            clock,
            cfg=None,
            cfg_path=str(self.dir) + cfg_path,
            log=self.log.info,
            root=str(self.dir),
        )
        self.node.updater.host = self.broker_host  # the device finds it in its config's broker.host
        self.node.link.poll_ms = self.poll_ms
        self.boots += 1

    def start(self) -> asyncio.Task[None]:
        """Run the node in a task; a `reboot` (command or config change) boots it
        again, with the next boot id."""
        self._task = asyncio.ensure_future(self._run())
        return self._task

    async def _run(self) -> None:
        while True:
            assert self.node is not None
            await self.node.run()
            if self._stopping or not self.node.rebooting:
                return
            self._new_node()

    async def stop(self, timeout: float = 5.0) -> None:
        """Polite shutdown: `offline` status, disconnect, every task finished."""
        self._stopping = True
        if self.node is not None:
            self.node.stop()
        if self._task is not None:
            await asyncio.wait_for(self._task, timeout)
        await self.board.cancel()

    async def power_cut(self) -> None:
        """Lose power: no goodbye (the broker sends the Last Will), RAM is lost, flash stays."""
        self._stopping = True
        if self.node is not None:
            self.node.halt()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if isinstance(self.transport, PahoTransport):
            self.transport.abort()
        await self.board.cancel()

    def boot_again(self) -> asyncio.Task[None]:
        """Power back on after `power_cut()`: a new boot (id + 1) that reloads the outbox from flash."""
        self._stopping = False
        self._new_node()
        return self.start()
