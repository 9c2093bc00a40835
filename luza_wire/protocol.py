"""Luza wire protocol v1: builds and parses the MQTT topics and payloads (docs/wire.md); with `telemetry` and
`node_events`, the only code that does.

Runs unchanged on CPython 3.11+ and MicroPython 1.2x: no dataclasses, enum or typing at run time, only
`json`. Parsing never raises: it returns a message of `luza_wire.messages`, or a `luza_wire.Rejection`
with a machine code and a reason a person can act on.

Topics: luza/v1/<table>/<device>/<channel> (channel: status, evt, tele, ans, cmd) and luza/v1/<table>/state.
Besides the node's channels this module builds the hub's retained payloads; the rules every payload follows
are in `frame`. Telemetry is `telemetry`, an event's restamp onto the hub's clock on the node `node_events`.
"""

from luza_wire import ota as _ota
from luza_wire.frame import (
    MAX_SEQ,
    MAX_T,
    PREFIX,
    VERSION,
    Rejection,
    compact,
    dump,
    first_rejection,
    int_field,
    is_int,
    load,
    num_field,
    valid_id,
)
from luza_wire.messages import Command, Event, Status, Topic
from luza_wire.resend import check_range, parse_answer
from luza_wire.telemetry import parse_tele

STATE_VERSION = 1  # the `v` of the retained luza/v1/<table>/state payload (docs/web-api.md)
HUB_STATUS_TOPIC = PREFIX + "/hub/status"
CHANNELS = ("status", "evt", "tele", "cmd", "ans")
NODE_CHANNELS = ("status", "evt", "tele", "ans")
EVENT_KINDS = ("pocket", "strike", "jam", "clear", "calib", "out", "flag")
# why a pocket node raised a `flag` (firmware/pocket.py FLAG_NAMES): what its beams could not settle
FLAG_REASONS = ("two", "edges", "noise", "dead", "single", "full", "boot", "bounce")
# ota: luza_wire/ota.py
COMMANDS = ("time", "identify", "config", "calibrate", "reboot", "stored", "resend", "ota")
STATUS_STATES = ("online", "lost", "offline", "error")
COLOURS = ("ivory", "yellow", "blue", "black", "green", "red")
ROLES = ("pocket", "cue")

# one string per kind, colour and device id seen (at most MAX_IDS)
_IDS = {k: k for k in EVENT_KINDS + COLOURS}
MAX_IDS = 512


def shared_id(s):
    """The one copy of an id string (event kind, colour, device id) the hub keeps; the first `MAX_IDS` are
    kept, so a flood of made-up ids cannot grow the table."""
    got = _IDS.get(s)
    if got is None:
        if len(_IDS) < MAX_IDS:
            _IDS[s] = s
        return s
    return got


# ---------------------------------------------------------------- ids and topics


def topic(table, device, channel):
    if not valid_id(table) or not valid_id(device) or channel not in CHANNELS:
        raise ValueError("bad topic parts: %r %r %r" % (table, device, channel))
    return PREFIX + "/" + table + "/" + device + "/" + channel


def state_topic(table):
    if not valid_id(table):
        raise ValueError("bad table id: %r" % (table,))
    return PREFIX + "/" + table + "/state"


def subscriptions():
    """The topic filters the hub subscribes to (QoS 1)."""
    return [PREFIX + "/+/+/" + ch for ch in NODE_CHANNELS]


def parse_topic(name):
    """`luza/v1/<table>/<device>/<channel>` -> Topic, or Rejection."""
    parts = name.split("/")
    if len(parts) != 5 or parts[0] != "luza":
        return Rejection("bad_topic", "topic %r is not luza/v1/<table>/<device>/<channel>" % (name,))
    if parts[1] != "v1":
        return Rejection("bad_version", "topic %r uses protocol %r; this hub speaks v1" % (name, parts[1]))
    if not valid_id(parts[2]) or not valid_id(parts[3]):
        return Rejection(
            "bad_id", "table and device ids must be 1-32 of a-z, 0-9 and '-' (topic %r)" % (name,)
        )
    if parts[4] not in CHANNELS:
        return Rejection(
            "bad_channel", "unknown channel %r (expected one of %s)" % (parts[4], ", ".join(CHANNELS))
        )
    return Topic(parts[2], parts[3], parts[4])


# ---------------------------------------------------------------- building


