"""`luza serve --http` with a real Mosquitto and real nodes: the web app in the hub's process, a node's pocket
drop reaching a WebSocket client, node commands over MQTT, and a clean stop."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from hub import configfile
from hub.demo.client import PanelClient
from hub.service.hub import Hub
from hub.web.app import create_app
from hub.web.settings import WebSettings
from tests.hub.nodes import Node
from tests.hub.service.test_faults import write_config
from tests.support.broker import Mosquitto

ROOT = Path(__file__).resolve().parents[2]
# where phones on the club network reach the hub (luza serve --public-url)
PUBLIC = "http://192.168.1.10:8000"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read())


class ServeHttp:
    def __init__(self, config: Path, port: int, *extra: str) -> None:
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "hub.cli",
                "serve",
                "--config",
                str(config),
                "--http",
                f"127.0.0.1:{port}",
                *extra,
            ],
            cwd=ROOT,
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
            env=ENV,
        )
        threading.Thread(target=self._read, daemon=True).start()
        deadline = time.monotonic() + 20
        while not any("web app at" in ln for ln in self.lines):
            assert self.proc.poll() is None and time.monotonic() < deadline, "".join(self.lines)
            time.sleep(0.02)

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                return self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return int(self.proc.wait(5))


@pytest.mark.mosquitto
def test_luza_serve_http(mosquitto: Mosquitto, tmp_path: Path) -> None:
    conf = write_config(tmp_path / "luza.toml", mosquitto, tmp_path / "luza.db")
    pin = subprocess.run(
        [
            sys.executable,
            "-m",
            "hub.cli",
            "pin",
            "set",
            "--config",
            str(conf),
            "--table",
            "t1",
            "--pin",
            "8642",
        ],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert pin.returncode == 0, pin.stderr
    port = free_port()
    serve = ServeHttp(conf, port, "--public-url", PUBLIC)
    foot = Node(mosquitto.port, "t1", "p-foot", "pocket")
    cue = Node(mosquitto.port, "t1", "cue-a", "cue")
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 10
        while not get(base + "/healthz")["broker_connected"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        with urllib.request.urlopen(base + "/api/tables/t1/qr.svg", timeout=5) as r:
            qr = r.read().decode()
        hub = Hub(configfile.load(conf), mqtt=False)  # the same app as a phone would reach it at PUBLIC
        with TestClient(create_app(hub, WebSettings()), base_url=PUBLIC) as phone:
            assert qr == phone.get("/api/tables/t1/qr.svg").text  # the kiosk's QR leads phones to PUBLIC
        panel = PanelClient(base, "t1", pin="8642", label="test")
        panel.start_match("free", ("Иван", "Пётр"))
        panel.act({"kind": "lag", "winner": 0})
        with connect(f"ws://127.0.0.1:{port}/ws/tables/t1") as ws:
            state = json.loads(ws.recv(timeout=5))
            assert state["type"] == "state" and state["match"]["players"] == ["Иван", "Пётр"]
            now = int(time.time() * 1000)
            cue.send(cue.event("strike", now, pk=2.5, dbl=False))
            foot.send(foot.event("pocket", now + 500, p=5, c="ivory", cf=0.9, dur=40))
            while True:
                msg = json.loads(ws.recv(timeout=10))
                if msg["type"] == "state" and msg["match"]["shot"] and msg["match"]["shot"]["pocketed"]:
                    break
            assert msg["match"]["shot"]["pocketed"][0]["pocket"] == 5 and msg["match"]["provisional"] is True
        token = panel.token
        req = urllib.request.Request(
            base + "/api/devices/p-foot/commands",
            method="POST",
            data=json.dumps({"name": "identify", "seconds": 3}).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        )
        with urllib.request.urlopen(req, timeout=5) as r:
            assert r.status == 202
        deadline = time.monotonic() + 5
        while not any(c.get("c") == "identify" for c in foot.commands):  # after the hub's time sync
            assert time.monotonic() < deadline, foot.commands
            foot.wait_command(0.1)
            time.sleep(0.02)
        cmd = next(c for c in foot.commands if c.get("c") == "identify")
        assert cmd["s"] == 3
    finally:
        foot.close()
        cue.close()
        code = serve.stop()
    assert code == 0, "".join(serve.lines)
    assert not any("Traceback" in ln for ln in serve.lines), "".join(serve.lines)
