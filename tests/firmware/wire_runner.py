"""Runs wire-protocol vectors; imported by the CPython tests and copied into MicroPython (keep it portable).

A vector is ["parse", channel, payload(str), device-or-None], ["topic", name], or ["encode", fn, args,
kwargs]; the result is a plain JSON-able description, so the two runtimes compare with ==.
"""

from luza_wire import envelope, node_events, protocol, resend, telemetry
from luza_wire.frame import Rejection
from luza_wire.messages import Answer, Command, Event, Status, Telemetry, Topic


def describe(m):
    if isinstance(m, Rejection):
        return ["rejection", m.code, m.reason]
    if isinstance(m, Event):
        return ["event", m.kind, m.device, m.boot, m.seq, m.t, m.synced, _sorted(m.fields)]
    if isinstance(m, Status):
        return ["status", m.state, m.boot, m.fw, m.ip, m.role, m.error, _sorted(m.ota) if m.ota else None]
    if isinstance(m, Telemetry):
        return ["tele", m.boot, _sorted(m.fields)]
    if isinstance(m, Command):
        return ["command", m.name, m.cid, _sorted(m.args)]
    if isinstance(m, Topic):
        return ["topic", m.table, m.device, m.channel]
    if isinstance(m, Answer):
        return ["answer", m.re, m.cid, m.boot, m.lo, m.hi, [list(g) for g in m.gone], m.sent]
    return ["other", repr(m)]


def _sorted(d):
    return [[k, d[k]] for k in sorted(d)]


def _encoder(name):
    """The function an ["encode", name, ...] vector calls: `resend`'s for an answer, `telemetry`'s for
    telemetry, else `protocol`'s."""
    module = resend if name == "encode_answer" else telemetry if name == "encode_tele" else protocol
    return getattr(module, name)


def encode(vec):
    """The payload an ["encode", ...] vector builds, as text."""
    return _encoder(vec[1])(*vec[2], **vec[3]).decode()


def _encoded(payload):
    import json

    return ["encoded", len(payload), _sorted(json.loads(payload))]


def run(vec):
    op = vec[0]
    if op == "parse":
        payload = vec[2]
        if isinstance(payload, str):
            payload = payload.encode()
        return describe(protocol.parse(vec[1], payload, vec[3]))
    if op == "topic":
        return describe(protocol.parse_topic(vec[1]))
    if op == "encode":  # MicroPython's dicts do not keep insertion order: compare content and size
        return _encoded(_encoder(vec[1])(*vec[2], **vec[3]))
    if op == "serial":  # a serial line -> (topic, payload) or a rejection
        got = envelope.parse_serial(vec[1])
        if isinstance(got, Rejection):
            return describe(got)
        import json

        return ["serial", got[0], _sorted(json.loads(got[1]))]  # MicroPython has no compact separators
    if op == "restamp":  # ["restamp", payload, boot, offset]
        return _encoded(node_events.restamp_event(vec[1].encode(), vec[2], vec[3]))
    raise ValueError("unknown vector op " + repr(op))


def run_all(vectors):
    return [run(v) for v in vectors]
