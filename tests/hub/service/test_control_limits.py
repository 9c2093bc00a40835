"""The control socket under idle connections (issue 12, item 5): silent connections are dropped, and at the
cap the idlest one makes room, so idle clients can never lock the referee out."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hub import configfile
from hub.service.control import ControlServer, send
from hub.service.hub import Hub
from tests.hub.conftest import TABLES
from tests.hub.service.test_control import sock_dir  # noqa: F401  (fixture)
from tests.hub.service.test_service import PLAYERS, wait_for

START = {"kind": "new_match", "variant": "free", "players": list(PLAYERS)}


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    h = Hub(
        configfile.parse({"store": {"path": str(tmp_path / "luza.db")}, "tables": TABLES}), mqtt=False
    ).start()
    yield h
    h.stop()


def idle(path: Path, n: int) -> list[socket.socket]:
    out = []
    for _ in range(n):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(str(path))
        out.append(s)
    return out


def client_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name == "luza control client")


def test_a_silent_connection_is_dropped(hub: Hub, sock_dir: Path) -> None:  # noqa: F811
    with ControlServer(hub, sock_dir / "ctl.sock", idle_timeout=0.5) as server:
        (conn,) = idle(server.path, 1)
        conn.settimeout(10)
        started = time.monotonic()
        assert conn.recv(100) == b""  # closed by the hub, not by us
        assert time.monotonic() - started < 5
        conn.close()


def test_idle_connections_cannot_lock_the_referee_out(hub: Hub, sock_dir: Path) -> None:  # noqa: F811
    with ControlServer(hub, sock_dir / "ctl.sock", idle_timeout=600) as server:
        before = client_threads()
        flood = idle(server.path, 8)
        wait_for(lambda: server.stats["connections"] == 8)
        answer = send(server.path, "t1", START)  # the ninth: the idlest idle one makes room
        assert answer["ok"] is True, answer
        flood += idle(server.path, 100)
        wait_for(lambda: server.stats["connections"] == 109)
        assert send(server.path, "t1", {"kind": "lag", "winner": 0})["ok"] is True
        assert server.stats["busy"] == 0 and server.stats["evicted"] >= 100
        wait_for(lambda: client_threads() - before <= server.max_clients)
        for s in flood:
            s.close()
