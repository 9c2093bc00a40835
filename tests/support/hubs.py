"""In-process hubs a test starts one after another (a restart is a second start on the same database);
whichever are still running at the end are stopped."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from hub import config
from hub.service.hub import Hub


@contextmanager
def hub_starter(**defaults: Any) -> Iterator[Callable[..., Hub]]:
    """Yields `start(cfg, **kw)`: a started Hub (`connect_timeout` and `defaults`
    merged into Hub's arguments)."""
    started: list[Hub] = []

    def start(cfg: config.Config, connect_timeout: float = 5, **kw: Any) -> Hub:
        h = Hub(cfg, **{**defaults, **kw}).start(connect_timeout=connect_timeout)
        started.append(h)
        return h

    try:
        yield start
    finally:
        for h in started:
            if h.store is not None:
                h.stop()
