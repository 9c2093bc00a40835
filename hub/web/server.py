"""Running the web app in the hub's process: uvicorn on its own thread, stopped cleanly.

    server = serve_in_thread(hub, "127.0.0.1", 8000)   # port 0: a free port (server.port says which)
    ...
    server.stop()

`luza serve --http HOST:PORT` and `luza demo` use this; so do the tests (a real HTTP/WebSocket server)."""

from __future__ import annotations

import socket
import threading
import time

import uvicorn

from hub.service.hub import Hub
from hub.web.app import create_app
from hub.web.guard import ConnectionGuard, protocol_class
from hub.web.settings import WebSettings


class WebServerError(RuntimeError):
    """The server could not start (address in use, bad host); the message says which address."""


class WebServer:
    """A uvicorn server for one hub on a background thread. `url` is where it listens."""

    def __init__(
        self, hub: Hub, host: str, port: int, settings: WebSettings | None = None, log_level: str = "warning"
    ) -> None:
        self.hub, self.host = hub, host
        settings = settings or WebSettings()
        self.app = create_app(hub, settings)
        # caps on connections and the header timeout: a hostile LAN client cannot exhaust
        # the hub (hub/web/guard.py)
        self.guard = ConnectionGuard(settings.max_connections, settings.max_connections_per_address)
        self.config = uvicorn.Config(
            self.app,
            host=host,
            port=port,
            ws="websockets-sansio",
            lifespan="on",
            http=protocol_class(self.guard, settings.header_timeout_s),
            # protocol pings: a client gone silent (half-open) is closed, its slot freed
            ws_ping_interval=settings.ws_ping_s,
            ws_ping_timeout=settings.ws_ping_timeout_s,
            log_level=log_level,
            access_log=False,
            timeout_graceful_shutdown=2,
        )
        self.server = uvicorn.Server(self.config)
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self.port = port

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def start(self, timeout: float = 10.0) -> WebServer:
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError as exc:
            sock.close()
            raise WebServerError(f"cannot listen on {self.host}:{self.port}: {exc.strerror or exc}") from exc
        self._sock = sock
        self.port = sock.getsockname()[1]
        self.hub.ota.http_port = self.port  # nodes download their updates here (hub.ota)
        self._thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [sock]}, name="luza web", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise WebServerError(f"the web server on {self.url} did not start")
            time.sleep(0.01)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Close the sockets (WebSocket clients see a close), finish requests under way, stop the thread."""
        self.server.should_exit = True
        if self.hub.ota.http_port == self.port:
            self.hub.ota.http_port = None
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve_in_thread(
    hub: Hub,
    host: str = "127.0.0.1",
    port: int = 8000,
    settings: WebSettings | None = None,
    log_level: str = "warning",
) -> WebServer:
    """Start the web app for a started `hub` on host:port in this process; returns the running server."""
    return WebServer(hub, host, port, settings, log_level).start()


def parse_address(text: str) -> tuple[str, int]:
    """'HOST:PORT' (or ':PORT', or '[::1]:PORT') -> (host, port); ValueError with a one-line reason."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--http wants HOST:PORT such as 127.0.0.1:8000, got {text!r}")
    host = host.strip("[]") or "0.0.0.0"
    return host, int(port)
