"""The over-the-air update's part of the wire contract: the `ota` command's arguments and the `ota` object a
node's `status` carries (progress and result). Runs on CPython and MicroPython; `luza_wire.protocol` calls it.
docs/wire.md has the contract, docs/firmware.md ("Updates") what each state means on the node.
"""

from luza_wire.frame import Rejection, int_field

# What a node says about an update in its status (`ota.st`):
OTA_STATES = ("fetch", "staged", "trial", "ok", "rolled_back", "refused")
# the `ota` command: download and stage / reboot into the staged one / stop
OTA_DO = ("fetch", "swap", "cancel")
MAX_RELEASE = 64
_RELEASE_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-"


def valid_release(r):
    """A release id: 1-64 of letters, digits and . _ + - (it is a folder name on the hub and in URLs)."""
    if not isinstance(r, str) or not 0 < len(r) <= MAX_RELEASE or r[0] == ".":
        return False
    for ch in r:
        if ch not in _RELEASE_CHARS:
            return False
    return True


def check_command(obj):
    """None if the `ota` command's arguments are valid, else a Rejection."""
    if not valid_release(obj.get("r")):
        return Rejection(
            "bad_field", "command 'ota' needs a release id 'r' (1-64 of letters, digits, . _ + -)"
        )
    do = obj.get("do", "fetch")
    if do not in OTA_DO:
        return Rejection(
            "bad_field", "command 'ota' field 'do' %r is not one of %s" % (do, ", ".join(OTA_DO))
        )
    if do == "fetch":
        port = int_field(obj, "port", 1, 65535)
        if isinstance(port, Rejection):
            return port
        host = obj.get("host")
        if host is not None and (not isinstance(host, str) or not 0 < len(host) <= 64):
            return Rejection(
                "bad_field", "command 'ota' field 'host' must be the hub's address (1-64 characters)"
            )
    return None


def check_status(ota):
    """The `ota` object of a status: None (absent), the object itself if valid, or a Rejection."""
    if ota is None:
        return None
    if not isinstance(ota, dict) or ota.get("st") not in OTA_STATES:
        return Rejection(
            "bad_field", "status field 'ota' must be an object with 'st' one of %s" % (", ".join(OTA_STATES),)
        )
    for key, limit in (("r", MAX_RELEASE), ("to", 32), ("err", 100)):
        v = ota.get(key)
        if v is not None and (not isinstance(v, str) or len(v) > limit):
            return Rejection(
                "bad_field", "status field 'ota.%s' must be a string of at most %d" % (key, limit)
            )
    for key in ("n", "of"):
        bad = int_field(ota, key, 0, 10000, required=False)
        if isinstance(bad, Rejection):
            return bad
    out = {}
    for key in ("st", "r", "to", "err", "n", "of"):
        if ota.get(key) is not None:
            out[key] = ota[key]
    return out
