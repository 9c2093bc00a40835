"""How many balls one downward passage through a pocket's two beams was:
decided from the passage, not the rest.

A passage gives four times (firmware/pocket.py measures them): the object's leading edge crosses the upper
beam (entry) and reaches the lower one `lag` later; its trailing edge leaves the upper beam `dur` after the
entry and the lower one `out` after that (unknown while the lower beam stays blocked). The leading edge
travels the beam spacing `s` during `lag`, the trailing edge during `out`,
and the object's own length during `dur`.

A ball in the throat falls freely (docs/firmware.md; hardware/mounting.md: the beams are below the jaws), so
the entry alone predicts the rest of a moving passage: with `m1 = s / lag` (its mean speed over the entry,
which is its speed at `lag / 2`), the length is `m1 dur + g dur (dur - lag) / 2`, and its speed while leaving
the beams is `m1 + g (dur + out/2 - lag/2)`. A ball that *stops* in the throat (the net is full, or its mouth
is tight) only lengthens `dur` and `out`; it never shortens them. So:

* length <= ONE_MAX: one ball, whatever happened after (a ball resting in the lower beam, then dropping).
* The exit as fast as the fall predicts: the object moved all along and its length is measured: two touching
  balls (TWO_MIN..TWO_MAX) count two; other lengths one, and `MAYBE_TWO` (the referee is asked).
* The exit faster than a fall (a ball behind pushed it): the length from a constant acceleration fitted to the
  entry and the exit.
* The exit slower than the fall predicts: the object stopped in the beams and fell on from rest. Its exit
  speed says how far it fell before its top left the upper beam: a ball resting across both beams falls at
  most 2 x 34 - s = 38 mm (REST_ONE with margin): one ball, `RESTED` (two balls resting one on the other with
  the upper one across both beams look exactly the same, so the node says it counted one). Further (up to
  REST_TWO): the upper of two stacked balls, resting in the upper beam only,
  on the lower one in the lower beam: two balls.
* The lower beam still blocked `DECIDE_US` after the upper cleared: the object rests in the lower beam, and
  the entry alone measures it. Longer than one ball: it was slowed (a soft, full net) or stopped in the beams,
  or it was two balls that stopped there: `RESTED`. (The next object arriving before the lower beam cleared:
  longer than one ball but not than two, `MAYBE_TWO`; longer still, `RESTED`.)

Integer arithmetic only (times in 0.1 ms, lengths in um, speeds in um/ms), every product below 2^30: no float
or long int is allocated, so MicroPython decides without touching the heap, and both runtimes agree exactly.
"""

from .compat import const

ONE = const(1)  # one ball
TWO_BALLS = const(2)  # two balls
MAYBE_TWO = const(3)  # one ball counted; the beams cannot tell it from two (flag `two`)
# one ball counted; it stopped across the beams, where two stacked look the same (flag `full`)
RESTED = const(4)
NEXT = const(-1)  # `out_us` when the next object came before the lower beam cleared
RESTING = const(-2)  # `out_us` when the lower beam is still blocked DECIDE_US later: the object rests in it

G100 = const(981)  # gravity, 9.81 um/ms^2, times 100
# um: a ball blocks a beam over 55-68 mm of its fall (its chord, up to 20 mm off centre)
ONE_MAX = const(85000)
TWO_MIN = const(110000)  # two balls touching: 68 mm + a chord, 123-136 mm
TWO_MAX = const(160000)
THROUGH_MIN = const(40000)  # um: the least a ball's passage through a beam can be (its chord, with margin)
REST_ONE = const(42000)  # um: a ball resting across both beams falls at most 38 mm before its top clears
REST_TWO = const(72000)  # the upper of two stacked balls resting in the upper beam only falls at most 68 mm
SLOW_PCT = const(80)  # the exit slower than this share of the fall's prediction: it was slowed or stopped
# 0.1 ms: an upper-beam block this long can hold a stop (a moving ball passes in < 170 ms)
REST_T = const(2000)
FAST_PCT = const(125)  # faster than this share: pushed by a ball behind
# times are clamped to 600 ms (0.1 ms units): longer only after a rest; keeps products small
T_MAX = const(6000)


