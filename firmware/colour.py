"""Ball colour from a TCS34725 RGBC reading: nearest calibrated centroid, with a confidence.

Features of a reading (r, g, b, c): chromaticity rn = r/(r+g+b), gn = g/(r+g+b) (independent of how bright the
ball is lit) and brightness = c / 65535 (tells ivory from black and from dull colours). Each colour of a
pocket is a centroid [rn, gn, brightness, spread]; brightness counts less than chromaticity (`BRIGHT_WEIGHT`)
because it varies with where in the throat the ball was read. The distance to each centroid, in units of its
spread, gives a likelihood exp(-z*z/2); the confidence is the best colour's share of the total. A reading far
from every centroid (`REJECT_Z`) is no colour (None), confidence 0.

Readings are taken by a sampler that runs on its own timer (the board's `sample_colour`), not by the detector
loop, and kept with their time in a `ColourLog`. When the detector reports a ball it asks the log for the
brightest reading (the ball nearest the sensor) taken while that ball was in the throat, from the beam edges'
own times: so a slow or stalled main loop (a Wi-Fi hiccup, a busy Raspberry Pi running virtual nodes) still
gets the colour of the ball that passed, instead of whatever the sensor sees when the loop gets round to it.
`Calibrator` learns one colour's centroid from N balls rolled through (`calibrate` command).
Colour names are those of the wire protocol: ivory (object balls), yellow and red (cue balls), and Star's
blue, black, green (plus ivory, yellow, red).
Floats are fine here: this runs once per ball, not per edge.
"""

import math
from array import array

from .compat import ticks_diff

BRIGHT_WEIGHT = 0.3
REJECT_Z = 6.0
MIN_SPREAD = 0.01
FULL_SCALE = 65535.0

# Rough centroids for a white-LED-lit throat, used until a pocket is calibrated.
DEFAULT_CENTROIDS = {
    "ivory": [0.37, 0.36, 0.60, 0.03],
    "yellow": [0.46, 0.41, 0.45, 0.03],
    "red": [0.62, 0.20, 0.25, 0.03],
    "blue": [0.20, 0.32, 0.18, 0.03],
    "green": [0.24, 0.50, 0.22, 0.03],
    "black": [0.34, 0.34, 0.03, 0.03],
}


def _round(x, scale):
    """x >= 0 to 1/scale. Not round(): MicroPython's float round() differs from CPython's at halves."""
    return int(x * scale + 0.5) / scale


def features(r, g, b, c):
    """(rn, gn, brightness) of one reading, or None if it saw no light at all."""
    s = r + g + b
    if s <= 0:
        return None
    return (r / s, g / s, c / FULL_SCALE)


def _distance(f, centroid):
    dr = f[0] - centroid[0]
    dg = f[1] - centroid[1]
    db = (f[2] - centroid[2]) * BRIGHT_WEIGHT
    return math.sqrt(dr * dr + dg * dg + db * db)


class Classifier:
    """Classifies readings against {colour: [rn, gn, brightness, spread]}."""

    def __init__(self, centroids=None):
        self.centroids = {}
        src = DEFAULT_CENTROIDS if centroids is None else centroids
        for name in src:
            self.centroids[name] = list(src[name])

    def classify(self, r, g, b, c):
        """(colour or None, confidence 0..1) for one reading."""
        f = features(r, g, b, c)
        if f is None or not self.centroids:
            return (None, 0.0)
        best = None
        best_z = 0.0
        total = 0.0
        best_like = 0.0
        for name in self.centroids:
            cen = self.centroids[name]
            z = _distance(f, cen) / max(cen[3], MIN_SPREAD)
            like = math.exp(-z * z / 2)
            total += like
            if best is None or z < best_z:
                best, best_z, best_like = name, z, like
        if best_z > REJECT_Z or total <= 0:
            return (None, 0.0)
        return (best, _round(best_like / total, 1000))

    def learn(self, colour, centroid):
        """Replace one colour's centroid (after calibration)."""
        self.centroids[colour] = list(centroid)


