"""Over-the-air updates, the device side: the signed manifest, staging a build beside the running one, and the
boot-time decision that keeps it or rolls it back. Pure logic: flash goes through firmware/flash.py, the
network through whoever feeds `Stager` (firmware/updater.py over firmware/http.py), so it runs and is tested
on CPython and the real MicroPython alike. The states and the failure cases are in
docs/firmware.md ("Updates").

Builds live in slots: "" (the root: /firmware, /luza_wire, as `luza firmware flash` wrote them over USB)
and "/ota/a", "/ota/b". A new build is staged into the slot that is not the committed one ("good"); nothing
is moved or renamed, so a power cut at any moment leaves either the old state file or the new one:

    fetch     the state says `fetch` (a download under way). A reboot now: the old build runs; the birth
              says the download was interrupted (refused, `interrupted`).
    staged    every file is in the slot and matches its SHA-256; the state says `staged`. Waits for the
              hub's go (no match in play on the table), which makes it a trial and reboots.
    trial     the state says `try` = the slot, `n` = boots started from it.
    The loader (firmware/loader.py, the
              device's main.py) boots a trial once (n 0 -> 1). The build keeps itself (`commit`: good = the
              slot) only after it has reached the hub and passed its self-test. Booting again while it is
              still a trial (it crashed, hung into the watchdog, was reset by the trial timer, or lost power)
              rolls back: the loader runs `good` again and the birth says `rolled_back`.

A config change travels the same way (kind "cfg"): the new whole config is staged as /ota/config.json, the
trial boots the good build with it, and `commit` renames it over /config.json.

The manifest is signed by the hub with HMAC-SHA256 under the node's own key (`node_key`: derived from its
broker password, so the hub's copy comes from the installation's credentials and nobody else's node can be
fed): the body is `<64 hex signature>\\n<JSON>`, the signature over the JSON bytes exactly as received.
"""

import hashlib
import json
from binascii import hexlify

STATE = "/ota/state"
SLOTS = ("/ota/a", "/ota/b")
_GOOD = ("", "/ota/a", "/ota/b")  # where a committed build can be: the root or a slot
STAGED_CONFIG = "/ota/config.json"
CONFIG = "/config.json"
KEY_LABEL = b"luza-ota-1"
MAX_MANIFEST = 16384  # bytes of a manifest body (a build of ~40 files is ~4 KB)
MAX_FILES = 96
MAX_FILE = 262144  # bytes of one file
MARGIN = 65536  # flash left free after staging: the outbox spills there during an outage
TOPS = ("firmware", "luza_wire")  # what a build may write into its slot
_NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"


# ---------------------------------------------------------------- signatures


def hmac_sha256(key, msg):
    """HMAC-SHA256 (RFC 2104) from hashlib.sha256 alone: MicroPython has no `hmac` module."""
    if len(key) > 64:
        key = hashlib.sha256(key).digest()
    key = key + b"\x00" * (64 - len(key))
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
    inner.update(msg)
    outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))
    outer.update(inner.digest())
    return outer.digest()


def hexd(digest):
    return hexlify(digest).decode()


def node_key(password):
    """The node's update key: HMAC-SHA256(broker password, "luza-ota-1"); the hub derives the same one."""
    return hmac_sha256((password or "").encode(), KEY_LABEL)


def auth(key, path):
    """The download's credential for `path` (the X-Luza-Auth header): hex HMAC of the path."""
    return hexd(hmac_sha256(key, path.encode()))


def same(a, b):
    """Compare two hex strings in constant time."""
    if len(a) != len(b):
        return False
    diff = 0
    for i in range(len(a)):
        diff |= ord(a[i]) ^ ord(b[i])
    return diff == 0


# ---------------------------------------------------------------- the manifest


def parse_manifest(body, key, device, release):
    """(manifest, None) for a body signed with `key` for this device and release, else (None, reason)."""
    if len(body) > MAX_MANIFEST:
        return None, "manifest"
    cut = body.find(b"\n")
    if cut != 64:
        return None, "manifest"
    data = bytes(body[65:])
    try:
        if not same(bytes(body[:64]).decode(), hexd(hmac_sha256(key, data))):
            return None, "sig"
        m = json.loads(data)
    except ValueError:  # UnicodeError is one too
        return None, "manifest"
    if not isinstance(m, dict) or m.get("v") != 1 or m.get("dev") != device or m.get("r") != release:
        return None, "manifest"
    kind, fw, files = m.get("kind"), m.get("fw"), m.get("files")
    if kind not in ("fw", "cfg") or not isinstance(fw, str) or not 0 < len(fw) <= 32:
        return None, "manifest"
    if not isinstance(files, list) or not 0 < len(files) <= MAX_FILES:
        return None, "manifest"
    for f in files:
        if not _file_ok(f, kind):
            return None, "manifest"
    if kind == "cfg" and (len(files) != 1 or files[0][0] != "config.json"):
        return None, "manifest"
    return m, None


