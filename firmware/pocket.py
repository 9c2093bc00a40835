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

from .compat import const, ticks_add, ticks_diff

IN = const(1)
JAM = const(2)
CLEAR = const(3)
UPPER = const(0)
LOWER = const(1)
KIND_NAMES = {1: "pocket", 2: "jam", 3: "clear"}  # the wire event kind for each detection

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


class EdgeRing:
    """A preallocated ring of beam edges: the IRQ side calls `put`, the main loop `get`s.

    `code` = slot << 2 | beam << 1 | level (slot = index of the pocket on this node). When full, new edges
    are dropped and counted in `dropped` (the detector resynchronises on the next edge); nothing allocates.
    """

    def __init__(self, size=64):
        if size < 2 or size & (size - 1):
            raise ValueError("EdgeRing size must be a power of two >= 2, got %r" % (size,))
        self.codes = array("B", bytes(size))
        self.times = array("l", [0] * size)
        self._mask = size - 1
        self.head = 0  # next write (IRQ side only)
        self.tail = 0  # next read (main loop only)
        self.dropped = 0

    def put(self, code, t):
        """Record one edge. Safe in a hard interrupt handler: ints and preallocated arrays only."""
        h = self.head
        n = (h + 1) & self._mask
        if n == self.tail:
            self.dropped += 1
            return
        self.codes[h] = code
        self.times[h] = t
        self.head = n

    def __len__(self):
        return (self.head - self.tail) & self._mask

    def drain(self, beams):
        """Feed every buffered edge to `beams[slot].feed(beam, level, t)`; returns the number drained."""
        n = 0
        mask = self._mask
        while self.tail != self.head:
            i = self.tail
            code = self.codes[i]
            beams[code >> 2].feed((code >> 1) & 1, code & 1, self.times[i])
            self.tail = (i + 1) & mask
            n += 1
        return n


class PocketBeam:
    """The two-beam detector for one pocket. Times are ticks_us ints; settings in ms."""

    def __init__(self, pocket, debounce_ms=2, jam_ms=1000, out_size=16):
        self.pocket = pocket
        self.debounce_us = int(debounce_ms * 1000)
        self.jam_us = int(jam_ms * 1000)
        self._lv = array("b", (0, 0))  # confirmed level per beam
        self._pend = array("b", (0, 0))  # 1 if a level change awaits confirmation
        self._pt = array("l", (0, 0))  # time of that change
        self._since = array("l", (0, 0))  # when the confirmed level began
        self._jammed = array("b", (0, 0))
        self._held_ms = array("l", (0, 0))  # folded blocked time of a jammed beam
        self._u_hold = _NONE
        self._l_hold = _NONE
        self._entry = 0
        # detections: a small preallocated ring
        self._ok = array("B", bytes(out_size))
        self._ot = array("l", [0] * out_size)
        self._od = array("l", [0] * out_size)
        self._ob = array("B", bytes(out_size))
        self._oh = 0
        self._otl = 0
        self._osize = out_size
        # counters for telemetry: every decision that is not an IN is still counted
        self.passed = 0
        self.rattles = 0
        self.outs = 0
        self.glitches = 0
        self.lost = 0  # edges that repeated the current level (an edge was lost upstream)
        self.jams = 0
        self.dropped = 0  # detections overwritten because nobody took them

    # ------------------------------------------------------------ input

    def feed(self, beam, level, t):
        """One raw edge: `beam` UPPER/LOWER, `level` 1 blocked / 0 clear, `t` ticks_us."""
        self._settle(t)
        if self._pend[beam]:
            if level == self._lv[beam]:
                self._pend[beam] = 0  # reverted within the debounce time: chatter
                self.glitches += 1
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
            self._pend[beam] = 0
            self._apply(beam, 1 - self._lv[beam], self._pt[beam])
        for b in (0, 1):
            if self._lv[b]:
                held = ticks_diff(self._pt[b] if self._pend[b] else now, self._since[b])
                if not self._jammed[b]:
                    if held > self.jam_us:
                        self._jammed[b] = 1
                        self.jams += 1
                        self._emit(JAM, self._since[b], self.jam_us, b)
                elif held > _FOLD_US:
                    self._held_ms[b] += _FOLD_US // 1000
                    self._since[b] = ticks_add(self._since[b], _FOLD_US)  # type: ignore[type-var]  # ints from an array

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
        if beam == UPPER:
            if level:
                self._upper_blocked(t)
            else:
                self._upper_cleared(t)
        elif level:
            if self._lv[UPPER] and self._u_hold == _ABOVE:
                self._l_hold = _SPAN
            else:
                self._l_hold = _BELOW
        else:
            self._l_hold = _NONE  # spanning object retreated, committed ball fell through, or rising object left

    def _upper_blocked(self, t):
        if self._lv[LOWER] and self._l_hold == _BELOW:
            self._u_hold = _BELOW  # rising from below
        else:
            self._u_hold = _ABOVE
            self._entry = t

    def _upper_cleared(self, t):
        hold = self._u_hold
        self._u_hold = _NONE
        if hold == _ABOVE:
            if self._lv[LOWER] and self._l_hold == _SPAN:
                self._l_hold = _DOWN
                self.passed += 1
                self._emit(IN, t, ticks_diff(t, self._entry), UPPER)
            else:
                self.rattles += 1
        elif hold == _BELOW and not self._lv[LOWER]:
            self.outs += 1

    def counters(self):
        """Telemetry counters as a dict (allocates: call at telemetry time, not per edge)."""
        return {"in": self.passed, "rattle": self.rattles, "out": self.outs, "glitch": self.glitches,
                "lost": self.lost, "jam": self.jams, "dropped": self.dropped}


def beams_from_config(cfg):
    """One PocketBeam per configured pocket, in the order of cfg["pockets"] (slot = index)."""
    b = cfg["beam"]
    return [PocketBeam(p["pocket"], b["debounce_ms"], b["jam_ms"]) for p in cfg["pockets"]]

