"""What the browser tests share: a virtual table driven from its own event loop thread (Playwright's sync API
owns the test thread), a hub with its web app on a real port (uvicorn in a thread), and page helpers."""

from __future__ import annotations

import asyncio
import os
import tempfile
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
# Screenshots go to docs/screenshots/ (committed) only when asked: `LUZA_SCREENSHOTS=1 ./scripts/test
# tests/dashboard`; otherwise to a temp folder, so a test run leaves the tree clean
# (the clock differs each run).
KEEP_SHOTS = bool(os.environ.get("LUZA_SCREENSHOTS"))
SHOTS = ROOT / "docs" / "screenshots" if KEEP_SHOTS else Path(tempfile.gettempdir()) / "luza-screenshots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
BOARD = {"width": 1920, "height": 1080}
PHONE = {"width": 412, "height": 915}


class LoopThread:
    """An asyncio loop in a daemon thread: `run(coro)` runs a coroutine there and returns its result."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="virtual-table", daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 60.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


def wait_until(cond: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
    """Poll `cond` until it is truthy (a condition, not a sleep as a handshake); its value is returned."""
    deadline = time.monotonic() + timeout
    while True:
        value = cond()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.02)
