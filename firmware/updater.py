"""The node's side of an over-the-air update: the `ota` command, the download, the trial's self-test.

Runs on MicroPython and CPython (virtual nodes). The decisions are firmware/ota.py's; this module moves bytes
(firmware/http.py, from the hub's HTTP with the node's own credential on every request) and says what happens
in the node's retained `status` (the `ota` object, luza_wire/ota.py):

- `ota {r, port, host?}` (do "fetch"): the signed manifest, then each file into the staging slot, each checked
  against its SHA-256 as it arrives; progress at most once a second. Any failure leaves the running build as
  it is and says `refused` with why. A config release (kind "cfg") carries a config change: merged into the
  node's config and validated like the `config` command, then staged as /ota/config.json. A fetch while an
  update is under way (a second push, a redelivered command; a trial) is ignored and logged, and the status is
  said again: what is under way goes on, its state in flash untouched; a release already staged is not fetched
  again.
- `ota {r, do: "swap"}`: the hub's go (no match in play on the table): the staged release becomes the next
  boot's trial; the node saves its outbox and reboots.
- On a trial boot: once the hub has answered (its `time` command after the birth) the self-test runs (the
  config is valid, the role is running, every file of the slot still has its SHA-256); then `commit`, or
  `rollback` and a reboot into the good build. The loader (firmware/loader.py) rolls back by itself if the
  trial never gets this far.
"""

import asyncio
import json

from firmware import http, ota
from firmware.flash import Flash

PROGRESS_MS = 1000  # at most one progress status a second while files arrive