def _t(us):
    t = us // 100
    return T_MAX if t > T_MAX else t


def through(s, lag_us, low_us):
    """Could an object that entered at the speed its `lag_us` gives have passed through the lower beam (its
    chord, at least 55 mm; 40 with margin) in the `low_us` it held it? Falling, it goes at least that far."""
    t1 = _t(lag_us)
    d = _t(low_us)
    if t1 <= 0:
        return True
    return (s * 10 // t1) * d // 10 + (d * (d + 2 * t1) // 100) * G100 // 200 >= THROUGH_MIN


def by_length(um):
    """ONE, TWO_BALLS or MAYBE_TWO for an object `um` long."""
    if um <= ONE_MAX:
        return ONE
    if TWO_MIN <= um <= TWO_MAX:
        return TWO_BALLS
    return MAYBE_TWO


def balls(s, lag_us, dur_us, out_us):
    """The passage's verdict (ONE, TWO_BALLS, MAYBE_TWO, RESTED): `s` the beam spacing in um, the times in us
    (`out_us` NEXT or RESTING while the lower beam has not cleared)."""
    t1 = _t(lag_us)
    t2 = _t(dur_us)
    if t1 <= 0:
        return _by_exit(s, t2, out_us)
    if t2 < t1:
        t2 = t1
    m1 = s * 10 // t1  # um/ms
    sq = t2 * (t2 - t1) // 100  # ms^2
    if (t1 * t1 // 100) * G100 // 200 >= s:  # the entry is too slow for a fall (a bounce): constant speed
        fall = m1 * t2 // 10
    else:
        fall = m1 * t2 // 10 + sq * G100 // 200
    if out_us >= 0:
        x = _t(out_us)
        if x <= 0:
            x = 1
        m3 = s * 10 // x
        mid = t2 + x // 2 - t1 // 2  # from the entry's midpoint to the exit's, 0.1 ms
        pred = m1 + G100 * mid // 1000  # its exit speed had it fallen freely
        if m3 * 100 > pred * FAST_PCT:  # faster out than a fall: a ball behind pushed it
            a100 = (m3 - m1) * 1000 // mid  # um/ms^2 x 100
            return by_length(m1 * t2 // 10 + a100 * sq // 200)
    if fall <= ONE_MAX:
        return ONE
    if out_us == RESTING:
        return RESTED
    if out_us < 0:
        return MAYBE_TWO if fall <= TWO_MAX else RESTED
    return _from_rest(m3, x, fall, t2 >= REST_T, m3 * 100 < pred * SLOW_PCT)


def _by_exit(s, t2, out_us):
    """Its entry was not seen (a ball right behind another, the lower beam held all along): its length from
    the exit, had it fallen freely through the upper beam;
    longer than one ball, or no exit yet: not measured."""
    if out_us < 0:
        return RESTED if out_us == RESTING else MAYBE_TWO
    x = _t(out_us)
    if x <= 0:
        x = 1
    u = s * 10 // x - G100 * x // 2000  # um/ms, as its top left the upper beam
    if u <= 0:
        return RESTED
    if u > 8000:
        u = 8000
    return ONE if u * t2 // 10 - (t2 * t2 // 100) * G100 // 200 <= ONE_MAX else MAYBE_TWO


def _from_rest(m3, x, fall, rested, slow):
    """Longer than one ball: how far did its top fall from rest before it left the upper beam? (`rested`: the
    upper beam was blocked long enough for a stop; `slow`: the exit was slower than a fall.)"""
    u = m3 - G100 * x // 2000  # its speed then (um/ms): the exit's mean speed less g x / 2
    if u > 3000:
        u = 3000
    d = u * u * 50 // G100 if u > 0 else 0  # u^2 / 2g, um
    if d <= REST_ONE:
        return RESTED  # from a rest across both beams (or creeping through as slowly)
    if d <= REST_TWO and rested:
        return TWO_BALLS  # the upper of two stacked balls, from a rest in the upper beam only
    if slow:
        # slowed in the beams (by a ball below it?) and not stopped: its length is not measured
        return MAYBE_TWO
    return by_length(fall)  # moving all along: the length the fall measured
