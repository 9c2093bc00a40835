"""What a pocket's two beams cannot settle about one passage: the checks behind the `single`, `dead` and
`bounce` flags (issue 19: right, or flagged at once; never silently wrong).
Hooks firmware/pocket.py's PocketBeam calls.

A passage runs from both beams clear to both beams clear. Three kinds of doubt are tracked through it:

* **One beam only.** A falling ball blocks both beams (they are 30 mm apart, a ball 68 mm), so a passage that
  only one beam saw is a ball the other missed if it is as short as a fall (`FALL_MAX_US`; for the lower beam
  alone not within `BOUNCE_US` of a ball going in, which is a net bounce), or if no passage since the start
  has shown both receivers working. Flagged `single` naming the silent beam, with the first such ball; `dead`
  at the fifth in a row (`DEAD_PASSES`), and `single` for each one after.
* **Both ways at once.** One ball moving through the throat walks the beams' states in order (clear, upper,
  both, lower, clear); its count is the upper beam clearing over a blocked lower one (it went down past the
  upper beam) less the upper beam blocking over a blocked lower one (it came back up). That flux is what one
  ball, however it bounced, went in. The detector counts as if several balls followed one another
  (firmware/pocket.py); where the passage also held an edge one falling ball cannot give (the lower beam
  clearing under a blocked upper one: the object moved up, or a ball left below another) and the two counts
  differ, neither can be trusted: `bounce`. The same when the upper beam blocks again over the ball gone down
  into the lower one later than that ball needed to cross the spacing (it is held there: it bounced, or rests,
  and may be what came back).
* **Two objects at once.** The lower beam blocking sooner after the upper than a ball can fall the spacing
  (faster than 8 m/s: something came up from below as this one came in), or a ball turning back in the throat
  within `BOUNCE_US` of one going in (a deep rattle off the ball below, which may have come back up hidden
  behind it): `bounce`.

A passage that raised a flag or a jam already says nothing more.

Two states outlive a passage:

* **Counting on one beam.** Once a beam is declared dead (`dead`, the fifth one-beam passage in a row; the
  first ball it missed was named with `single` already), each one-beam passage as short as a fall, from that
  fifth on, is counted as a ball on the working beam alone: an IN whose `beam` is `ONE_BEAM` + the dead beam
  (the wire's `bm` on the `pocket` event: single-beam evidence, which the hub counts and alerts on, and the
  referee can remove). Any other one-beam passage then is asked about (`single`). A passage that blocks both
  beams shows both working again and ends it. (Not from the first `single`: a ball dipping into the upper beam
  and rolling back out gives that passage too, with both receivers working.)
* **Just restarted.** A passage that begins within `RESTART_US` of the node's start may be the rest of one its
  previous life saw in part: the edges of that life's last `debounce_ms` died unconfirmed with it (a ball
  bouncing back out just before the restart, its `out` lost,
  falls back in and is counted again). Flagged `boot`.
"""

from .compat import const, ticks_diff

UPPER = const(0)
LOWER = const(1)
# FLAG reasons (a FLAG detection carries its reason in `dur`): what the beams cannot settle, for the referee
TWO = const(1)  # the passage was longer than one ball and the beams cannot tell it from two (one counted)
EDGES = const(2)  # the edge ring overflowed: edges were lost, a ball may have been missed
NOISE = const(3)  # interference faster than the debounce on `beam` (a flickering lamp or IR source)
DEAD = const(4)  # `beam` has not blocked for several passages the other beam saw: receiver dead or blinded
SINGLE = const(5)  # a passage seen by one beam only: was it a ball? (`beam`: the one that did not see it)
FULL = const(6)  # a ball came to rest across the beams (a full net, a tight mouth): counted once
BOOT = const(7)  # the node started with `beam` blocked: a ball in the throat during the restart
BOUNCE = const(8)  # one ball bouncing and several balls following each other count differently here
FLAG_NAMES = {1: "two", 2: "edges", 3: "noise", 4: "dead", 5: "single", 6: "full", 7: "boot", 8: "bounce"}
DEAD_PASSES = const(5)  # consecutive passages seen by one beam only before the other is called dead
# An upper-beam block this short with the lower beam never blocked is what a falling ball gives when the lower
# receiver is dead or blind: a ball blocks a beam over at most 68 mm of its fall, 170 ms at the slowest entry
# (0.4 m/s), and then blocks the lower beam too (the beams are 30 mm apart, under the jaws:
# hardware/mounting.md). A hand stays longer. Flagged `single`
# (naming the lower beam) with the first such passage, not the fifth.
FALL_MAX_US = const(200000)
# The reverse, a lower-only block as short as a fall, is also what a ball bouncing up from the net gives: but
# only after a ball went in. Longer than this after the last ball in (or with none yet), it is a ball the
# upper beam missed: flagged `single` naming the upper beam.
BOUNCE_US = const(2000000)
# A passage beginning this soon after a start may be the end of one the previous life saw in part: flagged
# `boot`. A ball that left upwards (its `out` lost in the restart) at up to 4.9 m/s, what a springy net gives
# a ball that fell in at 5 m/s, is back in the upper beam within 1 s.
RESTART_US = const(1000000)
# an IN whose beam is ONE_BEAM + b was counted on one beam alone: b, the other, is dead or blind
ONE_BEAM = const(2)


# The per-passage bookkeeping, on the PocketBeam `pb` (its _lv, _since, _alone, _rise, _entry, _in_t, _in_lag,
# _last_in, _any_in, _other, spacing_um, passed, _emit and _flag); firmware/pocket.py calls these hooks.


