"""Beam traces of a pocket throat from first principles, for the detector's hard cases (issue 11).

Balls are 68 mm spheres falling down the throat under gravity, from a downward speed `v0` (0.2-5 m/s) as they
reach the upper beam; the two beams are horizontal lines `spacing` mm apart (the node's `beam.spacing_mm`),
crossing the throat `offset` mm from the ball's centre line, so a beam is blocked while the centre is within
the half-chord sqrt(34^2 - offset^2) of it. A ball behind another cannot pass it (a fast ball that catches a
slow one pushes it); a ball meeting the top of a full net bounces with restitution `bounce`, or rests on it.
Time is integrated in 20 us steps and edges are the beams' level changes; `flicker` adds interference
pulses shorter than the debounce on one beam. Nothing here comes from hub/virtual/traces.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

G = 9.81e-3  # mm/ms^2
R = 34.0
STEP_MS = 0.02


@dataclass(frozen=True)
class Fall:
    """A ball whose leading edge reaches the upper beam at `t_ms` moving down at `v0` m/s (= mm/ms)."""

    t_ms: float
    v0: float
    offset: float = 0.0
    behind: int | None = None  # index of the ball it follows (it cannot pass it)
    gap: float = 0.0  # mm between the two when this one starts


@dataclass(frozen=True)
class Flicker:
    """Interference on `beam`: a pulse to the other level `width_us` long every `period_ms`, from a to b."""

    beam: int
    a_ms: float
    b_ms: float
    period_ms: float = 10.0
    width_us: int = 600


@dataclass
class _State:
    y: float
    v: float
    resting: bool = False


def _half_chord(offset: float) -> float:
    return math.sqrt(R * R - offset * offset)


def edges(balls: list[Fall], spacing: float = 30.0, floor: float | None = None, bounce: float = 0.0,
          end_ms: float = 1500.0, dead: int | None = None, stuck: int | None = None,
          flicker: Flicker | None = None, leaves: bool = False) -> list[list[int]]:
    """[[beam, level, t_us], ...] for `balls` (a ball with `behind` set starts touching-plus-gap behind its
    leader). `floor`: depth (mm below the upper beam) of the top of the net's pile; `dead`/`stuck`: a beam
    whose receiver never blocks / is always blocked; `leaves`: a ball rising 40 mm above the upper beam has
    jumped out of the pocket (onto the table) and is gone."""
    states: list[_State | None] = [None] * len(balls)
    levels = [1 if stuck == b else 0 for b in (0, 1)]
    out: list[list[int]] = [[b, 1, 0] for b in (0, 1) if levels[b]]
    beams_y = (0.0, spacing)
    t = 0.0
    while t <= end_ms:
        for i, ball in enumerate(balls):
            st = states[i]
            if st is None:
                if t >= ball.t_ms:
                    states[i] = _start(ball, balls, states, t)
                continue
            _step(st, floor, bounce)
            if leaves and st.v < 0 and st.y < -R - 40:
                st.y, st.v, st.resting = -1e6, 0.0, True
            if ball.behind is not None and states[ball.behind] is not None:
                lead = states[ball.behind]
                assert lead is not None
                if st.y > lead.y - 2 * R:  # it caught up: the two move on together
                    st.y = lead.y - 2 * R
                    st.v = lead.v
                    st.resting = lead.resting
        for b in (0, 1):
            blocked = 0
            if stuck == b:
                blocked = 1
            elif dead != b:
                for i, st in enumerate(states):
                    if st is not None and abs(st.y - beams_y[b]) < _half_chord(balls[i].offset):
                        blocked = 1
            if blocked != levels[b]:
                levels[b] = blocked
                out.append([b, blocked, round(t * 1000)])
        t = round(t + STEP_MS, 5)
    if flicker is not None:
        out += _flicker(flicker, out)
    out.sort(key=lambda e: (e[2], e[0]))
    return out


def _start(ball: Fall, balls: list[Fall], states: list[_State | None], t: float) -> _State:
    if ball.behind is not None:
        lead = states[ball.behind]
        if lead is not None:
            return _State(lead.y - 2 * R - ball.gap, ball.v0)
    return _State(-_half_chord(ball.offset), ball.v0)


def _step(st: _State, floor: float | None, bounce: float) -> None:
    if st.resting:
        return
    st.v += G * STEP_MS
    st.y += st.v * STEP_MS
    if floor is not None and st.y + R >= floor and st.v > 0:
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


def vector(balls: list[Fall], spacing: float = 30.0, start: list[int] | None = None, **kw: Any) -> list[Any]:
    """A `fw_runner.run_pocket` vector; `start`: the levels the node reads at boot (then the trace runs on)."""
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
    vec = {"edges": later, "end": round((kw.get("end_ms", 1500.0) + 2000) * 1000), "start": levels,
           "t0": round(boot_ms * 1000)}
    return ["pocket", vec]
