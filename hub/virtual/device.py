"""A virtual device: one node in its own process, booting from its own flash folder as an ESP32 boots from its
file system, so an over-the-air update really replaces the code that runs and a bad one really crashes.

    dev = VirtualDevice(flash_dir).flash_usb(build_dir, node_config)   # what `luza firmware flash` would
    write dev.start()          # boots: the flash's main.py (firmware/loader.py) picks the build and runs the
    node dev.power_cut()      # SIGKILL: no goodbye, RAM lost, flash as it was at that instant
    dev.start()          # power back on
    dev.stop()

The child process (`python -m hub.virtual.device --flash DIR`, working directory DIR) imports nothing of the
firmware before the loader has chosen the slot: the loader puts the slot first on sys.path, then `start`
imports the slot's own `firmware.node`, `firmware.transport` (paho) and runs the node with a board that has no
beams firing. The loader's `reset()` ends the process with RESET; the supervisor boots it again, as a board
resets. The loader's trial timer is a thread timer (`--trial-s` shortens it for tests).

The build in the flash must be a source build (`luza firmware build --source`): CPython cannot run .mpy files.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hub.config import NodePocket, NodeSettings

RESET = 75  # the child's exit code for "the board resets": the supervisor boots it again


class PlainBoard:
    """The board interface of firmware/node.py with nothing attached: the beams never fire, no colour, no
    accelerometer. Enough for a node to boot, connect, take commands and update itself."""

    def __init__(self) -> None:
        self.t0 = time.monotonic()
        self.feeds = 0

    def ticks_us(self) -> int:
        return int((time.monotonic() - self.t0) * 1_000_000) & ((1 << 30) - 1)

    def attach_beams(self, pockets: Sequence[NodePocket], ring: Any, active_low: bool) -> None:
        pass

    def beam_levels(self, slot: int) -> tuple[int, int]:
        return (0, 0)

    async def wait_edges(self, ms: float) -> None:
        await asyncio.sleep(ms / 1000)

    def colour(self, slot: int) -> None:
        return None

    def sample_colour(self, sensor: Any, log: Any, ms: int) -> None:
        pass

    def stop_colour(self) -> None:
        pass

    def accel(self) -> None:
        return None

    async def light_sleep(self, ms: float) -> None:
        await asyncio.sleep(ms / 1000)

    def led(self, on: bool) -> None:
        pass

    def feed(self) -> None:
        self.feeds += 1

    def reset(self) -> None:
        _reset()

    def heap(self) -> None:
        return None

    def battery(self) -> None:
        return None


def _reset() -> None:
    sys.stdout.flush()
    os._exit(RESET)


def _start(cfg_path: str, root: str) -> None:
    """The loader's `start`: the node of the slot the loader chose (imported only now, from that slot)."""
    import json

    from firmware.clock import Clock
    from firmware.node import Node
    from firmware.outbox import DirStore
    from firmware.transport import PahoTransport, StaticNet

    with open(cfg_path) as f:
        b = json.load(f).get("broker", {})
    transport = PahoTransport(
        b.get("host", "127.0.0.1"), b.get("port", 1883), b.get("user") or None, b.get("password") or None
    )
    node = Node(
        PlainBoard(),
        transport,
        StaticNet(),
        DirStore(root + "/ob"),
        Clock(),
        cfg_path=cfg_path,
        log=lambda m: print("[node] " + m, flush=True),
        root=root,
    )
    asyncio.run(node.run())


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m hub.virtual.device")
    ap.add_argument("--flash", required=True)
    ap.add_argument("--trial-s", type=float, default=None, help="the loader's trial timer (default: its own)")
    a = ap.parse_args(argv)
    root = str(Path(a.flash).resolve())
    import runpy

    loader = runpy.run_path(root + "/main.py", run_name="luza_loader")

    def arm(ms: int, check: Any) -> None:
        t = threading.Timer(a.trial_s if a.trial_s is not None else ms / 1000, check)
        t.daemon = True
        t.start()

    loader["run"](root, _start, _reset, arm)


class VirtualDevice:
    """The supervisor of one virtual device (see the module docstring)."""

    def __init__(self, flash: Path, trial_s: float | None = None) -> None:
        self.flash = Path(flash)
        self.trial_s = trial_s
        self.boots = 0
        self.exits: list[int] = []
        self.proc: subprocess.Popen[bytes] | None = None
        self._on = False
        self._lock = threading.Lock()
        self._watch: threading.Thread | None = None

    def flash_usb(self, build: Path, config: NodeSettings) -> VirtualDevice:
        """What `luza firmware flash` writes: the build at the root, main.py (the loader), config.json."""
        import json

        self.flash.mkdir(parents=True, exist_ok=True)
        for item in build.iterdir():
            target = self.flash / item.name
            if item.is_dir():
                shutil.copytree(item, target, dirs_exist_ok=True)
            else:
                shutil.copyfile(item, target)
        (self.flash / "config.json").write_text(json.dumps(config))
        return self

    def start(self) -> VirtualDevice:
        """Power on (again): the device boots, and boots again after every reset, until stopped or cut."""
        with self._lock:
            self._on = True
            self._boot()
        self._watch = threading.Thread(target=self._supervise, daemon=True, name=f"device {self.flash.name}")
        self._watch.start()
        return self

    def _boot(self) -> None:
        cmd = [sys.executable, "-m", "hub.virtual.device", "--flash", str(self.flash)]
        if self.trial_s is not None:
            cmd += ["--trial-s", str(self.trial_s)]
        log = open(self.flash.parent / f"{self.flash.name}.log", "ab")  # noqa: SIM115 (the child keeps it)
        self.proc = subprocess.Popen(cmd, cwd=self.flash, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.boots += 1

    def _supervise(self) -> None:
        while True:
            proc = self.proc
            if proc is None:
                return
            code = proc.wait()
            with self._lock:
                if proc is not self.proc or not self._on:
                    return
                self.exits.append(code)
                if code != RESET:
                    self._on = False  # it stopped by itself: a bug, not a reset (see its log)
                    return
                self._boot()

    def power_cut(self) -> None:
        """Off at once (SIGKILL): whatever was half-written in flash stays half-written."""
        with self._lock:
            self._on = False
            proc = self.proc
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait(10)
        if self._watch is not None:
            self._watch.join(10)

    stop = power_cut

    @property
    def running(self) -> bool:
        return self._on and self.proc is not None and self.proc.poll() is None

    def log(self) -> str:
        path = self.flash.parent / f"{self.flash.name}.log"
        return path.read_text(errors="replace") if path.exists() else ""


if __name__ == "__main__":
    main()
