"""Beam traces of a pocket throat from first principles, for the detector's hard cases (issues 11 and 19).

Balls are 68 mm spheres falling down the throat under gravity, from a downward speed `v0` (0.2-5 m/s) as they
reach the upper beam; the two beams are horizontal lines `spacing` mm apart (the node's `beam.spacing_mm`),
crossing the throat `offset` mm from the ball's centre line, so a beam is blocked while the centre is within
the half-chord sqrt(34^2 - offset^2) of it. A ball behind another cannot pass it (a fast ball that catches a
slow one pushes it); a ball meeting the top of the net's pile (`floor`, mm below the upper beam) bounces with
restitution `bounce`, or sinks into a soft net braking at `brake` mm/ms^2, or rests on it. The pile can give
way (`drop_ms`: the resting balls fall on from rest), and a hand can reach in and lift a resting ball out
(`Lift`). Time is integrated in 20 us steps (skipped while nothing moves) and edges are the beams' level
changes; `flicker` adds interference pulses shorter than the debounce on one beam, `noisy` jitter and contact
chatter. `simulate` also says what became of each ball (the truth a detector is judged against).
Nothing here comes from hub/virtual/traces.py.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

G = 9.81e-3  # mm/ms^2
R = 34.0
STEP_MS = 0.02
GONE = -1e6  # y of a ball that has left the throat upwards (onto the table, or in a hand)
DEEP = 1e6  # y of a ball deep in the net, out of the beams' sight for good


@dataclass(frozen=True)
class Fall:
    """A ball whose leading edge reaches the upper beam at `t_ms` moving down at `v0` m/s (= mm/ms)."""

    t_ms: float
    v0: float
    offset: float = 0.0
    behind: int | None = None  # index of the ball it follows (it cannot pass it)
    gap: float = 0.0  # mm between the two when this one starts
    # index of an earlier ball it cannot pass (it starts at the upper beam on its own)
    after: int | None = None


@dataclass(frozen=True)
class Flicker:
    """Interference on `beam`: a pulse to the other level `width_us` long every `period_ms`, from a to b."""

    beam: int
    a_ms: float
    b_ms: float
    period_ms: float = 10.0
    width_us: int = 600


@dataclass(frozen=True)
class Lift:
    """A hand reaching into the throat at `t_ms` (fingertips 60 mm above the upper beam, moving `speed` mm/ms)
    for the highest ball resting there, and lifting it out onto the table; with nothing to take it withdraws
    from 20 mm below the upper beam. The hand blocks every beam above its fingertips."""

    t_ms: float
    speed: float = 0.3


@dataclass
class _State:
    y: float
    v: float
    resting: bool = False
    low: bool = False  # its leading edge has reached the lower beam (it is in the pocket)
    rested: bool = False  # it came to rest with its leading edge past the upper beam (in the throat)
    left: bool = False  # it went back up out of the pocket by itself
    lifted: bool = False  # a hand took it out


@dataclass
class Sim:
    """A simulated trace: the edges [[beam, level, t_us], ...] and each ball's fate."""

    edges: list[list[int]]
    balls: list[_State | None] = field(default_factory=list)

    def balls_in(self) -> int:
        """Balls that went into the pocket: reached the lower beam from above, or came to rest in the throat
        (on a full net), and did not jump back out by themselves (a ball a hand lifts out after it came to
        rest was pocketed)."""
        return sum(1 for st in self.balls if st is not None and (st.low or st.rested) and not st.left)


def _half_chord(offset: float) -> float:
    return math.sqrt(R * R - offset * offset)


class _Hand:
    def __init__(self, lift: Lift) -> None:
        self.lift = lift
        self.tip = -60.0
        self.holding: int | None = None
        self.down = True
        self.done = False

    def step(self, states: list[_State | None]) -> None:
        sp = self.lift.speed * STEP_MS
        if self.down:
            target = _highest_resting(states)
            goal = states[target].y if target is not None else 20.0  # type: ignore[union-attr]
            self.tip = min(self.tip + sp, goal)
            if self.tip >= goal:
                self.down = False
                self.holding = target
            return
        self.tip -= sp
        if self.holding is not None:
            st = states[self.holding]
            assert st is not None
            st.y, st.v, st.resting = self.tip, 0.0, True
            if st.y < -R - 60:
                st.y, st.lifted = GONE, True
                self.holding = None
        if self.tip < -120:
            self.done = True

    def coast(self) -> None:
        """One step on the way (no goal reached, nothing let go: see `_coast`)."""
        self.tip += self.lift.speed * STEP_MS if self.down else -self.lift.speed * STEP_MS

    def margin(self, states: list[_State | None], chords: list[float], beams_y: tuple[float, float]) -> float:
        """How far the fingertips (and the ball they hold) can move before anything changes."""
        m = min(abs(self.tip - by) for by in beams_y)
        if self.down:
            target = _highest_resting(states)
            m = min(m, (states[target].y if target is not None else 20.0) - self.tip)  # type: ignore[union-attr]
        else:
            m = min(m, self.tip + 120)
        if self.holding is not None:
            y = self.tip
            m = min(m, y + R + 60, *(abs(abs(y - by) - chords[self.holding]) for by in beams_y))
        return m

    def blocks(self, beam_y: float) -> bool:
        return not self.done and self.tip > beam_y


