"""What the hub tells the rest of the process after a commit: a table's new state (`Change`), handed to every
in-process subscriber (the web app's WebSockets, tests, the demo) on the worker thread or, through `queue`, on an
asyncio loop."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hub.view.table import TableView

log = logging.getLogger("luza.hub")


@dataclass(frozen=True)
class Change:
    """A table's new view, as published: given to every subscriber after each commit that changed it."""

    table_id: str
    cursor: int  # the last input row id (global cursor) at this state
    view: TableView  # the table's view (hub.view), stamped with `rev`, `boot`, `hub_ms`
    state: dict[str, Any]  # its JSON, made once (`view.model_dump(mode="json")`): MQTT and the WebSocket send it

    @property
    def rev(self) -> int:
        return int(self.state["rev"])


class Subscribers:
    """The callbacks told of every Change; one that raises is logged and the others still run."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[[Change], None]] = []
        self._lock = threading.Lock()

    def add(self, callback: Callable[[Change], None]) -> Callable[[], None]:
        """Call `callback(change)` after each commit that changes a table; returns the unsubscribe function."""
        with self._lock:
            self._callbacks.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return unsubscribe

    def queue(self, loop: asyncio.AbstractEventLoop, maxsize: int = 1000
              ) -> tuple[asyncio.Queue[Change], Callable[[], None]]:
        """An asyncio queue on `loop` fed with every Change (oldest dropped when full), and its unsubscribe."""
        q: asyncio.Queue[Change] = asyncio.Queue(maxsize)

        def put(change: Change) -> None:
            if q.full():
                q.get_nowait()  # a slow reader gets the newest state; states are whole, not deltas
            q.put_nowait(change)

        def forward(change: Change) -> None:
            loop.call_soon_threadsafe(put, change)

        return q, self.add(forward)

    def notify(self, change: Change) -> None:
        with self._lock:
            callbacks = list(self._callbacks)
        for cb in callbacks:
            try:
                cb(change)
            except Exception:  # one broken subscriber must not stop the others or the hub
                log.exception("state subscriber %r failed", cb)
