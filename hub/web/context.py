"""What every route shares: the hub, the settings, PINs, tokens and lockouts,
the live fan-out, the metrics."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Annotated, NotRequired, Protocol, TypedDict

from fastapi import Depends
from starlette.requests import HTTPConnection

from hub.errors import not_stored_in_time
from hub.service.batch import RefereeReply
from hub.service.hub import Hub
from hub.view.devices import device_view
from hub.view.table import DeviceView, TableStateJSON, TableView
from hub.vocab.alerts import ClockBehind, HubWide
from hub.vocab.checks import RefereeInputError
from hub.web.auth import CLUB, PinStore, Token, Tokens
from hub.web.errors import ApiError, from_referee, unknown_table
from hub.web.metrics import Metrics
from hub.web.pinguard import PinGuard
from hub.web.settings import WebSettings


class Fanout(Protocol):
    """What the routes ask of the live fan-out (hub.web.live.Live, which imports this module)."""

    @property
    def clients(self) -> int: ...


class HealthAlert(TypedDict):
    """A hub-wide alert (hub.vocab.alerts.HubWide) as /healthz and the club feed's `health` carry it: its
    keys in the order they have always had there, the order the alert was first written in (the table's
    `alerts` give the same fields in the model's order)."""

    kind: str
    scope: str
    severity: str
    behind_ms: NotRequired[int]  # clock_behind only
    en: str
    ru: str


class HealthJSON(TypedDict):
    """GET /healthz's body, and the club feed's `health` (hub.web.schemas.Health documents it)."""

    ok: bool
    worker_alive: bool
    broker_connected: bool | None
    alerts: list[HealthAlert]
    queue_depth: int
    boot: str
    hub_ms: int
    tables: int
    websocket_clients: int


def health_alert(a: HubWide) -> HealthAlert:
    """One hub-wide alert's JSON in /healthz."""
    if isinstance(a, ClockBehind):
        return {
            "kind": a.kind,
            "scope": a.scope,
            "severity": a.severity,
            "behind_ms": a.behind_ms,
            "en": a.en,
            "ru": a.ru,
        }
    return {"kind": a.kind, "scope": a.scope, "severity": a.severity, "en": a.en, "ru": a.ru}


class WebContext:
    def __init__(self, hub: Hub, settings: WebSettings) -> None:
        self.hub, self.settings = hub, settings
        self.pins = PinStore(hub.config.store.path)
        self.tokens = Tokens(settings.token_ttl_s)
        # serialised per table, locked per address (hub.web.pinguard)
        self.lockout = PinGuard(settings, self.pins)
        self.metrics = Metrics(hub, self.lockout.snapshot)
        self.live: Fanout | None = None  # hub.web.live.Live, set by the app
        # table -> (uid, match id) of the last match started
        self.match_uids: dict[str, tuple[str, int | None]] = {}

    # ------------------------------------------------------------ reading

    def table_ids(self) -> list[str]:
        return [t.id for t in self.hub.config.tables]

    def require_table(self, table: str) -> None:
        if self.hub.config.table(table) is None:
            raise unknown_table(table, self.table_ids())

    def envelope(self, table: str) -> TableView:
        """The table state envelope (docs/web-api.md): the hub's last view of the table
        plus whether a PIN is set."""
        return self.hub.view(table).model_copy(update={"pin_set": self.pins.is_set(table)})

    def envelope_json(self, table: str) -> TableStateJSON:
        """`envelope`'s JSON, from the JSON the hub made once for the change
        (a WebSocket sends it to every client)."""
        return {**self.hub.state(table), "pin_set": self.pins.is_set(table)}

    def envelope_text(self, table: str) -> str:
        """The WebSocket's state message, `{"type": "state", **envelope_json}` as compact JSON, spliced from
        the payload the hub encoded once for the change: no second encoding per change (the state's last key
        is `hub_ms`; `pin_set` is left out of the hub's view and added here, last, as the envelope has it)."""
        body = self.hub.state_payload(table).decode()
        pin = "true" if self.pins.is_set(table) else "false"
        return f'{{"type":"state",{body[1:-1]},"pin_set":{pin}}}'

    def devices(self) -> list[DeviceView]:
        now = self.hub.clock()
        out = []
        for row in self.hub.devices():
            table = row.get("table_id")
            jams: set[str] = set()
            cues: dict[str, int] = {}
            if table:
                for d in self.hub.view(table).devices:
                    if d.jam:
                        jams.add(d.device)
                    if d.role == "cue" and d.seat is not None:
                        cues[d.device] = d.seat
            out.append(device_view(row, self.hub.config, now, jams, cues))
        return out

    def health(self) -> HealthJSON:
        hub = self.hub
        broker = hub.mqtt.connected.is_set() if hub.mqtt is not None else None
        alive = hub.worker_alive
        alerts = hub.alerts  # a full disk (hub.vocab.alerts.disk_full_alert): the hub cannot store, so not ok
        # a clock behind (a warning) still scores
        failing = [a for a in alerts if a.severity == "error"]
        return {
            "ok": alive and broker is not False and not failing,
            "worker_alive": alive,
            "broker_connected": broker,
            "alerts": [health_alert(a) for a in alerts],
            "queue_depth": hub.queue_depth(),
            "boot": hub.boot,
            "hub_ms": hub.clock(),
            "tables": len(hub.config.tables),
            "websocket_clients": self.live.clients if self.live else 0,
        }

    # ------------------------------------------------------------ acting

    def bearer(self, authorization: str | None, scope: str) -> Token | None:
        """The live token of `Authorization: Bearer <token>` if it is one for `scope` (a table id, or CLUB)
        under that scope's current PIN; else None."""
        scheme, _, value = (authorization or "").partition(" ")
        token = self.tokens.get(value.strip()) if scheme.lower() == "bearer" and value.strip() else None
        if token is None or token.table != scope or token.pin_set_ms != self.pins.set_ms(scope):
            return None
        return token

    def authorize(self, table: str, authorization: str | None) -> Token:
        """The bearer token of a mutating call, valid for `table` (401 otherwise)."""
        token = self.bearer(authorization, table)
        if token is None:
            raise ApiError(
                401,
                "unauthorized",
                f"this needs the referee's token for table {table!r}: enter the PIN on the panel",
                f"нужен токен судьи стола {table!r}: введите PIN на панели",
                "authorization",
                {"WWW-Authenticate": "Bearer"},
            )
        return token

    def authorize_device(self, table: str, authorization: str | None) -> Token:
        """A device action (the club view's identify, a calibration): the club's token or the referee token of
        the device's table (401 otherwise, saying both)."""
        token = self.bearer(authorization, CLUB) or self.bearer(authorization, table)
        if token is None:
            raise ApiError(
                401,
                "unauthorized",
                f"this needs the club's sign-in (the club PIN, on the club view) or the referee's token "
                f"for table {table!r}",
                f"нужен вход клуба (PIN клуба на странице клуба) или токен судьи стола {table!r}",
                "authorization",
                {"WWW-Authenticate": "Bearer"},
            )
        return token

    async def submit(self, table: str, action: Mapping[str, object]) -> RefereeReply:
        """Hand a referee action to the hub and wait for its commit; refusals become ApiErrors."""
        fut = self.hub.submit_async(table, action)
        try:
            return await asyncio.wait_for(
                asyncio.shield(asyncio.wrap_future(fut)), self.settings.submit_timeout_s
            )
        except RefereeInputError as exc:
            raise from_referee(exc) from None
        except (TimeoutError, FutureTimeout):
            raise ApiError.of(not_stored_in_time(self.settings.submit_timeout_s)) from None


def ctx(conn: HTTPConnection) -> WebContext:
    """FastAPI dependency (HTTP and WebSocket routes): the app's WebContext."""
    return conn.app.state.luza  # type: ignore[no-any-return]


Web = Annotated[WebContext, Depends(ctx)]
"""A route's parameter `web: Web` is the app's WebContext."""
