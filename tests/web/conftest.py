"""Fixtures of the web layer's tests: a real Hub (no broker: payloads fed as MQTT delivers them) on a temp
SQLite store and a script clock, one table played through tests.export.matchkit's Table."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hub import config, configfile
from hub.service.hub import Hub
from hub.web import WebSettings, create_app
from hub.web.auth import PinStore
from tests.export.matchkit import Clock, Table
from tests.support.hubs import hub_starter

TABLES = [
    {
        "id": "t1",
        "name": "Стол 1",
        "pockets": {"pk-12": [1, 2], "pk-34": [3, 4], "pk-56": [5, 6]},
        "cues": {"cue-a": 0, "cue-b": 1},
    },
    {"id": "t2", "name": "Стол 2", "pockets": {"t2-p": [1, 2, 3, 4, 5, 6]}},
]


def web_config(db: Path, **sections: Any) -> config.Config:
    raw: dict[str, Any] = {
        "club": {"name": "Luza Club", "name_ru": "Клуб «Луза»"},
        "store": {"path": str(db)},
        "tables": TABLES,
    }
    raw.update(sections)
    return configfile.parse(raw)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def open_hub(tmp_path: Path, clock: Clock) -> Iterator[Callable[..., Hub]]:
    """`open_hub()` starts a hub on this test's database (again after a stop: a restart); all are stopped."""
    with hub_starter(clock=clock, mqtt=False) as start:
        yield lambda **kw: start(web_config(tmp_path / "luza.db"), connect_timeout=0, **kw)


@pytest.fixture
def hub(open_hub: Callable[..., Hub]) -> Hub:
    return open_hub()


@pytest.fixture
def table(hub: Hub, clock: Clock) -> Table:
    return Table(hub, clock)


PIN = "2468"


@pytest.fixture
def web_settings(tmp_path: Path) -> WebSettings:
    return WebSettings(heartbeat_s=0.2, lockout_s=2.0, pin_attempts=3, submit_timeout_s=5.0)


@pytest.fixture
def client(hub: Hub, web_settings: WebSettings) -> Iterator[TestClient]:
    """A TestClient on the app of `hub` (lifespan run), with PIN 2468 set for t1 (t2 has none)."""
    PinStore(hub.config.store.path).set("t1", PIN)
    with TestClient(create_app(hub, web_settings)) as c:
        yield c


def auth(client: TestClient, table: str = "t1", pin: str = PIN, label: str = "panel") -> dict[str, str]:
    """The Authorization header of a fresh token for `table`."""
    r = client.post(f"/api/tables/{table}/token", json={"pin": pin, "label": label})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}
