# ruff: noqa: UP031  (MicroPython code: %-formatting)
"""The node's update job (firmware/updater.py over firmware/http.py) and the loader (firmware/loader.py),
driven with a fake hub behind a fake non-blocking socket; imported by the CPython test and copied into
MicroPython (tests/firmware/test_updater.py), so both runtimes must give the same plain-JSON results.

The fake socket answers like the hub's HTTP (a status line, Content-Length, the body in uneven pieces, "not
yet" now and then, a cut connection when asked). The fake node has just what the updater touches.
"""

import asyncio
import hashlib
import json
import sys
from binascii import hexlify

from firmware import ota
from firmware.flash import Flash
from firmware.updater import Updater

DEVICE = "p3"
PASSWORD = "node-password"


def sha(data):
    return hexlify(hashlib.sha256(data).digest()).decode()


def _answer(body, status=200):
    head = "HTTP/1.1 %d X\r\nContent-Length: %d\r\nContent-Type: application/octet-stream\r\n\r\n" % (
        status,
        len(body),
    )
    return head.encode() + body


NOT_FOUND = _answer(b"", 404)


class Server:
    """The hub's HTTP as the node sees it: path -> (status, body); `cut` paths drop after half their body."""

    def __init__(self, key):
        self.key = key
        self.routes = {}
        self.cut = set()
        self.auth_failures = 0
        self.requests = []
        self.hook = None  # called with each path asked for, as the request arrives

    def release(self, rid, version, files, kind="fw", tamper=None):
        entries = [[p, len(files[p]), sha(files[p])] for p in sorted(files)]
        data = json.dumps(
            {"v": 1, "dev": DEVICE, "r": rid, "kind": kind, "fw": version, "files": entries}
        ).encode()
        base = "/ota/%s/%s/" % (DEVICE, rid)
        self.routes[base + "manifest"] = _answer(
            ota.hexd(ota.hmac_sha256(self.key, data)).encode() + b"\n" + data
        )
        for p in files:
            body = files[p]
            if p == tamper:
                body = body[:-1] + b"?"
            # made once: the node's allocations are what is measured
            self.routes[base + "f/" + p] = _answer(body)

    def answer(self, request):
        line = request.split(b"\r\n")[0].decode()
        path = line.split(" ")[1]
        self.requests.append(path)
        if self.hook is not None:
            self.hook(path)
        auth = None
        for h in request.split(b"\r\n")[1:]:
            if h.lower().startswith(b"x-luza-auth:"):
                auth = h.split(b":", 1)[1].strip().decode()
        if auth != ota.auth(self.key, path):
            self.auth_failures += 1
            return b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n", False
        return self.routes.get(path, NOT_FOUND), path in self.cut


