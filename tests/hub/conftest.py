"""Fixtures of the hub's tests: a config for a real broker and a temp database, and a hub built from it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hub import config
from hub.service.hub import Hub
from tests.support.broker import Mosquitto
from tests.support.hubs import hub_starter

TABLES = [
    {"id": "t1", "name": "Table 1", "pockets": {"p-head": [1, 2], "p-mid": [3, 4], "p-foot": [5, 6]},
     "cues": {"cue-a": 0, "cue-b": 1}},
    {"id": "t2", "pockets": {"t2-p": [1, 2, 3, 4, 5, 6]}},
]


def make_config(broker: Mosquitto, db: Path, **sections: Any) -> config.Config:
    raw: dict[str, Any] = {"broker": {"url": broker.url, "client_id": "luza-hub-test", "reconnect_min_s": 1,
                                      "reconnect_max_s": 1},
                           "store": {"path": str(db)}, "tables": TABLES}
    raw.update(sections)
    return config.parse(raw)


@pytest.fixture
def cfg(mosquitto: Mosquitto, tmp_path: Path) -> config.Config:
    return make_config(mosquitto, tmp_path / "luza.db")


@pytest.fixture
def hubs() -> Iterator[Callable[..., Hub]]:
    """Start hubs with `hubs(cfg, clock=...)`; every one still running is stopped at the end."""
    with hub_starter() as start:
        yield start
