"""The referee control socket (hub.service.control, `luza serve --control`, `luza referee`): against an
in-process Hub, then through a real `luza serve` process and a real Mosquitto, up to whole matches whose every
call is sent over the socket while virtual nodes play."""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub import configfile
from hub.cli import main
from hub.service.control import ControlError, ControlServer, send
from hub.service.hub import Hub
from hub.virtual.table import VirtualTable
from tests.hub.conftest import TABLES
from tests.hub.reconcile import test_variants
from tests.hub.reconcile.test_variants import SCRIPTS, engine_summary, play, write_toml
from tests.hub.service.test_faults import ROOT, Serve, retained_state
from tests.hub.service.test_service import PLAYERS, wait_for
from tests.support.broker import Mosquitto

BAD_SEAT_EN = "winner: must be the seat 0 or 1, got 5"
BAD_SEAT_RU = "winner: нужно место игрока 0 или 1, получено 5"


@pytest.fixture
def sock_dir() -> Iterator[Path]:
    """A short directory: a Unix socket path must stay under ~100 bytes, pytest's tmp_path may not."""
    d = Path(tempfile.mkdtemp(prefix="luza-ctl-", dir="/tmp"))
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    h = Hub(
        configfile.parse({"store": {"path": str(tmp_path / "luza.db")}, "tables": TABLES}), mqtt=False
    ).start()
    yield h
    h.stop()


@pytest.fixture
def server(hub: Hub, sock_dir: Path) -> Iterator[ControlServer]:
    s = ControlServer(hub, sock_dir / "ctl.sock", max_line=4096).start()
    yield s
    s.stop()


