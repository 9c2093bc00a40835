"""Over-the-air update scenarios through firmware/ota.py on a real file system; imported by the CPython test
and copied into MicroPython (tests/firmware/test_ota.py),
so both runtimes must give the same plain-JSON results.

Each step is what the node or its loader does; the files are small builds made here, signed like the hub signs
(HMAC-SHA256 under the node's key: hub/ota/manifest.py does the same with Python's hmac module).
"""

import hashlib
import json
from binascii import hexlify

from firmware import ota
from firmware.flash import Flash

DEVICE = "p3"
KEY = ota.node_key("s3cret-broker-password")


def sha(data):
    return hexlify(hashlib.sha256(data).digest()).decode()


def build(version, files):
    """{path: bytes} -> the manifest's file list."""
    return [[p, len(files[p]), sha(files[p])] for p in sorted(files)]


def body(manifest, key=KEY):
    data = json.dumps(manifest).encode()
    return ota.hexd(ota.hmac_sha256(key, data)).encode() + b"\n" + data


def manifest(release, version, files, kind="fw", dev=DEVICE):
    return {"v": 1, "dev": dev, "r": release, "kind": kind, "fw": version, "files": build(version, files)}


FILES = {
    "firmware/__init__.py": b"VERSION = '0.2.0'\n",
    "firmware/node.py": b"x = 1\n" * 300,
    "luza_wire/protocol.py": b"# wire\n",
}


def stage(flash, st, m, files, slot=None, corrupt=None, extra=b""):
    """Stage every file as the updater does (in 100-byte pieces); returns None or why it was refused."""
    s = ota.Stager(flash, m, slot or ota.stage_slot(st))
    why = s.begin()
    if why:
        return why
    for i in range(len(m["files"])):
        path = s.open(i)
        data = files[path]
        if path == corrupt:
            data = data[:-1] + bytes([data[-1] ^ 1])
        data = data + (extra if path == corrupt else b"")
        for k in range(0, len(data), 100):
            if not s.write(data[k : k + 100]):
                break
        why = s.close()
        if why:
            s.abort()
            return why
    s.finish()
    ota.staged(flash, st, m, s.slot)
    return None


