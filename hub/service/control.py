"""The referee's local control channel: a Unix domain socket on which `luza serve --control PATH` takes
referee actions, one JSON line each, and answers each with one JSON line (the lines, how each is checked and
answered: hub.service.control_lines). A refused or malformed line is answered with its refusal; the connection
and the hub go on. Each outcome is counted in `stats`. The client side (`send`, `request`) is here too.

The socket file is created with mode 0600 (only the hub's user may act as the referee) and removed on stop.
The actions and their fields are hub.vocab.actions' models (checked by hub.vocab.referee.validate inside
`Hub.submit`), the same ones the REST API (hub.web) takes.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import socket
import stat
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from hub.errors import too_many_clients
from hub.service.control_lines import TOO_LONG, ControlRequest, RequestLines, encode_line, refusal
from hub.service.hub import Hub

log = logging.getLogger("luza.control")

MAX_LINE = 64 * 1024  # bytes per request line; an action is well under 1 KiB
MAX_CLIENTS = 8  # concurrent connections; a referee panel needs one
IDLE_TIMEOUT_S = 30.0  # a silent connection is closed after this (`luza referee` connects for each action)
_umask_lock = threading.Lock()


class ControlError(RuntimeError):
    """The control socket cannot be opened (path taken, too long, not writable).
    The message says what to do."""


class ControlServer:
    """Serve referee actions for `hub` on the Unix socket `path`.
    `start()`, then `stop()` (removes the file)."""

    def __init__(
        self,
        hub: Hub,
        path: str | Path,
        submit_timeout: float = 10.0,
        max_line: int = MAX_LINE,
        max_clients: int = MAX_CLIENTS,
        idle_timeout: float = IDLE_TIMEOUT_S,
    ) -> None:
        self.hub, self.path = hub, Path(path)
        self.submit_timeout, self.max_line, self.max_clients = submit_timeout, max_line, max_clients
        self.idle_timeout = idle_timeout
        # connections, requests, ok, refused, malformed, unknown_table, too_long, busy, evicted, errors
        self.stats: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._accept_thread: threading.Thread | None = None
        self._clients: dict[socket.socket, _Client] = {}
        self._stopping = threading.Event()
        self.lines = RequestLines(hub, submit_timeout, max_line, self._count)  # each line's answer

    # ------------------------------------------------------------ lifecycle

    def start(self) -> ControlServer:
        self._clear_stale()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            with _umask_lock:  # no moment at which another user could connect to a wider-open socket
                old = os.umask(0o177)
                try:
                    sock.bind(str(self.path))
                finally:
                    os.umask(old)
            os.chmod(self.path, 0o600)
            sock.listen(self.max_clients)
        except OSError as exc:
            sock.close()
            raise ControlError(
                f"cannot open the control socket {self.path}: {exc.strerror or exc}; "
                "choose a writable directory and a path under 100 characters"
            ) from exc
        self._listener = sock
        self._accept_thread = threading.Thread(target=self._accept, name="luza control", daemon=True)
        self._accept_thread.start()
        log.info("referee control socket at %s", self.path)
        return self

    def stop(self, timeout: float | None = None) -> None:
        """Stop taking connections, let requests under way finish
        (and be answered), remove the socket file."""
        self._stopping.set()
        if self._listener is not None:
            with contextlib.suppress(OSError):
                self._listener.shutdown(socket.SHUT_RDWR)
            self._listener.close()
            self._listener = None
        if self._accept_thread is not None:
            self._accept_thread.join(5)
            self._accept_thread = None
        with self._lock:
            clients = dict(self._clients)
        for conn in clients:  # wakes a reader; an answer being written still goes out
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RD)
        for client in clients.values():
            client.thread.join(self.submit_timeout + 1 if timeout is None else timeout)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def __enter__(self) -> ControlServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _clear_stale(self) -> None:
        """A socket file left by a hub that died is removed; a live one, or any other file, is not touched."""
        try:
            mode = self.path.lstat().st_mode
        except FileNotFoundError:
            return
        except OSError as exc:
            raise ControlError(
                f"cannot use {self.path} as the control socket: {exc.strerror or exc}"
            ) from exc
        if not stat.S_ISSOCK(mode):
            raise ControlError(
                f"{self.path} exists and is not a socket; remove it or choose another --control path"
            )
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(str(self.path))
        except OSError:
            self.path.unlink()  # nobody listens: left over from a hub that was killed
            return
        finally:
            probe.close()
        raise ControlError(
            f"another hub is serving the control socket {self.path}; stop it or choose another path"
        )

    # ------------------------------------------------------------ connections

    def _accept(self) -> None:
        assert self._listener is not None
        listener = self._listener
        while not self._stopping.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return  # the listener was closed by stop()
            self._count("connections")
            with self._lock:
                busy = len(self._clients) >= self.max_clients and not self._evict_idlest()
                if not busy:
                    t = threading.Thread(
                        target=self._serve, args=(conn,), name="luza control client", daemon=True
                    )
                    self._clients[conn] = _Client(t)
            if busy:
                self._count("busy")
                with contextlib.suppress(OSError):
                    conn.sendall(encode_line(refusal(too_many_clients(self.max_clients))))
                conn.close()
                continue
            t.start()

    def _evict_idlest(self) -> bool:
        """At the cap: close the connection idle the longest (not one whose request is under way) to make
        room. Under self._lock. False if every connection is busy."""
        idle = [(c.last, conn) for conn, c in self._clients.items() if not c.busy and not c.evicted]
        if not idle:
            return False
        _, conn = min(idle, key=lambda x: x[0])
        self._clients[conn].evicted = True
        self.stats["evicted"] += 1
        with contextlib.suppress(OSError):
            conn.shutdown(socket.SHUT_RDWR)  # its reader wakes and the thread removes it
        return True

    def _serve(self, conn: socket.socket) -> None:
        try:
            conn.settimeout(self.idle_timeout)
            with conn.makefile("rb") as reader:
                while True:
                    raw = self._read_line(reader)
                    if raw is None:
                        return
                    self._mark(conn, busy=True)
                    try:
                        conn.sendall(encode_line(self.lines.answer(raw)))
                    finally:
                        self._mark(conn, busy=False)
        except OSError as exc:  # the client went away or stayed silent too long
            log.debug("control connection closed: %s", exc)
        finally:
            with self._lock:
                self._clients.pop(conn, None)
            conn.close()

    def _mark(self, conn: socket.socket, busy: bool) -> None:
        with self._lock:
            client = self._clients.get(conn)
            if client is not None:
                client.busy, client.last = busy, time.monotonic()

    def _read_line(self, reader: io.BufferedReader) -> bytes | None:
        """The next line (without its newline); None at the end. A line longer than max_line is read to its
        end and discarded, and returned as b"" with the too-long mark,
        so the answer says so and the stream resyncs."""
        line = reader.readline(self.max_line + 1)
        if not line:
            return None
        if len(line) > self.max_line and not line.endswith(b"\n"):
            while True:  # skip the rest of the line in bounded pieces
                more = reader.readline(self.max_line)
                if not more or more.endswith(b"\n"):
                    break
            return TOO_LONG
        return line.rstrip(b"\r\n")

    def _count(self, what: str) -> None:
        with self._lock:
            self.stats[what] += 1


class _Client:
    """One connection's thread and how it is doing (for the eviction of the idlest one at the cap)."""

    def __init__(self, thread: threading.Thread) -> None:
        self.thread = thread
        self.last = time.monotonic()
        self.busy = self.evicted = False


