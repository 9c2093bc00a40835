"""The resend exchange of the wire contract: the hub's `resend` command asks a node for a range of its events
again, and the node answers (channel `ans`) with the ones it no longer holds (docs/wire.md "Delivery").

Runs unchanged on CPython 3.11+ and MicroPython 1.2x.
"""

from luza_wire.frame import MAX_SEQ, VERSION, Rejection, dump, first_rejection, int_field, is_int, load
from luza_wire.messages import Answer

MAX_GONE = 16  # [first, last] ranges one `ans` to a `resend` may list; the hub asks again for the rest
MAX_RESEND = 4096  # seqs one `resend` may ask for


def runs(seqs):
    """Sorted ints -> [(first, last)] runs of consecutive values (the `gone` ranges of an answer):
    runs([1, 2, 3, 7, 9, 10]) == [(1, 3), (7, 7), (9, 10)]."""
    out = []  # type: list
    for s in seqs:
        if out and s == out[-1][1] + 1:
            out[-1] = (out[-1][0], s)
        elif not out or s > out[-1][1]:
            out.append((s, s))
    return out


def _ranges_field(obj, name, lo, hi, most):
    """A list of at most `most` [first, last] seq ranges inside lo..hi,
    ascending and apart, or a Rejection."""
    x = obj.get(name, [])
    bad = Rejection(
        "bad_field",
        "field %r must be a list of at most %d ascending [first, last] ranges within "
        "%d..%d" % (name, most, lo, hi),
    )
    if not isinstance(x, list) or len(x) > most:
        return bad
    out = []
    floor = lo
    for r in x:
        if not isinstance(r, list) or len(r) != 2 or not is_int(r[0]) or not is_int(r[1]):
            return bad
        if r[0] < floor or r[1] < r[0] or r[1] > hi:
            return bad
        out.append((r[0], r[1]))
        floor = r[1] + 1
    return out


def check_range(obj, what):
    """`b`, `lo`, `hi` of a seq range (1 <= lo <= hi, at most MAX_RESEND seqs): None or a Rejection."""
    bad = first_rejection(
        (int_field(obj, "b", 0, MAX_SEQ), int_field(obj, "lo", 1, MAX_SEQ), int_field(obj, "hi", 1, MAX_SEQ))
    )
    if bad is not None:
        return bad
    if not 0 <= obj["hi"] - obj["lo"] < MAX_RESEND:
        return Rejection(
            "bad_field",
            "%s needs lo <= hi, at most %d seqs apart (got %d..%d)"
            % (what, MAX_RESEND, obj["lo"], obj["hi"]),
        )
    return None


def encode_answer(re, cid, boot, lo, hi, gone, sent):
    """Build an `ans` payload: {"v", "re", "id", "b", "lo", "hi", "gone": [[first, last], ...], "n": sent}."""
    return dump(
        {
            "v": VERSION,
            "re": re,
            "id": cid,
            "b": boot,
            "lo": lo,
            "hi": hi,
            "gone": [[a, b] for a, b in gone[:MAX_GONE]],
            "n": sent,
        }
    )


def parse_answer(payload):
    """An `ans` payload -> Answer, or Rejection."""
    obj = load(payload)
    if isinstance(obj, Rejection):
        return obj
    re = obj.get("re")
    if re != "resend":
        return Rejection("bad_field", "answer 're' %r is not a command that is answered (resend)" % (re,))
    bad = check_range(obj, "answer") or first_rejection(
        (int_field(obj, "id", 0, MAX_SEQ, required=False), int_field(obj, "n", 0, MAX_SEQ, required=False))
    )
    if bad is not None:
        return bad
    gone = _ranges_field(obj, "gone", obj["lo"], obj["hi"], MAX_GONE)
    if isinstance(gone, Rejection):
        return gone
    return Answer(re, obj.get("id") or 0, obj["b"], obj["lo"], obj["hi"], gone, obj.get("n") or 0)
