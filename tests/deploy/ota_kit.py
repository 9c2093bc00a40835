"""What the over-the-air tests share: builds of the firmware (this tree, a newer version, one that crashes at
start), a hub with its web server behind the locked-down broker,
and virtual devices booting from their flash."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hub import config, configfile
from hub.deploy.credentials import device_user
from hub.ota import build as fw
from hub.ota.keys import FILE, keys_text
from hub.ota.release import Release
from hub.service.hub import Hub
from hub.virtual.device import VirtualDevice
from hub.web.server import WebServer, serve_in_thread
from tests.support.broker import Mosquitto

ROOT = Path(__file__).resolve().parents[2]
TABLES = [
    {"id": "t1", "pockets": {"p1": [1, 2, 3]}, "cues": {}},
    {"id": "t2", "pockets": {"p4": [4, 5, 6]}, "cues": {}},
]
BASE = "0.1.0"  # firmware/__init__.py's VERSION is replaced by these in the copies, so the version shows


def tree(tmp: Path, version: str, edit: Callable[[Path], None] | None = None) -> Path:
    """A copy of the firmware sources with VERSION = `version` (and `edit` applied), as a tree to build."""
    root = tmp / f"tree-{version}"
    shutil.copytree(ROOT / "firmware", root / "firmware", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "luza_wire", root / "luza_wire", ignore=shutil.ignore_patterns("__pycache__"))
    init = root / "firmware" / "__init__.py"
    text = init.read_text()
    init.write_text(text[: text.index("VERSION")] + f'VERSION = "{version}"\n')
    if edit is not None:
        edit(root)
    return root


def source_build(src: Path, out: Path) -> Path:
    fw.build(out, root=src, log=lambda _line: None, source=True)
    return out


def crash_at_start(root: Path) -> None:
    """A build whose node module raises as it is imported (a bad release that passed its hashes)."""
    node = root / "firmware" / "node.py"
    node.write_text('raise RuntimeError("this build crashes at start")\n' + node.read_text())


@dataclass
class Stand:
    broker: Mosquitto
    hub: Hub
    web: WebServer
    cfg: config.Config
    tmp: Path

    def node_config(self, table: str, device: str, pockets: list[int]) -> dict[str, Any]:
        assert self.broker.credentials is not None
        user = device_user(table, device)
        return {
            "role": "pocket",
            "table": table,
            "device": device,
            "tele_s": 2,
            "wifi": {"ssid": "club", "password": "wifi-password"},
            "broker": {
                "host": "127.0.0.1",
                "port": self.broker.port,
                "user": user,
                "password": self.broker.credentials.devices[user],
            },
            "pockets": [
                {"pocket": p, "upper": up, "lower": lo, "colour": False}
                for p, (up, lo) in zip(pockets, ((32, 33), (25, 26), (27, 14)), strict=False)
            ],
        }

    def device(
        self, table: str, device: str, pockets: list[int], build: Path, trial_s: float | None = None
    ) -> VirtualDevice:
        return VirtualDevice(self.tmp / "flash" / device, trial_s=trial_s).flash_usb(
            build, self.node_config(table, device, pockets)
        )

    def release(self, src: Path) -> Release:
        assert self.hub.ota.releases is not None
        with_py = self.tmp / "rel-build"
        release = self.hub.ota.releases.add_build(source_build(src, with_py), _version(src))
        shutil.rmtree(with_py)
        return release

    def ota(self, device: str) -> dict[str, Any]:
        row = self.hub.registry.get(device)
        return dict(row.ota or {}) if row is not None else {}

    def fw(self, device: str) -> str:
        row = self.hub.registry.get(device)
        return row.fw if row is not None else ""

    def online(self, device: str) -> bool:
        row = self.hub.registry.get(device)
        return row is not None and row.state == "online"


def _version(src: Path) -> str:
    text = (src / "firmware" / "__init__.py").read_text()
    return text.split('VERSION = "', 1)[1].split('"', 1)[0]


@contextmanager
def stand(tmp: Path) -> Iterator[Stand]:
    """The locked-down broker, the hub (its OTA folder, the nodes' keys as the installer writes them) and its
    web server on a free port."""
    tables = configfile.parse({"tables": TABLES})
    broker = Mosquitto.locked(tmp / "broker", tables).start()
    hub: Hub | None = None
    web: WebServer | None = None
    try:
        assert broker.credentials is not None
        (tmp / FILE).write_text(keys_text(broker.credentials.devices))
        cfg = configfile.parse(
            {
                "broker": {"url": broker.hub_url, "reconnect_min_s": 1, "reconnect_max_s": 1},
                "store": {"path": str(tmp / "luza.db")},
                "tables": TABLES,
                "ota": {"dir": str(tmp / "ota"), "keys": str(tmp / FILE)},
            }
        )
        hub = Hub(cfg).start(connect_timeout=5)
        web = serve_in_thread(hub, "127.0.0.1", 0)
        yield Stand(broker, hub, web, cfg, tmp)
    finally:
        if web is not None:
            web.stop()
        if hub is not None:
            hub.stop()
        broker.stop()


def until(what: Callable[[], object], timeout: float, why: str, device: VirtualDevice | None = None) -> Any:
    """Wait for a condition (never a fixed sleep as a handshake); fail with `why` and the device's log."""
    deadline = time.monotonic() + timeout
    while True:
        got = what()
        if got:
            return got
        if time.monotonic() > deadline:
            log = device.log()[-3000:] if device is not None else ""
            raise AssertionError(f"{why} (waited {timeout:.0f} s)" + (f"\ndevice log:\n{log}" if log else ""))
        time.sleep(0.05)


def state_file(dev: VirtualDevice) -> dict[str, Any]:
    path = dev.flash / "ota" / "state"
    return json.loads(path.read_text()) if path.exists() else {}
