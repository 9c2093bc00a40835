"""Every message the pages' WebSockets receive from the hub, checked against the table view's JSON Schema
(docs/table-view.schema.json, generated from hub.view by `python -m hub.view.schema --write`).

The browser fixture watches every page it opens (`Envelopes.watch_browser`): a table socket's `state` message
is a TableView with its `type`, the club socket's message carries one per table and the devices. A message
that does not fit is recorded with the first reason and the test fails after it ends (conftest.py); Playwright
calls the handlers on the test's thread, while the test drives the page."""

from __future__ import annotations

import json
import threading
from typing import Any

from jsonschema import Draft202012Validator

from tests.dashboard.support import ROOT

SCHEMA = ROOT / "docs" / "table-view.schema.json"


class Envelopes:
    def __init__(self) -> None:
        schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
        self.table = Draft202012Validator(schema)
        self.device = Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/DeviceView"})
        self._lock = threading.Lock()
        self.checked = 0  # table states and devices validated since the last reset
        self.problems: list[str] = []

    def reset(self) -> None:
        with self._lock:
            self.checked, self.problems = 0, []

    def watch_browser(self, browser: Any) -> Any:
        """`browser`, with every page it opens (directly or through a context) watched."""
        return _Watched(browser, self)

    def watch_page(self, page: Any) -> None:
        page.on("websocket", lambda ws: ws.on("framereceived", lambda data: self.frame(ws.url, data)))

    def frame(self, url: str, data: str | bytes) -> None:
        """One message from the hub: its table states and devices validated."""
        try:
            msg = json.loads(data)
        except ValueError:
            self._bad(url, "not JSON", str(data)[:80])
            return
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind == "state":
            self._check(self.table, url, {k: v for k, v in msg.items() if k != "type"})
        elif kind == "club":
            for t in msg.get("tables") or ():
                self._check(self.table, url, t.get("state"))
            for d in msg.get("devices") or ():
                self._check(self.device, url, d)

    def _check(self, validator: Draft202012Validator, url: str, doc: object) -> None:
        error = next(iter(validator.iter_errors(doc)), None)
        with self._lock:
            self.checked += 1
        if error is not None:
            where = "/".join(map(str, error.absolute_path)) or "(root)"
            self._bad(url, where, error.message[:200])

    def _bad(self, url: str, where: str, why: str) -> None:
        with self._lock:
            self.problems.append(f"{url}: {where}: {why}")


class _Watched:
    """A Playwright Browser whose new pages and contexts are watched; everything else is the browser's own."""

    def __init__(self, browser: Any, envelopes: Envelopes) -> None:
        self._browser, self._envelopes = browser, envelopes

    def new_page(self, *args: Any, **kwargs: Any) -> Any:
        page = self._browser.new_page(*args, **kwargs)
        self._envelopes.watch_page(page)
        return page

    def new_context(self, *args: Any, **kwargs: Any) -> Any:
        context = self._browser.new_context(*args, **kwargs)
        context.on("page", self._envelopes.watch_page)
        return context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


ENVELOPES = Envelopes()
