"""The parsed messages of the wire contract: `protocol` builds and parses them,
the hub and the firmware read them.

Runs unchanged on CPython 3.11+ and MicroPython 1.2x: plain classes with `__slots__`.
"""


class Topic:
    __slots__ = ("table", "device", "channel")

    def __init__(self, table, device, channel):
        self.table = table
        self.device = device
        self.channel = channel

    def __repr__(self):
        return "Topic(%r, %r, %r)" % (self.table, self.device, self.channel)


class Event:
    """A sensor event. `key` = (device, boot, seq) is its identity; `t` is device time in ms.

    `synced` says whether `t` is on the hub's clock (Unix ms after a time exchange) or the node's
    uptime clock (before the first sync). `up` is the node's uptime at the event (ms since its boot,
    monotonic: no time exchange moves it), or None from firmware that does not send it; the hub places an
    event by `up`, never by `t` alone (hub/ingest/clockmap.py). Kind-specific fields:
      pocket: pocket (1..6), colour (or None), conf (0..1 or None), dur (ms in the beams or None)
      strike: peak (g), double (bool), gap (ms between the two contacts, or None)
      jam / clear: pocket, dur (ms blocked)
      calib: pocket, colour, rgb (list of 3-4 ints)

    A hub keeps every event of a live match, so an event is small: its fields are a tuple of names shared by
    all events with the same fields and a tuple of values (a dict is 184 bytes), and its kind and device are
    shared strings (`luza_wire.protocol.shared_id`).
    """

    __slots__ = ("kind", "device", "boot", "seq", "t", "synced", "up", "_names", "_values")

    def __init__(self, kind, device, boot, seq, t, synced, fields, up=None):
        self.kind = kind
        self.device = device
        self.boot = boot
        self.seq = seq
        self.t = t
        self.synced = synced
        self.up = up
        names = tuple(fields)
        self._names = _FIELD_NAMES.setdefault(names, names)
        self._values = tuple(fields[n] for n in names)

    @property
    def key(self):
        return (self.device, self.boot, self.seq)

    @property
    def fields(self):
        """The kind-specific fields as a new dict."""
        return dict(zip(self._names, self._values))  # noqa: B905 (MicroPython has no strict=)

    def get(self, name, default=None):
        for i, n in enumerate(self._names):
            if n == name:
                return self._values[i]
        return default

    def __repr__(self):
        return "Event(%s %s/%s/%s t=%s %r)" % (
            self.kind,
            self.device,
            self.boot,
            self.seq,
            self.t,
            self.fields,
        )


_FIELD_NAMES = {}  # type: dict  # the field-name tuples of events: a handful (one per kind and shape)


class Status:
    """A node's status. `ota`: its update's progress or result (a dict, see luza_wire/ota.py) or None."""

    __slots__ = ("state", "boot", "fw", "ip", "role", "error", "ota")

    def __init__(self, state, boot, fw, ip, role, error, ota=None):
        self.state = state
        self.boot = boot
        self.fw = fw
        self.ip = ip
        self.role = role
        self.error = error
        self.ota = ota


class Telemetry:
    __slots__ = ("boot", "fields")

    def __init__(self, boot, fields):
        self.boot = boot
        self.fields = fields

    def get(self, name, default=None):
        return self.fields.get(name, default)


class Command:
    """A hub -> node command. `args` holds the command's own fields."""

    __slots__ = ("name", "cid", "args")

    def __init__(self, name, cid, args):
        self.name = name
        self.cid = cid
        self.args = args


class Answer:
    """A node's answer to a command (channel `ans`); today only to `resend`: of seqs `lo`..`hi` of boot
    `boot`, the node re-sent `sent` and no longer holds the `gone` ones ([(first, last)] ranges)."""

    __slots__ = ("re", "cid", "boot", "lo", "hi", "gone", "sent")

    def __init__(self, re, cid, boot, lo, hi, gone, sent):
        self.re = re
        self.cid = cid
        self.boot = boot
        self.lo = lo
        self.hi = hi
        self.gone = gone
        self.sent = sent

    def __repr__(self):
        return "Answer(%s boot %s %s..%s gone=%r sent=%s)" % (
            self.re,
            self.boot,
            self.lo,
            self.hi,
            self.gone,
            self.sent,
        )
