"""Fixtures for the firmware tests."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.firmware import mp


@pytest.fixture
def micropython() -> ModuleType:
    """The MicroPython harness module (tests/firmware/mp.py);
    skips the test if Node or the runtime is missing."""
    mp.require()
    return mp
