# ruff: noqa: UP031, SIM101, SIM110  (MicroPython-compatible code: %-formatting and plain loops, like wire.py)
"""Luza wire protocol v1, the framing and delivery half: JSON payload rules, field checks, the node's answer to
`resend` (channel `ans`), and the payloads built outside `wire.py` proper (the serial envelope, the clock
restamp, the hub's retained payloads).

Import it through `shared_rules.wire`, which re-exports every public name here: `wire` stays the one place the
project builds and parses what crosses a wire. Runs unchanged on CPython 3.11+ and MicroPython 1.2x (no
dataclasses, enum or typing at run time, only `json`); the device carries this file beside wire.py.
"""

import json

VERSION = 1
PREFIX = "luza/v1"
MAX_PAYLOAD = 1024  # bytes; a node's messages are well under 300
MAX_ID = 32
MAX_SEQ = 2**53  # JSON-safe integers
MAX_T = 2**53
STATE_VERSION = 1  # the `v` of the retained luza/v1/<table>/state payload (docs/web-api.md)
HUB_STATUS_TOPIC = PREFIX + "/hub/status"
MAX_SERIAL_LINE = 4096  # bytes of one serial line; a payload is at most MAX_PAYLOAD, the envelope adds little
MAX_GONE = 16  # [first, last] ranges one `ans` to a `resend` may list; the hub asks again for the rest
MAX_RESEND = 4096  # seqs one `resend` may ask for


class Rejection:
    """A payload or topic that was not accepted: `code` for counting, `reason` for people."""

    __slots__ = ("code", "reason")

    def __init__(self, code, reason):
        self.code = code
        self.reason = reason

    def __repr__(self):
        return "Rejection(%r, %r)" % (self.code, self.reason)

    def __eq__(self, other):
        return isinstance(other, Rejection) and other.code == self.code and other.reason == self.reason


def valid_id(s):
    """True for a table or device id: 1..32 of [a-z0-9-]."""
    if not isinstance(s, str) or not 1 <= len(s) <= MAX_ID:
        return False
    for ch in s:
        if not ("a" <= ch <= "z" or "0" <= ch <= "9" or ch == "-"):
            return False
    return True


# ---------------------------------------------------------------- JSON


def _dump(obj):
    return json.dumps(obj).encode()


def _reject_constant(name):
    raise ValueError("JSON has no %s" % (name,))


def _loads(payload):
    if _STRICT:
        return json.loads(payload, parse_constant=_reject_constant)
    return json.loads(payload)


try:  # CPython's json accepts NaN and Infinity; MicroPython's does not. Reject them on both, alike.
    json.loads("1", parse_constant=_reject_constant)
    _STRICT = True
except TypeError:  # MicroPython: no keyword arguments, and no NaN to begin with
    _STRICT = False


def _compact(obj):
    """Compact UTF-8 JSON (the hub's retained payloads); plain json.dumps where keywords are missing."""
    try:
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()
    except TypeError:  # MicroPython's json.dumps takes no keywords
        return json.dumps(obj).encode()


def _load(payload):
    if isinstance(payload, str):
        payload = payload.encode()
    if not isinstance(payload, (bytes, bytearray)):
        return Rejection("malformed", "payload must be bytes, got %s" % (type(payload).__name__,))
    if len(payload) > MAX_PAYLOAD:
        return Rejection("oversized", "payload is %d bytes; the limit is %d" % (len(payload), MAX_PAYLOAD))
    try:
        obj = _loads(payload)
    except (ValueError, UnicodeError):
        return Rejection("malformed", "payload is not valid JSON")
    if not isinstance(obj, dict):
        return Rejection("malformed", "payload must be a JSON object")
    v = obj.get("v")
    if v != VERSION or isinstance(v, bool):
        return Rejection("bad_version", "payload version %r; this hub speaks v%d" % (v, VERSION))
    return obj


# ---------------------------------------------------------------- field checks


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _is_num(x):
    return (isinstance(x, int) or isinstance(x, float)) and not isinstance(x, bool)


def _int_field(obj, name, lo, hi, required=True):
    """The value of an int field in [lo, hi], None if absent and optional, or a Rejection."""
    if name not in obj:
        if required:
            return Rejection("missing_field", "field %r is missing" % (name,))
        return None
    x = obj[name]
    if not _is_int(x) or x < lo or x > hi:
        return Rejection("bad_field", "field %r must be an integer %d..%d, got %r" % (name, lo, hi, x))
    return x


def _num_field(obj, name, lo, hi):
    if name not in obj:
        return None
    x = obj[name]
    if not _is_num(x) or x < lo or x > hi:
        return Rejection("bad_field", "field %r must be a number %s..%s, got %r" % (name, lo, hi, x))
    return x


def _first_rejection(values):
    for x in values:
        if isinstance(x, Rejection):
            return x
    return None


def _ranges_field(obj, name, lo, hi, most):
    """A list of at most `most` [first, last] seq ranges inside lo..hi, ascending and apart, or a Rejection."""
    x = obj.get(name, [])
    bad = Rejection("bad_field", "field %r must be a list of at most %d ascending [first, last] ranges within "
                                 "%d..%d" % (name, most, lo, hi))
    if not isinstance(x, list) or len(x) > most:
        return bad
    out = []
    floor = lo
    for r in x:
        if not isinstance(r, list) or len(r) != 2 or not _is_int(r[0]) or not _is_int(r[1]):
            return bad
        if r[0] < floor or r[1] < r[0] or r[1] > hi:
            return bad
        out.append((r[0], r[1]))
        floor = r[1] + 1
    return out