def _highest_resting(states: list[_State | None]) -> int | None:
    best = None
    for i, st in enumerate(states):
        if st is not None and st.resting and GONE < st.y < DEEP and (best is None or st.y < states[best].y):  # type: ignore[union-attr]
            best = i
    return best


def simulate(
    balls: list[Fall],
    spacing: float = 30.0,
    floor: float | None = None,
    bounce: float = 0.0,
    end_ms: float = 1500.0,
    dead: int | None = None,
    stuck: int | None = None,
    flicker: Flicker | None = None,
    leaves: bool = False,
    brake: float = 0.0,
    drop_ms: float | None = None,
    floor_to: float | None = None,
    lift: Lift | None = None,
) -> Sim:
    """The trace of `balls` (a ball with `behind` set starts touching-plus-gap behind its leader). `floor`:
    depth (mm below the upper beam) of the top of the net's pile; `dead`/`stuck`: a beam whose receiver never
    blocks / is always blocked; `leaves`: a ball rising 40 mm above the upper beam has jumped out of the
    pocket (onto the table) and is gone; `brake`: the pile is soft (a sagging net) and stops a ball over a
    distance; `drop_ms`: the pile gives way then (settling to `floor_to` mm, or falling away); `lift`: a hand
    takes a resting ball out."""
    states: list[_State | None] = [None] * len(balls)
    levels = [1 if stuck == b else 0 for b in (0, 1)]
    out: list[list[int]] = [[b, 1, 0] for b in (0, 1) if levels[b]]
    beams_y = (0.0, spacing)
    hand = _Hand(lift) if lift is not None else None
    chords = [_half_chord(b.offset) for b in balls]
    t = 0.0
    wait = 0
    while t <= end_ms or (t <= end_ms + 20000 and _moving(states, hand)):
        if drop_ms is not None and floor is not None and t >= drop_ms:
            floor, floor_to, drop_ms = floor_to, None, None
            for st in states:
                if (
                    st is not None
                    and st.resting
                    and GONE < st.y < DEEP
                    and not (hand and hand.holding is not None)
                ):
                    st.resting = False
        for i, ball in enumerate(balls):
            st = states[i]
            if st is None:
                if t >= ball.t_ms:
                    states[i] = _start(ball, balls, states, t)
                continue
            if hand is not None and hand.holding == i:
                continue
            _step(st, floor, bounce, brake)
            if floor is None and not st.resting and spacing + R + 60 < st.y < DEEP:
                st.y, st.v, st.resting = DEEP, 0.0, True
            if st.y > GONE and st.y + chords[i] > beams_y[1]:
                st.low = True
            if st.resting and GONE < st.y < DEEP and st.y + chords[i] > 0:
                st.rested = True
            if leaves and st.v < 0 and GONE < st.y < -R - 40:
                st.y, st.v, st.resting, st.left = GONE, 0.0, True, True
            ahead = ball.behind if ball.behind is not None else ball.after
            if ahead is not None and states[ahead] is not None:
                lead = states[ahead]
                assert lead is not None
                if GONE < lead.y < DEEP and st.y > lead.y - 2 * R:  # it caught up: the two move on together
                    st.y = lead.y - 2 * R
                    st.v = lead.v
                    st.resting = lead.resting
        if hand is not None and t >= hand.lift.t_ms and not hand.done:
            hand.step(states)
        for b in (0, 1):
            blocked = 0
            if stuck == b:
                blocked = 1
            elif dead != b:
                if hand is not None and t >= hand.lift.t_ms and hand.blocks(beams_y[b]):
                    blocked = 1
                for i, st in enumerate(states):
                    if st is not None and abs(st.y - beams_y[b]) < chords[i]:
                        blocked = 1
            if blocked != levels[b]:
                levels[b] = blocked
                out.append([b, blocked, round(t * 1000)])
        k = 0
        if wait:
            wait -= 1
        else:
            k = _coast(t, balls, states, chords, beams_y, hand, drop_ms, floor, leaves)
            wait = 0 if k else 8  # near an edge: step a few times before looking again
        if k:  # nothing can change for k steps: integrate the free flights (and a hand's move) only
            flying = [st for i, st in enumerate(states) if st is not None and not st.resting]
            for _ in range(k):
                for st in flying:
                    st.v += G * STEP_MS
                    st.y += st.v * STEP_MS
                if hand is not None and t >= hand.lift.t_ms and not hand.done:
                    hand.coast()
            t = round(t + k * STEP_MS, 5)
        t = _next_t(t, balls, states, hand, drop_ms, floor)
    if flicker is not None:
        out += _flicker(flicker, out)
    out.sort(key=lambda e: (e[2], e[0]))
    return Sim(out, states)