def signatures():
    out = {
        "rfc4231_1": ota.hexd(ota.hmac_sha256(b"\x0b" * 20, b"Hi There")),
        "rfc4231_2": ota.hexd(ota.hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
        "long_key": ota.hexd(
            ota.hmac_sha256(b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First")
        ),
        "key": ota.hexd(KEY),
        "auth": ota.auth(KEY, "/ota/p3/r1/manifest"),
        "same": [ota.same("ab", "ab"), ota.same("ab", "ac"), ota.same("ab", "abc")],
    }
    return out


def manifests():
    m = manifest("0.2.0-aa", "0.2.0", FILES)
    good = body(m)
    res = {
        "good": ota.parse_manifest(good, KEY, DEVICE, "0.2.0-aa")[1],
        "kept": ota.parse_manifest(bytearray(good), KEY, DEVICE, "0.2.0-aa")[0]["fw"],
        "tampered": ota.parse_manifest(good.replace(b"0.2.0", b"0.2.1"), KEY, DEVICE, "0.2.0-aa")[1],
        "other_key": ota.parse_manifest(body(m, ota.node_key("other")), KEY, DEVICE, "0.2.0-aa")[1],
        "other_node": ota.parse_manifest(
            body(manifest("0.2.0-aa", "0.2.0", FILES, dev="p4")), KEY, DEVICE, "0.2.0-aa"
        )[1],
        "other_release": ota.parse_manifest(good, KEY, DEVICE, "0.2.0-bb")[1],
        "no_sig": ota.parse_manifest(b"{}", KEY, DEVICE, "0.2.0-aa")[1],
        "not_hex": ota.parse_manifest(b"\xff" * 64 + b"\n{}", KEY, DEVICE, "0.2.0-aa")[1],
        "huge": ota.parse_manifest(b"0" * 64 + b"\n" + b" " * ota.MAX_MANIFEST, KEY, DEVICE, "0.2.0-aa")[1],
    }
    for name, path in (
        ("dotdot", "firmware/../main.py"),
        ("abs", "/firmware/x.py"),
        ("hidden", "firmware/.x"),
        ("outside", "lib/x.py"),
        ("space", "firmware/a b.py"),
    ):
        bad = manifest("r", "1", {path: b"x"})
        res[name] = ota.parse_manifest(body(bad), KEY, DEVICE, "r")[1]
    two = manifest("c", "config", {"config.json": b"{}", "other.json": b"{}"}, kind="cfg")
    res["cfg_two"] = ota.parse_manifest(body(two), KEY, DEVICE, "c")[1]
    cfg = manifest("c", "config", {"config.json": b"{}"}, kind="cfg")
    res["cfg"] = ota.parse_manifest(body(cfg), KEY, DEVICE, "c")[1]
    return res


def lifecycle(root):
    flash = Flash(root)
    out = {}
    out["fresh"] = list(ota.boot(flash)[:2])
    st = ota.load_state(flash)
    m = manifest("0.2.0-aa", "0.2.0", FILES)
    ota.begin_fetch(flash, st, "0.2.0-aa", "0.2.0")
    out["cut_download"] = [ota.boot(flash)[0], ota.report(ota.load_state(flash))]
    st = ota.load_state(flash)
    out["corrupt"] = stage(flash, st, m, FILES, corrupt="firmware/node.py")
    out["corrupt_slot_gone"] = flash.is_dir("/ota/a")
    out["too_long"] = stage(flash, st, m, FILES, corrupt="firmware/__init__.py", extra=b"!")
    out["staged"] = stage(flash, st, m, FILES)
    out["staged_report"] = ota.report(st)
    out["swap_other"] = ota.activate(flash, st, "0.3.0-zz")
    out["swap"] = ota.activate(flash, st, "0.2.0-aa")
    out["trial_boot"] = list(ota.boot(flash)[:2])
    out["on_trial"] = ota.on_trial(flash)
    ota.crashed(flash, "ImportError('no module named x')")
    out["after_crash"] = list(ota.boot(flash)[:2])
    out["rolled_back"] = ota.report(ota.load_state(flash))
    out["on_trial_after"] = ota.on_trial(flash)
    # again, and this time the trial confirms itself
    st = ota.load_state(flash)
    stage(flash, st, m, FILES)
    ota.activate(flash, st, "0.2.0-aa")
    slot, _, st = ota.boot(flash)
    out["verify"] = ota.verify_slot(flash, slot)
    out["commit"] = ota.commit(flash, st)
    out["kept"] = ota.report(ota.load_state(flash))
    out["next_boot"] = list(ota.boot(flash)[:2])
    out["next_slot"] = ota.stage_slot(ota.load_state(flash))
    with open(flash.path("/ota/a/firmware/node.py"), "r+b") as f:
        f.seek(10)
        f.write(b"Y")
    out["verify_rotten"] = ota.verify_slot(flash, "/ota/a")
    # a trial that never confirms (hung, reset by the loader's timer) rolls back to /ota/a, not to the root
    st = ota.load_state(flash)
    m2 = manifest("0.3.0-bb", "0.3.0", FILES)
    out["second_stage"] = stage(flash, st, m2, FILES)
    ota.activate(flash, st, "0.3.0-bb")
    out["second_trial"] = list(ota.boot(flash)[:2])
    out["second_unconfirmed"] = list(ota.boot(flash)[:2])
    out["second_report"] = ota.report(ota.load_state(flash))
    return out


def config_change(root):
    flash = Flash(root)
    flash.write("/config.json", b'{"tele_s": 30}')
    st = ota.load_state(flash)
    m = manifest("cfg-01", "config", {"config.json": b'{"tele_s": 10}'}, kind="cfg")
    flash.write(ota.STAGED_CONFIG, b'{"tele_s": 10}')
    ota.staged(flash, st, m, "")
    ota.activate(flash, st, "cfg-01")
    out = {"trial": list(ota.boot(flash)[:2])}
    out["rollback"] = list(ota.boot(flash)[:2])
    out["staged_gone"] = flash.size(ota.STAGED_CONFIG)
    out["config_kept"] = flash.read("/config.json").decode()
    st = ota.load_state(flash)
    flash.write(ota.STAGED_CONFIG, b'{"tele_s": 10}')
    ota.staged(flash, st, m, "")
    ota.activate(flash, st, "cfg-01")
    _, _, st = ota.boot(flash)
    st["move"] = 1  # the power goes between the committed state and the rename: the next boot finishes it
    st["last"] = {"st": "ok", "r": "cfg-01", "to": "config"}
    for k in ("try", "n", "kind"):
        st.pop(k)
    ota.save_state(flash, st)
    out["resumed"] = list(ota.boot(flash)[:2])
    out["config_new"] = flash.read("/config.json").decode()
    out["report"] = ota.report(ota.load_state(flash))
    return out


class _Full(Flash):
    def free(self):
        return 1000


def no_room(root):
    flash = _Full(root)
    st = ota.load_state(flash)
    return stage(flash, st, manifest("r", "1", FILES), FILES)


def run(root):
    return {
        "signatures": signatures(),
        "manifests": manifests(),
        "lifecycle": lifecycle(root + "/a"),
        "config": config_change(root + "/b"),
        "no_room": no_room(root + "/c"),
    }


def _mkdirs(root):
    import os

    for d in (root, root + "/a", root + "/b", root + "/c"):
        try:  # noqa: SIM105 (MicroPython has no contextlib)
            os.mkdir(d)
        except OSError:
            pass


def main(root):
    _mkdirs(root)
    return run(root)
