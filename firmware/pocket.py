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
  * UPPER clears otherwise (LOWER clear, or never reached): a rattle or a hand, reaching in and out -> nothing.
  * LOWER blocked first (UPPER clear): something from below (a ball bouncing up from the net); if it then
    leaves through UPPER it is going out (`outs`) -> nothing.
  * either beam blocked longer than `jam_ms` -> JAM once, then CLEAR with the blocked time when it unblocks.
Two balls in quick succession (e.g. 30 ms apart at pocket speed) give separate pulses on each beam and count
as two; balls touching each other merge into one pulse and count as one (see docs/firmware.md).

Detections come out of `take()` as tuples (kind, pocket, t, dur, beam): kind IN/JAM/CLEAR, t in ticks_us
(IN: the moment the ball cleared the upper beam; JAM: when the block began; CLEAR: when it ended), dur in us
(IN: upper-beam entry to clearing; JAM: the jam threshold; CLEAR: total blocked time, at most 33 min), beam 0 upper / 1 lower.
"""

from array import array

from . import passage
from .compat import const, ticks_add, ticks_diff

IN = const(1)
JAM = const(2)
CLEAR = const(3)
OUT = const(4)
FLAG = const(5)
UPPER = const(0)
LOWER = const(1)
KIND_NAMES = {1: "pocket", 2: "jam", 3: "clear", 4: "out", 5: "flag"}  # the wire event kind for each detection
# FLAG reasons (a FLAG detection carries its reason in `dur`): what the beams cannot settle, for the referee
TWO = const(1)  # the passage was longer than one ball and the beams cannot tell it from two (one counted)
EDGES = const(2)  # the edge ring overflowed: edges were lost, a ball may have been missed
NOISE = const(3)  # interference faster than the debounce on `beam` (a flickering lamp or IR source)
DEAD = const(4)  # `beam` has not blocked for several passages the other beam saw: receiver dead or blinded
SINGLE = const(5)  # a passage seen by one beam only while the other is dead: was it a ball?
FULL = const(6)  # a ball came to rest across the beams (a full net, a tight mouth): counted once
BOOT = const(7)  # the node started with `beam` blocked: a ball in the throat during the restart
FLAG_NAMES = {1: "two", 2: "edges", 3: "noise", 4: "dead", 5: "single", 6: "full", 7: "boot"}
DECIDE_US = const(250000)  # wait this long for the lower beam to clear before deciding on the entry alone
NOISE_GLITCHES = const(20)  # this many chatter pulses on one beam within NOISE_US is interference
NOISE_US = const(1000000)
DEAD_PASSES = const(5)  # consecutive passages seen by one beam only before the other is called dead
# An upper-beam block this short with the lower beam never blocked is what a falling ball gives when the lower
# receiver is dead or blind: a ball blocks a beam over at most 68 mm of its fall, 170 ms at the slowest entry
# (0.4 m/s), and then blocks the lower beam too (the beams are 30 mm apart, under the jaws: hardware/mounting.md).
# A hand stays longer. Flagged `single` (naming the lower beam) with the first such passage, not the fifth.
FALL_MAX_US = const(200000)
# The reverse, a lower-only block as short as a fall, is also what a ball bouncing up from the net gives: but only
# after a ball went in. Longer than this after the last ball in (or with none yet), it is a ball the upper beam
# missed: flagged `single` naming the upper beam.
BOUNCE_US = const(2000000)

# Who holds a beam: nobody, an object that entered from above, one from below, the spanning object, a ball
# committed downwards (it has cleared the upper beam).
_NONE = const(0)
_ABOVE = const(1)
_BELOW = const(2)
_SPAN = const(3)
_DOWN = const(4)
# A jammed beam's blocked time is folded into whole ms every 134 s, so `ticks_diff` (valid to 2**29 us, ~9 min)
# never overflows however long the jam lasts; CLEAR's dur saturates at _MAX_DUR (33 min) to fit the arrays.
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
        self._alone = array("l", (0, 0))  # consecutive passages seen by this beam while the other stayed clear
        self.blocks = array("l", (0, 0))  # confirmed blocks per beam (telemetry: a beam that never blocks is dead)
        self._u_hold = _NONE
        self._l_hold = _NONE
        self._entry = 0
        self._low_t = 0  # when the lower beam last blocked under the spanning object
        self._rise = 0  # when the lower beam last blocked from below (an upward passage began)
        self._other = 0  # the other beam blocked during the current passage
        self._fell_alone = 0  # the passage was a one-beam block as short as a falling ball's
        self._last_in = 0  # when the last ball went in (a net bounce follows one)
        self._any_in = 0
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
        # counters of every decision, IN or not: counters() reports them all (tests, bench); the node's telemetry
        # (PocketRole.tele) sends the health ones summed over its pockets
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
        """Seed the levels read from the pins at boot: a blocked beam is a ball (or a jam) caught mid-passage."""
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
            # Something came from above and rests in the upper beam on top of what fills the lower one (itself,
            # or a full net): a ball that stopped there. Count it now, once, and say so (two balls resting one on
            # the other look the same).
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
                self._l_hold = _SPAN
                self._low_t = t
            else:
                self._l_hold = _BELOW
                self._rise = t
        else:
            if self._pend_in:
                self._decide(t)
            if self._l_hold == _BELOW and not self._other and not self._lv[UPPER] and self._missed_by_upper(t):
                self._fell_alone = 1  # a ball's passage the upper beam did not see: said in _passage
            self._l_hold = _NONE  # spanning object retreated, committed ball fell through, or rising object left
            if not self._lv[UPPER]:
                self._passage(LOWER)

    def _missed_by_upper(self, t):
        """A lower-only block (now ending) as short as a fall, and no ball went in just before (no net bounce)."""
        if ticks_diff(t, self._rise) > FALL_MAX_US:
            return False
        if not self._any_in:
            return True
        since = ticks_diff(self._rise, self._last_in)
        return since > BOUNCE_US or since < 0  # (< 0: so long ago that the ticks wrapped)

    def _passage(self, beam):
        """A passage ended with both beams clear: if only `beam` ever blocked, the other may be dead."""
        if self._other:
            self._alone[0] = 0
            self._alone[1] = 0
        else:
            self._alone[beam] += 1
            self._alone[1 - beam] = 0
            n = self._alone[beam]
            if n == DEAD_PASSES:
                self._flag(DEAD, self._since[beam], 1 - beam)
            elif n > DEAD_PASSES or self._fell_alone:
                self._flag(SINGLE, self._since[beam], 1 - beam)  # a one-beam passage: was it a ball?
        self._other = 0
        self._fell_alone = 0

    def _upper_blocked(self, t):
        if self._pend_in:
            self._decide(passage.NEXT)  # the next ball is here before the lower beam cleared
        if self._lv[LOWER] and self._l_hold == _BELOW and not self._jammed[LOWER]:  # (a jam does not rise)
            self._u_hold = _BELOW  # rising from below
        else:
            self._u_hold = _ABOVE
            self._entry = t

    def _upper_cleared(self, t):
        hold = self._u_hold
        self._u_hold = _NONE
        if hold == _ABOVE:
            if self._lv[LOWER] and (self._l_hold == _SPAN or self._l_hold == _DOWN):
                # Through the upper beam into a blocked lower one: the spanning object, or a ball right behind
                # the last (its lower block merged with that ball's: the same speed, so the same lag).
                if self._l_hold == _SPAN:
                    lag = ticks_diff(self._low_t, self._entry)
                    self._in_lag = lag if lag > 0 else 0
                self._l_hold = _DOWN
                self._pend_in = 1  # decided when the lower beam clears (or on gravity alone, see _settle)
                self._in_t = t
                d = ticks_diff(t, self._entry)
                self._in_dur = d if d > 0 else 0  # (an edge stamped before the boot-time seed: no negative times)
            else:
                self.rattles += 1
                if self._jammed[LOWER]:
                    self._flag(SINGLE, t, LOWER)  # the lower beam is jammed: it cannot tell a ball from a rattle
                elif not self._other and not self._lv[LOWER] and ticks_diff(t, self._entry) <= FALL_MAX_US:
                    self._fell_alone = 1  # a ball's passage the lower beam did not see: said in _passage
        elif hold == _BELOW and not self._lv[LOWER]:
            self.outs += 1
            self._emit(OUT, t, ticks_diff(t, self._rise), UPPER)  # dur: from the lower beam's block
        if not self._lv[LOWER]:
            self._passage(UPPER)

    def _decide(self, low_clear):
        """How many balls the spanning object was, from its passage: see firmware/passage.py."""
        self._pend_in = 0
        out = ticks_diff(low_clear, self._in_t) if low_clear >= 0 else low_clear
        verdict = passage.balls(self.spacing_um, self._in_lag, self._in_dur, out)
        self.passed += 1
        self._emit(IN, self._in_t, self._in_dur, UPPER)
        self._last_in = self._in_t
        self._any_in = 1
        if verdict == passage.TWO_BALLS:
            self.passed += 1
            self._emit(IN, self._in_t, self._in_dur, UPPER)
        elif verdict == passage.MAYBE_TWO:
            self._flag(TWO, self._in_t, UPPER)  # one counted: the referee is asked "one or two?"
        elif verdict == passage.RESTED:
            self._flag(FULL, self._in_t, UPPER)

    def counters(self):
        """Telemetry counters as a dict (allocates: call at telemetry time, not per edge)."""
        return {"in": self.passed, "rattle": self.rattles, "out": self.outs, "glitch": self.glitches,
                "lost": self.lost, "jam": self.jams, "dropped": self.dropped, "flag": self.flags,
                "bu": self.blocks[0], "bl": self.blocks[1]}


def beams_from_config(cfg):
    """One PocketBeam per configured pocket, in the order of cfg["pockets"] (slot = index)."""
    b = cfg["beam"]
    return [PocketBeam(p["pocket"], b["debounce_ms"], b["jam_ms"], 16, b.get("spacing_mm", 30)) for p in cfg["pockets"]]

