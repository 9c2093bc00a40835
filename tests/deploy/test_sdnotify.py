"""`luza serve` under systemd's notify protocol: READY, the watchdog fed while healthy, STOPPING; and no pings
from a hub whose worker has died."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from hub.deploy.sdnotify import Watchdog, healthy, notify, watchdog_interval
from tests.deploy.conftest import TABLES, tables_config
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto


def receiver(path: Path) -> socket.socket:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(str(path))
    s.settimeout(15)
    return s


def test_luza_serve_tells_systemd_ready_watchdog_and_stopping(tmp_path: Path) -> None:
    broker = Mosquitto.locked(tmp_path / "broker", tables_config()).start()
    sock = receiver(tmp_path / "notify")
    toml = tmp_path / "luza.toml"
    tables = "\n".join(f'[[tables]]\nid = "{t["id"]}"\n' for t in TABLES)
    toml.write_text(f'[broker]\nurl = "{broker.hub_url}"\n[store]\npath = "luza.db"\n{tables}')
    env = {**os.environ, "NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "300000"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "hub.cli", "serve", "--config", str(toml)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        got = [sock.recv(100).decode()]
        assert got == ["READY=1"], proc.stderr.read().decode() if proc.poll() is not None else got
        got += [sock.recv(100).decode() for _ in range(3)]
        assert got[1:] == ["WATCHDOG=1"] * 3
        proc.send_signal(signal.SIGTERM)
        while got[-1] == "WATCHDOG=1":
            got.append(sock.recv(100).decode())
        assert got[-1] == "STOPPING=1"
        assert proc.wait(15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        sock.close()
        broker.stop()


def test_no_pings_from_a_dead_worker_and_nothing_without_systemd(tmp_path: Path) -> None:
    stats = {"batches": 3}
    dead = SimpleNamespace(
        _worker=threading.Thread(target=lambda: None), stats=stats, wait_idle=lambda t: True
    )
    assert healthy(dead, -1)[0] is False  # a thread never started (or finished) is not alive
    stuck_worker = threading.Event()
    alive = threading.Thread(target=stuck_worker.wait)
    alive.start()
    try:
        busy = SimpleNamespace(_worker=alive, stats=stats, wait_idle=lambda t: False)
        assert healthy(busy, -1) == (True, 3)  # committed since the last look
        assert healthy(busy, 3) == (False, 3)  # work waiting and no commit for a whole period: hung
        idle = SimpleNamespace(_worker=alive, stats=stats, wait_idle=lambda t: True)
        assert healthy(idle, 3) == (True, 3)
    finally:
        stuck_worker.set()
        alive.join()
    assert notify("READY=1", {}) is False and watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    sock = receiver(tmp_path / "n")
    try:
        w = Watchdog(dead, {"NOTIFY_SOCKET": str(tmp_path / "n"), "WATCHDOG_USEC": "100000"}).start()
        assert sock.recv(100) == b"READY=1"
        w.stop()
        assert sock.recv(100) == b"STOPPING=1" and w.pings == 0  # the dead hub was never vouched for
    finally:
        sock.close()
