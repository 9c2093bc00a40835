"""Runs wire-protocol vectors; imported by the CPython tests and copied into MicroPython (keep it portable).

A vector is ["parse", channel, payload(str), device-or-None], ["topic", name], or ["encode", fn, args, kwargs];
the result is a plain JSON-able description, so the two runtimes compare with ==.
"""

from shared_rules import wire


def describe(m):
    if isinstance(m, wire.Rejection):
        return ["rejection", m.code, m.reason]
    if isinstance(m, wire.Event):
        return ["event", m.kind, m.device, m.boot, m.seq, m.t, m.synced, _sorted(m.fields)]
    if isinstance(m, wire.Status):
        return ["status", m.state, m.boot, m.fw, m.ip, m.role, m.error]
    if isinstance(m, wire.Telemetry):
        return ["tele", m.boot, _sorted(m.fields)]
    if isinstance(m, wire.Command):
        return ["command", m.name, m.cid, _sorted(m.args)]
    if isinstance(m, wire.Topic):
        return ["topic", m.table, m.device, m.channel]
    if isinstance(m, wire.Answer):
        return ["answer", m.re, m.cid, m.boot, m.lo, m.hi, [list(g) for g in m.gone], m.sent]
    return ["other", repr(m)]


def _sorted(d):
    return [[k, d[k]] for k in sorted(d)]


def encode(vec):
    """The payload an ["encode", ...] vector builds, as text."""
    return getattr(wire, vec[1])(*vec[2], **vec[3]).decode()


def _encoded(payload):
    import json

    return ["encoded", len(payload), _sorted(json.loads(payload))]


def run(vec):
    op = vec[0]
    if op == "parse":
        payload = vec[2]
        if isinstance(payload, str):
            payload = payload.encode()
        return describe(wire.parse(vec[1], payload, vec[3]))
    if op == "topic":
        return describe(wire.parse_topic(vec[1]))
    if op == "encode":  # MicroPython's dicts do not keep insertion order: compare content and size
        return _encoded(getattr(wire, vec[1])(*vec[2], **vec[3]))
    if op == "serial":  # a serial line -> (topic, payload) or a rejection
        got = wire.parse_serial(vec[1])
        if isinstance(got, wire.Rejection):
            return describe(got)
        import json

        return ["serial", got[0], _sorted(json.loads(got[1]))]  # MicroPython has no compact separators
    if op == "restamp":  # ["restamp", payload, boot, offset]
        return _encoded(wire.restamp_event(vec[1].encode(), vec[2], vec[3]))
    raise ValueError("unknown vector op " + repr(op))


def run_all(vectors):
    return [run(v) for v in vectors]
