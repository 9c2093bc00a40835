"""Pocket beams: pure detection logic on edge timestamps (no hardware, no allocation per edge).

Each pocket has two IR beams across its throat, UPPER (met first by a ball going in) and LOWER, closer
together than a ball's diameter (68 mm), so a ball passing down blocks LOWER before it leaves UPPER.
The interrupt handler (firmware/drivers/beams.py) writes each edge as (code, ticks_us) into an `EdgeRing`;
the main loop drains the ring into one `PocketBeam` per pocket and calls `poll(now)` now and then so that
debouncing settles and jams are noticed while no edges arrive.

The state machine, per pocket (levels: 1 = beam blocked):
  * debounce: a level change that reverts within `debounce_ms` is chatter and is dropped (`glitches`).
  * UPPER blocks: an object enters from above (unless LOWER holds an object that came from below: then the
    object is rising, e.g. a hand lifting a ball out of the net).
  * LOWER blocks while UPPER holds an object from above: that object now spans both beams.
  * UPPER clears while LOWER is held by the spanning object: the whole object is below the upper beam, so it
    is a ball going in (a hand cannot: its arm stays across the upper beam). -> IN, counted once.
  * UPPER clears otherwise (LOWER clear, or never reached):
    a rattle or a hand, reaching in and out -> nothing.
  * LOWER blocked first (UPPER clear): something from below (a ball bouncing up from the net); if it then
    leaves through UPPER it is going out (`outs`) -> nothing.
  * either beam blocked longer than `jam_ms` -> JAM once, then CLEAR with the blocked time when it unblocks.
Two balls in quick succession (e.g. 30 ms apart at pocket speed) give separate pulses on each beam and count
as two; balls touching merge into one pulse, and its length says one or two (firmware/passage.py). What a
passage leaves in doubt is flagged when it ends (firmware/doubt.py; docs/firmware.md).

Detections come out of `take()` as tuples (kind, pocket, t, dur, beam): kind IN/JAM/CLEAR, t in ticks_us
(IN: the moment the ball cleared the upper beam; JAM: when the block began; CLEAR: when it ended), dur in us
(IN: upper-beam entry to clearing; JAM: the jam threshold; CLEAR:
total blocked time, at most 33 min), beam 0 upper / 1 lower.
"""

from array import array

from . import doubt, passage
from .compat import const, ticks_add, ticks_diff
from .doubt import BOOT, EDGES, FALL_MAX_US, FULL, LOWER, NOISE, SINGLE, TWO, UPPER

IN = const(1)
JAM = const(2)
CLEAR = const(3)
OUT = const(4)
FLAG = const(5)
# the wire event kind for each detection
KIND_NAMES = {1: "pocket", 2: "jam", 3: "clear", 4: "out", 5: "flag"}
DECIDE_US = const(250000)  # wait this long for the lower beam to clear before deciding on the entry alone
NOISE_GLITCHES = const(20)  # this many chatter pulses on one beam within NOISE_US is interference
NOISE_US = const(1000000)

# Who holds a beam: nobody, an object that entered from above, one from below, the spanning object, a ball
# committed downwards (it has cleared the upper beam).
_NONE = const(0)
_ABOVE = const(1)
_BELOW = const(2)
_SPAN = const(3)
_DOWN = const(4)
# A jammed beam's blocked time is folded into whole ms every 134 s, so `ticks_diff` (valid to 2**29 us, ~9
# min) never overflows however long the jam lasts; CLEAR's dur saturates at _MAX_DUR
# (33 min) to fit the arrays.
_FOLD_US = const(134000000)
_MAX_DUR = const(2000000000)


