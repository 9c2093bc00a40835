"""A node's telemetry (`tele`, docs/wire.md): its numbers (uptime, heap, signal, outbox depth, …) and its
health counters since boot, built by the node and checked by the hub.

Runs unchanged on CPython 3.11+ and MicroPython 1.2x, like the rest of luza_wire. Parsing never raises: it
returns a `luza_wire.messages.Telemetry`, or a `Rejection` naming the field.
"""

from luza_wire.frame import MAX_SEQ, MAX_T, VERSION, Rejection, dump, int_field, load, num_field
from luza_wire.messages import Telemetry


def encode_tele(boot, **fields):
    """A `tele` payload: the boot and every field given (None: left out)."""
    obj = {"v": VERSION, "b": boot}
    for name in fields:
        value = fields[name]
        if value is not None:
            obj[name] = value
    return dump(obj)


TELE_FIELDS = {
    "up": (0, MAX_T),
    "heap": (0, 2**32),
    "rssi": (-130, 0),
    "bat": (0, 10),
    "ob": (0, 2**32),
    "drop": (0, 2**32),
    "t": (0, MAX_T),
    "flash": (0, 2**32),
}
# Counters since boot (sensor health): link (rej malformed commands, crej refused configs, pub publishes;
# delivery: rsd events re-sent, cto confirmation timeouts, gone seqs answered gone to a resend), pocket
# (rattle, jam, glitch chatter pulses, outs upward passages, lost repeated edges, flags raised, edrop edges
# the ring dropped or detections overwritten, err I2C errors; bu<p>/bl<p> upper/lower beam blocks of pocket
# p), cue (strikes, doubles, knocks, sleeps, err).
_counters = [
    "rej",
    "crej",
    "pub",
    "rsd",
    "cto",
    "gone",
    "rattle",
    "jam",
    "glitch",
    "outs",
    "lost",
    "flags",
    "edrop",
    "err",
    "strikes",
    "doubles",
    "knocks",
    "sleeps",
]
for _p in range(1, 7):
    _counters.append("bu%d" % _p)
    _counters.append("bl%d" % _p)
TELE_COUNTERS = tuple(_counters)
for _name in TELE_COUNTERS:
    TELE_FIELDS[_name] = (0, 2**32)


def parse_tele(payload):
    obj = load(payload)
    if isinstance(obj, Rejection):
        return obj
    boot = int_field(obj, "b", 0, MAX_SEQ)
    if isinstance(boot, Rejection):
        return boot
    fields = {}
    for name in TELE_FIELDS:
        lo, hi = TELE_FIELDS[name]
        x = num_field(obj, name, lo, hi)
        if isinstance(x, Rejection):
            return x
        if x is not None:
            fields[name] = x
    return Telemetry(boot, fields)
