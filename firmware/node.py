"""The node app: config, the role's detectors, events into the outbox, telemetry, commands, watchdog.

Runs on MicroPython (the device, via the root main.py) and CPython (virtual nodes, hub/virtual/node.py).
Everything that touches hardware goes through a *board* (duck-typed):

    ticks_us()                          the detectors' clock (wrapping, like time.ticks_us)
    attach_beams(pockets, ring, active_low)   start the beam interrupts writing edges into `ring`
    await wait_edges(ms)                return when edges arrived (an IRQ flag) or after `ms`
    colour(slot)                        the colour sensor of that pocket slot, or None
    sample_colour(sensor, log, ms)      read `sensor` every `ms` into `log` (a ColourLog) on a timer of its
                                        own, whatever the detector loop is doing; stop_colour() ends it
    accel()                             the accelerometer (cue role), or None
    await light_sleep(ms)               the cue's sleep between strikes (wakes early on motion)
    led(on), feed(), reset(), heap(), battery()   identify blink, watchdog, reboot, free RAM, volts

`DeviceBoard` in the device's main.py (firmware/main.py) is the ESP32 one;
`hub.virtual.node.VirtualBoard` feeds simulated pins.

Life of an event: a detector reports (kind, pocket, ticks) -> the node turns the ticks into uptime ms,
stamps it with hub time if synced (else uptime and `u: 1`) and with the uptime itself (`up`: what the hub
places it by, whatever the clock says), numbers it (device, boot, seq), encodes it with
`luza_wire.protocol`, puts it in the outbox and kicks the link; the link publishes it (QoS 1) and the
outbox forgets it once the hub's `stored` mark covers it (firmware/delivery.py). An invalid config stops the
role, not the node: the errors are printed on the console and the birth message says `st: "error"` with the
first one, so the hub shows what to fix.
"""

import asyncio
import json
import os

from firmware import VERSION, config
from firmware import strike as strikes
from firmware.compat import ticks_diff
from firmware.link import Link
from firmware.outbox import Outbox, next_boot
from firmware.pocket_role import PocketRole
from firmware.updater import Updater
from luza_wire import frame, protocol, telemetry

FLASH_SEGMENTS = 20  # outbox segments of 100 events when cfg outbox.flash is on (~600 KB worst case)
# an event unacknowledged this long goes to flash (outage): + 1 s housekeeping < the 8 s watchdog
SPILL_MS = 5000
LIVE_KEYS = ("tele_s", "time_sync_s", "beam", "colour", "cue", "pockets", "outbox")  # applied without reboot