def edges(balls: list[Fall], spacing: float = 30.0, **kw: Any) -> list[list[int]]:
    """[[beam, level, t_us], ...] for `balls` (see `simulate` for the keywords)."""
    return simulate(balls, spacing=spacing, **kw).edges


def _coast(
    t: float,
    balls: list[Fall],
    states: list[_State | None],
    chords: list[float],
    beams_y: tuple[float, float],
    hand: _Hand | None,
    drop_ms: float | None,
    floor: float | None,
    leaves: bool,
) -> int:
    """How many steps every moving ball can fly freely with no beam edge, landing, catching up, leaving or
    scheduled event on the way (the same arithmetic as stepping them one by one, only without the checks)."""
    soon = [b.t_ms for b, st in zip(balls, states, strict=True) if st is None]
    if floor is not None and drop_ms is not None:
        soon.append(drop_ms)
    margin, vmax = 1e9, 0.0
    if hand is not None and not hand.done:
        if t >= hand.lift.t_ms:
            margin, vmax = hand.margin(states, chords, beams_y), hand.lift.speed
        else:
            soon.append(hand.lift.t_ms)
    for i, st in enumerate(states):
        if st is None or st.resting or not GONE < st.y < DEEP:
            continue
        vmax = max(vmax, abs(st.v))
        for by in beams_y:
            margin = min(margin, abs(abs(st.y - by) - chords[i]))
        limit = floor - R if floor is not None else beams_y[1] + R + 60
        margin = min(margin, max(limit - st.y, 0.0))  # (0 while sinking into a soft net)
        if leaves:
            margin = min(margin, abs(st.y + R + 40))
        ahead = balls[i].behind if balls[i].behind is not None else balls[i].after
        lead = states[ahead] if ahead is not None else None
        if lead is not None and GONE < lead.y < DEEP:
            margin = min(margin, abs(lead.y - 2 * R - st.y) / 2)
        for j, other in enumerate(balls):  # a ball behind this one, at rest or not
            o = states[j]
            if o is not None and i in (other.behind, other.after) and GONE < o.y < DEEP:
                margin = min(margin, abs(st.y - 2 * R - o.y) / 2)
    if margin >= 1e9:
        return 0
    dt = min((margin - 0.05) / (2 * (vmax + 0.2)), 10.0)
    if soon:
        dt = min(dt, min(soon) - t - 2 * STEP_MS)
    return max(0, int(dt / STEP_MS) - 1)


def _next_t(
    t: float,
    balls: list[Fall],
    states: list[_State | None],
    hand: _Hand | None,
    drop_ms: float | None,
    floor: float | None,
) -> float:
    """The next step; while every ball in play rests and no hand moves,
    straight to the next scheduled thing."""
    nxt = round(t + STEP_MS, 5)
    if _moving(states, hand, t + STEP_MS):
        return nxt
    later = [b.t_ms for b, st in zip(balls, states, strict=True) if st is None]
    if floor is not None and drop_ms is not None:
        later.append(drop_ms)
    if hand is not None and not hand.done:
        later.append(hand.lift.t_ms)
    later = [x for x in later if x > t]
    return max(nxt, round(min(later), 5)) if later else 1e18


def _moving(states: list[_State | None], hand: _Hand | None, t: float | None = None) -> bool:
    """Is a started ball moving, or a hand at work (at `t`, if given)?"""
    if hand is not None and not hand.done and (t is None or t >= hand.lift.t_ms):
        return True
    return any(st is not None and not st.resting for st in states)


