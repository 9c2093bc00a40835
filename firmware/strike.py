"""Cue strikes: pure detection on accelerometer samples (integers in mg; no floats, no allocation per sample).

The clip-on accelerometer's FIFO is read in batches (firmware/drivers/accel.py); each sample is fed with its
own ticks_us time. The dynamic magnitude is |a - g|, with g the gravity vector tracked per axis by a slow
integer moving average that is frozen while something is happening (so whatever the cue's tilt, only the
shock is measured).

State machine:
  IDLE      -> CONTACT when the magnitude reaches `strike_g`.
  CONTACT   tracks the peak; ends when the magnitude falls below `release_g`
  (hysteresis). A contact wider than
            `max_contact_ms` is a knock (the cue bumped on the table), not a tip contact: counted, dropped.
  WAIT      the double-hit window: a new contact starting less than `double_min_ms` after the first one began
            is the same contact ringing; one starting within `double_max_ms` is a second contact, a double
            hit. When the window has passed -> the strike is emitted, then REFRACTORY.
  REFRACTORY ignores the follow-through until `refractory_ms` after the first contact, then IDLE.
`take()` returns (t, peak_mg, double, gap_us): t = ticks_us when the first contact began, gap = time between
the two contacts' starts (0 if single).
"""

from .compat import const, isqrt, ticks_diff

_IDLE = const(0)
_CONTACT = const(1)
_WAIT = const(2)
_REFRACTORY = const(3)
_KNOCK = const(4)
_SHIFT = const(7)  # gravity average over ~128 samples (80 ms at 1600 Hz)
_CLIP = const(17000)  # mg; keeps x*x + y*y + z*z under 2**30 (a MicroPython small int: no allocation)


def _clip(v):
    return _CLIP if v > _CLIP else (-_CLIP if v < -_CLIP else v)


def magnitude_mg(x, y, z):
    """|(x, y, z)| in mg, integer arithmetic only."""
    x = _clip(x)
    y = _clip(y)
    z = _clip(z)
    return isqrt(x * x + y * y + z * z)


class StrikeDetector:
    """Strike / double-hit detector. Settings in g and ms as in config.json's `cue` section."""

    def __init__(
        self,
        strike_g=3.0,
        release_g=1.5,
        max_contact_ms=8,
        double_min_ms=5,
        double_max_ms=40,
        refractory_ms=300,
    ):
        self.on_mg = int(strike_g * 1000)
        self.off_mg = int(release_g * 1000)
        self.max_contact_us = int(max_contact_ms * 1000)
        self.double_min_us = int(double_min_ms * 1000)
        self.double_max_us = int(double_max_ms * 1000)
        self.refractory_us = int(refractory_ms * 1000)
        self._state = _IDLE
        self._first = 0  # start of the first contact
        self._cstart = 0  # start of the current contact
        self._peak = 0
        self._double = 0
        self._gap = 0
        self._has = 0  # one finished strike waiting in (t, peak, double, gap)
        self._out_t = 0
        self._out_peak = 0
        self._out_double = 0
        self._out_gap = 0
        self.strikes = 0
        self.doubles = 0
        self.knocks = 0
        self.dropped = 0
        self.last_activity = 0  # ticks_us of the last sample above the release threshold (for sleeping)
        self._gx = self._gy = self._gz = 0  # gravity estimate << _SHIFT
        self._primed = 0

    def sample(self, t, x, y, z):
        """Feed one raw sample (mg per axis, gravity included) taken at ticks_us `t`."""
        if not self._primed:
            self._gx = x << _SHIFT
            self._gy = y << _SHIFT
            self._gz = z << _SHIFT
            self._primed = 1
        mag = magnitude_mg(x - (self._gx >> _SHIFT), y - (self._gy >> _SHIFT), z - (self._gz >> _SHIFT))
        st = self._state
        # Learn gravity while nothing happens (and while a knock holds: a sustained offset there means the
        # estimate itself is wrong, e.g. the first sample was taken mid-swing, and must be able to recover).
        if (st == _IDLE and mag < self.on_mg) or st == _KNOCK:
            self._gx += x - (self._gx >> _SHIFT)
            self._gy += y - (self._gy >> _SHIFT)
            self._gz += z - (self._gz >> _SHIFT)
        self.feed(t, mag)

    def feed(self, t, mag):
        """Feed one dynamic magnitude (mg) at ticks_us `t`."""
        if mag >= self.off_mg:
            self.last_activity = t
        st = self._state
        if st == _IDLE:
            if mag >= self.on_mg:
                self._state = _CONTACT
                self._first = t
                self._cstart = t
                self._peak = mag
                self._double = 0
                self._gap = 0
        elif st == _CONTACT:
            if mag > self._peak:
                self._peak = mag
            if mag < self.off_mg:
                self._state = _WAIT
            elif ticks_diff(t, self._cstart) > self.max_contact_us:
                if self._cstart != self._first:
                    self._finish()  # the tip contact stands; what followed it was no second tip contact
                else:
                    self._state = _KNOCK  # too broad for a tip contact
                    self.knocks += 1
        elif st == _WAIT:
            self._wait(t, mag)
        elif st == _KNOCK:
            if mag < self.off_mg:
                self._state = _IDLE
        else:
            self.poll(t)

    def _wait(self, t, mag):
        since = ticks_diff(t, self._first)
        if since > self.double_max_us:
            self._finish()
            self.poll(t)
        elif mag >= self.on_mg:
            if since >= self.double_min_us and not self._double:
                self._double = 1
                self._gap = since
            self._state = _CONTACT
            self._cstart = t
            if mag > self._peak:
                self._peak = mag

    def poll(self, now):
        """Let time pass to `now` without samples (FIFO empty, asleep): closes the window, ends refractory."""
        st = self._state
        if st == _WAIT and ticks_diff(now, self._first) > self.double_max_us:
            self._finish()
            st = self._state
        if st == _REFRACTORY and ticks_diff(now, self._first) >= self.refractory_us:
            self._state = _IDLE

    def _finish(self):
        if self._has:
            self.dropped += 1
        self._has = 1
        self._out_t = self._first
        self._out_peak = self._peak
        self._out_double = self._double
        self._out_gap = self._gap
        self.strikes += 1
        self.doubles += self._double
        self._state = _REFRACTORY

    def take(self):
        """The finished strike as (t, peak_mg, double, gap_us), or None."""
        if not self._has:
            return None
        self._has = 0
        return (self._out_t, self._out_peak, self._out_double, self._out_gap)

    def idle(self):
        """True when nothing is in progress (the node may sleep until the activity interrupt)."""
        return self._state == _IDLE and not self._has


def detector_from_config(cfg):
    """A StrikeDetector with the settings of cfg["cue"]."""
    c = cfg["cue"]
    return StrikeDetector(
        c["strike_g"],
        c["release_g"],
        c["max_contact_ms"],
        c["double_min_ms"],
        c["double_max_ms"],
        c["refractory_ms"],
    )
