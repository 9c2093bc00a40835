"""Fixtures of the hub's tests: a config for a real broker and a temp database, and a hub built from it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hub import config, configfile
from hub.service.hub import Hub
from tests.support.broker import Mosquitto
from tests.support.config import SCRIPTED_T1, SPARE_T2, luza_config, luza_settings
from tests.support.hubs import hub_starter

TABLES: list[dict[str, Any]] = [{**SCRIPTED_T1, "name": "Table 1"}, dict(SPARE_T2)]


def make_config(broker: Mosquitto, db: Path, **sections: Any) -> config.Config:
    """The scripted nodes' tables on `broker`; `sections` add or replace whole sections of luza.toml."""
    return luza_config(broker.url, db, TABLES, **sections)


def locked_config(broker: Mosquitto, db: Path, tele: bool = True) -> config.Config:
    """The tables above on the installation's locked broker, logged in as the installer's luza.toml does: the
    hub's account, and (`tele`) its telemetry connection's own account."""
    settings = luza_settings(broker.hub_url, db, TABLES)
    if tele:
        settings["broker"] |= broker.tele_login
    return configfile.parse(settings)


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[Mosquitto]:
    """The installation's locked-down broker for these tables (the hub and every node with its own login)."""
    broker = Mosquitto.locked(tmp_path / "broker", configfile.parse({"tables": TABLES})).start()
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture
def cfg(mosquitto: Mosquitto, tmp_path: Path) -> config.Config:
    return make_config(mosquitto, tmp_path / "luza.db")


@pytest.fixture
def hubs() -> Iterator[Callable[..., Hub]]:
    """Start hubs with `hubs(cfg, clock=...)`; every one still running is stopped at the end."""
    with hub_starter() as start:
        yield start
