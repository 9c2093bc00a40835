"""Attacks from the club LAN on a real `luza serve --http` (a child process with the stock 1,024 descriptors,
as systemd gives a service without LimitNOFILE): idle WebSockets, half-sent requests, a huge body. The
attacker binds 127.0.0.x (x >= 2) source addresses, so to the hub it is a LAN client at an address of its own;
the wall board comes from 127.0.0.1, the Pi's own kiosk. Each test prints its figure (docs/security.md has
them, before and after)."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hub.demo.client import PanelClient
from tests.hub.service.test_faults import write_config
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
ROOT = Path(__file__).resolve().parents[2]
PIN = "8642"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stock_descriptors() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


class Serve:
    """`luza serve --http 127.0.0.1:PORT` with 1,024 descriptors; `lines` is its log."""

    def __init__(self, conf: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "hub.cli",
                "serve",
                "--config",
                str(conf),
                "--http",
                f"127.0.0.1:{self.port}",
            ],
            cwd=ROOT,
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
            preexec_fn=stock_descriptors,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        threading.Thread(target=self._read, daemon=True).start()
        assert wait_for(
            lambda: any("web app at" in ln for ln in self.lines) or self.proc.poll() is not None, 30
        )
        assert self.proc.poll() is None, "".join(self.lines)

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)

    def fds(self) -> int:
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def rss_mb(self, key: str = "VmRSS") -> float:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(next(ln.split()[1] for ln in status.splitlines() if ln.startswith(key + ":"))) / 1024

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def wait_for(cond: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.fixture
def serve(mosquitto: Mosquitto, tmp_path: Path) -> Iterator[Serve]:
    conf = write_config(tmp_path / "luza.toml", mosquitto, tmp_path / "luza.db")
    pin = subprocess.run(
        [sys.executable, "-m", "hub.cli", "pin", "set", "--config", str(conf), "--table", "t1", "--pin", PIN],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert pin.returncode == 0, pin.stderr
    s = Serve(conf)
    try:
        yield s
    finally:
        s.stop()


def connect_from(source: str, port: int, timeout: float = 5) -> socket.socket:
    sock = socket.socket()
    sock.settimeout(timeout)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def ws_open(source: str, port: int, path: str) -> socket.socket:
    """A WebSocket handshake from `source`; the socket after the 101 answer."""
    sock = connect_from(source, port)
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            raise ConnectionError("closed during the handshake")
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def _exact(sock: socket.socket, n: int) -> bytes:
    out = b""
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        if not chunk:
            raise ConnectionError("closed")
        out += chunk
    return out


def first_frame(sock: socket.socket) -> tuple[str, object]:
    """('state', message) for a text frame, ('close', code) for a close frame (a refused socket is first told
    why, {"type": "error", ...}: that message is skipped, the close that follows is the answer)."""
    b0, b1 = _exact(sock, 2)
    n = b1 & 0x7F
    if n == 126:
        n = struct.unpack(">H", _exact(sock, 2))[0]
    elif n == 127:
        n = struct.unpack(">Q", _exact(sock, 8))[0]
    payload = _exact(sock, n)
    if b0 & 0x0F == 8:
        return "close", struct.unpack(">H", payload[:2])[0]
    message = json.loads(payload)
    if message.get("type") == "error":
        assert message["error"]["code"] == "busy" and message["error"]["ru"], message
        return first_frame(sock)
    return "state", message


def test_idle_websockets_from_the_lan_leave_the_board_and_the_panel_online(serve: Serve) -> None:
    port = serve.port
    held: list[socket.socket] = []
    try:
        answers = []
        for _ in range(200):  # one client, 200 idle sockets
            s = ws_open("127.0.0.2", port, "/ws/tables/t1")
            held.append(s)
            answers.append(first_frame(s)[0])
        let_in = answers.count("state")
        # and many clients, 8 each, until the hub refuses the next newcomer: the open slots are full
        addr = 10
        while first_frame(s := ws_open(f"127.0.0.{addr}", port, "/ws/club"))[0] == "state" and addr < 100:
            held.append(s)
            for _ in range(7):
                held.append(ws_open(f"127.0.0.{addr}", port, "/ws/club"))
            addr += 1
        newcomer = first_frame(ws_open("127.0.0.200", port, "/ws/tables/t1"))
        board = first_frame(ws_open("127.0.0.1", port, "/ws/tables/t1"))  # the wall screen's kiosk
        referee = PanelClient(f"http://127.0.0.1:{port}", "t1", pin=PIN, label="test")
        referee.login()
        token = referee.token
        panel = first_frame(ws_open("127.0.0.201", port, f"/ws/tables/t1?token={token}"))  # a referee's phone
        print(
            f"\n200 idle WebSockets from one address: {let_in} let in; {addr - 10} more addresses filled the "
            f"open slots; then a newcomer: {newcomer[0]} {newcomer[1] if newcomer[0] == 'close' else ''}, "
            f"the board: {board[0]}, a panel with its token: {panel[0]}"
        )
    finally:
        for s in held:
            s.close()
    assert let_in == 8
    assert newcomer == ("close", 4429)
    assert board[0] == "state" and panel[0] == "state"


def get(url: str, timeout: float = 5) -> int:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return int(r.status)


def test_half_sent_requests_do_not_exhaust_the_hubs_descriptors(serve: Serve) -> None:
    before = serve.fds()
    held: list[socket.socket] = []
    try:
        for _ in range(1100):
            s = connect_from("127.0.0.2", serve.port)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # and never the rest
            held.append(s)
        wait_for(lambda: serve.fds() < before + 100, 10)  # the ones over the cap are dropped at once
        peak = serve.fds()
        try:
            board = get(serve.base + "/healthz")  # the kiosk
            phone_sock = connect_from("127.0.0.3", serve.port)  # a phone on the LAN
            phone_sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            phone = _exact(phone_sock, 12)
            phone_sock.close()
        except OSError as exc:
            board, phone = 0, str(exc).encode()
        # and the header timeout (10 s) closes the slow ones that were let in
        closed = wait_for(lambda: serve.fds() <= before + 5, 30)
        print(
            f"\n1,100 half-sent requests from one address: the hub's descriptors {before} -> {peak} "
            f"(limit 1,024), then {serve.fds()} after the header timeout; /healthz from the kiosk {board}, "
            f"from a phone {phone.decode()}"
        )
    finally:
        for s in held:
            s.close()
    assert board == 200 and phone == b"HTTP/1.1 200"
    assert peak < before + 100 and closed


def test_a_300_mb_body_is_refused_without_reading_it(serve: Serve) -> None:
    base_rss = serve.rss_mb()
    sock = connect_from("127.0.0.2", serve.port, timeout=10)
    size = 300 * 1024 * 1024
    sock.sendall(
        f"POST /api/tables/t1/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {size}\r\n\r\n".encode()
    )
    chunk = b"{" + b" " * (1024 * 1024 - 1)
    sent = 0
    try:
        while sent < size:  # the hub answers, and closes, long before the body is in
            sock.sendall(chunk)
            sent += len(chunk)
    except OSError:
        pass
    try:
        answer = sock.recv(4096)
    except OSError:
        answer = b""
    sock.close()
    # a chunked body (no length given) is cut once it passes the limit
    chunked = connect_from("127.0.0.3", serve.port, timeout=10)
    chunked.sendall(
        b"POST /api/tables/t1/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    cut = b""
    try:
        for _ in range(64):
            chunked.sendall(b"10000\r\n" + b" " * 0x10000 + b"\r\n")
    except OSError:
        pass
    with contextlib.suppress(OSError):
        cut = chunked.recv(4096)
    chunked.close()
    peak = serve.rss_mb("VmHWM")
    print(
        f"\na 300 MB body to POST /token: {sent / 1e6:.0f} MB sent before the hub closed; hub memory "
        f"{base_rss:.0f} MB -> peak {peak:.0f} MB; answer {answer[:12].decode(errors='replace')!r}, "
        f"chunked: {cut[:12].decode(errors='replace')!r}"
    )
    assert answer.startswith(b"HTTP/1.1 413") and b"too_large" in answer
    assert cut.startswith(b"HTTP/1.1 413")
    assert peak < base_rss + 40
    assert get(serve.base + "/healthz") == 200
