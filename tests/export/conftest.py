"""Fixtures: a Classic and a 100 points match played through a real Hub into a real
SQLite store (once per run)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.export.matchkit import Clock, Table, open_hub, play_classic, play_free_race, play_hundred

SCRIPTS: dict[str, Callable[[Table], None]] = {
    "classic": play_classic,
    "hundred": play_hundred,
    "race": play_free_race,
}


def played_db(path: Path, variants: tuple[str, ...], settle: dict[str, int] | None = None) -> Path:
    clock = Clock()
    hub = open_hub(path, clock, settle)
    try:
        table = Table(hub, clock)
        table.births()
        hub.wait_idle()
        for v in variants:
            SCRIPTS[v](table)
            table.wait(600_000)
    finally:
        hub.stop()
    return path


@pytest.fixture(scope="session")
def match_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Match 1: Classic, match 2: 100 points (both ended), on one table."""
    return played_db(tmp_path_factory.mktemp("played") / "luza.db", ("classic", "hundred"))


@pytest.fixture(scope="session")
def race_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Match 1: a Free race to 2 frames with a balls handicap, won 2:1 by the handicapped player."""
    return played_db(tmp_path_factory.mktemp("race") / "luza.db", ("race",))
