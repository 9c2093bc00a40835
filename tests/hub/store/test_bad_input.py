"""One line, never a traceback (issue 12, item 4): every bad input a person can give `luza`, through the real
CLI in a subprocess: the database missing, read-only, corrupt or locked; luza.toml unreadable, not UTF-8 or
invalid (with the key and the line); bad JSON or absurd nesting for the control socket; a port already taken;
no broker; a second hub on the same database. Exit codes as docs/hub.md says."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from hub.store.database import Store
from tests.hub.service.test_service import wait_for

ROOT = Path(__file__).resolve().parents[3]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")  # the hub's log format (not the error line)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_config(folder: Path, db: str = "luza.db", extra: str = "") -> Path:
    """A valid luza.toml whose broker does not exist (the hub runs without one)."""
    path = folder / "luza.toml"
    path.write_text(
        f'[broker]\nurl = "mqtt://127.0.0.1:{free_port()}"\n\n[store]\npath = "{db}"\n{extra}\n'
        '[[tables]]\nid = "t1"\npockets = { p-a = [1, 2, 3, 4, 5, 6] }\n',
        encoding="utf-8",
    )
    return path


def luza(*args: str, user: int | None = None, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "hub.cli", *args]
    if user is not None:
        cmd = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *cmd]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=ENV)


def one_line(run: subprocess.CompletedProcess[str], code: int, prefix: str) -> str:
    """The command failed with `code` and said why in exactly one line starting with `prefix`, no trace."""
    assert "Traceback" not in run.stderr, run.stderr
    said = [ln for ln in run.stderr.splitlines() if ln.strip() and not LOG_LINE.match(ln)]
    assert len(said) == 1 and said[0].startswith(prefix), run.stderr
    assert run.returncode == code, run.stderr
    return said[0]


class Serving:
    """`luza serve` running in a child process (no broker needed); stopped with SIGTERM."""

    def __init__(self, *args: str) -> None:
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hub.cli", "serve", *args],
            cwd=ROOT,
            env=ENV,
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        wait_for(
            lambda: any("serving 1 table" in ln for ln in self.lines) or self.proc.poll() is not None, 20
        )
        assert self.proc.poll() is None, "".join(self.lines)

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(15)


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder anyone may enter (the read-only test runs the CLI as `nobody`); short enough for a socket."""
    d = Path(tempfile.mkdtemp(prefix="luza-bad-", dir="/tmp"))
    d.chmod(0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)


# ---------------------------------------------------------------- the database


def test_a_missing_database_folder(folder: Path) -> None:
    run = luza("serve", "--config", str(write_config(folder, "no/such/dir/luza.db")))
    line = one_line(run, 2, "luza serve: ")
    assert "no/such/dir/luza.db" in line


def test_a_corrupt_database(folder: Path) -> None:
    (folder / "luza.db").write_bytes(b"this is not SQLite at all\n" * 200)
    line = one_line(luza("serve", "--config", str(write_config(folder))), 2, "luza serve: the database ")
    assert "damaged or not a Luza database" in line
    assert "damaged" in one_line(luza("replay", str(folder / "luza.db"), "--match", "1"), 2, "luza replay: ")
    one_line(luza("matches", "--db", str(folder / "luza.db")), 2, "luza matches: ")
    one_line(luza("backup", "--db", str(folder / "luza.db"), "--dir", str(folder / "bk")), 1, "luza backup: ")


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="needs root to run the CLI as another user (root ignores file modes)",
)
def test_a_read_only_database(folder: Path) -> None:
    config = write_config(folder)
    Store(folder / "luza.db").close()
    (folder / "luza.db").chmod(0o444)
    folder.chmod(0o1777)  # the lock file may be made; the database may not be written
    line = one_line(luza("serve", "--config", str(config), user=65534), 2, "luza serve: the database ")
    assert "read-only" in line and str(folder / "luza.db") in line
    folder.chmod(0o755)  # neither: the folder refuses the lock file
    (folder / "luza.db.hub-lock").unlink()
    line = one_line(luza("serve", "--config", str(config), user=65534), 2, "luza serve: the database ")
    assert "cannot be written" in line


