"""The web app factory: `create_app(hub, settings)` -> a FastAPI app serving docs/web-api.md for that hub."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.types import ASGIApp, Receive, Scope, Send

from hub.errors import INTERNAL_FAULT
from hub.service.hub import Hub
from hub.web import errors, pages
from hub.web.context import WebContext
from hub.web.errors import ApiError
from hub.web.guard import BodyLimit
from hub.web.live import Live
from hub.web.live import router as live_router
from hub.web.routes_access import router as access_router
from hub.web.routes_actions import router as actions_router
from hub.web.routes_devices import router as devices_router
from hub.web.routes_health import router as health_router
from hub.web.routes_ota import router as ota_router
from hub.web.routes_players import router as players_router
from hub.web.routes_players import warm_up
from hub.web.routes_tables import router as tables_router
from hub.web.settings import WebSettings

DESCRIPTION = (
    "Luza hub: tables, the live match and every referee action, devices, health. Reading is open; "
    "every POST except the token exchange needs `Authorization: Bearer <token>` of the table. "
    'Errors: {"error": {"code", "en", "ru", "field"}}.'
)


class Never500:
    """The outermost guard: an exception no handler took becomes the contract's 503, not a bare 500."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception:
            errors.log.exception("unhandled error on %s", scope.get("path"))
            if not started:
                await ApiError.of(INTERNAL_FAULT).response()(scope, receive, send)


def create_app(hub: Hub, settings: WebSettings | None = None) -> FastAPI:
    """The web app of a started `hub` (the caller starts and stops the hub)."""
    settings = settings or WebSettings()
    web = WebContext(hub, settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        live = web.live = Live(web)
        web.metrics.ws_clients = lambda: live.clients
        web.lockout.on_change = lambda: setattr(live, "club_due", True)  # a failed PIN: the club view is told
        live.start()
        warm_up(web)  # the statistics' cache filled in the background (a new hub, an upgraded one)
        try:
            yield
        finally:
            await live.stop()
            web.metrics.close()

    app = FastAPI(title="Luza hub", version="1", description=DESCRIPTION, lifespan=lifespan)
    app.state.luza = web
    errors.install(app)
    for router in (
        tables_router,
        actions_router,
        access_router,
        devices_router,
        ota_router,
        health_router,
        live_router,
        players_router,
        pages.router,
    ):
        app.include_router(router)
    _history(app, web)
    pages.mount_static(app, settings.dashboard)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes, timeout_s=settings.body_timeout_s)
    app.add_middleware(Never500)
    return app


def _history(app: FastAPI, web: WebContext) -> None:
    """Match history and exports (hub/web/history.py), when that module is installed; heavy exports for the
    club only (hub/web/heavy.py)."""
    try:
        from hub.web.heavy import club_gate
        from hub.web.history import history_router
    except ImportError:  # pragma: no cover - the exports are an optional part of the hub
        return
    app.include_router(history_router(web.hub.config.store.path, club_gate(web)))