def _file_ok(f, kind):
    if not isinstance(f, list) or len(f) != 3:
        return False
    path, size, sha = f
    if not isinstance(size, int) or isinstance(size, bool) or not 0 <= size <= MAX_FILE:
        return False
    if not isinstance(sha, str) or len(sha) != 64 or not _path_ok(path):
        return False
    return kind == "cfg" or path.split("/")[0] in TOPS


def _path_ok(path):
    if not isinstance(path, str) or not 0 < len(path) <= 96:
        return False
    for part in path.split("/"):
        if not part or part[0] == "." or not all(c in _NAME_CHARS for c in part):
            return False  # no empty, hidden, "." or ".." part: a file lands inside its slot, nowhere else
    return True


def total_bytes(manifest):
    n = 0
    for f in manifest["files"]:
        n += f[1]
    return n


# ---------------------------------------------------------------- staging


class Stager:
    """Writes a manifest's files into `slot`, one at a time, hashing as the bytes arrive (no second read)."""

    def __init__(self, flash, manifest, slot):
        self.flash = flash
        self.manifest = manifest
        self.slot = slot
        self.done = 0
        self._f = None  # the open file
        self._h = None  # its running SHA-256
        self._n = 0
        self._size = 0
        self.over = False

    def begin(self):
        """Empty the slot; None, or "space" when the build does not fit with the margin left."""
        self.flash.rmtree(self.slot)
        free = self.flash.free()
        if free is not None and total_bytes(self.manifest) + MARGIN > free:
            return "space"
        self.flash.makedirs(self.slot)
        return None

    def open(self, i):
        """Start file `i`; returns its path in the manifest (what to download)."""
        path, size, _ = self.manifest["files"][i]
        self._f = self.flash.create(self.slot + "/" + path)
        self._h = hashlib.sha256()
        self._n = 0
        self._size = size
        self.over = False
        return path

    def write(self, chunk):
        """Bytes of the open file; more than the manifest's size is refused (the rest is not written)."""
        if self._n + len(chunk) > self._size:
            self.over = True
            return False
        self._h.update(chunk)  # type: ignore[union-attr]
        self._f.write(chunk)  # type: ignore[union-attr]
        self._n += len(chunk)
        return True

    def close(self):
        """Finish the open file: None if it has the manifest's size and SHA-256,
        else "size <path>"/"hash <path>"."""
        path, size, sha = self.manifest["files"][self.done]
        self._f.close()  # type: ignore[union-attr]
        self._f = None
        if self.over or self._n != size:
            return "size " + path
        if not same(hexd(self._h.digest()), sha):  # type: ignore[union-attr]
            return "hash " + path
        self.done += 1
        return None

    def abort(self):
        """Give up: the half-staged slot is emptied (nothing runs from it)."""
        if self._f is not None:
            self._f.close()
            self._f = None
        self.flash.rmtree(self.slot)

    def finish(self):
        """Every file checked: keep the manifest's file list in the slot
        (the trial's self-test re-reads it)."""
        self.flash.write(self.slot + "/manifest.json", json.dumps(self.manifest["files"]).encode())


def slot_files(flash, slot):
    """The file list staged with `slot` ([path, size, sha256], ...), or None if it cannot be read."""
    raw = flash.read(slot + "/manifest.json")
    try:
        files = json.loads(raw) if raw else None
    except ValueError:
        return None
    return files if isinstance(files, list) else None


def verify_file(flash, slot, entry, buf):
    """None if the file still has its size and SHA-256 (flash that kept the writes), else why not."""
    if entry is None:
        return "manifest"
    path, size, sha = entry
    f = flash.open(slot + "/" + path)
    if f is None:
        return "missing " + path
    h = hashlib.sha256()
    n = 0
    mv = memoryview(buf)
    while True:
        got = f.readinto(buf)
        if not got:
            break
        h.update(mv[:got])
        n += got
    f.close()
    if n != size or not same(hexd(h.digest()), sha):
        return "hash " + path
    return None


def verify_slot(flash, slot):
    """None if every file of `slot` checks (verify_file), else the first problem."""
    buf = bytearray(512)
    for entry in slot_files(flash, slot) or [None]:
        why = verify_file(flash, slot, entry, buf)
        if why:
            return why
    return None


# ---------------------------------------------------------------- the state and the boot decision