class FakeSocket:
    """Non-blocking: every third read says "not yet"; pieces of 1..700 bytes."""

    def __init__(self, server):
        self.server = server
        self.inbox = b""
        self.out = None
        self.pos = 0
        self.n = 0
        self.cut = False

    def send(self, data):
        self.inbox += bytes(data)
        if self.out is None and b"\r\n\r\n" in self.inbox:
            self.out, self.cut = self.server.answer(self.inbox)
            if self.cut:
                head = self.out.find(b"\r\n\r\n") + 4
                self.out = self.out[: head + (len(self.out) - head) // 2]
        return len(data)

    def readinto(self, buf):
        """As MicroPython's non-blocking socket: None for "not yet" (every third call), 0 at the end."""
        self.n += 1
        if self.out is None or self.n % 3 == 0:
            return None
        piece = 1 + (self.n * 37) % 700
        if piece > len(buf):
            piece = len(buf)
        if piece > len(self.out) - self.pos:
            piece = len(self.out) - self.pos
        if not piece and self.cut:
            raise OSError(104)  # ECONNRESET
        # no copy of the rest (the node's figures)
        buf[:piece] = memoryview(self.out)[self.pos : self.pos + piece]
        self.pos += piece
        return piece

    def close(self):
        pass


class Clock:
    def __init__(self):
        self.t = 0

    def uptime(self):
        self.t += 1
        return self.t

    async def sleep_ms(self, ms):
        await asyncio.sleep(0)


class Link:
    def __init__(self):
        self.ota = None
        self.said = []

    def send_status(self):
        self.said.append(self.ota.get("st") if self.ota else None)


class Task:
    def done(self):
        return False


class FakeNode:
    def __init__(self, root, cfg):
        self.root = root
        self.cfg = cfg
        self.device = DEVICE
        self.clock = Clock()
        self.link = Link()
        self.errors = []
        self.role = object()
        self.role_task = Task()
        self.rebooting = False
        self.stopped = False
        self.cfg_path = root + "/config.json"
        self.lines = []

    def log(self, msg):
        self.lines.append(msg)

    def stop(self):
        self.stopped = True


class Cmd:
    def __init__(self, **args):
        self.name = "ota"
        self.args = args


FILES = {
    "firmware/__init__.py": b"VERSION = '0.2.0'\n",
    "firmware/node.py": b"# node\n" * 400,
    "luza_wire/protocol.py": b"# wire\n" * 50,
}
CFG = {
    "device": DEVICE,
    "broker": {"host": "10.0.0.2", "password": PASSWORD},
    "tele_s": 30,
    "wifi": {"ssid": "club", "password": "x"},
    "table": "t1",
}


def _updater(root, server):
    from firmware import config

    node = FakeNode(root, config.merge(config.DEFAULTS, CFG))
    up = Updater(node)
    up.opener = lambda host, port: FakeSocket(server)
    return node, up


async def _fetch(up, **args):
    up.command(Cmd(port=8000, **args))
    if up.task is not None:
        await up.task
    return up.report()


async def updates(root):
    key = ota.node_key(PASSWORD)
    server = Server(key)
    server.release("0.2.0-aa", "0.2.0", FILES)
    server.release("0.2.0-bad", "0.2.0", FILES, tamper="firmware/node.py")
    server.release("0.2.0-cut", "0.2.0", FILES)
    server.cut.add("/ota/p3/0.2.0-cut/f/firmware/node.py")
    out = {}
    node, up = _updater(root, server)
    out["bad"] = await _fetch(up, r="0.2.0-bad")
    out["cut"] = await _fetch(up, r="0.2.0-cut")
    out["missing"] = await _fetch(up, r="0.9.9-zz")
    out["good"] = await _fetch(up, r="0.2.0-aa")
    out["said"] = list(node.link.said)
    out["auth_failures"] = server.auth_failures
    out["staged_file"] = Flash(root).read("/ota/a/firmware/__init__.py").decode()
    up.command(Cmd(r="0.2.0-zz", do="swap"))
    out["swap_other"] = node.rebooting
    up.command(Cmd(r="0.2.0-aa", do="swap"))
    out["swap"] = [node.rebooting, node.stopped]
    # the reboot: the loader's decision, then the new build's updater on its trial
    slot = ota.boot(Flash(root))[0]
    node, up = _updater(root, server)
    out["trial"] = [slot, up.trial, up.report()]
    up.hub_reached()
    await up.check_task
    out["kept"] = [up.report(), ota.load_state(Flash(root))["good"], node.rebooting]
    # a trial whose role is not running fails its self-test and rolls back
    out["second"] = await _fetch(up, r="0.2.0-aa")
    up.command(Cmd(r="0.2.0-aa", do="swap"))
    ota.boot(Flash(root))
    node, up = _updater(root, server)
    node.role = None
    up.hub_reached()
    await up.check_task
    out["selftest"] = [up.report(), node.rebooting, ota.boot(Flash(root))[0]]
    return out


async def repeats(root):
    """A second fetch while a download is under way (the same release, another one), then the staged one
    again: ignored, the download goes on and its state in flash still says `fetch` (a power cut is still
    reported). The repeats are sent from inside the download (the fake hub's hook),
    so both runtimes see the same order."""
    server = Server(ota.node_key(PASSWORD))
    server.release("0.2.0-aa", "0.2.0", FILES)
    server.release("0.2.0-bb", "0.2.0", FILES)
    node, up = _updater(root, server)
    out = {}

    def hook(path):
        if path.endswith("/f/firmware/node.py"):
            first = up.task
            up.command(Cmd(r="0.2.0-aa", port=8000))
            up.command(Cmd(r="0.2.0-bb", port=8000))
            out["during"] = [up.task is first, ota.load_state(Flash(root)).get("fetch"), up.report()["st"]]

    server.hook = hook
    out["after"] = await _fetch(up, r="0.2.0-aa")
    out["again"] = await _fetch(up, r="0.2.0-aa")
    out["requests"] = len(server.requests)
    out["ignored"] = up.ignored
    out["said"] = [s for s in node.link.said if s == "refused"]
    out["lines"] = [ln for ln in node.lines if "ignored" in ln]
    return out


async def config_change(root):
    key = ota.node_key(PASSWORD)
    server = Server(key)
    server.release("cfg-1", "config", {"config.json": b'{"tele_s": 5}'}, kind="cfg")
    server.release("cfg-2", "config", {"config.json": b'{"tele_s": "often"}'}, kind="cfg")
    node, up = _updater(root, server)
    out = {"bad": await _fetch(up, r="cfg-2")}
    out["good"] = await _fetch(up, r="cfg-1")
    staged = json.loads(Flash(root).read(ota.STAGED_CONFIG))
    out["staged"] = [staged["tele_s"], staged["device"]]
    up.command(Cmd(r="cfg-1", do="swap"))
    slot, cfg_path, _ = ota.boot(Flash(root))
    node, up = _updater(root, server)
    up.hub_reached()
    await up.check_task
    out["kept"] = [
        slot,
        cfg_path,
        up.report()["st"],
        json.loads(Flash(root).read("/config.json"))["tele_s"],
        node.cfg_path == root + "/config.json",
    ]
    return out


class _Reset(Exception):
    pass


def _reboot(saved_path):
    for name in list(sys.modules):
        if name.split(".")[0] in ("firmware", "luza_wire"):
            del sys.modules[name]
    while sys.path:
        sys.path.pop()
    for p in saved_path:
        sys.path.append(p)


def loader(root, run):
    """firmware/loader.py `run` at four boots: as flashed, a trial, a trial that crashes, the rollback."""
    flash = Flash(root)
    trial = "VERSION = '9.9.9'\n"
    flash.write("/ota/a/firmware/__init__.py", trial.encode())
    saved = list(sys.path)
    out = []

    def boot(crash=False):
        seen = {}

        def start(cfg_path, r):
            import firmware

            seen["start"] = [cfg_path, firmware.VERSION]
            if crash:
                raise ValueError("bad build")

        def reset():
            raise _Reset()

        def arm(ms, check):
            seen["arm"] = ms
            seen["check"] = check

        try:
            run(root, start, reset, arm)
        except _Reset:
            seen["reset"] = True
        if "check" in seen:
            try:
                seen.pop("check")()
                seen["timer"] = "quiet"
            except _Reset:
                seen["timer"] = "reset"
        _reboot(saved)
        return seen

    out.append(boot())
    st = ota.load_state(flash)
    st["staged"] = {"r": "9.9.9-x", "to": "9.9.9", "kind": "fw", "slot": "/ota/a"}
    ota.activate(flash, st, "9.9.9-x")
    out.append(boot())  # the trial: the timer would reset it (not committed)
    st = ota.load_state(flash)
    out.append(boot())  # booting again uncommitted: rolled back
    out.append(ota.report(ota.load_state(flash)))
    st = ota.load_state(flash)
    st["staged"] = {"r": "9.9.9-y", "to": "9.9.9", "kind": "fw", "slot": "/ota/a"}
    ota.activate(flash, st, "9.9.9-y")
    out.append(boot(crash=True))
    out.append(boot())
    out.append(ota.report(ota.load_state(flash)))
    return out


def _mkdir(path):
    import os

    try:  # noqa: SIM105 (MicroPython has no contextlib)
        os.mkdir(path)
    except OSError:
        pass


async def main(root, run):
    for d in (root, root + "/u", root + "/c", root + "/r"):
        _mkdir(d)
    return {
        "updates": await updates(root + "/u"),
        "config": await config_change(root + "/c"),
        "repeats": await repeats(root + "/r"),
        "loader": loader(root, run),
    }