def test_a_database_locked_by_another_program(folder: Path) -> None:
    config = write_config(folder)
    Store(folder / "luza.db").close()
    other = sqlite3.connect(folder / "luza.db", isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        line = one_line(luza("serve", "--config", str(config)), 3, "luza serve: the database ")
        assert "locked by another program" in line
    finally:
        other.close()


def test_a_second_hub_on_the_same_database_is_refused_and_named(folder: Path) -> None:
    config = write_config(folder)
    first = Serving("--config", str(config))
    try:
        line = one_line(
            luza("serve", "--config", str(config)), 3, "luza serve: another hub is already running"
        )
        assert f"pid {first.proc.pid} " in line and "serve --config" in line
    finally:
        assert first.stop() == 0
    second = Serving("--config", str(config))  # the lock goes with the hub: the next one starts
    assert second.stop() == 0


# ---------------------------------------------------------------- luza.toml


def test_a_config_that_cannot_be_read(folder: Path) -> None:
    line = one_line(luza("serve", "--config", str(folder / "nope.toml")), 2, "luza serve: cannot read config")
    assert "nope.toml" in line
    one_line(luza("serve", "--config", str(folder)), 2, "luza serve: cannot read config")  # a folder


def test_a_config_that_is_not_utf8(folder: Path) -> None:
    config = write_config(folder)
    config.write_bytes(config.read_bytes() + b'\n[club]\nname = "Caf\xe9"\n')  # Latin-1, not UTF-8
    line = one_line(luza("serve", "--config", str(config)), 2, "luza serve: ")
    assert "not UTF-8" in line and "line 12" in line


def test_an_invalid_config_names_the_key_and_the_line(folder: Path) -> None:
    config = write_config(folder, extra='synchronous = "fast"\n')
    line = one_line(luza("serve", "--config", str(config)), 2, "luza serve: store.synchronous: ")
    assert line.endswith("line 6)")
    config.write_text(config.read_text().replace("[1, 2, 3, 4, 5, 6]", "[1, 9]"))
    line = one_line(luza("serve", "--config", str(config)), 2, "luza serve: tables[0].pockets: ")
    assert "pocket 9" in line and line.endswith("line 10)")
    config.write_text(config.read_text() + "[broker\n")
    assert "not valid TOML" in one_line(luza("serve", "--config", str(config)), 2, "luza serve: ")


# ---------------------------------------------------------------- the control socket, ports, broker


def test_bad_json_and_absurd_nesting_for_the_control_socket(folder: Path) -> None:
    control = folder / "ctl.sock"
    hub = Serving("--config", str(write_config(folder)), "--control", str(control))
    try:
        deep = "[" * 50_000 + "]" * 50_000
        for action in (
            "{oops",
            deep,
            json.dumps({"kind": "lag", "args": {"a": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}}),
        ):
            one_line(luza("referee", "--control", str(control), "--table", "t1", action), 2, "refused: ")
        with socket.socket(socket.AF_UNIX) as s:  # straight onto the socket: refused, the connection goes on
            s.settimeout(10)
            s.connect(str(control))
            reader = s.makefile("rb")
            for raw in (b"{" * 30_000, b'{"table": "t1", "action": ' + b"[" * 500 + b"]" * 500 + b"}"):
                s.sendall(raw + b"\n")
                answer = json.loads(reader.readline())
                assert answer["ok"] is False and (
                    "nested" in answer["error"]["en"] or "JSON" in answer["error"]["en"]
                )
            s.sendall(b'{"table": "t1", "action": {"kind": "undo"}}\n')
            # no match: the hub still answers
            assert json.loads(reader.readline())["error"]["field"] == "table"
            reader.close()
    finally:
        assert hub.stop() == 0
    assert not any("Traceback" in ln for ln in hub.lines), "".join(hub.lines)


def test_a_port_already_taken(folder: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = luza("serve", "--config", str(write_config(folder)), "--http", f"127.0.0.1:{port}")
    assert f"127.0.0.1:{port}" in one_line(run, 2, "luza serve: cannot listen on ")


def test_no_broker_is_one_warning_and_the_hub_runs(folder: Path) -> None:
    hub = Serving("--config", str(write_config(folder)))
    assert hub.stop() == 0
    warned = [ln for ln in hub.lines if "no broker at mqtt://127.0.0.1:" in ln]
    assert len(warned) == 1 and not any("Traceback" in ln for ln in hub.lines), "".join(hub.lines)
