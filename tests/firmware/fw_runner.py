"""Runs test vectors through the firmware logic; imported by the CPython tests and copied into MicroPython.

Must stay MicroPython-compatible (no typing, dataclasses, f-strings with '=' ...). Every function takes a
plain JSON-able vector and returns a plain JSON-able result, so the two runtimes' results compare with ==.
"""

from firmware import colour, edges, pocket, strike


def run_pocket(vec):
    """vec: {"debounce_ms", "jam_ms", "edges": [[beam, level, t], ...], "end":
    t} -> detections and counters."""
    b = pocket.PocketBeam(
        vec.get("pocket", 1),
        vec.get("debounce_ms", 2),
        vec.get("jam_ms", 1000),
        16,
        vec.get("spacing_mm", 30),
    )
    out = []
    if "start" in vec:  # the levels read from the pins at boot
        b.start(vec["start"][0], vec["start"][1], vec.get("t0", 0))
        _drain(b, out)
    step = vec.get("poll_us", 0)
    last = 0
    for e in vec["edges"]:
        # [beam, level, t] or [beam, level, t, n]: n polls `poll_us` apart before this edge (the node's loop
        # polls while nothing happens; a gap longer than ticks_diff's range can only be walked like this)
        for _ in range(e[3] if len(e) > 3 else 0):
            last = (last + step) & (TICKS_PERIOD - 1)
            b.poll(last)
            _drain(b, out)
        b.feed(e[0], e[1], e[2])
        last = e[2]
        _drain(b, out)
    b.poll(vec["end"])
    _drain(b, out)
    return {"det": out, "counters": b.counters()}


TICKS_PERIOD = 1 << 30


def _drain(b, out):
    while True:
        d = b.take()
        if d is None:
            return
        out.append([pocket.KIND_NAMES[d[0]], d[1], d[2], d[3], d[4]])


def run_ring(vec):
    """vec: {"size", "pockets", "edges": [[code, t], ...],
    "end"} through an EdgeRing into the pockets' beams."""
    ring = edges.EdgeRing(vec["size"])
    beams = [pocket.PocketBeam(n) for n in vec.get("pockets", [1, 2])]
    drained = 0
    # "drain_every": the main loop drains after that many edges (0: once at the end, a stalled loop)
    every = vec.get("drain_every", 0)
    for i, e in enumerate(vec["edges"]):
        ring.put(e[0], e[1])
        if every and (i + 1) % every == 0:
            drained += ring.drain(beams)
            for b in beams:
                b.poll(e[1])
    drained += ring.drain(beams)
    for b in beams:
        b.poll(vec["end"])
    out = []
    for b in beams:
        _drain(b, out)
    return {"det": out, "drained": drained, "dropped": ring.dropped}


def run_strike(vec):
    """vec: {"cfg": {...}, "samples": [[t, x, y, z], ...], "end": t} -> strikes and counters."""
    c = vec.get("cfg", {})
    d = strike.StrikeDetector(
        c.get("strike_g", 3.0),
        c.get("release_g", 1.5),
        c.get("max_contact_ms", 8),
        c.get("double_min_ms", 5),
        c.get("double_max_ms", 40),
        c.get("refractory_ms", 300),
    )
    out = []
    for s in vec["samples"]:
        d.sample(s[0], s[1], s[2], s[3])
        r = d.take()
        if r is not None:
            out.append(list(r))
    d.poll(vec["end"])
    r = d.take()
    if r is not None:
        out.append(list(r))
    return {"strikes": out, "knocks": d.knocks, "doubles": d.doubles}


def run_colour(vec):
    """vec: {"calibrate": {colour: [[r,g,b,c], ...]}, "readings": [[r,g,b,c], ...]} -> centroids, classes."""
    cl = colour.Classifier()
    cents = {}
    cal = vec.get("calibrate", {})
    for name in sorted(cal):
        k = colour.Calibrator(1, name, len(cal[name]))
        for rd in cal[name]:
            k.add(rd[0], rd[1], rd[2], rd[3])
        cents[name] = k.centroid()
        cl.learn(name, cents[name])
    classes = []
    for rd in vec["readings"]:
        name, conf = cl.classify(rd[0], rd[1], rd[2], rd[3])
        classes.append([name, conf])
    return {"centroids": cents, "classes": classes}


def run_all(vectors):
    """[[runner name, vector], ...] -> [result, ...]."""
    fns = {"pocket": run_pocket, "ring": run_ring, "strike": run_strike, "colour": run_colour}
    return [fns[v[0]](v[1]) for v in vectors]
