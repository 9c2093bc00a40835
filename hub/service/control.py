"""The referee's local control channel: a Unix domain socket on which `luza serve --control PATH` takes
referee actions, one JSON line each, and answers each with one JSON line.

Request:  {"table": "t1", "action": {"kind": "declare", "ball": 3, "pocket": 5}}   (the dicts `Hub.submit` takes)
Answer:   {"ok": true, "table": "t1", "cursor": 42, "match_id": 1, "match": <scoreboard>}
      or  {"ok": false, "error": {"code": "malformed", "en": "<en>", "ru": "<ru>", "field": "<name or null>"}}

A refused action (RefereeInputError), a line that is not JSON, not an object, too long, or names no configured
table gets an ok:false answer whose `error` is the refusal's hub.errors.ErrorBody, the same body the REST API
answers for the same refusal; the connection and the hub go on. No stack trace ever reaches the client: an
unexpected error is logged here and answered with hub.errors.INTERNAL_FAULT.
Each outcome is counted in `stats`.

The socket file is created with mode 0600 (only the hub's user may act as the referee) and removed on stop.
The actions and their fields are hub.vocab.actions' models (checked by hub.vocab.referee.validate inside
`Hub.submit`), the same ones the REST API (hub.web) takes.
"""  # noqa: E501

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

from hub.errors import (
    INTERNAL_FAULT,
    MALFORMED,
    ErrorBody,
    Refusal,
    not_stored_in_time,
    too_many_clients,
    unknown_table,
)
from hub.service.hub import Hub
from hub.vocab.checks import RefereeInputError

log = logging.getLogger("luza.control")