def classifier_for(cfg, pocket):
    """The classifier of one pocket: defaults, overridden by that pocket's calibrated colours."""
    cal = cfg["colour"]["calibration"].get(str(pocket), {})
    cl = Classifier()
    for name in cal:
        cl.learn(name, cal[name])
    return cl


class ColourLog:
    """The last `size` readings of one sensor with their times (ticks_us), written by the sampler.

    Preallocated arrays, nothing allocated per reading: `put` may run in a soft timer callback. `put` with no
    reading (the sensor had none ready) still moves `last_t`, so the detector knows the sampler has looked
    past a ball's exit. One writer (the sampler) and one reader (the detector loop); on MicroPython a soft
    callback runs between bytecodes, so a reader can at worst see one slot being overwritten, which only
    happens to the oldest reading of a full ring.
    """

    def __init__(self, size=32):
        self.size = size
        self.t = array("l", [0] * size)
        self.r = array("l", [0] * size)
        self.g = array("l", [0] * size)
        self.b = array("l", [0] * size)
        self.c = array("l", [0] * size)
        self.head = 0
        self.count = 0
        self.last_t = 0
        self.samples = 0  # readings attempted (sampler calls): looked_after() needs one
        self.errors = 0  # sampler reads that failed (I2C errors)

    def put(self, t, rgbc):
        """One sampler tick at `t` (ticks_us): `rgbc` is the sensor's (r, g, b,
        c) or None if none was ready."""
        self.samples += 1
        self.last_t = t
        if rgbc is None:
            return
        h = self.head
        self.t[h] = t
        self.r[h] = rgbc[0]
        self.g[h] = rgbc[1]
        self.b[h] = rgbc[2]
        self.c[h] = rgbc[3]
        self.head = (h + 1) % self.size
        if self.count < self.size:
            self.count += 1

    def looked_after(self, t):
        """True once the sampler has taken a reading at or after `t` (ticks_us)."""
        return self.samples > 0 and ticks_diff(self.last_t, t) >= 0

    def best(self, t0, t1):
        """(r, g, b, c) of the brightest reading taken within [t0, t1] (ticks_us), or None."""
        best = -1
        i = self.head
        for _ in range(self.count):
            i = (i - 1) % self.size
            t = self.t[i]
            if ticks_diff(t, t0) >= 0 and ticks_diff(t1, t) >= 0 and (best < 0 or self.c[i] > self.c[best]):
                best = i
        if best < 0:
            return None
        return (self.r[best], self.g[best], self.b[best], self.c[best])


class Calibrator:
    """Learns one colour for one pocket from `balls` passages (their best readings)."""

    def __init__(self, pocket, colour, balls=5):
        if balls < 1:
            raise ValueError("calibration needs at least 1 ball, got %r" % (balls,))
        self.pocket = pocket
        self.colour = colour
        self.balls = balls
        self.readings = []

    def add(self, r, g, b, c):
        """One ball's reading; returns True when enough balls were seen."""
        if features(r, g, b, c) is not None:
            self.readings.append((r, g, b, c))
        return self.done()

    def done(self):
        return len(self.readings) >= self.balls

    def centroid(self):
        """[rn, gn, brightness, spread] of the readings so far (spread:
        RMS chroma distance, >= MIN_SPREAD)."""
        if not self.readings:
            raise ValueError("no readings yet for %s in pocket %d" % (self.colour, self.pocket))
        fs = [features(*rd) for rd in self.readings]
        n = len(fs)
        mean = [sum(f[i] for f in fs) / n for i in range(3)]
        var = sum(_distance(f, mean) ** 2 for f in fs) / n
        # two RMS: a fresh ball of the colour lands within ~1-2 z
        spread = max(math.sqrt(var) * 2, MIN_SPREAD)
        return [_round(mean[0], 10000), _round(mean[1], 10000), _round(mean[2], 10000), _round(spread, 10000)]