def init(pb):
    pb._fell_alone = 0  # the passage was a one-beam block as short as a falling ball's
    pb._proven = 0  # a passage blocked both beams since the start: neither receiver is dead
    pb._net = 0  # this passage: balls in - balls out as counted
    pb._flux = 0  # this passage: upper-beam clears - blocks while the lower beam was blocked
    pb._turn = 0  # this passage: an edge one falling ball cannot give (it moved up, or two balls did it)
    pb._mixed = 0  # this passage: two objects at once (see the module's docstring)
    pb._split = 0  # this passage: the lower beam saw a gap the blocked upper one did not (pocket.py)
    pb._said = 0  # this passage: a flag or a jam was raised already
    pb._gone = -1  # the beam known dead or blind: one-beam passages are counted on the other (or -1)
    pb._booted = 0  # the node started and no passage has begun since
    pb._boot_t = 0
    pb._fresh = 0  # this passage began within RESTART_US of the start


def started(pb, t):
    """The node started at `t` (firmware/pocket.py `start`)."""
    pb._booted = 1
    pb._boot_t = t


def emitted(pb, kind):
    """Every detection (1 IN, 4 OUT, 3 CLEAR, else a jam or a flag) as it is emitted."""
    if kind == 1:
        pb._net += 1
    elif kind == 4:
        pb._net -= 1
    elif kind != 3:
        pb._said = 1


def edge(pb, beam, level, t):
    """A confirmed edge at `t`, before it is applied."""
    # the first passage since the start
    if level and pb._booted and not pb._lv[beam] and not pb._lv[1 - beam]:
        pb._booted = 0
        pb._fresh = 0 <= ticks_diff(t, pb._boot_t) <= RESTART_US
    if pb._lv[1 - beam]:
        if beam == UPPER:
            pb._flux += -1 if level else 1
        elif not level:
            pb._turn = 1  # the lower clearing under a blocked upper: one ball does it only moving up


def low(pb, t):
    """The lower beam blocked under an object that came in from above."""
    if ticks_diff(t, pb._entry) < pb.spacing_um // 8:
        pb._mixed = 1  # faster than 8 m/s: something else, from below, while this one entered


def back(pb, t):
    """The upper beam blocked again over the ball that went down into the lower one: the next ball, or that
    ball back up. Later than its entry took to cross the spacing, it has been held in the lower beam (a free
    ball would have left it): it may have bounced."""
    if ticks_diff(t, pb._in_t) > pb._in_lag:
        pb._turn = 1


def rattle(pb, t):
    """An object from above left upwards again: after reaching the lower beam, within BOUNCE_US of a ball in,
    as fast as a ball, it turned back off the ball below, which may have come back up hidden behind it."""
    if (
        pb._other
        and pb._any_in
        and ticks_diff(t, pb._entry) <= FALL_MAX_US
        and 0 <= ticks_diff(pb._entry, pb._last_in) <= BOUNCE_US
    ):
        pb._mixed = 1


def missed_by_upper(pb, t):
    """A lower-only block (now ending) as short as a fall, and no ball went in just before (no net bounce)."""
    if ticks_diff(t, pb._rise) > FALL_MAX_US:
        return False
    if not pb._any_in:
        return True
    since = ticks_diff(pb._rise, pb._last_in)
    return since > BOUNCE_US or since < 0  # (< 0: so long ago that the ticks wrapped)


def passage_end(pb, beam):
    """A passage ended with both beams clear (`beam` cleared last): say what it left in doubt."""
    if pb._other:
        pb._alone[0] = 0
        pb._alone[1] = 0
        pb._proven = 1
        pb._gone = -1  # both beams work
    else:
        _one_beam(pb, beam)
    if not pb._said and (pb._split or pb._mixed or (pb._turn and pb._flux != pb._net)):
        pb._flag(BOUNCE, pb._since[beam], UPPER)
    if pb._fresh and not pb._said:
        # it may be the rest of a passage the previous life saw in part
        pb._flag(BOOT, pb._since[beam], UPPER)
    pb._fresh = 0
    pb._other = 0
    pb._fell_alone = 0
    pb._split = 0
    pb._mixed = 0
    pb._net = 0
    pb._flux = 0
    pb._turn = 0
    pb._said = 0


def _one_beam(pb, beam):
    """A passage only `beam` saw: a ball the other missed, or nothing (see the module's docstring)."""
    pb._alone[beam] += 1
    pb._alone[1 - beam] = 0
    n = pb._alone[beam]
    dead = 1 - beam
    if n == DEAD_PASSES:
        pb._flag(DEAD, pb._since[beam], dead)
        pb._gone = dead  # declared dead: from this passage on, balls are counted on `beam` alone
    if pb._gone == dead and pb._fell_alone:
        _count_alone(pb, beam)  # the beam is known dead: a ball, on the working beam alone
    elif n != DEAD_PASSES and (
        pb._gone == dead or n > DEAD_PASSES or pb._fell_alone or not (pb._proven or pb._said)
    ):
        pb._flag(SINGLE, pb._since[beam], dead)  # a one-beam passage: was it a ball?


def _count_alone(pb, beam):
    """A ball counted on `beam` alone (IN, 1), marked as such: t when the beam cleared, dur its block."""
    t = pb._since[beam]
    d = ticks_diff(t, pb._entry if beam == UPPER else pb._rise)
    pb.passed += 1
    pb._emit(1, t, d if d > 0 else 0, ONE_BEAM + 1 - beam)
    pb._last_in = t
    pb._any_in = 1
