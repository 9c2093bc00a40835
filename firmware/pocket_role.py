"""The pocket role of a node: beams -> `PocketBeam` detectors -> events (colour if a sensor is fitted).

Detections become events: `pocket` (a ball in, with its colour; with `bm` when it was counted on one beam
alone, `bm` naming the other, declared dead), `out` (something left upwards through both
beams: the hub un-counts a ball that bounced back out), `jam`/`clear` naming their beam, and `flag` with the
reason the beams could not settle (firmware/doubt.py FLAG_NAMES), which the hub turns into a referee question
or an alert. At start the beams' levels are read from the pins (`board.beam_levels(slot)`, if the board has
it), so a ball caught in the throat by a reboot is seen and flagged, not lost.
"""

from firmware import colour as colours
from firmware import doubt
from firmware import pocket as beams
from firmware.compat import ticks_add, ticks_diff
from firmware.edges import EdgeRing


class PocketRole:
    """Beams -> `PocketBeam` detectors -> `pocket`, `jam` and `clear` events
    (colour if a sensor is fitted)."""

    def __init__(self, node):
        self.node = node
        cfg = node.cfg
        self.beams = beams.beams_from_config(cfg)
        self.ring = EdgeRing(cfg["beam"]["ring"])
        self.poll_ms = cfg["beam"]["poll_ms"]
        self.settle_ms = cfg["beam"]["debounce_ms"] + 1  # after an edge, look again once it can be confirmed
        self.sensors = [
            node.board.colour(i) if p.get("colour") else None for i, p in enumerate(cfg["pockets"])
        ]
        self.classifiers = [colours.classifier_for(cfg, p["pocket"]) for p in cfg["pockets"]]
        self.logs = [colours.ColourLog() if s is not None else None for s in self.sensors]
        self.period_us = cfg["colour"]["atime_ms"] * 1000
        for slot, sensor in enumerate(self.sensors):
            if sensor is not None:
                node.board.sample_colour(sensor, self.logs[slot], cfg["colour"]["atime_ms"])
        # balls in (slot, detection, now, up) waiting for the colour sampler to pass their exit
        self.held = []
        self.calibrators = {}  # slot -> Calibrator while a `calibrate` command is running
        self.min_conf = cfg["colour"]["min_conf"]
        node.board.attach_beams(cfg["pockets"], self.ring, cfg["beam"]["active_low"])
        self.errors = 0
        self.closed = False
        self._seed_levels()

    def _seed_levels(self):
        levels = getattr(self.node.board, "beam_levels", None)
        if levels is None:
            return
        now = self.node.board.ticks_us()
        for slot, beam in enumerate(self.beams):
            upper, lower = levels(slot)
            beam.start(upper, lower, now)

    def close(self):
        self.closed = True
        self.node.board.attach_beams([], None, True)
        if any(s is not None for s in self.sensors):
            self.node.board.stop_colour()

    async def run(self):
        board = self.node.board
        wait = self.poll_ms
        while not self.closed and not self.node.stopping:
            await board.wait_edges(wait)
            try:
                wait = self.settle_ms if self.step() else self.poll_ms
            except OSError as exc:  # a sensor's I2C hiccup: the beams go on, the next ball reads again
                self.errors += 1
                self.node.log("pocket loop: %s" % (exc,))
                wait = self.poll_ms
            board.feed()  # the watchdog sees the detector loop alive

    def step(self):
        """Drain the edge ring, let time pass, publish what the detectors decided. Returns True while there is
        more to do soon (edges drained, or a ball waiting for its colour)."""
        now = self.node.board.ticks_us()
        up = self.node.clock.uptime()
        n = self.ring.drain(self.beams)
        for slot, beam in enumerate(self.beams):
            beam.poll(now)
            d = beam.take()
            while d is not None:
                if d[0] == beams.IN and self.sensors[slot] is not None:
                    self.held.append((slot, d, now, up))
                else:
                    self._detected(slot, d, now, up)
                d = beam.take()
        if self.held:
            self._release(now)
        return n > 0 or len(self.held) > 0

    def _release(self, now):
        """Publish held balls, in order, once the sampler has read past each one's exit from the throat (a
        reading finishing then still integrated the ball), or after three readings' time if it is stuck."""
        while self.held:
            slot, d, at_now, at_up = self.held[0]
            exit_t = ticks_add(d[2], self.period_us)
            if not self.logs[slot].looked_after(exit_t) and ticks_diff(now, exit_t) < 3 * self.period_us:
                return
            self.held.pop(0)
            self._detected(slot, d, at_now, at_up)

    def _detected(self, slot, d, now, up):
        kind, pocket, t, dur, beam = d
        at = self.node.uptime_of(t, now, up)
        if kind == beams.FLAG:
            self.node.emit("flag", at, p=pocket, why=doubt.FLAG_NAMES[dur], bm=beam)
            return
        if kind != beams.IN:
            self.node.emit(beams.KIND_NAMES[kind], at, p=pocket, dur=dur // 1000, bm=beam)
            return
        colour = conf = None
        log = self.logs[slot]
        if log is not None:
            # The ball was in the sensor's view from the upper beam's block (t - dur) until it left; a reading
            # finishing up to one integration later still saw it.
            rgbc = log.best(ticks_add(t, -dur), ticks_add(t, self.period_us))
            if rgbc is not None:
                colour, conf = self.classifiers[slot].classify(rgbc[0], rgbc[1], rgbc[2], rgbc[3])
            if colour is not None and conf is not None and conf < self.min_conf:
                # not sure enough: the referee panel asks instead (conf still tells the hub why)
                colour = None
            cal = self.calibrators.get(slot)
            if cal is not None and rgbc is not None:
                self._calibration_ball(slot, cal, rgbc, at)
                return  # a calibration roll is not a pot
        # a ball counted on one beam alone (its other beam declared dead): `bm` names the dead beam
        # (single-beam evidence: the hub counts it and alerts)
        dead = beam - doubt.ONE_BEAM if beam >= doubt.ONE_BEAM else None
        self.node.emit(beams.KIND_NAMES[kind], at, p=pocket, dur=dur // 1000, c=colour, cf=conf, bm=dead)

    def calibrate(self, pocket, colour, balls=5):
        """The next `balls` balls into `pocket` are `colour`:
        learn its centroid, then save it in config.json."""
        for slot, p in enumerate(self.node.cfg["pockets"]):
            if p["pocket"] == pocket and self.sensors[slot] is not None:
                self.calibrators[slot] = colours.Calibrator(pocket, colour, balls)
                self.node.log("calibrate: roll %d %s balls into pocket %d" % (balls, colour, pocket))
                return True
        self.node.log("calibrate: pocket %d has no colour sensor on this node" % (pocket,))
        return False

    def _calibration_ball(self, slot, cal, rgbc, at):
        self.node.emit("calib", at, p=cal.pocket, c=cal.colour, rgb=[int(x) for x in rgbc])
        if cal.add(rgbc[0], rgbc[1], rgbc[2], rgbc[3]):
            del self.calibrators[slot]
            centroid = cal.centroid()
            self.classifiers[slot].learn(cal.colour, centroid)
            self.node.save_calibration(cal.pocket, cal.colour, centroid)

    def tele(self):
        """Sensor health for the hub: totals over this node's pockets, and per-beam block counts of each
        pocket (`bu<p>`/`bl<p>`: a beam whose count stands still while its pocket's
        other beam counts is dead)."""
        out = {
            "rattle": 0,
            "jam": 0,
            "glitch": 0,
            "outs": 0,
            "lost": 0,
            "flags": 0,
            "edrop": self.ring.dropped,
            "err": self.errors,
        }
        for b in self.beams:
            out["rattle"] += b.rattles
            out["jam"] += b.jams
            out["glitch"] += b.glitches
            out["outs"] += b.outs
            out["lost"] += b.lost
            out["flags"] += b.flags
            out["edrop"] += b.dropped  # detections overwritten before the role took them: balls lost too
            out["bu%d" % b.pocket] = b.blocks[0]
            out["bl%d" % b.pocket] = b.blocks[1]
        return out