class Node:
    """One node. `cfg` (a dict of site settings) overrides reading `cfg_path`; see the module docstring."""

    def __init__(
        self, board, transport, net, store, clock, cfg=None, cfg_path="/config.json", log=None, root=""
    ):
        self.board = board
        self.root = root  # the file system's root: "" on the device, a folder for a virtual node
        self.store = store
        self.clock = clock
        self.cfg_path = cfg_path
        self.log = log or _print
        if cfg is None:
            self.cfg, self.errors = config.load(cfg_path)
        else:
            self.cfg = config.merge(config.DEFAULTS, cfg)
            self.errors = config.validate(self.cfg)
        for err in self.errors:
            self.log("config error: " + err)
        self.device = self.cfg["device"] if frame.valid_id(self.cfg.get("device")) else "unconfigured"
        table = self.cfg["table"] if frame.valid_id(self.cfg.get("table")) else "unconfigured"
        self.boot = next_boot(store)
        self.seq = 0
        self.outbox = self._make_outbox()
        broker = self.cfg.get("broker") if isinstance(self.cfg.get("broker"), dict) else {}
        self.link = Link(
            transport,
            net,
            self.outbox,
            clock,
            table,
            self.device,
            self.boot,
            role=self.cfg.get("role") if self.cfg.get("role") in protocol.ROLES else "",
            fw=VERSION,
            on_cmd=self.command,
            keepalive=broker.get("keepalive", 30),
            log=self.log,
        )
        self.link.error = self.errors[0][:200] if self.errors else None
        self.link.delivery.produced = self.last_seq  # a `resend` for seqs not produced yet finds none gone
        self.commands = 0
        self.config_rejected = 0
        self.rebooting = False
        self.stopping = False
        self._stopped = asyncio.Event()
        self._tasks = []
        self.role_task = None
        self.role = None if self.errors else self._make_role()
        self.updater = Updater(self)  # over-the-air updates (firmware/updater.py)
        self.link.ota = self.updater.report()

    def _make_outbox(self):
        ob = self.cfg.get("outbox") if isinstance(self.cfg.get("outbox"), dict) else config.DEFAULTS["outbox"]
        ram = ob.get("max", 200) if isinstance(ob.get("max"), int) else 200
        segs = FLASH_SEGMENTS if ob.get("flash", True) else 0
        return Outbox(self.store, ram_max=ram, seg_max=segs, spill_ms=SPILL_MS, now=self.clock.uptime)

    def _make_role(self):
        if self.cfg["role"] == "cue":
            return CueRole(self)
        return PocketRole(self)

    # ------------------------------------------------------------ events

    def emit(self, kind, up_ms, **fields):
        """Record one event that happened at uptime `up_ms`; returns its payload (bytes)."""
        self.seq += 1
        up = up_ms if up_ms > 0 else 0
        t, synced = self.clock.stamp(up)
        payload = protocol.encode_event(kind, self.device, self.boot, self.seq, t, synced, up=up, **fields)
        self.outbox.put(payload)
        self.link.kick()
        return payload

    def last_seq(self):
        """The seq of the last event this boot produced (0 before the first)."""
        return self.seq

    def uptime_of(self, t_us, now_us, up_now):
        """Uptime ms of detector time `t_us`, given that `now_us` is uptime `up_now`."""
        return up_now - ticks_diff(now_us, t_us) // 1000

    # ------------------------------------------------------------ the tasks

    async def run(self):
        """Run until `stop()` (or a reboot command): the link, the role and the housekeeping."""
        link = asyncio.create_task(self.link.run())
        self._tasks = [link, asyncio.create_task(self._housekeeping())]
        if self.role is not None:
            self.role_task = asyncio.create_task(self.role.run())
            self._tasks.append(self.role_task)
        await self._stopped.wait()
        if self.rebooting:
            self.outbox.flush()  # RAM does not survive the reset; flash does
        self.link.stop()
        await link
        self.halt()
        if self.rebooting:
            self.board.reset()

    def halt(self):
        """Stop every task at once, saying nothing (what a power cut does; tests use it)."""
        self.stopping = True
        for t in self._tasks:
            t.cancel()
        self._tasks = []

    def stop(self):
        self.stopping = True
        self._stopped.set()

    async def _housekeeping(self):
        last_tele = -1
        while not self.stopping:
            up = self.clock.uptime()
            self.outbox.maintain()
            if self.role is None:
                self.board.feed()  # no detector loop to prove liveness: keep the node reachable
            tele_ms = int(self.cfg.get("tele_s", 30) * 1000) if not self.errors else 30000
            if last_tele < 0 or up - last_tele >= tele_ms:
                last_tele = up
                self.link.send("tele", self.tele())
            await self.clock.sleep_ms(1000)

    def tele(self):
        """The `tele` payload: health the hub shows per device."""
        t, synced = self.clock.now()
        fields = {
            "up": self.clock.uptime(),
            "heap": self.board.heap(),
            "rssi": self.link.net.rssi(),
            "bat": self.board.battery(),
            "ob": self.outbox.depth,
            "drop": self.outbox.dropped,
            "flash": self.outbox.writes,
            "t": t if synced else None,
            "rej": self.link.rejected,
            "crej": self.config_rejected,
            "pub": self.link.published,
            "rsd": self.link.delivery.resent,
            "cto": self.link.delivery.timeouts,
            "gone": self.link.delivery.gone,
        }
        if self.role is not None:
            fields.update(self.role.tele())
        return telemetry.encode_tele(self.boot, **fields)

    # ------------------------------------------------------------ commands

    def command(self, cmd):
        """A parsed `cmd` (luza_wire.messages.Command): time, identify, config, calibrate, reboot, ota."""
        self.commands += 1
        name = cmd.name
        if name == "time":
            adj = self.clock.sync(cmd.args["hub"])
            if abs(adj) > 1000:
                self.log("time: hub clock moved %d ms" % (adj,))
            # a fresh `up` right away: the hub measures this boot's clock by it
            self.link.send("tele", self.tele())
            self.updater.hub_reached()  # the hub answered: an update on trial checks itself
        elif name == "ota":
            self.updater.command(cmd)
        elif name == "identify":
            self._tasks.append(asyncio.create_task(self._blink(cmd.args.get("s", 5))))
        elif name == "config":
            self._configure(cmd.args["set"])
        elif name == "calibrate":
            if self.role is None or not hasattr(self.role, "calibrate"):
                self.log("calibrate: this node has no colour sensor")
            else:
                n = cmd.args.get("n", 5)
                if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 50:
                    self.link.rejected += 1
                    self.log("calibrate rejected: 'n' must be 1..50 balls, got %r" % (n,))
                else:
                    self.role.calibrate(cmd.args["p"], cmd.args["c"], n)
        elif name == "reboot":
            self.log("reboot requested by the hub")
            self.rebooting = True
            self.stop()

    def save_calibration(self, pocket, colour, centroid):
        """Persist a learned colour centroid in config.json (validated like any config change)."""
        cal = {}
        for key in self.cfg["colour"]["calibration"]:
            cal[key] = dict(self.cfg["colour"]["calibration"][key])
        cal.setdefault(str(pocket), {})[colour] = centroid
        self._configure({"colour": {"calibration": cal}}, rebuild=False)

    async def _blink(self, secs):
        n = int(secs * 4)
        for i in range(n if n < 2400 else 2400):
            self.board.led(i % 2 == 0)
            await self.clock.sleep_ms(125)
        self.board.led(False)

    def _configure(self, changes, rebuild=True):
        """Validate first; apply and persist only a valid whole. Link settings need a reboot."""
        new = config.merge(self.cfg, changes)
        errors = config.validate(new)
        if errors:
            self.config_rejected += 1
            for err in errors:
                self.log("config rejected: " + err)
            return False
        try:
            with open(self.cfg_path + ".new", "w") as f:  # then rename: a power cut never leaves half a file
                json.dump(new, f)
            os.rename(self.cfg_path + ".new", self.cfg_path)
        except OSError as exc:
            self.config_rejected += 1
            self.log("config not saved (%s): kept the running settings" % (exc,))
            return False
        self.cfg = new
        if self.errors or any(key not in LIVE_KEYS for key in changes):  # booted broken, or link settings
            self.log("config saved; rebooting to apply it")
            self.rebooting = True
            self.stop()
        elif self.role is not None and rebuild:
            self.role.close()
            self.role = self._make_role()
            self.role_task = asyncio.create_task(self.role.run())
            self._tasks.append(self.role_task)
            self.log("config applied")
        return True


