"""End-to-end delivery on the node (firmware/delivery.py with the real outbox): scripted cases whose results
must be identical on CPython and MicroPython. Portable code; `run_all(root)` returns a JSON-able dict.
"""

import json

from firmware.clock import Clock
from firmware.delivery import Delivery
from firmware.outbox import DirStore, Outbox
from luza_wire import node_events, protocol, resend


class FakeTime:
    def __init__(self):
        self.t = 0

    def ticks(self):
        return self.t & ((1 << 30) - 1)


def ev(seq, boot=1):
    return protocol.encode_event("pocket", "n1", boot, seq, 1000 + seq, p=1)


class Rig:
    """An outbox, a clock on a hand-moved tick, and a Delivery whose answers are collected."""

    def __init__(self, root, name, ram_max=200, seg_entries=100, seg_max=20, boot=1, **kw):
        self.time = FakeTime()
        self.clock = Clock(ticks=self.time.ticks)
        self.store = DirStore(root + "/" + name)
        self.ob = Outbox(self.store, ram_max=ram_max, seg_entries=seg_entries, seg_max=seg_max)
        self.answers = []
        self.d = Delivery(self.ob, self.clock, boot, self.answers.append, **kw)

    def put(self, seqs, boot=1):
        for s in seqs:
            self.ob.put(ev(s, boot))

    def send(self, n=1000):
        """The seqs `next` hands out now."""
        return [node_events.event_key(e)[1] for _, e in self.d.next(n)]

    def advance(self, ms):
        self.time.t += ms


def released_on_mark_not_on_send(root):
    r = Rig(root, "mark")
    r.put(range(1, 11))
    first = r.send(16)
    depth_after_send = r.ob.depth
    n6 = r.d.stored(1, 6)
    again = r.send(16)  # nothing new to send: the unconfirmed ones wait for the mark or a failure
    n10 = r.d.stored(1, 10)
    stale = r.d.stored(1, 3)  # an old mark arriving late changes nothing
    return {
        "first": first,
        "depth_after_send": depth_after_send,
        "released": [n6, n10, stale],
        "again": again,
        "depth": r.ob.depth,
        "unconfirmed": r.d.unconfirmed,
        "writes": r.store.writes,
    }


def reconnect_resends_unconfirmed_in_order(root):
    r = Rig(root, "reconnect")
    r.put(range(1, 6))
    r.send(2)
    r.send(16)
    r.d.stored(1, 2)
    r.d.reconnected()
    r.put([6])
    return {"after_reconnect": r.send(16), "resent": r.d.resent}


def timeout_with_backoff(root):
    r = Rig(root, "timeout", confirm_ms=10000, confirm_max_ms=40000)
    r.put(range(1, 4))
    r.send()
    fired = []
    for step in (9999, 1, 10000, 10000, 20000, 40000, 40000):
        r.advance(step)
        fired.append(r.d.check_timeout())
        if fired[-1]:
            r.send()
    r.d.stored(1, 3)
    r.advance(100000)
    return {
        "fired": fired,
        "timeouts": r.d.timeouts,
        "resent": r.d.resent,
        "quiet": r.d.check_timeout(),
        "wait_reset": r.d._wait,
    }


def resend_answers_gone(root):
    r = Rig(root, "resend")
    r.put(range(1, 11))
    r.send()
    r.d.stored(1, 4)  # 1..4 leave the outbox
    r.d.produced = lambda: 10
    gone = r.d.resend(1, 2, 8, cid=7)
    again = r.send()
    future = r.d.resend(1, 9, 15)  # 11..15 not produced yet: not gone
    other = r.d.resend(0, 1, 3)  # an old boot the outbox holds nothing of
    answers = []
    for payload in r.answers:
        a = resend.parse_answer(payload)
        answers.append([a.cid, a.boot, a.lo, a.hi, [list(g) for g in a.gone], a.sent])
    return {
        "gone": [list(g) for g in gone],
        "again": again,
        "future": future,
        "other": [list(g) for g in other],
        "answers": answers,
        "counted": r.d.gone,
    }


