"""What the hub tells the rest of the process after a commit: a table's new state (`Change`), stamped and kept
as the table's last one (`TableStates`), retained on the broker and handed to every in-process subscriber (the
web app's WebSockets, tests, the demo) on the worker thread or, through `queue`, on an asyncio loop."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from hub.ingest.mqtt import MqttIngest
from hub.view.table import TableStateJSON, TableView
from luza_wire import protocol

log = logging.getLogger("luza.hub")


@dataclass(frozen=True)
class Change:
    """A table's new view, as published: given to every subscriber after each commit that changed it."""

    table_id: str
    cursor: int  # the last input row id (global cursor) at this state
    view: TableView  # the table's view (hub.view), stamped with `rev`, `boot`, `hub_ms`
    state: TableStateJSON  # its JSON data, made once (`view.model_dump(mode="json")`)
    # that data encoded once (compact UTF-8, luza_wire.protocol.encode_state): the retained MQTT payload,
    # and the body of every WebSocket state message (hub.web.context.WebContext.envelope_text splices it)
    payload: bytes

    @property
    def rev(self) -> int:
        return int(self.state["rev"])


class Subscribers:
    """The callbacks told of every Change; one that raises is logged and the others still run."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[[Change], None]] = []
        self._lock = threading.Lock()

    def add(self, callback: Callable[[Change], None]) -> Callable[[], None]:
        """Call `callback(change)` after each commit that changes a table;
        returns the unsubscribe function."""
        with self._lock:
            self._callbacks.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return unsubscribe

    def queue(
        self, loop: asyncio.AbstractEventLoop, maxsize: int = 1000
    ) -> tuple[asyncio.Queue[Change], Callable[[], None]]:
        """An asyncio queue on `loop` fed with every Change
        (oldest dropped when full), and its unsubscribe."""
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


class TableStates:
    """Each table's last committed state: stamped with its revision (+1 on every change, this boot), the boot
    id and the hub time, then published (retained luza/v1/<table>/state, and every subscriber)."""

    def __init__(
        self, boot: str, clock: Callable[[], int], cursor: Callable[[], int], mqtt: MqttIngest | None
    ) -> None:
        self.boot, self.clock, self.cursor, self.mqtt = boot, clock, cursor, mqtt
        self.subscribers = Subscribers()
        self._revs: Counter[str] = Counter()
        self._last: dict[str, Change] = {}

    def stamp(self, table_id: str, view: TableView) -> Change:
        """A table's new view, stamped with its revision, the boot id and the hub time, its JSON written once,
        as its last one (published by `publish`)."""
        self._revs[table_id] += 1
        view = view.model_copy(
            update={"rev": self._revs[table_id], "boot": self.boot, "hub_ms": self.clock()}
        )
        state = view.model_dump(mode="json")
        change = Change(table_id, self.cursor(), view, state, protocol.encode_state(state))
        self._last[table_id] = change
        return change

    def state(self, table_id: str) -> TableStateJSON:
        """The last committed state of a table as JSON: `view`'s JSON (KeyError: not a table of this hub)."""
        return self._last[table_id].state

    def payload(self, table_id: str) -> bytes:
        """`state` as published: its one encoding (KeyError: not a table of this hub)."""
        return self._last[table_id].payload

    def view(self, table_id: str) -> TableView:
        """The last committed view of a table (hub.view.table.TableView; KeyError:
        not a table of this hub)."""
        return self._last[table_id].view

    def known(self, table_id: str) -> bool:
        return table_id in self._last

    def publish(self, table_id: str) -> None:
        """Tell the table's last state: retained on the broker, and to every subscriber."""
        change = self._last[table_id]
        if self.mqtt:
            self.mqtt.publish(protocol.state_topic(table_id), change.payload, qos=1, retain=True)
        self.subscribers.notify(change)
