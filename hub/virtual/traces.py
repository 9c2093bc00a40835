"""Recorded-style sensor traces from a script of what happens at the table, for tests and virtual nodes.

Beam traces: a script is a list of happenings at pockets, each with its start time in ms:

    from hub.virtual import traces as tr

    script = [tr.Ball(100, pocket=1, speed=2.0), tr.Ball(130, pocket=1, speed=3.0),  # two balls, 30 ms apart
              tr.Rattle(900), tr.Hand(2000, hold_ms=700), tr.Jam(5000, hold_ms=1500)]
    edges = tr.beam_edges(script, noise=tr.Noise(jitter_us=150, chatter=0.5), seed=7, t0_us=2**30 - 50_000)
    # -> [Edge(t_us, slot, beam, level), ...] sorted by time; t_us wraps like MicroPython's ticks_us

Happenings: `Ball` (goes in), `Bounce` (rattles between the beams, then goes in), `Rattle` (enters the upper
beam, optionally reaches the lower one, comes back out), `Hand` (reaches in and out, with finger chatter),
`Out` (a ball or hand coming up from the net and out), `NetBounce` (a ball bouncing back up into the lower
beam from the net), `Jam` (a beam held blocked). `Noise` adds timing jitter and contact chatter (short
reverting pulses shorter than the detector's debounce).
`expected_ins(script)` is how many balls a correct detector counts.

Geometry (docs/firmware.md): ball 68 mm, beams 30 mm apart, so at `speed` m/s a beam is blocked for 68/speed
ms and the lower beam lags the upper by 30/speed ms.

Accelerometer traces: `strike_samples([Strike(100, peak_g=8), Strike(900, double_gap_ms=12), Touch(1500),
Knock(2000)], odr_hz=1600)` -> [Sample(t_us, x, y, z), ...] in mg, gravity on z (1 g), the shock along x.
`Strike` is a tip contact (~1.5 ms half-sine, light ringing), optionally with a second contact `double_gap_ms`
later; `Touch` a soft touch below the strike threshold; `Knock` a broad bump (cue knocked on the table).
Everything is deterministic for a given seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

TICKS_PERIOD = 1 << 30  # MicroPython's ticks wrap here (ESP32 and the WebAssembly port)
BALL_MM = 68.0  # Russian pyramid ball diameter
BEAM_GAP_MM = 30.0  # upper to lower beam
UPPER, LOWER = 0, 1


@dataclass(frozen=True)
class Edge:
    """One beam edge as the interrupt handler records it: level 1 = blocked."""

    t_us: int
    slot: int
    beam: int
    level: int

    @property
    def code(self) -> int:
        """The `EdgeRing` code: slot << 2 | beam << 1 | level."""
        return self.slot << 2 | self.beam << 1 | self.level


@dataclass(frozen=True)
class Ball:
    """A ball going in: upper beam, then lower, leaving downwards."""

    t_ms: float
    pocket: int = 1
    speed: float = 2.0  # m/s through the pocket throat
    colour: str = "ivory"


@dataclass(frozen=True)
class Bounce:
    """A ball that bounces in the jaws: reaches the lower beam, rises off it, then drops through."""

    t_ms: float
    pocket: int = 1
    speed: float = 1.5
    colour: str = "ivory"


@dataclass(frozen=True)
class Rattle:
    """A ball that rattles in and rolls back out; `deep` = it reaches the lower beam before coming back."""

    t_ms: float
    pocket: int = 1
    speed: float = 1.0
    deep: bool = True


@dataclass(frozen=True)
class Hand:
    """A hand reaching in (through both beams when `deep`) and out again;
    fingers chatter on the upper beam."""

    t_ms: float
    pocket: int = 1
    hold_ms: float = 600.0
    deep: bool = True


@dataclass(frozen=True)
class Out:
    """Something coming up out of the net: lower beam first, then upper, leaving upwards."""

    t_ms: float
    pocket: int = 1
    speed: float = 0.5


@dataclass(frozen=True)
class NetBounce:
    """A ball bouncing up from the net into the lower beam only."""

    t_ms: float
    pocket: int = 1
    width_ms: float = 25.0


@dataclass(frozen=True)
class Jam:
    """A beam held blocked for `hold_ms` (a ball stuck in the throat, a full net, a cloth over the sensor)."""

    t_ms: float
    pocket: int = 1
    hold_ms: float = 1500.0
    beam: int = UPPER


Happening = Ball | Bounce | Rattle | Hand | Out | NetBounce | Jam


@dataclass(frozen=True)
class Noise:
    """Imperfections: `jitter_us` on every edge; with probability `chatter` an edge gets 1..`pulses` short
    reverting pulses (each `chatter_us` wide or less) just before it; all well under the 2 ms debounce."""

    jitter_us: int = 0
    chatter: float = 0.0
    pulses: int = 3
    chatter_us: int = 400


def _pulses(h: Happening) -> list[tuple[int, float, float]]:
    """The happening as blocked intervals (beam, start ms, end ms), relative to the table clock."""
    t = h.t_ms
    if isinstance(h, Ball):
        w, lag = BALL_MM / h.speed, BEAM_GAP_MM / h.speed
        return [(UPPER, t, t + w), (LOWER, t + lag, t + lag + w)]
    if isinstance(h, Bounce):
        w, lag = BALL_MM / h.speed, BEAM_GAP_MM / h.speed
        # down to the lower beam, up off it for 15 ms (still in the upper), then through
        return [
            (UPPER, t, t + w + 30),
            (LOWER, t + lag, t + lag + 10),
            (LOWER, t + lag + 25, t + lag + w + 30),
        ]
    if isinstance(h, Rattle):
        w = BALL_MM / h.speed * 0.8
        low = [(LOWER, t + w * 0.3, t + w * 0.6)] if h.deep else []
        return [(UPPER, t, t + w), *low]
    if isinstance(h, Hand):
        low = [(LOWER, t + 120, t + h.hold_ms - 120)] if h.deep else []
        return [(UPPER, t, t + h.hold_ms), *low]
    if isinstance(h, Out):
        w, lag = BALL_MM / h.speed, BEAM_GAP_MM / h.speed
        return [(LOWER, t, t + w), (UPPER, t + lag, t + lag + w)]
    if isinstance(h, NetBounce):
        return [(LOWER, t, t + h.width_ms)]
    return [(h.beam, t, t + h.hold_ms)]


def _finger_gaps(slot: int, a: float, b: float) -> list[tuple[int, int, int, int]]:
    """Gaps between fingers: the upper beam sees light for 0.5 ms a few ms after the hand enters and before
    it leaves (shorter than the debounce, so they are chatter, not clearings)."""
    out = []
    for g in (a + 4, a + 9, b - 9, b - 4):
        t = round(g * 1000)
        out += [(t, slot, UPPER, 0), (t + 500, slot, UPPER, 1)]
    return out


def beam_edges(
    script: Iterable[Happening],
    pockets: Sequence[int] = (1, 2, 3, 4, 5, 6),
    noise: Noise | None = None,
    seed: int = 0,
    t0_us: int = 0,
) -> list[Edge]:
    """Edges for `script`, sorted by time; `pockets[slot]` is the pocket wired to that slot of the node.

    Overlapping intervals on the same beam merge (the beam cannot be blocked twice). Times are
    (t0_us + t) mod 2**30, like MicroPython's `ticks_us`.
    """
    noise = noise or Noise()
    rng = random.Random(seed)
    blocked: dict[tuple[int, int], list[tuple[float, float]]] = {}
    raw: list[tuple[int, int, int, int]] = []
    for h in script:
        slot = pockets.index(h.pocket)
        for beam, a, b in _pulses(h):
            blocked.setdefault((slot, beam), []).append((a, b))
            if isinstance(h, Hand) and beam == UPPER:
                raw.extend(_finger_gaps(slot, a, b))
    for (slot, beam), spans in blocked.items():
        for a, b in _merge(spans):
            for t_ms, level in ((a, 1), (b, 0)):
                t = round(t_ms * 1000) + (
                    rng.randint(-noise.jitter_us, noise.jitter_us) if noise.jitter_us else 0
                )
                raw.extend(_chatter(rng, noise, t, slot, beam, level))
                raw.append((t, slot, beam, level))
    raw.sort()
    return [Edge((t0_us + t) % TICKS_PERIOD, slot, beam, level) for t, slot, beam, level in raw]


def _merge(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[list[float]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def _chatter(
    rng: random.Random, noise: Noise, t: int, slot: int, beam: int, level: int
) -> list[tuple[int, int, int, int]]:
    """Short reverting pulses just before an edge at `t`: the new level flickers in before it holds."""
    if noise.chatter <= 0 or rng.random() >= noise.chatter:
        return []
    out = []
    at = t
    for _ in range(rng.randint(1, noise.pulses)):
        width = rng.randint(50, noise.chatter_us)
        at -= width + rng.randint(100, noise.chatter_us)
        out.append((at, slot, beam, level))  # flicker to the new level...
        out.append((at + width, slot, beam, 1 - level))  # ...and back
    return out


def expected_ins(script: Iterable[Happening]) -> dict[int, int]:
    """Balls a correct detector counts, per pocket (Ball and Bounce go in; nothing else does)."""
    counts: dict[int, int] = {}
    for h in script:
        if isinstance(h, Ball | Bounce):
            counts[h.pocket] = counts.get(h.pocket, 0) + 1
    return counts


def jams(script: Iterable[Happening], jam_ms: float = 1000.0) -> int:
    """How many beam blocks in `script` last longer than `jam_ms` (each gives one jam and one clear)."""
    n = 0
    for h in script:
        for _beam, a, b in _pulses(h):
            if b - a > jam_ms:
                n += 1
    return n


# ------------------------------------------------------------------ accelerometer


@dataclass(frozen=True)
class Sample:
    """One accelerometer sample in mg (gravity included)."""

    t_us: int
    x: int
    y: int
    z: int


@dataclass(frozen=True)
class Strike:
    """A cue-tip contact; with `double_gap_ms` a second contact that much later (a double hit)."""

    t_ms: float
    peak_g: float = 8.0
    double_gap_ms: float | None = None
    second_peak_g: float | None = None  # default: half the first


@dataclass(frozen=True)
class Touch:
    """A soft touch of the cue: a contact well under the strike threshold."""

    t_ms: float
    peak_g: float = 1.2


@dataclass(frozen=True)
class Knock:
    """A broad bump (the cue knocked on the table or chalked hard): moderate peak, tens of ms wide."""

    t_ms: float
    peak_g: float = 4.0
    width_ms: float = 30.0


Motion = Strike | Touch | Knock


def _shock_g(m: Motion, t_ms: float) -> float:
    """The shock along the cue at `t_ms` from one motion (signed g)."""
    if isinstance(m, Knock):
        d = t_ms - m.t_ms
        return m.peak_g * math.sin(math.pi * d / m.width_ms) if 0 <= d <= m.width_ms else 0.0
    contacts = [(m.t_ms, m.peak_g)]
    if isinstance(m, Strike) and m.double_gap_ms is not None:
        contacts.append((m.t_ms + m.double_gap_ms, m.second_peak_g or m.peak_g / 2))
    total = 0.0
    for start, peak in contacts:
        d = t_ms - start
        if 0 <= d <= 1.5:
            total += peak * math.sin(math.pi * d / 1.5)
        elif 1.5 < d <= 25:  # the cue rings at ~250 Hz, decaying, well under the release threshold
            total += 0.06 * peak * math.exp(-(d - 1.5) / 6) * math.sin(2 * math.pi * 0.25 * (d - 1.5))
    return total


def strike_samples(
    script: Sequence[Motion],
    odr_hz: int = 1600,
    duration_ms: float | None = None,
    noise_mg: int = 20,
    seed: int = 0,
    t0_us: int = 0,
    range_g: int = 16,
) -> list[Sample]:
    """Accelerometer samples at `odr_hz` from t=0 to `duration_ms` (default: 300 ms after the last motion)."""
    rng = random.Random(seed)
    end = duration_ms if duration_ms is not None else max((m.t_ms for m in script), default=0) + 300
    period_us = 1_000_000 / odr_hz
    limit = range_g * 1000
    out = []
    for i in range(int(end * 1000 / period_us) + 1):
        t_us = i * period_us
        shock = sum(_shock_g(m, t_us / 1000) for m in script if -1 <= t_us / 1000 - m.t_ms <= 60)
        x = round(shock * 1000) + rng.randint(-noise_mg, noise_mg)
        y = rng.randint(-noise_mg, noise_mg)
        z = 1000 + rng.randint(-noise_mg, noise_mg)
        out.append(
            Sample((t0_us + round(t_us)) % TICKS_PERIOD, _clip(x, limit), _clip(y, limit), _clip(z, limit))
        )
    return out


def _clip(v: int, limit: int) -> int:
    return max(-limit, min(limit, v))


def expected_strikes(script: Iterable[Motion]) -> list[tuple[float, bool]]:
    """(t_ms, double) for each motion a correct strike detector reports
    (touches and knocks are not strikes)."""
    return [(m.t_ms, m.double_gap_ms is not None) for m in script if isinstance(m, Strike)]


# ------------------------------------------------------------------ colour sensor

# Mean chromaticity (r, g) and brightness (clear / 65535) of each ball colour under a white LED, matching
# firmware.colour.DEFAULT_CENTROIDS; a pocket's `bias` models its own LED and sensor placement.
BALL_COLOURS: dict[str, tuple[float, float, float]] = {
    "ivory": (0.37, 0.36, 0.60),
    "yellow": (0.46, 0.41, 0.45),
    "red": (0.62, 0.20, 0.25),
    "blue": (0.20, 0.32, 0.18),
    "green": (0.24, 0.50, 0.22),
    "black": (0.34, 0.34, 0.03),
}


def colour_readings(
    colour: str,
    n: int = 1,
    seed: int = 0,
    bias: tuple[float, float, float] = (1.0, 1.0, 1.0),
    noise: float = 0.02,
) -> list[tuple[int, int, int, int]]:
    """`n` TCS34725 readings (r, g, b, c) of a ball of `colour` passing a pocket's sensor.

    `bias` multiplies the r, g, b channels (a pocket whose LED is warmer reads redder); `noise` is the
    relative spread of each channel and of the brightness from ball to ball.
    """
    rn, gn, bri = BALL_COLOURS[colour]
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        c = bri * 65535 * (1 + rng.gauss(0, noise * 2))
        total = c * 0.9
        chans = [rn * total * bias[0], gn * total * bias[1], (1 - rn - gn) * total * bias[2]]
        r, g, b = (max(0, round(v * (1 + rng.gauss(0, noise)))) for v in chans)
        out.append((r, g, b, max(0, min(65535, round(c)))))
    return out
