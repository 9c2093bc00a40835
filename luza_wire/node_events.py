"""An event payload as the node that built it handles it before it is sent (docs/wire.md): moved from the
node's uptime clock onto the hub's clock once the node knows the offset (`restamp_event`, firmware/clock.py),
and keyed by (boot, seq) in the node's outbox (`event_key`, firmware/delivery.py). Cheap: no validation (the
hub checks what arrives, luza_wire.protocol.parse_event).

Runs unchanged on CPython 3.11+ and MicroPython 1.2x, like the rest of luza_wire.
"""

import json

from luza_wire.frame import dump, is_int


def restamp_event(payload, boot, offset):
    """An `evt` payload recorded on the uptime clock (`u: 1`) of boot `boot`, moved onto the hub clock by
    `offset` (hub ms - uptime ms). Anything else (already synced, another boot,
    unreadable) comes back as is."""
    if offset is None or b'"u"' not in payload:
        return payload
    try:
        obj = json.loads(payload)
    except ValueError:
        return payload
    if not isinstance(obj, dict) or obj.get("u") != 1 or obj.get("b") != boot or not is_int(obj.get("t")):
        return payload
    obj["t"] = obj["t"] + offset
    del obj["u"]
    return dump(obj)


def event_key(payload):
    """(boot, seq) of an `evt` payload this node built,
    or None if it cannot be read (cheap: no validation)."""
    try:
        obj = json.loads(payload)
        boot, seq = obj["b"], obj["s"]
    except (ValueError, KeyError, TypeError):
        return None
    if not is_int(boot) or not is_int(seq):
        return None
    return boot, seq
