"""`luza calibrate` on an installed appliance: the admin tool's login sends the node's `calibrate` command,
the virtual node (real firmware logic) reports each ball,
learns the colour and keeps it in its config.json."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest

from hub.cli import main
from hub.deploy.credentials import device_user
from hub.virtual.table import Pot, Shot, VirtualTable
from tests.deploy.helpers import installed_broker, until
from tests.deploy.test_install import install
from tests.support.broker import free_port

pytestmark = pytest.mark.mosquitto

BALLS = 3


def test_calibrate_teaches_a_pocket_its_colour(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, port = tmp_path / "pi", free_port()
    install(root, "--table", "t1", "--port", str(port))
    toml = root / "etc/luza/luza.toml"
    toml.write_text(
        toml.read_text()
        .replace("pockets = {}", "pockets = { pockets-3 = [3], pockets-12456 = [1, 2, 4, 5, 6] }")
        .replace("cues = {}", "cues = { cue-a = 0, cue-b = 1 }")
    )
    install(root, "--table", "t1", "--port", str(port))  # the new nodes get passwords and ACL entries
    creds = json.loads((root / "etc/luza/credentials.json").read_text())
    broker = installed_broker(root, tmp_path / "b", port)
    table = VirtualTable(
        ("127.0.0.1", port), tmp_path / "nodes", table="t1", pockets=((3,), (1, 2, 4, 5, 6)), speed=10.0
    )
    for n in table.nodes:
        user = device_user("t1", n.device)
        n.transport.user, n.transport.password = user, creds["devices"][user]
    result: dict[str, Any] = {}
    args = [
        "calibrate",
        "--root",
        str(root),
        "--table",
        "t1",
        "--device",
        "pockets-3",
        "--pocket",
        "3",
        "--colour",
        "yellow",
        "--balls",
        str(BALLS),
        "--timeout",
        "60",
    ]
    runner = threading.Thread(target=lambda: result.setdefault("code", main(args)))

    async def play() -> None:
        await table.start()
        runner.start()
        node = table.pocket_nodes[0]
        # the command has reached the node: its calibrator is waiting for balls
        await until(
            lambda: node.node is not None and bool(getattr(node.node.role, "calibrators", None)),
            "the calibrate command did not reach the node",
        )
        for _ in range(BALLS):
            start = table.vt.ms()
            await table.play([Shot(0, "a", balls=(Pot(3, 800, "yellow"),))])
            await table.vt.until(start + 3000)
        await until(lambda: "code" in result, "luza calibrate did not finish")
        await table.stop()

    try:
        asyncio.run(play())
        runner.join(30)
    finally:
        broker.stop()
    out = capsys.readouterr().out
    assert result.get("code") == 0, out
    assert out.count("ball ") == BALLS and "yellow learned for pocket 3" in out
    saved = json.loads((tmp_path / "nodes" / "pockets-3" / "config.json").read_text())
    assert "yellow" in saved["colour"]["calibration"]["3"]


def test_calibrate_refuses_an_unknown_node(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "pi"
    install(root, "--table", "t1")
    code = main(
        [
            "calibrate",
            "--root",
            str(root),
            "--table",
            "t1",
            "--device",
            "nope",
            "--pocket",
            "3",
            "--colour",
            "red",
        ]
    )
    assert code == 2 and "no pocket node 'nope'" in capsys.readouterr().err
