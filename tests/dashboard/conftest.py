"""Fixtures of the browser tests: one real headless Chromium (Debian's, driven by Playwright) per session, and
per test a real Mosquitto, a hub with its web app served by uvicorn on a real port, and a virtual table whose
nodes run the firmware logic. Skipped, with the reason, only where /usr/bin/chromium is absent."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub import config, configfile
from hub.deploy.broker import free_port
from hub.service.hub import Hub
from hub.virtual.table import VirtualTable
from hub.web.auth import CLUB, PinStore
from hub.web.server import WebServer
from hub.web.settings import WebSettings
from tests.dashboard.envelopes import ENVELOPES, Envelopes
from tests.dashboard.scenes import CLUB_PIN as SCENE_CLUB_PIN
from tests.dashboard.scenes import PIN as SCENE_PIN
from tests.dashboard.scenes import Clock, Scenes, SceneWeb, scene_config, table_ids
from tests.dashboard.support import CHROMIUM, CHROMIUM_ARGS, LoopThread
from tests.support.broker import Mosquitto

PIN = "2468"
SPEED = 4.0  # the virtual table's time runs four times faster than the wall clock (the hub follows it)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(
        reason="/usr/bin/chromium is absent: install it with `scripts/setup --dev` "
        "(apt chromium); CI installs it"
    )
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    # Package scope, not session: Playwright's sync API keeps an event loop running in this thread until it
    # stops, and the tests after this package call asyncio.run().
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            # every page's WebSocket messages checked against the view's schema
            yield ENVELOPES.watch_browser(b)
        finally:
            b.close()


@pytest.fixture(autouse=True)
def envelopes_fit_the_schema() -> Iterator[Envelopes]:
    """After each test: every table state and device its pages received fits docs/table-view.schema.json."""
    ENVELOPES.reset()
    yield ENVELOPES
    assert not ENVELOPES.problems, "messages that do not fit the table view's schema:\n" + "\n".join(
        ENVELOPES.problems[:10]
    )


def table_config(broker: Mosquitto, db: Path) -> config.Config:
    return configfile.parse(
        {
            "broker": {
                "url": broker.url,
                "client_id": "luza-hub-web",
                "reconnect_min_s": 1,
                "reconnect_max_s": 1,
            },
            "store": {"path": str(db)},
            "tables": [
                {
                    "id": "t1",
                    "name": "Стол 1",
                    "pockets": {"pockets-123": [1, 2, 3], "pockets-456": [4, 5, 6]},
                    "cues": {"cue-a": 0, "cue-b": 1},
                },
                {"id": "t2", "name": "Стол 2", "pockets": {"t2-pockets": [1, 2, 3, 4, 5, 6]}},
            ],
        }
    )


class WebHub:
    """A hub and its web app on a fixed port; `start()` after `stop()` brings up a new hub (a new boot id)."""

    def __init__(self, cfg: config.Config, clock: Any, settings: WebSettings | None = None) -> None:
        self.cfg = cfg
        self.clock = clock
        self.settings = settings or WebSettings(heartbeat_s=1.0)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.hub: Hub | None = None
        self.server: WebServer | None = None

    def start(self) -> WebHub:
        self.hub = Hub(self.cfg, clock=self.clock).start(connect_timeout=5)
        self.server = WebServer(self.hub, "127.0.0.1", self.port, self.settings).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None
        if self.hub is not None:
            self.hub.stop()
            self.hub = None

    def url(self, path: str) -> str:
        return self.base + path


@pytest.fixture
def loop() -> Iterator[LoopThread]:
    lt = LoopThread()
    try:
        yield lt
    finally:
        lt.close()


@pytest.fixture
def vtable(mosquitto: Mosquitto, tmp_path: Path, loop: LoopThread) -> Iterator[VirtualTable]:
    """The virtual table t1 (pockets-123, pockets-456, cue-a, cue-b), started once the test's hub is up."""
    table = VirtualTable(("127.0.0.1", mosquitto.port), tmp_path / "nodes", table="t1", speed=SPEED)
    try:
        yield table
    finally:
        loop.run(table.stop())


@pytest.fixture
def web_settings() -> WebSettings:
    """The web app's settings (a test module may override this fixture, e.g. a short submit timeout)."""
    return WebSettings(heartbeat_s=1.0)


@pytest.fixture
def web(
    mosquitto: Mosquitto, tmp_path: Path, vtable: VirtualTable, loop: LoopThread, web_settings: WebSettings
) -> Iterator[WebHub]:
    """The hub (its clock the virtual table's) with its web app,
    a referee PIN for t1, the virtual nodes up."""
    cfg = table_config(mosquitto, tmp_path / "luza.db")
    PinStore(cfg.store.path).set("t1", PIN)
    w = WebHub(cfg, vtable.vt.hub_ms, web_settings).start()
    try:
        loop.run(vtable.start())
        loop.run(vtable.synced())
        yield w
    finally:
        w.stop()


@pytest.fixture(scope="module")
def scenes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SceneWeb]:
    """Every variant's busiest screens (tests/dashboard/scenes.py) played once per module on a real hub (no
    broker) served over real HTTP and WebSocket."""
    db = tmp_path_factory.mktemp("scenes") / "luza.db"
    clock = Clock()
    cfg = scene_config(db)
    pins = PinStore(cfg.store.path)
    for t in table_ids():
        pins.set(t, SCENE_PIN)
    pins.set(CLUB, SCENE_CLUB_PIN)  # the club's own sign-in (device actions on the club view)
    hub = Hub(cfg, clock=clock, mqtt=False).start()
    server = None
    try:
        Scenes(hub, clock).play_all()
        server = WebServer(hub, "127.0.0.1", 0, WebSettings(heartbeat_s=1.0)).start()
        yield SceneWeb(hub, server.url)
    finally:
        if server is not None:
            server.stop()
        hub.stop()