MAX_LINE = 64 * 1024  # bytes per request line; an action is well under 1 KiB
MAX_CLIENTS = 8  # concurrent connections; a referee panel needs one
IDLE_TIMEOUT_S = 30.0  # a silent connection is closed after this (`luza referee` connects for each action)
MAX_DEPTH = 16  # nesting of a request line; {"table", "action": {"calls": [{...}]}} is four
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
                    conn.sendall(_line(_refusal(too_many_clients(self.max_clients))))
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
                        conn.sendall(_line(self.answer(raw)))
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
            return _TOO_LONG
        return line.rstrip(b"\r\n")

    # ------------------------------------------------------------ one request

    def answer(self, raw: bytes) -> dict[str, Any]:
        """The answer to one request line. Never raises."""
        self._count("requests")
        try:
            req = self._load(raw)
            if "ota" in req:  # an update push from `luza firmware push` (hub.ota.control)
                from hub.ota.control import answer as ota_answer

                self._count("ota")
                return ota_answer(self.hub, req["ota"])
            table, action = self._parse(req)
            state = self.hub.submit(table, action, timeout=self.submit_timeout)
        except RefereeInputError as exc:
            self._count("refused")
            log.info("referee action refused: %s", exc.en)
            return _refusal(exc.body)
        except _Malformed as exc:
            self._count(exc.counter)
            log.warning("control request refused: %s", exc.body.en)
            return _refusal(exc.body)
        except TimeoutError:
            self._count("errors")
            log.error("the hub did not commit a referee action within %.1f s", self.submit_timeout)
            return _refusal(not_stored_in_time(self.submit_timeout))
        except Exception:  # never a stack trace to the client; the log has it
            self._count("errors")
            log.exception("control request failed")
            return _refusal(INTERNAL_FAULT)
        self._count("ok")
        answer = {
            "ok": True,
            "table": table,
            "cursor": state.get("cursor"),
            "match_id": state.get("match_id"),
            "match": state.get("match"),
        }
        if state.get("replayed"):
            answer["replayed"] = True  # this uid was taken before: cursor and match_id are the first answer's
        return answer

    def _load(self, raw: bytes) -> dict[str, Any]:
        if raw is _TOO_LONG:
            raise _Malformed(
                "too_long",
                f"the line is longer than {self.max_line} bytes; send one JSON object per line",
                f"строка длиннее {self.max_line} байт; отправляйте по одному объекту JSON в строке",
            )
        try:
            req = json.loads(raw.decode("utf-8"))
            if _too_deep(req, MAX_DEPTH):
                raise ValueError(f"nested more than {MAX_DEPTH} levels deep")
        except RecursionError:
            raise _Malformed(
                "malformed",
                f"the JSON is nested more than {MAX_DEPTH} levels deep; an action is two levels deep",
                f"JSON вложен глубже {MAX_DEPTH} уровней; действие — это два уровня",
            ) from None
        except (UnicodeDecodeError, ValueError) as exc:
            example = '{"table": "t1", "action": {"kind": ...}}'
            raise _Malformed(
                "malformed",
                f"not a JSON line ({exc}); send {example}",
                f"строка не JSON ({exc}); отправьте {example}",
            ) from None
        if not isinstance(req, dict):
            raise _Malformed(
                "malformed",
                f'the request must be a JSON object {{"table", "action"}}, got {type(req).__name__}',
                f'запрос должен быть объектом JSON {{"table", "action"}}, получено {type(req).__name__}',
            )
        return req

    def _parse(self, req: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        table, action = req.get("table"), req.get("action")
        known = [t.id for t in self.hub.config.tables]
        if table is None:
            raise _Malformed(
                "malformed",
                f"table: missing; the hub serves {', '.join(known)}",
                f"table: не указан стол; хаб обслуживает {', '.join(known)}",
                "table",
            )
        if not isinstance(table, str) or table not in known:
            raise _Malformed.of_body("unknown_table", unknown_table(table, known))
        if not isinstance(action, dict):
            raise _Malformed(
                "malformed",
                'action: must be an object such as {"kind": "lag", "winner": 0}',
                'action: нужен объект, напр. {"kind": "lag", "winner": 0}',
                "action",
            )
        return table, action

    def _count(self, what: str) -> None:
        with self._lock:
            self.stats[what] += 1


class _Client:
    """One connection's thread and how it is doing (for the eviction of the idlest one at the cap)."""

    def __init__(self, thread: threading.Thread) -> None:
        self.thread = thread
        self.last = time.monotonic()
        self.busy = self.evicted = False


class _Malformed(Refusal):
    """A request line refused before it reaches the hub; `counter` is its stats key."""

    def __init__(
        self, counter: str, en: str, ru: str, field: str | None = None, code: str = MALFORMED
    ) -> None:
        super().__init__(en, ru, field, code)
        self.counter = counter

    @staticmethod
    def of_body(counter: str, body: ErrorBody) -> _Malformed:
        return _Malformed(counter, body.en, body.ru, body.field, body.code)


def _too_deep(obj: object, limit: int) -> bool:
    """Do lists and objects nest deeper than `limit` levels in `obj`?"""
    if not isinstance(obj, (dict, list)):
        return False
    if limit <= 0:
        return True
    return any(_too_deep(v, limit - 1) for v in (obj.values() if isinstance(obj, dict) else obj))


_TOO_LONG = b"\x00too long"  # a sentinel object, compared by identity


def _refusal(body: ErrorBody) -> dict[str, Any]:
    """The answer to a refused request: the refusal's body, as REST and the WebSocket give it."""
    return {"ok": False, "error": body.as_json()}


def new_uid(prefix: str = "cli") -> str:
    """A fresh action uid (a retry of the same action re-sends this one)."""
    return f"{prefix}-{uuid.uuid4().hex[:16]}"


def with_uid(action: object, prefix: str = "cli") -> object:
    """The action with a uid of its own (kept if it has one already);
    a non-object is left for the hub to refuse."""
    if isinstance(action, dict) and "uid" not in action:
        return {**action, "uid": new_uid(prefix)}
    return action


def _line(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def send(path: str | Path, table: str, action: object, timeout: float = 15.0) -> dict[str, Any]:
    """Send one action over the control socket at `path` and return the answer (client side of `luza
    referee`). The action gets a fresh uid unless it has one; a caller that may retry gives it one first
    (`with_uid`) and re-sends that same dict, which the hub then applies once.
    Raises OSError if no hub listens there, ValueError if the answer is not a JSON object."""
    return request(path, {"table": table, "action": with_uid(action)}, timeout)


def request(path: str | Path, req: dict[str, Any], timeout: float = 15.0) -> dict[str, Any]:
    """One request line over the control socket at `path`, and its answer (OSError, ValueError as `send`)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(str(path))
        s.sendall(_line(req))
        with s.makefile("rb") as reader:
            raw = reader.readline(16 * 1024 * 1024)
    if not raw:
        raise ValueError("the hub closed the connection without an answer")
    answer = json.loads(raw)
    if not isinstance(answer, dict):
        raise ValueError(f"the hub's answer is not a JSON object: {raw[:200]!r}")
    return answer