def _start(ball: Fall, balls: list[Fall], states: list[_State | None], t: float) -> _State:
    if ball.behind is not None:
        lead = states[ball.behind]
        if lead is not None and GONE < lead.y < DEEP:
            return _State(lead.y - 2 * R - ball.gap, ball.v0)
    y = -_half_chord(ball.offset)
    if ball.after is not None:
        lead = states[ball.after]
        if lead is not None and GONE < lead.y < DEEP and lead.y - 2 * R < y:
            return _State(lead.y - 2 * R, min(ball.v0, lead.v), lead.resting)  # it lands on the one ahead
    return _State(y, ball.v0)


def _step(st: _State, floor: float | None, bounce: float, brake: float) -> None:
    if st.resting:
        return
    if brake > 0 and floor is not None and st.y + R >= floor and st.v > 0:
        st.v -= brake * STEP_MS  # sinking into a soft net
        if st.v <= 0:
            st.v, st.resting = 0.0, True
            return
        st.y += st.v * STEP_MS
        return
    st.v += G * STEP_MS
    st.y += st.v * STEP_MS
    if floor is not None and brake <= 0 and st.y + R >= floor and st.v > 0:
        st.y = floor - R
        st.v = -st.v * bounce
        if abs(st.v) < 0.3:  # too slow to leave: it rests on the pile
            st.v = 0.0
            st.resting = True


def _flicker(f: Flicker, real: list[list[int]]) -> list[list[int]]:
    """Pulses to the opposite of the beam's true level at each moment, shorter than the debounce."""
    changes = [(e[2], e[1]) for e in real if e[0] == f.beam]
    out = []
    t = f.a_ms
    while t < f.b_ms:
        at = round(t * 1000)
        level = 0
        for when, lv in changes:
            if when <= at:
                level = lv
        if all(abs(at - when) > 3000 for when, _ in changes):  # not on top of a real edge
            out += [[f.beam, 1 - level, at], [f.beam, level, at + f.width_us]]
        t += f.period_ms
    return out


def noisy(
    trace: list[list[int]],
    rng: random.Random,
    jitter_us: int = 200,
    chatter: float = 0.5,
    pulses: int = 3,
    chatter_us: int = 400,
) -> list[list[int]]:
    """The trace with each edge moved by up to `jitter_us` (never past the beam's neighbouring edges) and,
    with probability `chatter`, 1..`pulses` reverting pulses just before it
    (all shorter than the 2 ms debounce)."""
    out: list[list[int]] = []
    last = {0: -(10**9), 1: -(10**9)}
    for i, (beam, level, t) in enumerate(trace):
        nxt = next((e[2] for e in trace[i + 1 :] if e[0] == beam), 10**12)
        lo, hi = max(last[beam] + 1, t - jitter_us), min(nxt - 1, t + jitter_us)
        at = rng.randint(lo, hi) if t > 0 and lo <= hi else t
        if t > 0 and rng.random() < chatter:
            p = at
            for _ in range(rng.randint(1, pulses)):
                width = rng.randint(50, chatter_us)
                p -= width + rng.randint(100, chatter_us)
                if p - width <= last[beam] + 50:
                    break
                out += [[beam, level, p], [beam, 1 - level, p + width]]
        out.append([beam, level, at])
        last[beam] = at
    out.sort(key=lambda e: (e[2], e[0]))
    return out


def vector(balls: list[Fall], spacing: float = 30.0, start: list[int] | None = None, **kw: Any) -> list[Any]:
    """A `fw_runner.run_pocket` vector; `start`: the levels the node reads at boot
    (then the trace runs on)."""
    e = edges(balls, spacing=spacing, **kw)
    end_ms = kw.get("end_ms", 1500.0)
    vec: dict[str, Any] = {"edges": e, "end": round((end_ms + 2000) * 1000), "spacing_mm": spacing}
    if start is not None:
        vec["start"] = start
    return ["pocket", vec]


def after_boot(balls: list[Fall], boot_ms: float, **kw: Any) -> list[Any]:
    """The trace as a node booting at `boot_ms` sees it: the levels at that moment, then the later edges."""
    e = edges(balls, **kw)
    levels = [0, 0]
    for beam, level, t in e:
        if t <= boot_ms * 1000:
            levels[beam] = level
    later = [x for x in e if x[2] > boot_ms * 1000]
    vec = {
        "edges": later,
        "end": round((kw.get("end_ms", 1500.0) + 2000) * 1000),
        "start": levels,
        "t0": round(boot_ms * 1000),
    }
    return ["pocket", vec]
