"""Live state over WebSockets: /ws/tables/{table} (the table's envelope on connect and on every change,
heartbeats, resync by rev) and /ws/club (every table, the devices and the hub's health).

One subscription to the hub (`Hub.changes(loop)`) feeds every client: a change is serialised once and put on
each client's queue; a slow client's queue keeps only the newest states (each state is whole, so nothing is
lost but intermediate frames)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Mapping
from typing import Literal, NotRequired, TypedDict

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from hub.errors import ErrorBody, unknown_table
from hub.service.changes import Change
from hub.view.table import TableStateJSON
from hub.web.context import HealthJSON, Web, WebContext
from hub.web.pinguard import AccessSummary
from hub.web.slots import Slots

log = logging.getLogger("luza.web")
router = APIRouter()
CLIENT_QUEUE = 16
CLOSE_UNKNOWN_TABLE = 4404
CLOSE_BUSY = 4429


class ClubTable(TypedDict):
    """A table in the club view's message: its state envelope and the PIN guard's summary."""

    id: str
    name: str
    state: TableStateJSON
    access: AccessSummary


class ClubMessage(TypedDict):
    """What /ws/club sends (docs/web-api.md): every table, the devices, and the hub's health (GET /healthz's
    body)."""

    type: Literal["club"]
    boot: str
    hub_ms: int
    tables: list[ClubTable]
    devices: list[Mapping[str, object]]  # DeviceView's JSON (model_dump)
    health: HealthJSON


class Heartbeat(TypedDict):
    """Sent when the socket is quiet; on a table's socket with the table and its rev (for a resync)."""

    type: Literal["heartbeat"]
    boot: str
    hub_ms: int
    table: NotRequired[str]
    rev: NotRequired[int]


