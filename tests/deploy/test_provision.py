"""`luza provision` against a virtual node: a MicroPython REPL on a pty for the serial side, the firmware's
virtual node on the installed (locked-down) broker for the network side."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import signal
import sys
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from hub import configfile
from hub.cli import main
from hub.deploy import provision as pv
from hub.virtual import traces
from hub.virtual.node import VirtualNode, VirtualTime
from tests.deploy.helpers import installed_broker, until
from tests.deploy.test_install import install
from tests.support.broker import free_port

NODE = pv.NewNode("t1", "p3", "pocket", pockets=(3,))


class VirtualRepl:
    """A board on a pty that answers like MicroPython's friendly REPL: it echoes, and runs each line with an
    ESP32 `sys` (platform 'esp32', implementation 'micropython'); Ctrl-C gives KeyboardInterrupt."""

    def __init__(self, silent: bool = False) -> None:
        self.master, self.slave = os.openpty()
        self.port = os.ttyname(self.slave)
        self.silent = silent
        self.lines: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import select

        fake_sys = SimpleNamespace(platform="esp32", implementation=SimpleNamespace(name="micropython"))
        pending = b""
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                pending += os.read(self.master, 1024)
            except OSError:
                return
            if self.silent:
                continue
            while b"\r" in pending or b"\x03" in pending:
                if pending.startswith(b"\x03"):
                    pending = pending[1:]
                    os.write(self.master, b"\r\nKeyboardInterrupt\r\n>>> ")
                    continue
                line, _, pending = pending.partition(b"\r")
                text = line.replace(b"\x02", b"").decode(errors="replace").strip()
                if not text:
                    continue
                self.lines.append(text)
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    try:
                        exec(
                            text,
                            {
                                "__import__": lambda name, *a: fake_sys if name == "sys" else None,
                                "print": print,
                            },
                        )
                    except Exception as exc:
                        print(f"Traceback (most recent call last):\r\n{type(exc).__name__}: {exc}")
                os.write(
                    self.master, line + b"\r\n" + out.getvalue().replace("\n", "\r\n").encode() + b">>> "
                )

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def repl() -> Iterator[VirtualRepl]:
    r = VirtualRepl()
    yield r
    r.close()


def test_no_board_attached_says_so_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    if pv.find_ports():
        pytest.skip("an ESP32 is plugged into this machine")
    code = main(
        [
            "provision",
            "--table",
            "t1",
            "--device",
            "p3",
            "--pockets",
            "3",
            "--wifi-ssid",
            "Club",
            "--broker-host",
            "192.168.1.10",
        ]
    )
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "no ESP32 found on USB" in err


def test_ports_are_recognised_by_their_usb_bridge() -> None:
    listing = [
        SimpleNamespace(device="/dev/ttyUSB0", vid=0x10C4, pid=0xEA60),
        SimpleNamespace(device="/dev/ttyS0", vid=None, pid=None),
        SimpleNamespace(device="/dev/ttyACM0", vid=0x1A86, pid=0x55D4),
    ]
    assert pv.find_ports(lambda: listing) == [
        pv.Port("/dev/ttyUSB0", "CP210x"),
        pv.Port("/dev/ttyACM0", "CH9102"),
    ]


def test_probe_finds_micropython_on_the_pty(repl: VirtualRepl) -> None:
    assert pv.probe(repl.port) == "esp32 micropython"
    silent = VirtualRepl(silent=True)
    try:
        with pytest.raises(pv.ProvisionError, match="no MicroPython answer"):
            pv.probe(silent.port, timeout=0.5)
    finally:
        silent.close()


def test_luza_toml_edits_are_targeted_and_validated() -> None:
    text = (
        '# club\n[[tables]]\nid = "t1"  # main\npockets = { p1 = [1] }  # keep me\ncues = {}\n\n'
        '[[tables]]\nid = "t2"\n'
    )
    new = pv.add_device(text, NODE)
    assert new.splitlines()[3] == "pockets = { p1 = [1], p3 = [3] }  # keep me"
    assert pv.add_device(new, NODE) == new  # again: nothing to do
    cue = pv.add_device(new, pv.NewNode("t2", "cue-x", "cue", seat=1))
    assert tomllib.loads(cue)["tables"][1]["cues"] == {"cue-x": 1}
    with pytest.raises(pv.ProvisionError, match="pocket 3 is listed by both"):
        pv.add_device(new, pv.NewNode("t1", "p3b", "pocket", pockets=(3,)))
    with pytest.raises(pv.ProvisionError, match="no table 't9'"):
        pv.add_device(new, pv.NewNode("t9", "p1x", "pocket", pockets=(1,)))
    site = pv.node_config(NODE, "pw", ("Club", "secret"), ("192.168.1.10", 1883))
    assert site["broker"]["user"] == "t1.p3" and site["pockets"] == [
        {"pocket": 3, "upper": 32, "lower": 33, "colour": True}
    ]
    with pytest.raises(pv.ProvisionError, match="refused by the firmware"):
        pv.node_config(NODE, "pw", ("", ""), ("192.168.1.10", 1883))  # a node with no Wi-Fi name


@pytest.mark.mosquitto
def test_provision_end_to_end_with_a_virtual_node(tmp_path: Path, repl: VirtualRepl) -> None:
    root, port = tmp_path / "pi", free_port()
    install(root, "--table", "t1", "--port", str(port))
    broker = installed_broker(root, tmp_path / "b", port)
    out = tmp_path / "node" / "config.json"
    result: dict[str, Any] = {}
    args = [
        "provision",
        "--root",
        str(root),
        "--table",
        "t1",
        "--device",
        "p3",
        "--pockets",
        "3",
        "--wifi-ssid",
        "Club",
        "--wifi-password",
        "secret",
        "--broker-host",
        "127.0.0.1",
        "--broker-port",
        str(port),
        "--port",
        repl.port,
        "--no-copy",
        "--out",
        str(out),
        "--timeout",
        "30",
    ]
    runner = threading.Thread(target=lambda: result.setdefault("code", main(args)))
    try:
        runner.start()
        passwd = root / "etc/mosquitto/luza/passwd"
        assert _wait(lambda: out.exists() and "t1.p3:" in passwd.read_text()), (
            "provision did not register the node"
        )
        assert broker.proc is not None
        broker.proc.send_signal(signal.SIGHUP)  # what `systemctl reload mosquitto` does on the Pi
        cfg = configfile.load(root / "etc/luza/luza.toml")
        assert cfg.device("p3") is not None and cfg.device("p3").pockets == (3,)  # type: ignore[union-attr]
        blinks = asyncio.run(_run_node(out, port, tmp_path / "nodes", lambda: "code" in result))
        runner.join(30)
        assert result.get("code") == 0 and blinks > 0
        assert any("LUZA-PROBE" in line for line in repl.lines)
    finally:
        broker.stop()
        if runner.is_alive():
            runner.join(30)


async def _run_node(cfg_path: Path, port: int, workdir: Path, finished: Any) -> int:
    """The node booted with provision's config.json: connects with its own login, is blinked, pots a ball."""
    import json

    site = json.loads(cfg_path.read_text())
    vt = VirtualTime(speed=1.0)
    node = VirtualNode(site, ("127.0.0.1", port), workdir, vt)
    node.transport.user, node.transport.password = site["broker"]["user"], site["broker"]["password"]
    node.start()
    try:
        await until(lambda: node.board.blinks > 0, "no identify blink")  # sent once provision sees the birth
        edges = traces.beam_edges([traces.Ball(100, pocket=3)], pockets=(3,))
        node.board.play_edges(edges, vt.ms())
        await until(finished, "luza provision did not see the test event")
        return int(node.board.blinks)
    finally:
        await node.stop()


def _wait(cond: Any, timeout: float = 20.0) -> bool:
    done = threading.Event()
    for _ in range(int(timeout / 0.02)):
        if cond():
            return True
        done.wait(0.02)
    return False


if sys.platform != "linux":  # pragma: no cover
    pytestmark = pytest.mark.skip("ptys and Mosquitto: Linux only")