class PocketBeam:
    """The two-beam detector for one pocket. Times are ticks_us ints; settings in ms (spacing in mm)."""

    def __init__(self, pocket, debounce_ms=2, jam_ms=1000, out_size=16, spacing_mm=30):
        self.pocket = pocket
        self.debounce_us = int(debounce_ms * 1000)
        self.jam_us = int(jam_ms * 1000)
        self.spacing_um = int(spacing_mm * 1000)
        self._lv = array("b", (0, 0))  # confirmed level per beam
        self._pend = array("b", (0, 0))  # 1 if a level change awaits confirmation
        self._pt = array("l", (0, 0))  # time of that change
        self._since = array("l", (0, 0))  # when the confirmed level began
        self._jammed = array("b", (0, 0))
        self._held_ms = array("l", (0, 0))  # folded blocked time of a jammed beam
        self._gl_n = array("l", (0, 0))  # glitches in the current interference window, per beam
        self._gl_t = array("l", (0, 0))  # start of that window
        self._noisy = array("b", (0, 0))  # an interference flag was raised and not yet re-armed
        # consecutive passages seen by this beam while the other stayed clear
        self._alone = array("l", (0, 0))
        # confirmed blocks per beam (telemetry: a beam that never blocks is dead)
        self.blocks = array("l", (0, 0))
        self._u_hold = _NONE
        self._l_hold = _NONE
        self._entry = 0
        self._low_t = 0  # when the lower beam last blocked under the spanning object
        self._rise = 0  # when the lower beam last blocked from below (an upward passage began)
        self._other = 0  # the other beam blocked during the current passage
        self._last_in = 0  # when the last ball went in (a net bounce follows one)
        self._any_in = 0
        self._gap = 0  # the spanning object left the lower beam while the upper beam stayed blocked
        doubt.init(self)
        # a ball rests in the lower beam (it was still blocked DECIDE_US after the ball in)
        self._low_rest = 0
        self._onto = 0  # the ball in now fell onto it
        self._pend_in = 0  # an IN waiting for the lower beam to clear (to tell one ball from two)
        self._in_t = 0
        self._in_dur = 0
        self._in_lag = 0
        # detections: a small preallocated ring
        self._ok = array("B", bytes(out_size))
        self._ot = array("l", [0] * out_size)
        self._od = array("l", [0] * out_size)
        self._ob = array("B", bytes(out_size))
        self._oh = 0
        self._otl = 0
        self._osize = out_size
        # counters of every decision, IN or not: counters() reports them all (tests, bench); the node's
        # telemetry (PocketRole.tele) sends the health ones summed over its pockets
        self.passed = 0
        self.rattles = 0
        self.outs = 0
        self.glitches = 0
        self.lost = 0  # edges that repeated the current level (an edge was lost upstream)
        self.jams = 0
        self.dropped = 0  # detections overwritten because nobody took them
        self.flags = 0

    # ------------------------------------------------------------ input

    def start(self, upper, lower, t):
        """Seed the levels read from the pins at boot: a blocked beam is a ball
        (or a jam) caught mid-passage."""
        for beam, level in ((UPPER, upper), (LOWER, lower)):
            if level:
                self._lv[beam] = 1
                self._since[beam] = t
                self.blocks[beam] += 1
                self._flag(BOOT, t, beam)
        if upper:
            self._u_hold = _ABOVE
            self._entry = t
        if lower:
            self._l_hold = _SPAN if upper else _BELOW
            self._low_t = t
            self._rise = t
            self._other = 1  # flagged `boot` already: this passage says nothing of a dead beam
        doubt.started(self, t)

    def resync(self, t):
        """Edges were lost (the ring overflowed): forget who holds the beams, so a half-seen passage counts
        nothing, and say so (a ball may have been missed)."""
        self._u_hold = _NONE
        self._l_hold = _NONE
        self._pend_in = 0
        self._flag(EDGES, t, UPPER)

    def feed(self, beam, level, t):
        """One raw edge: `beam` UPPER/LOWER, `level` 1 blocked / 0 clear, `t` ticks_us."""
        self._settle(t)
        if self._pend[beam]:
            if level == self._lv[beam]:
                self._pend[beam] = 0  # reverted within the debounce time: chatter
                self.glitches += 1
                self._glitch(beam, t)
            else:
                self.lost += 1
            return
        if level == self._lv[beam]:
            self.lost += 1
            return
        self._pend[beam] = 1
        self._pt[beam] = t

    def poll(self, now):
        """Let time pass to `now` (ticks_us): confirms settled edges, notices jams."""
        self._settle(now)

    def blocked(self):
        """True while either beam is (confirmed) blocked: the node samples the colour sensor meanwhile."""
        return self._lv[0] == 1 or self._lv[1] == 1

    def level(self, beam):
        return self._lv[beam]

    # ------------------------------------------------------------ output

    def take(self):
        """The oldest detection as (kind, pocket, t, dur, beam), or None."""
        i = self._otl
        if i == self._oh:
            return None
        self._otl = (i + 1) % self._osize
        return (self._ok[i], self.pocket, self._ot[i], self._od[i], self._ob[i])

    def pending(self):
        return (self._oh - self._otl) % self._osize

    def _emit(self, kind, t, dur, beam):
        doubt.emitted(self, kind)
        h = self._oh
        self._ok[h] = kind
        self._ot[h] = t
        self._od[h] = dur
        self._ob[h] = beam
        self._oh = (h + 1) % self._osize
        if self._oh == self._otl:  # full: the oldest is overwritten, and counted
            self._otl = (self._otl + 1) % self._osize
            self.dropped += 1

    def _flag(self, reason, t, beam):
        self.flags += 1
        self._emit(FLAG, t, reason, beam)

    # ------------------------------------------------------------ the state machine

    def _settle(self, now):
        """Confirm pending changes older than the debounce time, oldest first; then check for jams."""
        while True:
            beam = -1
            for b in (0, 1):
                if self._pend[b] and ticks_diff(now, self._pt[b]) >= self.debounce_us:
                    if beam < 0 or ticks_diff(self._pt[b], self._pt[beam]) < 0:
                        beam = b
            if beam < 0:
                break
            if self._pend_in and ticks_diff(self._pt[beam], self._in_t) > DECIDE_US:
                self._decide(passage.RESTING)
            self._pend[beam] = 0
            self._apply(beam, 1 - self._lv[beam], self._pt[beam])
        if self._pend_in and ticks_diff(now, self._in_t) > DECIDE_US:
            self._decide(passage.RESTING)  # the lower beam stays blocked: it rests there; the entry alone
        for b in (0, 1):
            if self._noisy[b] and ticks_diff(now, self._gl_t[b]) > 2 * NOISE_US:
                self._noisy[b] = 0  # quiet for a while: a new burst is a new report
            if self._lv[b]:
                held = ticks_diff(self._pt[b] if self._pend[b] else now, self._since[b])
                if not self._jammed[b]:
                    if held > self.jam_us:
                        self._jam(b)
                elif held > _FOLD_US:
                    self._held_ms[b] += _FOLD_US // 1000
                    self._since[b] = ticks_add(self._since[b], _FOLD_US)  # type: ignore[type-var]  # ints from an array

    def _jam(self, b):
        self._jammed[b] = 1
        self.jams += 1
        self._emit(JAM, self._since[b], self.jam_us, b)
        if b == UPPER and self._u_hold == _ABOVE and self._lv[LOWER] and self._l_hold != _NONE:
            # Something came from above and rests in the upper beam on top of what fills the lower one
            # (itself, or a full net): a ball that stopped there. Count it now, once, and say so (two balls
            # resting one on the other look the same).
            self._u_hold = _DOWN
            self.passed += 1
            self._emit(IN, self._since[b], self.jam_us, UPPER)
            self._last_in = self._since[b]
            self._any_in = 1
            self._flag(FULL, self._since[b], UPPER)

    def _glitch(self, beam, t):
        if self._gl_n[beam] == 0 or ticks_diff(t, self._gl_t[beam]) > NOISE_US:
            if not self._noisy[beam]:
                self._gl_n[beam] = 0
            self._gl_t[beam] = t
        self._gl_n[beam] += 1
        if self._gl_n[beam] >= NOISE_GLITCHES and not self._noisy[beam]:
            self._noisy[beam] = 1
            self._flag(NOISE, t, beam)

    def _apply(self, beam, level, t):
        if not level and self._jammed[beam]:
            self._jammed[beam] = 0
            ms = self._held_ms[beam]
            self._held_ms[beam] = 0
            if ms >= _MAX_DUR // 1000:
                dur = _MAX_DUR
            else:
                dur = ms * 1000 + ticks_diff(t, self._since[beam])
            self._emit(CLEAR, t, dur if dur < _MAX_DUR else _MAX_DUR, beam)
        doubt.edge(self, beam, level, t)
        self._lv[beam] = level
        self._since[beam] = t
        if level:
            self.blocks[beam] += 1
            if self._lv[1 - beam]:
                self._other = 1
        if beam == UPPER:
            if level:
                self._upper_blocked(t)
            else:
                self._upper_cleared(t)
        elif level:
            if self._pend_in:
                self._decide(passage.NEXT)  # the next object arrives before the lower beam cleared
            if self._lv[UPPER] and self._u_hold == _ABOVE:
                doubt.low(self, t)
                if self._gap:
                    # one ball bouncing between the beams, or two whose gap the upper beam missed
                    self._split = 1
                else:
                    self._low_t = t
                self._gap = 0
                self._l_hold = _SPAN
            else:
                self._l_hold = _BELOW
                self._rise = t
        else:
            if self._pend_in:
                self._decide(t)
            # the spanning object left the lower beam under a still blocked upper one: it went back up, or it
            # was the first of two balls whose gap the upper beam did not see (see _decide)
            self._gap = 0
            if self._l_hold == _SPAN and self._lv[UPPER] and self._u_hold == _ABOVE:
                # long enough for a ball to have passed through it: the first of two may have (else it went
                # back up: a ball bouncing between the beams, measured from its next block)
                self._gap = passage.through(
                    self.spacing_um, ticks_diff(self._low_t, self._entry), ticks_diff(t, self._low_t)
                )
            if (
                self._l_hold == _BELOW
                and not self._other
                and not self._lv[UPPER]
                and doubt.missed_by_upper(self, t)
            ):
                self._fell_alone = 1  # a ball's passage the upper beam did not see: said in _passage
            self._low_rest = 0
            # spanning object retreated, committed ball fell through, or rising object left
            self._l_hold = _NONE
            if not self._lv[UPPER]:
                doubt.passage_end(self, LOWER)

    def _upper_blocked(self, t):
        if self._l_hold == _DOWN and self._lv[LOWER]:
            doubt.back(self, t)
        if self._pend_in:
            self._decide(passage.NEXT)  # the next ball is here before the lower beam cleared
        if self._lv[LOWER] and self._l_hold == _BELOW and not self._jammed[LOWER]:  # (a jam does not rise)
            self._u_hold = _BELOW  # rising from below
        else:
            self._u_hold = _ABOVE
            self._entry = t

    def _upper_cleared(self, t):
        self._gap = 0
        hold = self._u_hold
        self._u_hold = _NONE
        if hold == _ABOVE:
            if self._lv[LOWER] and (self._l_hold == _SPAN or self._l_hold == _DOWN):
                # Through the upper beam into a blocked lower one: the spanning object, or a ball right behind
                # the last (its lower block merged with that ball's, so its lag is not seen).
                if self._l_hold == _SPAN:
                    lag = ticks_diff(self._low_t, self._entry)
                    self._in_lag = lag if lag > 0 else 0
                else:  # right behind the last: its entry into the lower beam is not seen (passage._by_exit)
                    self._in_lag = 0
                    if self._low_rest or ticks_diff(t, self._low_t) > DECIDE_US:
                        # onto a ball resting in the lower beam: its passage cannot be measured
                        self._onto = 1
                self._l_hold = _DOWN
                d = ticks_diff(t, self._entry)
                # (an edge stamped before the boot-time seed: no negative times)
                self._ball_in(t, d if d > 0 else 0)
                # one or two: decided when the lower beam clears (or on gravity alone, see _settle)
                self._pend_in = 1
            else:
                self.rattles += 1
                doubt.rattle(self, t)
                if self._jammed[LOWER]:
                    # the lower beam is jammed: it cannot tell a ball from a rattle
                    self._flag(SINGLE, t, LOWER)
                elif not self._other and not self._lv[LOWER] and ticks_diff(t, self._entry) <= FALL_MAX_US:
                    self._fell_alone = 1  # a ball's passage the lower beam did not see: said in _passage
        elif hold == _BELOW and not self._lv[LOWER]:
            self.outs += 1
            self._emit(OUT, t, ticks_diff(t, self._rise), UPPER)  # dur: from the lower beam's block
        if not self._lv[LOWER]:
            doubt.passage_end(self, UPPER)

    def _ball_in(self, t, dur):
        """Count a ball in (said at once: a node restarting before the verdict does not lose it)."""
        self.passed += 1
        self._in_t = t
        self._in_dur = dur
        self._emit(IN, t, dur, UPPER)
        self._last_in = t
        self._any_in = 1

    def _decide(self, low_clear):
        """How many balls the spanning object was, from its passage: see firmware/passage.py."""
        self._pend_in = 0
        out = ticks_diff(low_clear, self._in_t) if low_clear >= 0 else low_clear
        verdict = passage.balls(self.spacing_um, self._in_lag, self._in_dur, out)
        if self._split and verdict != passage.RESTED:
            verdict = passage.MAYBE_TWO  # the lower beam saw a gap the upper one did not: one ball or two?
        if self._onto or low_clear == passage.RESTING:
            self._low_rest = 1  # (until the lower beam clears)
            if self._onto:
                verdict = passage.RESTED
        self._split = 0
        self._onto = 0
        if verdict == passage.TWO_BALLS:
            self._ball_in(self._in_t, self._in_dur)
        elif verdict == passage.MAYBE_TWO:
            self._flag(TWO, self._in_t, UPPER)  # one counted: the referee is asked "one or two?"
        elif verdict == passage.RESTED:
            self._flag(FULL, self._in_t, UPPER)

    def counters(self):
        """Telemetry counters as a dict (allocates: call at telemetry time, not per edge)."""
        return {
            "in": self.passed,
            "rattle": self.rattles,
            "out": self.outs,
            "glitch": self.glitches,
            "lost": self.lost,
            "jam": self.jams,
            "dropped": self.dropped,
            "flag": self.flags,
            "bu": self.blocks[0],
            "bl": self.blocks[1],
        }


def beams_from_config(cfg):
    """One PocketBeam per configured pocket, in the order of cfg["pockets"] (slot = index)."""
    b = cfg["beam"]
    return [
        PocketBeam(p["pocket"], b["debounce_ms"], b["jam_ms"], 16, b.get("spacing_mm", 30))
        for p in cfg["pockets"]
    ]