class CueRole:
    """Accelerometer FIFO -> `StrikeDetector` -> `strike` events;
    light sleep between strikes; battery in tele."""

    def __init__(self, node):
        self.node = node
        cue = node.cfg["cue"]
        self.detector = strikes.detector_from_config(node.cfg)
        self.accel = node.board.accel()
        self.sleep_after_us = int(cue["sleep_after_s"] * 1000000)
        self.fifo_ms = 20  # FIFO drain period: 32 samples at 1600 Hz fill in 20 ms
        self.sleeps = 0
        self.errors = 0
        self.closed = False

    def close(self):
        self.closed = True

    async def run(self):
        board = self.node.board
        while not self.closed and not self.node.stopping:
            try:
                now = self.step()
            except OSError as exc:  # I2C error reading the FIFO: try again on the next round
                self.errors += 1
                self.node.log("cue loop: %s" % (exc,))
                now = board.ticks_us()
            board.feed()
            if self.detector.idle() and ticks_diff(now, self.detector.last_activity) > self.sleep_after_us:
                self.sleeps += 1
                await board.light_sleep(self.sleep_after_us // 1000)  # wakes on the activity interrupt
                self.detector.last_activity = board.ticks_us()
            else:
                await self.node.clock.sleep_ms(self.fifo_ms)

    def step(self):
        """Feed the FIFO's samples to the detector; publish finished strikes. Returns ticks_us now."""
        board = self.node.board
        det = self.detector
        self.accel.drain(det)  # every FIFO sample into det.sample(t, x, y, z), without allocating
        now = board.ticks_us()
        up = self.node.clock.uptime()
        det.poll(now)
        s = det.take()
        if s is not None:
            t, peak_mg, double, gap_us = s
            self.node.emit(
                "strike",
                self.node.uptime_of(t, now, up),
                pk=peak_mg / 1000,
                dbl=bool(double),
                gap=gap_us / 1000 if double else None,
            )
        return now

    def tele(self):
        d = self.detector
        return {
            "strikes": d.strikes,
            "doubles": d.doubles,
            "knocks": d.knocks,
            "sleeps": self.sleeps,
            "err": self.errors,
        }


def _print(msg):
    print("[node] " + msg)
