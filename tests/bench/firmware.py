"""Memory of the firmware's pocket and strike logic under the real MicroPython:
`python -m tests.bench.firmware`.

Prints gc.mem_alloc() deltas (bytes): the objects' steady footprint, the bytes allocated per beam edge and per
accelerometer sample in steady state (target: 0), and per detection/strike taken (a tuple). Figures, not
assertions; the WebAssembly port's heap is the same gc as the ESP32's (same object sizes on a 32-bit build).
"""

from __future__ import annotations

import json
import sys

from hub.virtual import traces as tr
from tests.firmware import mp

_CODE = r"""
import gc, json
from firmware import pocket, strike
from firmware.edges import EdgeRing
with open('/bench.json') as f:
    data = json.load(f)
edges = data['edges']
samples = data['samples']
n_edges = len(edges)
codes = [e[0] for e in edges]
levels = [e[1] for e in edges]
times = [e[2] for e in edges]
sx = [s[1] for s in samples]
sz = [s[3] for s in samples]
st = [s[0] for s in samples]
del data, edges, samples
out = {}

gc.collect(); a0 = gc.mem_alloc()
b = pocket.PocketBeam(1)
ring = EdgeRing(64)
gc.collect(); out['pocket_objects'] = gc.mem_alloc() - a0

def feed_edges(lo, hi):
    i = lo
    while i < hi:
        b.feed(codes[i], levels[i], times[i])
        i += 1

feed_edges(0, 20)  # warm up (first-call caches)
while b.take() is not None:
    pass
gc.collect(); gc.disable(); a0 = gc.mem_alloc()
feed_edges(20, n_edges)
a1 = gc.mem_alloc(); gc.enable()
out['edges_fed'] = n_edges - 20
out['pocket_bytes_per_edge'] = (a1 - a0) / (n_edges - 20)
gc.collect(); gc.disable(); a0 = gc.mem_alloc()
k = 0
while b.take() is not None:
    k += 1
a1 = gc.mem_alloc(); gc.enable()
out['detections_taken'] = k  # the 16-slot detection ring keeps the newest; taken once at the end here
out['balls_counted'] = b.passed
out['pocket_bytes_per_detection'] = (a1 - a0) / max(k, 1)

# the IRQ path: EdgeRing.put then drain into the beams
beams = [pocket.PocketBeam(1)]
gc.collect(); gc.disable(); a0 = gc.mem_alloc()
i = 0
m = 0
while i < n_edges:
    ring.put(codes[i] << 1 | levels[i], times[i])
    i += 1
    if len(ring) > 32:
        m += ring.drain(beams)
m += ring.drain(beams)
a1 = gc.mem_alloc(); gc.enable()
out['ring_bytes_per_edge'] = (a1 - a0) / n_edges

gc.collect(); a0 = gc.mem_alloc()
d = strike.StrikeDetector()
gc.collect(); out['strike_objects'] = gc.mem_alloc() - a0
n_s = len(st)
for j in range(50):
    d.sample(st[j], sx[j], 0, sz[j])
gc.collect(); gc.disable(); a0 = gc.mem_alloc()
j = 50
strikes = 0
while j < n_s:
    d.sample(st[j], sx[j], 0, sz[j])
    if d._has:
        strikes += 1
        d._has = 0  # count without take(): take() allocates one tuple per strike, measured below
    j += 1
a1 = gc.mem_alloc(); gc.enable()
out['samples_fed'] = n_s - 50
out['strikes'] = strikes
out['strike_bytes_per_sample'] = (a1 - a0) / (n_s - 50)
d._has = 1
gc.collect(); gc.disable(); a0 = gc.mem_alloc()
d.take()
out['strike_bytes_per_take'] = gc.mem_alloc() - a0
gc.enable()
gc.collect()
out['heap_in_use_after'] = gc.mem_alloc()
print(json.dumps(out))
"""


def main() -> int:
    reason = mp.missing()
    if reason:
        print("MicroPython runtime unavailable:", reason)
        return 1
    script = []
    for i in range(40):  # 40 balls, rattles, hands, in a noisy trace
        t = 1000 + i * 900
        script += [tr.Ball(t, speed=2.0 + (i % 3)), tr.Rattle(t + 300), tr.Hand(t + 450, hold_ms=300)]
    edges = tr.beam_edges(script, pockets=(1,), noise=tr.Noise(jitter_us=200, chatter=0.5), seed=1)
    motions = [tr.Strike(200 + 700 * i, peak_g=8, double_gap_ms=12 if i % 2 else None) for i in range(10)]
    samples = tr.strike_samples(motions, seed=2)
    data = {
        "edges": [[e.beam, e.level, e.t_us] for e in edges],
        "samples": [[s.t_us, s.x, s.y, s.z] for s in samples],
    }
    out = mp.run_json(
        _CODE, mp.FIRMWARE, extra={"/bench.json": json.dumps(data)}, heap=4 * 1024 * 1024, timeout=300
    )
    assert isinstance(out, dict)
    print("MicroPython (WebAssembly port, 1.27) gc.mem_alloc() deltas, bytes:")
    for key, value in out.items():
        print(f"  {key:28s} {value:10.2f}" if isinstance(value, float) else f"  {key:28s} {value:10d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
