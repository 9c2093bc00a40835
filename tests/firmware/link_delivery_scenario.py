"""The link with hub-confirmed delivery on a loopback transport whose broker PUBACKs but whose "hub" speaks
only when told: runs unchanged on CPython and the real MicroPython (asyncio, no sockets). `await
scenario(root)` returns a JSON-able dict of what the broker saw and what the outbox kept.
"""

import asyncio
import json

from firmware.clock import Clock
from firmware.link import Link
from firmware.outbox import DirStore, Outbox
from luza_wire import protocol, resend

try:
    from node_scenario import LoopTransport, _until  # MicroPython: both files are copied into /lib
except ImportError:
    from tests.firmware.node_scenario import LoopTransport, _until


class Net:
    def up(self):
        return True

    def connect(self):
        pass

    def ip(self):
        return "127.0.0.1"


def evt_seqs(tr):
    return [json.loads(p)["s"] for t, p, _r in tr.sent if t.endswith("/evt")]


async def scenario(root):
    tr = LoopTransport(confirm=False)  # the broker PUBACKs; the hub says nothing until told to
    clock = Clock()
    ob = Outbox(DirStore(root + "/ob"), now=clock.uptime)
    link = Link(tr, Net(), ob, clock, "t1", "n1", 1, log=lambda _m: None, backoff_min=10, backoff_max=20)
    cmd = protocol.topic("t1", "n1", "cmd")
    task = asyncio.create_task(link.run())
    await _until(lambda: link.up, 3000)
    for s in range(1, 6):
        ob.put(protocol.encode_event("pocket", "n1", 1, s, 100 + s, p=1))
    link.kick()
    await _until(lambda: evt_seqs(tr) == [1, 2, 3, 4, 5] and not link._inflight, 3000)
    kept = ob.depth  # every PUBACK is in, and nothing left the outbox
    tr.inbox.append(("msg", cmd, protocol.encode_command("stored", 1, b=1, s=3)))
    await _until(lambda: ob.depth == 2, 3000)
    after_mark = ob.depth
    tr.up = False  # the broker dies with 4 and 5
    await _until(lambda: not link.up, 3000)
    tr.up = True
    await _until(lambda: link.up and evt_seqs(tr)[5:] == [4, 5], 3000)
    tr.inbox.append(("msg", cmd, protocol.encode_command("resend", 2, b=1, lo=1, hi=5)))
    await _until(lambda: any(t.endswith("/ans") for t, _p, _r in tr.sent), 3000)
    tr.inbox.append(("msg", cmd, protocol.encode_command("stored", 3, b=1, s=5)))
    await _until(lambda: ob.depth == 0, 3000)
    link.stop()
    await task
    ans = next(resend.parse_answer(p) for t, p, _r in tr.sent if t.endswith("/ans"))
    return {
        "kept": kept,
        "after_mark": after_mark,
        "evts": evt_seqs(tr)[:7],
        "depth": ob.depth,
        "gone": [list(g) for g in ans.gone],
        "held": ans.sent,
        "rejected": link.rejected,
        "released": link.delivery.released,
        "downs": link.downs,
    }