class Conn:
    """One client connection that sends raw lines and reads one answer per line."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(15)
        self.sock.connect(str(path))
        self.reader = self.sock.makefile("rb")

    def ask(self, raw: bytes) -> dict[str, Any]:
        self.sock.sendall(raw + b"\n")
        answer = json.loads(self.reader.readline())
        assert isinstance(answer, dict)
        return answer

    def close(self) -> None:
        self.reader.close()
        self.sock.close()


def new_match(variant: str = "free") -> dict[str, object]:
    return {"kind": "new_match", "args": {"variant": variant, "players": list(PLAYERS)}}


# ---------------------------------------------------------------- in process


def test_a_good_action_is_committed_and_answered_with_the_scoreboard(server: ControlServer, hub: Hub) -> None:
    first = send(server.path, "t1", new_match())
    assert first["ok"] is True and first["table"] == "t1" and first["match"]["players"] == list(PLAYERS)
    lag = send(server.path, "t1", {"kind": "lag", "winner": 1})
    assert lag["ok"] is True and lag["cursor"] > first["cursor"]
    assert lag["cursor"] == hub.state("t1")["cursor"] and lag["match"] == hub.state("t1")["match"]
    assert hub.stats["referee"] >= 2 and server.stats["ok"] == 2


def test_a_refused_action_gets_the_exact_reason_in_both_languages(server: ControlServer, hub: Hub) -> None:
    send(server.path, "t1", new_match())
    cursor = hub.state("t1")["cursor"]
    answer = send(server.path, "t1", {"kind": "lag", "winner": 5})
    assert answer == {
        "ok": False,
        "error": {"code": "malformed", "en": BAD_SEAT_EN, "ru": BAD_SEAT_RU, "field": "winner"},
    }
    no_match = send(server.path, "t2", {"kind": "lag", "winner": 0})["error"]
    assert no_match["code"] == "no_match" and no_match["en"] and no_match["ru"] != no_match["en"]
    assert hub.state("t1")["cursor"] == cursor  # nothing stored
    assert server.stats["refused"] == 2


def test_malformed_lines_are_answered_and_the_connection_goes_on(server: ControlServer, hub: Hub) -> None:
    c = Conn(server.path)
    try:
        answers = {
            name: c.ask(raw)
            for name, raw in {
                "not json": b"{not json",
                "not utf-8": b"\xff\xfe",
                "not an object": b"[1, 2]",
                "unknown table": json.dumps({"table": "t9", "action": {"kind": "lag", "winner": 0}}).encode(),
                "no table": json.dumps({"action": {"kind": "lag", "winner": 0}}).encode(),
                "no action": b'{"table": "t1"}',
                "action not an object": b'{"table": "t1", "action": "lag"}',
                "too long": b'{"table": "t1", "action": {"kind": "' + b"x" * 10_000 + b'"}}',
                "unknown kind": b'{"table": "t1", "action": {"kind": "fly"}}',
            }.items()
        }
        for name, a in answers.items():
            assert a["ok"] is False and set(a) == {"ok", "error"}, name
            assert a["error"]["en"] and a["error"]["ru"] and "Traceback" not in a["error"]["en"], name
            assert a["error"]["code"] == ("unknown_table" if name == "unknown table" else "malformed"), name
        errors = {name: a["error"] for name, a in answers.items()}
        assert errors["not json"]["en"].startswith("not a JSON line")
        assert (
            errors["not an object"]["en"] == 'the request must be a JSON object {"table", "action"}, got list'
        )
        assert errors["unknown table"] == {
            "code": "unknown_table",
            "en": "no table 't9'; the hub serves t1, t2",
            "ru": "нет стола 't9'; хаб обслуживает t1, t2",
            "field": "table",
        }
        assert errors["no table"]["en"] == "table: missing; the hub serves t1, t2"
        assert errors["no table"]["field"] == "table"
        assert errors["no action"]["field"] == errors["action not an object"]["field"] == "action"
        assert errors["too long"]["en"] == "the line is longer than 4096 bytes; send one JSON object per line"
        assert errors["unknown kind"]["field"] == "kind"
        # the same connection still works, and so does the hub
        good = c.ask(json.dumps({"table": "t1", "action": new_match()}).encode())
        assert good["ok"] is True and good["match"]["variant"] == "free"
    finally:
        c.close()
    assert server.stats["malformed"] == 6 and server.stats["unknown_table"] == 1
    assert server.stats["too_long"] == 1 and server.stats["refused"] == 1 and server.stats["ok"] == 1
    assert server.stats["requests"] == 10


def test_the_socket_is_private_and_removed_on_stop(hub: Hub, sock_dir: Path) -> None:
    path = sock_dir / "ctl.sock"
    s = ControlServer(hub, path).start()
    st = path.stat()
    assert stat.S_ISSOCK(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o600
    with pytest.raises(ControlError, match="another hub is serving"):
        ControlServer(hub, path).start()
    s.stop()
    assert not path.exists()


def test_a_stale_socket_is_replaced_and_another_file_is_refused(hub: Hub, sock_dir: Path) -> None:
    stale = sock_dir / "stale.sock"
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(stale))
    dead.close()  # the file stays, nobody listens: a hub that was killed
    with ControlServer(hub, stale):
        assert send(stale, "t1", new_match())["ok"] is True
    other = sock_dir / "notes.txt"
    other.write_text("keep me")
    with pytest.raises(ControlError, match="is not a socket"):
        ControlServer(hub, other).start()
    assert other.read_text() == "keep me"
    with pytest.raises(ControlError, match="cannot open the control socket"):
        ControlServer(hub, sock_dir / ("x" * 120)).start()


def test_answers_go_to_several_clients_at_once(server: ControlServer, hub: Hub) -> None:
    send(server.path, "t1", new_match())
    results: list[dict[str, Any]] = []

    def client(seat: int) -> None:
        for _ in range(5):
            results.append(send(server.path, "t1", {"kind": "fact", "name": "cushions", "value": seat}))

    threads = [threading.Thread(target=client, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert len(results) == 20
    assert all(isinstance(r["ok"], bool) for r in results)  # each one answered, whatever the session says
    assert server.stats["requests"] == 21 and server.stats["ok"] + server.stats["refused"] == 21


def test_luza_referee_prints_the_answer_and_exits_by_outcome(
    server: ControlServer, sock_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    action = json.dumps({"kind": "new_match", "variant": "free", "players": list(PLAYERS)})
    assert main(["referee", "--control", str(server.path), "--table", "t1", action]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is True and out["match"]["players"] == list(PLAYERS)
    assert (
        main(["referee", "--control", str(server.path), "--table", "t1", '{"kind": "lag", "winner": 5}']) == 2
    )
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {
        "ok": False,
        "error": {"code": "malformed", "en": BAD_SEAT_EN, "ru": BAD_SEAT_RU, "field": "winner"},
    }
    assert captured.err == f"refused: {BAD_SEAT_EN} / отклонено: {BAD_SEAT_RU}\n"
    assert main(["referee", "--control", str(server.path), "--table", "t1", "{oops"]) == 2
    captured = capsys.readouterr()  # refused before it is sent, said the same way
    assert (
        json.loads(captured.out)["error"]["code"] == "malformed" and "the action is not JSON" in captured.err
    )
    assert main(["referee", "--control", str(sock_dir / "none.sock"), "--table", "t1", "{}"]) == 1
    assert "no answer from the hub" in capsys.readouterr().err


# ---------------------------------------------------------------- through `luza serve`


class ServeWithControl(Serve):
    """`luza serve --control PATH` in a child process (the Serve helper's reader and stop)."""

    def __init__(self, config_path: Path, control: Path) -> None:
        self.lines: list[str] = []
        self.control = control
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "hub.cli",
                "serve",
                "--config",
                str(config_path),
                "--control",
                str(control),
            ],
            cwd=ROOT,
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        threading.Thread(target=self._read, daemon=True).start()
        wait_for(
            lambda: any("referee control socket" in ln for ln in self.lines) or self.proc.poll() is not None,
            20,
        )
        assert self.proc.poll() is None, "".join(self.lines)


def luza_referee(control: Path, action: str, table: str = "t1") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hub.cli", "referee", "--control", str(control), "--table", table, action],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