def _dumps(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class Live:
    """The fan-out of hub changes to WebSocket clients (runs on the app's event loop)."""

    def __init__(self, web: WebContext) -> None:
        self.web = web
        self.tables: dict[str, set[asyncio.Queue[str]]] = {}
        self.club: set[asyncio.Queue[str]] = set()
        st = web.settings
        self.slots = Slots(st.max_ws_clients, st.max_ws_per_address, st.ws_reserved)  # hub/web/slots.py
        self._task: asyncio.Task[None] | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self.club_due = False  # the club view is told within club_min_interval_s (a hub change, a failed PIN)

    @property
    def clients(self) -> int:
        return sum(len(s) for s in self.tables.values()) + len(self.club)

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        changes, self._unsubscribe = self.web.hub.changes(loop)
        self._task = loop.create_task(self._pump(changes))

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _pump(self, changes: asyncio.Queue[Change]) -> None:
        while True:
            try:
                change = await asyncio.wait_for(changes.get(), self.web.settings.club_min_interval_s)
            except TimeoutError:
                if self.club_due and self.club:
                    self._send(self.club, _dumps(self.club_message()))
                self.club_due = False
                continue
            try:
                subs = self.tables.get(change.table_id)
                if subs:
                    self._send(subs, self.web.envelope_text(change.table_id))
                self.club_due = True
                if changes.empty() and self.club:  # idle: tell the club view now; under load, coalesce
                    self._send(self.club, _dumps(self.club_message()))
                    self.club_due = False
            except Exception:  # one bad state must not end the fan-out
                log.exception("live: could not send the change of table %s", change.table_id)

    @staticmethod
    def _send(queues: set[asyncio.Queue[str]], text: str) -> None:
        for q in list(queues):
            if q.full():
                q.get_nowait()
            q.put_nowait(text)

    def club_message(self) -> ClubMessage:
        web = self.web
        tables: list[ClubTable] = [
            {
                "id": t.id,
                "name": t.name,
                "state": web.envelope_json(t.id),
                "access": web.lockout.summary(t.id),
            }
            for t in web.hub.config.tables
        ]
        return {
            "type": "club",
            "boot": web.hub.boot,
            "hub_ms": web.hub.clock(),
            "tables": tables,
            "devices": [d.model_dump(mode="json") for d in web.devices()],
            "health": web.health(),
        }

    def heartbeat(self, table: str | None) -> Heartbeat:
        hub = self.web.hub
        msg: Heartbeat = {"type": "heartbeat", "boot": hub.boot, "hub_ms": hub.clock()}
        if table is not None:
            msg["table"] = table
            msg["rev"] = hub.state(table)["rev"]
        return msg


async def _serve(ws: WebSocket, live: Live, queue: asyncio.Queue[str], table: str | None) -> None:
    """Send what the queue gets, a heartbeat when it is quiet; return when the client goes away."""
    heartbeat = live.web.settings.heartbeat_s

    async def reader() -> None:
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                await ws.receive_text()  # clients send nothing we need; this notices the close

    read = asyncio.create_task(reader())
    try:
        while not read.done():
            get = asyncio.create_task(queue.get())
            done, _ = await asyncio.wait({get, read}, timeout=heartbeat, return_when=asyncio.FIRST_COMPLETED)
            if get not in done:
                get.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await get  # it may have taken a message just before the cancel: that one is sent
            if get.done() and not get.cancelled():
                await ws.send_text(get.result())
            elif not read.done():
                await ws.send_text(_dumps(live.heartbeat(table)))
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass  # the client went away while we were sending
    finally:
        read.cancel()
        with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
            await read


async def _refuse(ws: WebSocket, close_code: int, body: ErrorBody) -> None:
    """Say why in the body every channel gives for this refusal (hub.errors), then close with the code the
    dashboard reads (the close reason is the body's code)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await ws.send_text(_dumps({"type": "error", "error": body.as_json()}))
        await ws.close(close_code, body.code)


def _live(web: WebContext) -> Live:
    assert isinstance(web.live, Live)
    return web.live


def _address(ws: WebSocket) -> str | None:
    return ws.client.host if ws.client else None


async def _admit(ws: WebSocket, web: WebContext, table: str | None) -> bool:
    """Take a slot (hub/web/slots.py) or close with 4429; a panel's `?token=` of this table is a screen's."""
    token = web.tokens.get(ws.query_params.get("token") or "") if table is not None else None
    screen = token is not None and token.table == table and token.pin_set_ms == web.pins.set_ms(table)
    refusal = _live(web).slots.take(_address(ws), screen)
    if refusal is None:
        return True
    await _refuse(ws, CLOSE_BUSY, refusal.body)
    return False


@router.websocket("/ws/tables/{table}")
async def table_socket(
    ws: WebSocket, table: str, web: Web, rev: int | None = None, boot: str | None = None
) -> None:
    live = _live(web)
    await ws.accept()
    if web.hub.config.table(table) is None:
        await _refuse(ws, CLOSE_UNKNOWN_TABLE, unknown_table(table, [t.id for t in web.hub.config.tables]))
        return
    if not await _admit(ws, web, table):
        return
    queue: asyncio.Queue[str] = asyncio.Queue(CLIENT_QUEUE)
    live.tables.setdefault(table, set()).add(queue)  # before reading the state: no change can slip between
    try:
        state = web.envelope_json(table)
        if rev is not None and rev == state["rev"] and boot == state["boot"]:
            await ws.send_text(
                _dumps(
                    {
                        "type": "hello",
                        "table": table,
                        "rev": state["rev"],
                        "boot": state["boot"],
                        "hub_ms": web.hub.clock(),
                    }
                )
            )
        else:
            await ws.send_text(web.envelope_text(table))
        await _serve(ws, live, queue, table)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        live.tables[table].discard(queue)
        live.slots.release(_address(ws))


@router.websocket("/ws/club")
async def club_socket(ws: WebSocket, web: Web) -> None:
    live = _live(web)
    await ws.accept()
    if not await _admit(ws, web, None):
        return
    queue: asyncio.Queue[str] = asyncio.Queue(CLIENT_QUEUE)
    live.club.add(queue)
    try:
        await ws.send_text(_dumps(live.club_message()))
        await _serve(ws, live, queue, None)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        live.club.discard(queue)
        live.slots.release(_address(ws))