class Updater:
    def __init__(self, node, flash=None):
        self.node = node
        self.flash = flash or Flash(node.root)
        broker = node.cfg.get("broker") if isinstance(node.cfg.get("broker"), dict) else {}
        self.key = ota.node_key(broker.get("password") or "")
        self.host = broker.get("host") or "127.0.0.1"
        self.state = ota.load_state(self.flash)
        self.trial = "try" in self.state  # this boot is the trial of a new build (the loader started it)
        self.checked = False
        self.check_task = None
        self.task = None
        self.fetching = None  # the release the download under way is for
        self.ignored = 0  # fetch commands not started because an update was under way (each logged)
        self.opener = None  # the socket maker for firmware/http.py (None: TCP; tests pass a fake)
        self.buf = None  # the download's read buffer (512 bytes, made when a download starts)
        self.progress = None
        self._said = -PROGRESS_MS

    def report(self):
        """The `ota` object for the status now (None: nothing to say)."""
        if self.progress is not None:
            return self.progress
        return ota.report(self.state)

    def say(self, force=True):
        link = self.node.link
        link.ota = self.report()
        now = self.node.clock.uptime()
        if force or now - self._said >= PROGRESS_MS:
            self._said = now
            link.send_status()

    # ------------------------------------------------------------ commands

    def command(self, cmd):
        a = cmd.args
        do = a.get("do", "fetch")
        if do == "fetch":
            busy = self._busy(a["r"])
            # a repeat (a second push, a redelivery) or another release: the update under way goes on
            if busy:
                self.ignored += 1
                self.node.log("ota: %s ignored: %s" % (a["r"], busy))
                self.say()  # says again where it is: the hub sees the update was not lost
                return
            self.fetching = a["r"]
            self.task = asyncio.create_task(self._run(a["r"], a.get("host") or self.host, a["port"]))
        elif do == "swap":
            if ota.activate(self.flash, self.state, a["r"]):
                self.node.log("ota: rebooting into %s for its trial" % (a["r"],))
                self.say()
                self.node.rebooting = True
                self.node.stop()
            else:
                self.node.log("ota: swap to %s ignored: not staged here" % (a["r"],))
        elif do == "cancel" and self.task is not None:
            self.task.cancel()
            self.task = None
            self._refused(self.fetching, self.state.get("fetch", {}).get("to", ""), "cancelled")

    def _busy(self, release):
        """Why a download of `release` must not start now (None:
        it may), without touching what is under way."""
        if self.trial:
            return "this boot is the trial of %s" % (self.state.get("r"),)
        if self.task is not None:
            return "the download of %s is under way" % (self.fetching,)
        staged = self.state.get("staged")
        if staged and staged.get("r") == release:
            return "already staged, waiting for the hub's go"
        return None

    def _refused(self, release, to, why):
        self.progress = None
        if "try" not in self.state:
            ota.refuse(self.flash, self.state, release, to, why)
        self.say()

    # ------------------------------------------------------------ the download

    async def _run(self, release, host, port):
        try:
            why = await self._fetch(release, host, port)
        except OSError as exc:
            self.node.log("ota: download of %s failed: %s" % (release, exc))
            why = "http"
        except asyncio.CancelledError:
            return
        except Exception as exc:  # a bug here must not leave the state saying a download is under way
            self.node.log("ota: %s failed: %s: %s" % (release, type(exc).__name__, exc))
            why = ("error " + type(exc).__name__)[:100]
        finally:
            self.task = None
        if why:
            self.node.log("ota: %s refused (%s); the running build stays" % (release, why))
            self._refused(release, self.state.get("fetch", {}).get("to", ""), why)

    async def _get(self, host, port, path, sink):
        status = await http.get(
            host,
            port,
            path,
            {"X-Luza-Auth": ota.auth(self.key, path)},
            sink,
            self.node.clock.sleep_ms,
            opener=self.opener,
            buf=self.buf,
        )
        return None if status == 200 else "http %d" % (status,)

    async def _fetch(self, release, host, port):
        base = "/ota/%s/%s/" % (self.node.device, release)
        self.buf = self.buf or bytearray(512)
        ota.begin_fetch(self.flash, self.state, release, "")
        self.progress = {"st": "fetch", "r": release, "to": "", "n": 0}
        self.say()
        body = bytearray()

        def collect(chunk):
            if len(body) + len(chunk) > ota.MAX_MANIFEST:
                return False
            body.extend(chunk)
            return True

        why = await self._get(host, port, base + "manifest", collect)
        if why:
            return why
        manifest, why = ota.parse_manifest(body, self.key, self.node.device, release)
        if why:
            return why
        self.state["fetch"]["to"] = manifest["fw"]
        self.progress = {
            "st": "fetch",
            "r": release,
            "to": manifest["fw"],
            "n": 0,
            "of": len(manifest["files"]),
        }
        cfg = manifest["kind"] == "cfg"
        stager = ota.Stager(self.flash, manifest, "/ota/cfg" if cfg else ota.stage_slot(self.state))
        why = stager.begin()
        if why:
            return why
        for i in range(len(manifest["files"])):
            try:
                why = await self._get(host, port, base + "f/" + stager.open(i), stager.write)
            except BaseException:  # a network fault or a cancel: nothing half-written stays
                stager.abort()
                raise
            why = why or stager.close()
            if why:
                stager.abort()
                return why
            self.progress["n"] = i + 1
            self.say(False)
        if cfg:
            why = self._stage_config(stager)
            if why:
                return why
        else:
            stager.finish()
        ota.staged(self.flash, self.state, manifest, "" if cfg else stager.slot)
        self.progress = None
        self.node.log("ota: %s staged (%s); waiting for the hub's go" % (release, manifest["fw"]))
        self.say()
        return None

    def _stage_config(self, stager):
        """A config release: the change merged into this node's config and validated, as a whole file."""
        from firmware import config

        raw = self.flash.read(stager.slot + "/config.json")
        stager.abort()
        try:
            change = json.loads(raw)
        except (TypeError, ValueError):
            return "config not JSON"
        if not isinstance(change, dict):
            return "config not an object"
        new = config.merge(self.node.cfg, change)
        errors = config.validate(new)
        if errors:
            return ("config " + errors[0])[:100]
        self.flash.write(ota.STAGED_CONFIG, json.dumps(new).encode())
        return None

    # ------------------------------------------------------------ the trial

    def hub_reached(self):
        """The hub answered this boot (its time command): a trial now checks itself."""
        if self.trial and not self.checked:
            self.checked = True
            self.check_task = asyncio.create_task(self._self_test())

    async def _self_test(self):
        why = self.check_node()
        st = self.state
        if why is None and st.get("kind") != "cfg":
            buf = bytearray(512)
            for entry in ota.slot_files(self.flash, st["try"]) or [None]:
                why = ota.verify_file(self.flash, st["try"], entry, buf)
                if why:
                    break
                await asyncio.sleep(0)
        if why is None:
            if st.get("kind") == "cfg":
                self.node.cfg_path = self.flash.path(ota.CONFIG)  # where commit puts it
            ota.commit(self.flash, st)
            self.trial = False
            self.node.log("ota: %s kept (reached the hub, self-test passed)" % (st["last"]["r"],))
            self.say()
            return
        self.node.log("ota: self-test failed (%s); rolling back" % (why,))
        ota.rollback(self.flash, st, ("selftest " + why)[:100])
        self.trial = False
        self.say()
        self.node.rebooting = True
        self.node.stop()

    def check_node(self):
        """None if the node is whole: its config valid and its role running."""
        node = self.node
        if node.errors:
            return "config"
        if node.role is None or node.role_task is None or node.role_task.done():
            return "role"
        return None
