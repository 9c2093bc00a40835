"""The rules every payload of the wire contract follows: its version, size and JSON, the ids, the checks of
one field, and the `Rejection` a parser returns instead of raising.

`protocol` and `envelope` build on these; the hub and the firmware use `Rejection` and `valid_id`. Runs
unchanged on CPython 3.11+ and MicroPython 1.2x (docs/wire.md).
"""

import json

VERSION = 1
PREFIX = "luza/v1"
MAX_PAYLOAD = 1024  # bytes; a node's messages are well under 300
MAX_ID = 32
MAX_SEQ = 2**53  # JSON-safe integers
MAX_T = 2**53


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


def dump(obj):
    """A payload as bytes (the node's messages: plain json.dumps, which MicroPython also has)."""
    return json.dumps(obj).encode()


def _reject_constant(name):
    raise ValueError("JSON has no %s" % (name,))


def loads(payload):
    """json.loads that refuses NaN and Infinity on CPython as MicroPython does (ValueError)."""
    if _STRICT:
        return json.loads(payload, parse_constant=_reject_constant)
    return json.loads(payload)


try:  # CPython's json accepts NaN and Infinity; MicroPython's does not. Reject them on both, alike.
    json.loads("1", parse_constant=_reject_constant)
    _STRICT = True
except TypeError:  # MicroPython: no keyword arguments, and no NaN to begin with
    _STRICT = False


def compact(obj):
    """Compact UTF-8 JSON (the hub's retained payloads); plain json.dumps where keywords are missing."""
    try:
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()
    except TypeError:  # MicroPython's json.dumps takes no keywords
        return json.dumps(obj).encode()


def load(payload):
    """A payload -> its JSON object of this protocol version, or a Rejection (size, JSON, object, `v`)."""
    if isinstance(payload, str):
        payload = payload.encode()
    if not isinstance(payload, (bytes, bytearray)):
        return Rejection("malformed", "payload must be bytes, got %s" % (type(payload).__name__,))
    if len(payload) > MAX_PAYLOAD:
        return Rejection("oversized", "payload is %d bytes; the limit is %d" % (len(payload), MAX_PAYLOAD))
    try:
        obj = loads(payload)
    except (ValueError, UnicodeError):
        return Rejection("malformed", "payload is not valid JSON")
    if not isinstance(obj, dict):
        return Rejection("malformed", "payload must be a JSON object")
    v = obj.get("v")
    if v != VERSION or isinstance(v, bool):
        return Rejection("bad_version", "payload version %r; this hub speaks v%d" % (v, VERSION))
    return obj


# ---------------------------------------------------------------- field checks


def is_int(x):
    """An int that is not a bool (JSON true is not a number here)."""
    return isinstance(x, int) and not isinstance(x, bool)


def is_num(x):
    """An int or float that is not a bool."""
    return (isinstance(x, int) or isinstance(x, float)) and not isinstance(x, bool)


def int_field(obj, name, lo, hi, required=True):
    """The value of an int field in [lo, hi], None if absent and optional, or a Rejection."""
    if name not in obj:
        if required:
            return Rejection("missing_field", "field %r is missing" % (name,))
        return None
    x = obj[name]
    if not is_int(x) or x < lo or x > hi:
        return Rejection("bad_field", "field %r must be an integer %d..%d, got %r" % (name, lo, hi, x))
    return x


def num_field(obj, name, lo, hi):
    """The value of an optional number field in [lo, hi], None if absent, or a Rejection."""
    if name not in obj:
        return None
    x = obj[name]
    if not is_num(x) or x < lo or x > hi:
        return Rejection("bad_field", "field %r must be a number %s..%s, got %r" % (name, lo, hi, x))
    return x


def first_rejection(values):
    """The first Rejection among `values`, or None."""
    for x in values:
        if isinstance(x, Rejection):
            return x
    return None