def window_of_unconfirmed_is_bounded(root):
    r = Rig(root, "bounded", max_unconfirmed=4)
    r.put(range(1, 11))
    first = r.send()
    r.d.stored(1, 2)
    second = r.send()
    return {"first": first, "second": second, "unconfirmed": r.d.unconfirmed}


def confirmed_before_sending_is_released_unsent(root):
    r = Rig(root, "presorted")
    r.put(range(1, 7))
    r.d.stored(1, 3)  # e.g. the hub got them before a reboot of the node
    return {"sent": r.send(), "released": r.d.released, "depth": r.ob.depth}


def across_flash_segments(root):
    r = Rig(root, "flash", ram_max=5, seg_entries=4, seg_max=10)
    r.put(range(1, 31))  # RAM overflows: most of them are in flash segments
    in_flash = r.ob.in_flash
    sent = r.send(7) + r.send(100)
    r.d.stored(1, 17)
    mid = r.ob.depth
    r.d.reconnected()
    resent = r.send(100)
    r.d.stored(1, 30)
    return {
        "in_flash": in_flash,
        "sent": sent,
        "mid": mid,
        "resent": resent,
        "depth": r.ob.depth,
        "left": [n for n in r.store.names() if n.endswith(".ob")],
    }


def old_boot_from_flash(root):
    """After a reboot the outbox reloads boot 1's unconfirmed events;
    the hub's mark for boot 1 releases them."""
    r = Rig(root, "reboot", ram_max=3, seg_entries=4, seg_max=10)
    r.put(range(1, 9))
    r.ob.flush()
    again = Rig(root, "reboot", ram_max=3, seg_entries=4, seg_max=10, boot=2)
    again.put([1, 2], boot=2)
    sent = [list(node_events.event_key(e)) for _, e in again.d.next(100)]
    again.d.stored(1, 8)
    after_old = again.ob.depth
    again.d.stored(2, 2)
    return {"sent": sent, "after_old": after_old, "depth": again.ob.depth, "mark1": again.d.mark(1)}


def restamp_pinned_to_the_first_send(root):
    """An event recorded before the time sync: restamped when first sent after it, and a re-send after a
    resync carries the very same bytes (a duplicate to the hub, not a conflict)."""
    r = Rig(root, "restamp")
    r.ob.put(protocol.encode_event("pocket", "n1", 1, 1, 250, synced=False, p=1))
    r.ob.put(protocol.encode_event("pocket", "n1", 1, 2, 300, synced=False, p=1))
    unsynced = [e for _, e in r.d.next(1)]  # sent before any sync: uptime and u: 1
    r.clock.sync(1700000000000)
    first = [e for _, e in r.d.next(10)]
    r.advance(60000)
    r.clock.sync(1700000061234)  # a resync moves the offset
    r.d.reconnected()
    again = [e for _, e in r.d.next(10)]
    t = [json.loads(e)["t"] for e in first]
    return {
        "unsynced_u": json.loads(unsynced[0]).get("u"),
        "first_t": t,
        "same_bytes": again == unsynced + first,
        "resent": r.d.resent,
    }


def run_all(root):
    out = {}
    for name, case in (
        ("mark", released_on_mark_not_on_send),
        ("reconnect", reconnect_resends_unconfirmed_in_order),
        ("timeout", timeout_with_backoff),
        ("resend", resend_answers_gone),
        ("bounded", window_of_unconfirmed_is_bounded),
        ("presorted", confirmed_before_sending_is_released_unsent),
        ("flash", across_flash_segments),
        ("reboot", old_boot_from_flash),
        ("restamp", restamp_pinned_to_the_first_send),
    ):
        out[name] = case(root)
    return json.loads(json.dumps(out))