@pytest.mark.mosquitto
def test_luza_serve_takes_referee_actions_on_its_control_socket(
    mosquitto: Mosquitto, tmp_path: Path, sock_dir: Path
) -> None:
    control = sock_dir / "ctl.sock"
    serve = ServeWithControl(write_toml(tmp_path / "luza.toml", mosquitto, tmp_path / "luza.db"), control)
    try:
        assert stat.S_IMODE(control.stat().st_mode) == 0o600
        started = luza_referee(
            control, json.dumps({"kind": "new_match", "variant": "free", "players": list(PLAYERS)})
        )
        assert started.returncode == 0, started.stderr
        assert json.loads(started.stdout)["match"]["players"] == list(PLAYERS)
        refused = luza_referee(control, '{"kind": "lag", "winner": 5}')
        assert refused.returncode == 2
        assert f"refused: {BAD_SEAT_EN}" in refused.stderr and f"отклонено: {BAD_SEAT_RU}" in refused.stderr
        assert luza_referee(control, '{"kind": "lag"}', table="t9").returncode == 2
        c = Conn(control)
        try:
            assert c.ask(b"garbage")["ok"] is False
            assert c.ask(b'{"table": "t9", "action": {}}')["error"]["field"] == "table"
            lag = c.ask(json.dumps({"table": "t1", "action": {"kind": "lag", "winner": 0}}).encode())
            assert lag["ok"] is True and lag["cursor"] > json.loads(started.stdout)["cursor"]
        finally:
            c.close()
        wait_for(lambda: retained_state(mosquitto)["cursor"] == lag["cursor"], 10)  # published by the hub too
        assert "Traceback" not in "".join(serve.lines)
    finally:
        serve.stop()
    assert serve.proc.returncode == 0, "".join(serve.lines)
    assert not control.exists()  # removed on shutdown


# Scripts whose break takes no call (classic 5.2): test_variants.NAMED_ON_BREAK, played with `play(...,
# identify)` (being added by a colleague; absent in an older checkout, where only hundred runs here).
NAMED_ON_BREAK: dict[str, list[tuple[str, int | None]]] = dict(getattr(test_variants, "NAMED_ON_BREAK", {}))
CALLED_VARIANTS = [v for v in ("classic", "hundred") if v in SCRIPTS or v in NAMED_ON_BREAK]


@pytest.mark.mosquitto
@pytest.mark.parametrize("variant", CALLED_VARIANTS)
def test_luza_serve_plays_a_called_match_with_calls_over_the_socket(
    variant: str, mosquitto: Mosquitto, tmp_path: Path, sock_dir: Path
) -> None:
    named = variant in NAMED_ON_BREAK
    pots = NAMED_ON_BREAK[variant] if named else SCRIPTS[variant]
    control = sock_dir / "ctl.sock"
    serve = ServeWithControl(write_toml(tmp_path / "luza.toml", mosquitto, tmp_path / "luza.db"), control)
    try:
        assert send(control, "t1", {"kind": "new_match", "variant": variant, "players": list(PLAYERS)})["ok"]
        assert send(control, "t1", {"kind": "lag", "winner": 0})["ok"]
        # `luza serve` stamps the calls with the real clock, so the nodes' time must run at its pace too
        table = VirtualTable(("127.0.0.1", mosquitto.port), tmp_path / "nodes", table="t1", speed=1.0)

        def declare(ball: int, pocket: int) -> None:
            answer = send(control, "t1", {"kind": "declare", "ball": ball, "pocket": pocket})
            assert answer["ok"] is True, answer

        def identify(ball: int) -> None:
            """The referee answers the panel's question: which ball fell on the break (classic 5.1, 5.2)."""
            asked: list[dict[str, Any]] = []

            def questions() -> bool:
                asked[:] = [
                    q for q in retained_state(mosquitto)["match"]["questions"] if q["action"] == "identify"
                ]
                return bool(asked)

            wait_for(questions, 10)
            answer = send(control, "t1", {"kind": "identify", "item": asked[0]["item"], "ball": ball})
            assert answer["ok"] is True, answer

        play(table, pots, declare, *([identify] if named else []))
        want = engine_summary(variant, pots)
        assert want["over"] and want["winner"] == 0
        wait_for(lambda: retained_state(mosquitto)["match"]["scores"] == want["scores"], 10)
        closed = send(control, "t1", {"kind": "close_shot"})  # the referee closes the last shot
        assert closed["ok"] is True, closed
        board = closed["match"]
        assert not board["provisional"] and {k: board[k] for k in want} == want
    finally:
        serve.stop()
    assert not control.exists()


@pytest.mark.mosquitto
def test_luza_serve_refuses_a_control_path_that_is_another_file(
    mosquitto: Mosquitto, tmp_path: Path, sock_dir: Path
) -> None:
    taken = sock_dir / "notes.txt"
    taken.write_text("keep me")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "hub.cli",
            "serve",
            "--config",
            str(write_toml(tmp_path / "luza.toml", mosquitto, tmp_path / "luza.db")),
            "--control",
            str(taken),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert run.returncode == 2
    assert f"luza serve: {taken} exists and is not a socket" in run.stderr
    assert taken.read_text() == "keep me"
