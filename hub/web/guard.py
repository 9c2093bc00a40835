"""The web server's own limits against a hostile client on the club LAN (docs/security.md):

- `ConnectionGuard` + `protocol_class`: uvicorn's h11 protocol with a cap on open connections per client
  address and in all (a connection over a cap is dropped at once, so its file descriptor is freed at once),
  and a header timeout: a request line and headers not complete within `header_timeout_s` (from the connection
  or from the end of the previous response) close the connection. Half-sent requests cannot pile up and
  exhaust the hub's descriptors. A connection that becomes a WebSocket leaves this
  count for hub/web/slots.py's.
- `BodyLimit`: an ASGI middleware that refuses a request body over `max_bytes` (413, before reading it when
  its Content-Length says so, else as soon as the count passes the limit) and a body that stalls for
  `timeout_s` (408). A 300 MB body is never held in memory.

The Pi's own loopback clients (the wall screen's kiosk) are not counted against the caps.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from hub.web.errors import ApiError
from hub.web.slots import is_loopback


class ConnectionGuard:
    """Open HTTP connections per client address and in all."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total, self.per_address = total, per_address
        self.open = 0
        self.refused: Counter[str] = Counter()  # per_address, total, slow (header timeout)
        self._by_address: Counter[str] = Counter()
        self._lock = threading.Lock()

    def admit(self, address: str | None) -> bool:
        if is_loopback(address):
            return True
        addr = address or "?"
        with self._lock:
            if self._by_address[addr] >= self.per_address:
                self.refused["per_address"] += 1
                return False
            if self.open >= self.total:
                self.refused["total"] += 1
                return False
            self.open += 1
            self._by_address[addr] += 1
            return True

    def release(self, address: str | None) -> None:
        if is_loopback(address):
            return
        addr = address or "?"
        with self._lock:
            self.open -= 1
            self._by_address[addr] -= 1
            if self._by_address[addr] <= 0:
                del self._by_address[addr]


def protocol_class(guard: ConnectionGuard, header_timeout_s: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol with `guard`'s caps and the header timeout (pass it as
    `uvicorn.Config(http=...)`)."""

    class Guarded(H11Protocol):
        _counted = False
        _timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._addr = self.client[0] if self.client else None
            if not guard.admit(self._addr):
                transport.abort()  # the descriptor is freed now; connection_lost follows
                return
            self._counted = True
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._timer = self.loop.call_later(header_timeout_s, self._too_slow)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _too_slow(self) -> None:
            self._timer = None
            if self.cycle is None or self.cycle.response_complete:  # no whole request line and headers yet
                guard.refused["slow"] += 1
                self.transport.abort()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.cycle is not None and not self.cycle.response_complete:
                self._disarm()  # a request is under way: its body has BodyLimit's timeout

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.cycle is None or self.cycle.response_complete:
                self._arm()  # the next request on a kept-alive connection must come in time too

        def handle_websocket_upgrade(self, event: Any) -> None:
            self._disarm()
            self._uncount()  # from here hub/web/slots.py counts it
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._uncount()
            super().connection_lost(exc)

        def _uncount(self) -> None:
            if self._counted:
                self._counted = False
                guard.release(self._addr)

    return Guarded


class BodyLimit:
    """Request bodies of at most `max_bytes`, each part within `timeout_s` (see the module's docstring)."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout_s: float) -> None:
        self.app, self.max_bytes, self.timeout_s = app, max_bytes, timeout_s

    def too_large(self) -> ApiError:
        kib = self.max_bytes // 1024
        return ApiError(
            413,
            "too_large",
            f"the request body is over {kib} KiB; nothing was done",
            f"тело запроса больше {kib} КиБ; ничего не сделано",
            "body",
            {"Connection": "close"},
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > self.max_bytes:
            await self.too_large().response()(scope, receive, send)
            return
        seen, done, started, refused = 0, False, False, False
        gone: Message = {"type": "http.disconnect"}

        async def refuse(error: ApiError) -> Message:
            """Answer now; the app is told the client went away
            (FastAPI would make any error of ours a 400)."""
            nonlocal refused
            if not started and not refused:
                refused = True
                await error.response()(scope, receive, send)
            return gone

        async def limited() -> Message:
            nonlocal seen, done
            if refused:
                return gone
            if done:  # the body is in: from here the app waits for a disconnect, as long as it likes
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), self.timeout_s)
            except TimeoutError:
                return await refuse(
                    ApiError(
                        408,
                        "timeout",
                        f"the request body stalled for {self.timeout_s:g} s; nothing was done",
                        f"тело запроса не приходило {self.timeout_s:g} с; ничего не сделано",
                        "body",
                        {"Connection": "close"},
                    )
                )
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                done = not message.get("more_body", False)
                if seen > self.max_bytes:
                    return await refuse(self.too_large())
            return message

        async def tracked(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the app's own answer to the "disconnect": ours was sent
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, limited, tracked)