def encode_event(kind, device, boot, seq, t, synced=True, up=None, **fields):
    """Build an `evt` payload (bytes). Fields with value None are left out. `up`: the node's uptime (ms) at
    the event, what the hub places it by (its `t` may come from a clock that stepped)."""
    obj = {"v": VERSION, "k": kind, "d": device, "b": boot, "s": seq, "t": t}
    if not synced:
        obj["u"] = 1  # t is on the node's uptime clock
    if up is not None:
        obj["up"] = up
    for name in fields:
        value = fields[name]
        if value is not None:
            obj[name] = value
    return dump(obj)


def encode_status(state, boot, fw="", ip="", role="", error=None, ota=None):
    """`ota`: the node's update progress or result (an object, luza_wire/ota.py), when it has one."""
    obj = {"v": VERSION, "st": state, "b": boot, "fw": fw, "ip": ip, "role": role}
    if error:
        obj["err"] = error
    if ota:
        obj["ota"] = ota
    return dump(obj)


RESERVED = ("v", "c", "id")  # a command's own keys; its arguments cannot use them


def encode_command(name, cid=0, **args):
    """Build a `cmd` payload. The calibrate colour travels as `col` (`c` is the command's name)."""
    for key in args:
        if key in RESERVED:
            raise ValueError(
                "command argument %r clashes with the payload's own key (use col= for a colour)" % (key,)
            )
    obj = {"v": VERSION, "c": name, "id": cid}
    for name_ in args:
        obj[name_] = args[name_]
    return dump(obj)


# ---------------------------------------------------------------- parsing


def _event_fields(kind, obj):
    """The kind-specific fields of an event as a dict, or a Rejection."""
    if kind == "strike":
        peak = num_field(obj, "pk", 0, 1000)
        gap = num_field(obj, "gap", 0, 10000)
        dbl = obj.get("dbl", False)
        if not isinstance(dbl, bool):
            return Rejection("bad_field", "field 'dbl' must be true or false, got %r" % (dbl,))
        bad = first_rejection((peak, gap))
        if bad:
            return bad
        return {"peak": peak, "double": dbl, "gap": gap}
    pocket = int_field(obj, "p", 1, 6)
    dur = num_field(obj, "dur", 0, 86400000)
    bad = first_rejection((pocket, dur))
    if bad:
        return bad
    fields = {"pocket": pocket, "dur": dur}
    if kind in ("jam", "clear", "out", "flag", "pocket"):
        beam = int_field(obj, "bm", 0, 1, required=False)  # 0 upper, 1 lower
        if isinstance(beam, Rejection):
            return beam
        if beam is not None or kind != "pocket":  # a pocket's `bm`: counted without that (dead) beam
            fields["beam"] = beam
    if kind == "flag":
        why = obj.get("why")
        if why not in FLAG_REASONS:
            return Rejection("bad_field", "flag 'why' %r is not one of %s" % (why, ", ".join(FLAG_REASONS)))
        fields["why"] = why
    if kind == "pocket" or kind == "calib":
        colour = obj.get("c")
        if colour is not None and colour not in COLOURS:
            return Rejection(
                "bad_field", "unknown colour %r (expected one of %s)" % (colour, ", ".join(COLOURS))
            )
        conf = num_field(obj, "cf", 0, 1)
        if isinstance(conf, Rejection):
            return conf
        fields["colour"] = colour
        fields["conf"] = conf
    if kind == "calib":
        rgb = obj.get("rgb")
        if not isinstance(rgb, list) or not 3 <= len(rgb) <= 4 or not all(is_int(c) for c in rgb):
            return Rejection("bad_field", "field 'rgb' must be a list of 3 or 4 integers")
        fields["rgb"] = rgb
    return fields


def parse_event(payload, device=None):
    """An `evt` payload -> Event, or Rejection. `device`, if given, must match the payload's."""
    obj = load(payload)
    if isinstance(obj, Rejection):
        return obj
    kind = obj.get("k")
    if kind not in EVENT_KINDS:
        return Rejection(
            "unknown_kind", "unknown event kind %r (expected one of %s)" % (kind, ", ".join(EVENT_KINDS))
        )
    dev = obj.get("d")
    if not valid_id(dev):
        return Rejection(
            "bad_field", "field 'd' must be a device id (1-32 of a-z, 0-9, '-'), got %r" % (dev,)
        )
    if device is not None and dev != device:
        return Rejection(
            "device_mismatch", "payload says device %r but was published on %r's topic" % (dev, device)
        )
    boot = int_field(obj, "b", 0, MAX_SEQ)
    seq = int_field(obj, "s", 0, MAX_SEQ)
    t = int_field(obj, "t", 0, MAX_T)
    up = int_field(obj, "up", 0, MAX_T, required=False)
    bad = first_rejection((boot, seq, t, up))
    if bad:
        return bad
    fields = _event_fields(kind, obj)
    if isinstance(fields, Rejection):
        return fields
    if fields.get("colour") is not None:
        fields["colour"] = shared_id(fields["colour"])
    return Event(shared_id(kind), shared_id(dev), boot, seq, t, obj.get("u") != 1, fields, up)