def load_state(flash):
    raw = flash.read(STATE)
    try:
        st = json.loads(raw) if raw else {}
    except ValueError:
        st = {}  # unreadable: run the committed root build, the one USB flashing wrote
    if not isinstance(st, dict) or st.get("good") not in _GOOD:
        st = {}
    st.setdefault("good", "")
    return st


def save_state(flash, st):
    flash.write(STATE, json.dumps(st).encode())


def stage_slot(st):
    """The slot a new build goes to: the one that is not the committed one."""
    return SLOTS[1] if st["good"] == SLOTS[0] else SLOTS[0]


def _result(st, state, why=None):
    res = {"st": state, "r": st.get("r", ""), "to": st.get("to", "")}
    if why:
        res["err"] = why
    return res


def begin_fetch(flash, st, release, to):
    """A download starts: said in flash, so a power cut during it is reported at the next boot."""
    for k in ("staged", "last"):
        st.pop(k, None)
    st["fetch"] = {"r": release, "to": to}
    save_state(flash, st)


def refuse(flash, st, release, to, why):
    """The update was not staged (`why`): the running build stays, and says so."""
    st.pop("fetch", None)
    st["last"] = {"st": "refused", "r": release, "to": to, "err": why}
    save_state(flash, st)


def staged(flash, st, manifest, slot):
    """Every file checked: staged in `slot`, waiting for the hub's go."""
    st.pop("fetch", None)
    st["staged"] = {"r": manifest["r"], "to": manifest["fw"], "kind": manifest["kind"], "slot": slot}
    save_state(flash, st)


def activate(flash, st, release):
    """The hub's go for a staged release: the next boot is its trial. False if that release is not staged."""
    s = st.get("staged")
    if not s or s["r"] != release:
        return False
    st.pop("staged")
    st.pop("last", None)
    st["try"], st["n"], st["r"], st["to"], st["kind"] = s["slot"], 0, s["r"], s["to"], s["kind"]
    save_state(flash, st)
    return True


def boot(flash):
    """The loader's decision at every boot: (slot to run, config path, state). Writes flash only when a
    download was cut, a trial starts, or a trial rolls back."""
    st = load_state(flash)
    if st.pop("move", None):  # a config commit cut by a power loss: finish it
        if flash.size(STAGED_CONFIG) >= 0:
            flash.rename(STAGED_CONFIG, CONFIG)
        save_state(flash, st)
    if "fetch" in st:
        f = st.pop("fetch")
        st["last"] = {"st": "refused", "r": f["r"], "to": f["to"], "err": "interrupted"}
        save_state(flash, st)
    if "try" not in st:
        return st["good"], CONFIG, st
    if st.get("n", 0) == 0:  # the trial's one boot
        st["n"] = 1
        save_state(flash, st)
        if st.get("kind") == "cfg":
            return st["good"], STAGED_CONFIG, st
        return st["try"], CONFIG, st
    rollback(flash, st, st.pop("crash", "unconfirmed"))
    return st["good"], CONFIG, st


def rollback(flash, st, why):
    """The trial is over without a commit: back to the good build (and config) at the next boot."""
    st["last"] = _result(st, "rolled_back", why)
    for k in ("try", "n", "kind", "crash"):
        st.pop(k, None)
    flash.remove(STAGED_CONFIG)
    save_state(flash, st)


def crashed(flash, text):
    """The loader caught the trial build raising at start: keep why, for the rollback's report."""
    st = load_state(flash)
    if "try" in st:
        st["crash"] = "crash " + text[:60]
        save_state(flash, st)


def on_trial(flash):
    """True while a trial has not been committed (the loader's trial timer resets the node then)."""
    return "try" in load_state(flash)


def commit(flash, st):
    """The trial reached the hub and passed its self-test: it is the good build (or config) from now on."""
    if "try" not in st:
        return False
    cfg = st.get("kind") == "cfg"
    if not cfg:
        st["good"] = st["try"]
    st["last"] = _result(st, "ok")
    for k in ("try", "n", "kind", "crash"):
        st.pop(k, None)
    if cfg:  # committed first, then the rename; `boot` finishes a rename a power cut interrupted
        st["move"] = 1
        save_state(flash, st)
        flash.rename(STAGED_CONFIG, CONFIG)
        st.pop("move")
    save_state(flash, st)
    return True


def report(st):
    """The `ota` object of the node's status (luza_wire/ota.py), or None when there is nothing to say."""
    if "try" in st:
        return _result(st, "trial")
    if "staged" in st:
        s = st["staged"]
        return {"st": "staged", "r": s["r"], "to": s["to"]}
    if "fetch" in st:
        return {"st": "fetch", "r": st["fetch"]["r"], "to": st["fetch"]["to"]}
    return st.get("last")