def new_uid(prefix: str = "cli") -> str:
    """A fresh action uid (a retry of the same action re-sends this one)."""
    return f"{prefix}-{uuid.uuid4().hex[:16]}"


def with_uid(action: object, prefix: str = "cli") -> object:
    """The action with a uid of its own (kept if it has one already);
    a non-object is left for the hub to refuse."""
    if isinstance(action, dict) and "uid" not in action:
        return {**action, "uid": new_uid(prefix)}
    return action


def send(path: str | Path, table: str, action: object, timeout: float = 15.0) -> dict[str, object]:
    """Send one action over the control socket at `path` and return the answer (client side of `luza
    referee`). The action gets a fresh uid unless it has one; a caller that may retry gives it one first
    (`with_uid`) and re-sends that same dict, which the hub then applies once.
    Raises OSError if no hub listens there, ValueError if the answer is not a JSON object. The answer is
    that object as received, unchecked (a TakenAnswer or a RefusedAnswer from a hub of this version):
    read it field by field."""
    return request(path, {"table": table, "action": with_uid(action)}, timeout)


def request(path: str | Path, req: ControlRequest, timeout: float = 15.0) -> dict[str, Any]:
    """One request line over the control socket at `path`, and its answer (OSError, ValueError as `send`):
    the JSON object as received, not checked against a shape (a hub of another version may answer other
    fields), so a dict of Any that its callers read with `.get` and `isinstance` (hub/commands/referee.py,
    firmware.py)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(str(path))
        s.sendall(encode_line(req))
        with s.makefile("rb") as reader:
            raw = reader.readline(16 * 1024 * 1024)
    if not raw:
        raise ValueError("the hub closed the connection without an answer")
    answer = json.loads(raw)
    if not isinstance(answer, dict):
        raise ValueError(f"the hub's answer is not a JSON object: {raw[:200]!r}")
    return answer