def parse_status(payload):
    obj = load(payload)
    if isinstance(obj, Rejection):
        return obj
    st = obj.get("st")
    if st not in STATUS_STATES:
        return Rejection("bad_field", "status %r is not one of %s" % (st, ", ".join(STATUS_STATES)))
    boot = int_field(obj, "b", 0, MAX_SEQ, required=st != "lost")
    if isinstance(boot, Rejection):
        return boot
    role = obj.get("role", "")
    if role and role not in ROLES:
        return Rejection("bad_field", "role %r is not one of %s" % (role, ", ".join(ROLES)))
    fw = obj.get("fw", "")
    ip = obj.get("ip", "")
    err = obj.get("err")
    if not isinstance(fw, str) or not isinstance(ip, str) or (err is not None and not isinstance(err, str)):
        return Rejection("bad_field", "fields 'fw', 'ip' and 'err' must be strings")
    ota = _ota.check_status(obj.get("ota"))
    if isinstance(ota, Rejection):
        return ota
    return Status(st, boot, fw, ip, role, err, ota)


def parse_command(payload):
    """A `cmd` payload -> Command, or Rejection. Checks each command's own arguments."""
    obj = load(payload)
    if isinstance(obj, Rejection):
        return obj
    name = obj.get("c")
    if name not in COMMANDS:
        return Rejection(
            "unknown_command", "unknown command %r (expected one of %s)" % (name, ", ".join(COMMANDS))
        )
    cid = int_field(obj, "id", 0, MAX_SEQ, required=False)
    if isinstance(cid, Rejection):
        return cid
    args = {}
    for k in obj:
        if k not in ("v", "c", "id"):
            args[k] = obj[k]
    bad = _check_args(name, obj, args)
    if bad is not None:
        return bad
    return Command(name, cid or 0, args)


def _check_args(name, obj, args):
    """None if command `name`'s own arguments are valid
    (filling the parsed view into `args`), else a Rejection."""
    if name == "time":
        return _rejection_of(int_field(obj, "hub", 0, MAX_T))
    if name == "config":
        if not isinstance(obj.get("set"), dict):
            return Rejection("bad_field", "command 'config' needs an object 'set' of settings to change")
    elif name == "calibrate":
        pocket = int_field(obj, "p", 1, 6)
        if isinstance(pocket, Rejection):
            return pocket
        colour = obj.get("col")
        if colour not in COLOURS:
            return Rejection(
                "bad_field", "command 'calibrate' needs a colour 'col', one of %s" % (", ".join(COLOURS),)
            )
        args["c"] = colour  # the parsed view names it like events do
    elif name == "identify":
        return _rejection_of(num_field(obj, "s", 0, 600))
    elif name == "stored":
        return first_rejection((int_field(obj, "b", 0, MAX_SEQ), int_field(obj, "s", 0, MAX_SEQ)))
    elif name == "resend":
        return check_range(obj, "command 'resend'")
    elif name == "ota":
        return _ota.check_command(obj)
    return None


def _rejection_of(x):
    return x if isinstance(x, Rejection) else None


def parse(channel, payload, device=None):
    """Parse a node -> hub payload by channel. Never raises."""
    try:
        if channel == "evt":
            return parse_event(payload, device)
        if channel == "status":
            return parse_status(payload)
        if channel == "tele":
            return parse_tele(payload)
        if channel == "cmd":
            return parse_command(payload)
        if channel == "ans":
            return parse_answer(payload)
        return Rejection("bad_channel", "unknown channel %r" % (channel,))
    except Exception as exc:  # a parser bug must not stop ingest; it is reported as a rejection
        return Rejection("parser_error", "could not parse payload: %s" % (exc,))


# ---------------------------------------------------------------- the hub's retained payloads


def encode_state(state):
    """The retained luza/v1/<table>/state payload: the table's state envelope (its `v` is STATE_VERSION)."""
    if state.get("v") != STATE_VERSION:
        raise ValueError("a table state must carry v=%d" % (STATE_VERSION,))
    return compact(state)


def encode_hub_status(state, boot, ver, t):
    """The retained luza/v1/hub/status payload: {"v": 1, "st": online|offline|lost, "boot", "ver", "t"}."""
    return compact({"v": VERSION, "st": state, "boot": boot, "ver": ver, "t": t})