def runs(seqs):
    """Sorted ints -> [(first, last)] runs of consecutive values: runs([1, 2, 3, 7, 9, 10]) == [(1, 3), (7, 7), (9, 10)]."""
    out = []  # type: list
    for s in seqs:
        if out and s == out[-1][1] + 1:
            out[-1] = (out[-1][0], s)
        elif not out or s > out[-1][1]:
            out.append((s, s))
    return out


# ---------------------------------------------------------------- delivery: the answer to `resend`


def _check_range(obj, what):
    """`b`, `lo`, `hi` of a seq range (1 <= lo <= hi, at most MAX_RESEND seqs): None or a Rejection."""
    bad = _first_rejection((_int_field(obj, "b", 0, MAX_SEQ), _int_field(obj, "lo", 1, MAX_SEQ),
                            _int_field(obj, "hi", 1, MAX_SEQ)))
    if bad is not None:
        return bad
    if not 0 <= obj["hi"] - obj["lo"] < MAX_RESEND:
        return Rejection("bad_field", "%s needs lo <= hi, at most %d seqs apart (got %d..%d)"
                         % (what, MAX_RESEND, obj["lo"], obj["hi"]))
    return None


class Answer:
    """A node's answer to a command (channel `ans`); today only to `resend`: of seqs `lo`..`hi` of boot `boot`,
    the node re-sent `sent` and no longer holds the `gone` ones ([(first, last)] ranges)."""

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
        return "Answer(%s boot %s %s..%s gone=%r sent=%s)" % (self.re, self.boot, self.lo, self.hi, self.gone,
                                                              self.sent)


def encode_answer(re, cid, boot, lo, hi, gone, sent):
    """Build an `ans` payload: {"v", "re", "id", "b", "lo", "hi", "gone": [[first, last], ...], "n": sent}."""
    return _dump({"v": VERSION, "re": re, "id": cid, "b": boot, "lo": lo, "hi": hi,
                  "gone": [[a, b] for a, b in gone[:MAX_GONE]], "n": sent})


def parse_answer(payload):
    """An `ans` payload -> Answer, or Rejection."""
    obj = _load(payload)
    if isinstance(obj, Rejection):
        return obj
    re = obj.get("re")
    if re != "resend":
        return Rejection("bad_field", "answer 're' %r is not a command that is answered (resend)" % (re,))
    bad = _check_range(obj, "answer") or _first_rejection((_int_field(obj, "id", 0, MAX_SEQ, required=False),
                                                           _int_field(obj, "n", 0, MAX_SEQ, required=False)))
    if bad is not None:
        return bad
    gone = _ranges_field(obj, "gone", obj["lo"], obj["hi"], MAX_GONE)
    if isinstance(gone, Rejection):
        return gone
    return Answer(re, obj.get("id") or 0, obj["b"], obj["lo"], obj["hi"], gone, obj.get("n") or 0)


# ---------------------------------------------------------------- the serial envelope


def encode_serial(topic, payload):
    """One serial line (str, with its newline): {"topic": ..., "payload": <the JSON payload itself>}.

    Node -> hub and hub -> node alike; the payload is embedded as JSON (not a string), as built by this module.
    """
    body = payload.decode() if isinstance(payload, (bytes, bytearray)) else payload
    return '{"topic": %s, "payload": %s}\n' % (json.dumps(topic), body)


def parse_serial(line):
    """A serial line -> (topic, payload bytes), or a Rejection (`oversized`, `malformed`). Never raises."""
    if isinstance(line, str):
        line = line.encode()
    if not isinstance(line, (bytes, bytearray)):
        return Rejection("malformed", "serial line must be bytes")
    if len(line) > MAX_SERIAL_LINE:
        return Rejection("oversized", "serial line longer than %d bytes" % (MAX_SERIAL_LINE,))
    try:
        obj = _loads(line)
    except (ValueError, UnicodeError):
        return Rejection("malformed", "serial line is not valid JSON")
    if not isinstance(obj, dict) or not isinstance(obj.get("topic"), str) or "payload" not in obj:
        return Rejection("malformed", 'serial line must be {"topic": "luza/v1/...", "payload": {...}}')
    payload = obj["payload"]
    if isinstance(payload, str):
        return obj["topic"], payload.encode()
    return obj["topic"], _compact(payload)


# ---------------------------------------------------------------- the clock restamp (node side)


def restamp_event(payload, boot, offset):
    """An `evt` payload recorded on the uptime clock (`u: 1`) of boot `boot`, moved onto the hub clock by
    `offset` (hub ms - uptime ms). Anything else (already synced, another boot, unreadable) comes back as is."""
    if offset is None or b'"u"' not in payload:
        return payload
    try:
        obj = json.loads(payload)
    except ValueError:
        return payload
    if not isinstance(obj, dict) or obj.get("u") != 1 or obj.get("b") != boot or not _is_int(obj.get("t")):
        return payload
    obj["t"] = obj["t"] + offset
    del obj["u"]
    return _dump(obj)


def event_key(payload):
    """(boot, seq) of an `evt` payload this node built, or None if it cannot be read (cheap: no validation)."""
    try:
        obj = json.loads(payload)
        boot, seq = obj["b"], obj["s"]
    except (ValueError, KeyError, TypeError):
        return None
    if not _is_int(boot) or not _is_int(seq):
        return None
    return boot, seq


# ---------------------------------------------------------------- the hub's retained payloads


def encode_state(state):
    """The retained luza/v1/<table>/state payload: the table's state envelope (its `v` is STATE_VERSION)."""
    if state.get("v") != STATE_VERSION:
        raise ValueError("a table state must carry v=%d" % (STATE_VERSION,))
    return _compact(state)


def encode_hub_status(state, boot, ver, t):
    """The retained luza/v1/hub/status payload: {"v": 1, "st": online|offline|lost, "boot", "ver", "t"}."""
    return _compact({"v": VERSION, "st": state, "boot": boot, "ver": ver, "t": t})
