"""Fixtures shared by every test folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.support.broker import Mosquitto

# CI runs every property test from a fixed seed with no time deadline: a shared, noisy machine must not turn a
# slow example into a red build, and a failure found there can be reproduced exactly. Locally hypothesis
# explores (random seeds, the example database), so new failures are still found.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# Strict mode: an internal error while a table folds an input is raised (and fails the test) instead of
# holding the table with an alert, as the hub does in service (hub/reconcile/table.py). Hubs started as child
# processes inherit it.
os.environ.setdefault("LUZA_STRICT", "1")


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Mosquitto]:
    """A fresh real Mosquitto on a free port, stopped after the test."""
    broker = Mosquitto(tmp_path / "broker")
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()
