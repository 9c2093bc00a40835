"""One wire payload on a serial line: the USB gateway mode, where a node without Wi-Fi speaks to the hub over
its USB serial port instead of MQTT (docs/wire.md "Serial"). Node -> hub and hub -> node alike.

Runs unchanged on CPython 3.11+ and MicroPython 1.2x.
"""

import json

from luza_wire.frame import Rejection, compact, loads

MAX_SERIAL_LINE = 4096  # bytes of one serial line; a payload is at most MAX_PAYLOAD, the envelope adds little


def encode_serial(topic, payload):
    """One serial line (str, with its newline): {"topic": ..., "payload": <the JSON payload itself>}.

    Node -> hub and hub -> node alike; the payload is embedded as JSON
    (not a string), as built by this module.
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
        obj = loads(line)
    except (ValueError, UnicodeError):
        return Rejection("malformed", "serial line is not valid JSON")
    if not isinstance(obj, dict) or not isinstance(obj.get("topic"), str) or "payload" not in obj:
        return Rejection("malformed", 'serial line must be {"topic": "luza/v1/...", "payload": {...}}')
    payload = obj["payload"]
    if isinstance(payload, str):
        return obj["topic"], payload.encode()
    return obj["topic"], compact(payload)
