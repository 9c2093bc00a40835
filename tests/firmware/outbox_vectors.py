"""Outbox and clock vectors: scripted traces whose results must be identical on CPython and MicroPython.

Pure MicroPython-compatible code (no typing, no f-strings needed). `run_all(root)` runs every vector against
a DirStore under `root` (a temp dir on CPython, the in-memory FS under MicroPython) and returns a JSON-able
dict; the tests compare it with the expected facts and the two runtimes with each other.
"""

import json

from firmware.clock import Clock
from firmware.outbox import DirStore, Outbox, next_boot


class FakeTime:
    """Wrapping ms ticks that a vector advances by hand (2**30 period, as on the ESP32)."""

    def __init__(self, start=0):
        self.t = start

    def ticks(self):
        return self.t & ((1 << 30) - 1)

    def advance(self, ms):
        self.t += ms


def ev(seq, t=0):
    return json.dumps({"v": 1, "k": "pocket", "d": "n1", "b": 1, "s": seq, "t": t, "u": 1, "p": 1}).encode()


def seq_of(entry):
    return json.loads(entry)["s"]


def drain(ob, window=4, limit=100000):
    """Ack everything in order, a window at a time; the seqs in the order they came out."""
    out = []
    for _ in range(limit):
        items = ob.window(window)
        if not items:
            break
        for oid, entry in items:
            out.append(seq_of(entry))
            ob.ack(oid)
    return out


def normal_play(root):
    """Acks arrive at once: nothing touches flash."""
    store = DirStore(root + "/normal")
    ob = Outbox(store, ram_max=50, seg_entries=20, seg_max=3)
    depths = []
    for i in range(30):
        oid = ob.put(ev(i))
        depths.append(ob.depth)
        ob.ack(oid)
    return {"depths": depths, "writes": store.writes, "depth": ob.depth, "dropped": ob.dropped}


def long_outage(root):
    """No acks for 400 events: RAM spills in batches, flash fills, the oldest segment goes first."""
    store = DirStore(root + "/outage")
    ob = Outbox(store, ram_max=50, seg_entries=100, seg_max=3)
    for i in range(400):
        ob.put(ev(i))
    depth = ob.depth
    files = len([n for n in store.names() if n.endswith(".ob")])
    out = drain(ob)
    return {
        "depth": depth,
        "files": files,
        "dropped": ob.dropped,
        "writes": store.writes,
        "first": out[:3],
        "last": out[-3:],
        "count": len(out),
        "ordered": out == sorted(out),
        "left": len(store.names()),
    }


def reboot(root):
    """Spilled entries survive a reboot; the boot counter increments; acked-but-kept entries may repeat."""
    store = DirStore(root + "/reboot")
    boots = [next_boot(store)]
    ob = Outbox(store, ram_max=10, seg_entries=8, seg_max=10)
    for i in range(25):
        ob.put(ev(i))
    first = ob.window(3)
    for oid, _ in first:
        ob.ack(oid)
    ob.flush()
    boots.append(next_boot(DirStore(root + "/reboot")))
    ob2 = Outbox(DirStore(root + "/reboot"), ram_max=10, seg_entries=8, seg_max=10)
    depth = ob2.depth
    new_oid = ob2.put(ev(100))
    out = drain(ob2)
    return {"boots": boots, "depth_after_boot": depth, "out": out, "new_oid_fresh": new_oid > 25}


def spill_in_flight(root):
    """An entry spills to flash while its publish is in flight; its ack still removes it."""
    store = DirStore(root + "/inflight")
    ob = Outbox(store, ram_max=5, seg_entries=4, seg_max=5)
    for i in range(3):
        ob.put(ev(i))
    flying = ob.window(3)
    for i in range(3, 12):
        ob.put(ev(i))  # RAM overflows: 0..5 go to flash
    acked = [ob.ack(oid) for oid, _ in flying]
    stale = ob.ack(9999)
    return {"acked": acked, "stale": stale, "out": drain(ob), "depth": ob.depth}


def aged_spill(root):
    """No ack for spill_ms: RAM goes to flash as one batch, so a power cut then loses nothing."""
    t = FakeTime()
    clock = Clock(ticks=t.ticks)
    store = DirStore(root + "/aged")
    ob = Outbox(store, ram_max=100, seg_entries=50, seg_max=4, spill_ms=10000, now=clock.uptime)
    marks = []
    for i in range(60):  # one event a second for a minute of outage
        ob.put(ev(i, clock.uptime()))
        ob.maintain()
        marks.append(store.writes)
        t.advance(1000)
    survivor = Outbox(DirStore(root + "/aged"), ram_max=100, seg_entries=50, seg_max=4)
    return {
        "writes": store.writes,
        "spills": ob.spills,
        "marks": marks[::10],
        "in_flash": survivor.depth,
        "in_ram": ob.depth - survivor.depth,
    }


def torn_segment(root):
    """A power cut mid-append leaves a partial last line: it is skipped, the rest reloads."""
    store = DirStore(root + "/torn")
    store.append("seg00000001.ob", b"1 " + ev(0) + b"\n2 " + ev(1) + b'\n3 {"v": 1, "k"')
    ob = Outbox(store)
    items = ob.window(10)
    return {"oids": [o for o, _ in items], "seqs": [seq_of(e) for o, e in items[:2]]}


def clock_vectors():
    """Uptime across the 2**30 wrap, sync offsets, stamping and restamping."""
    t = FakeTime(start=(1 << 30) - 500)  # 0.5 s before the wrap
    clock = Clock(ticks=t.ticks)
    before = clock.now()
    t.advance(1200)
    up_after_wrap = clock.uptime()
    early = ev(7, clock.uptime())
    adj0 = clock.sync(1700000000000)
    t.advance(250)
    stamped = clock.now()
    restamped = json.loads(clock.restamp(early, 1))
    other_boot = clock.restamp(early.replace(b'"b": 1', b'"b": 0'), 1) == early.replace(b'"b": 1', b'"b": 0')
    t.advance(1000)
    adj1 = clock.sync(1700000001300)  # hub says 50 ms later than our count: drift
    return {
        "before": list(before),
        "up_after_wrap": up_after_wrap,
        "adj0": adj0,
        "stamped": list(stamped),
        "restamped_t": restamped["t"],
        "restamped_u": restamped.get("u"),
        "other_boot_kept": other_boot,
        "adj1": adj1,
        "syncs": clock.syncs,
    }


def run_all(root):
    return {
        "normal": normal_play(root),
        "outage": long_outage(root),
        "reboot": reboot(root),
        "inflight": spill_in_flight(root),
        "aged": aged_spill(root),
        "torn": torn_segment(root),
        "clock": clock_vectors(),
    }
