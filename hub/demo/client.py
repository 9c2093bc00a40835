"""The demo referee's panel: the same REST API a person's referee panel uses (docs/web-api.md), over HTTP.

    panel = PanelClient("http://127.0.0.1:8000", "demo", pin="2468", label="demo")
    panel.act({"kind": "declare", "ball": 4, "pocket": 5})   # token on first use, a uid per action
    board = panel.state()["match"]

Standard library only (urllib). Every action carries a `uid`; a retry after a timeout or a 503 re-sends the
same uid, so the hub applies it once. Refusals (4xx) raise `PanelRefused` with the hub's
English and Russian text.
"""

from __future__ import annotations

import itertools
import json
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:  # types only: the client itself is the standard library
    from hub.demo.shapes import ActionAnswer, TokenAnswer
    from hub.view.table import TableStateJSON


class PanelRefused(Exception):
    """The hub refused an action (4xx): `code`, `en`, `ru` as in its error body."""

    def __init__(self, status: int, code: str, en: str, ru: str) -> None:
        super().__init__(f"{code}: {en} / {ru}")
        self.status, self.code, self.en, self.ru = status, code, en, ru


class PanelClient:
    """A referee panel for one table: PIN -> token, then actions and reads over the hub's REST API."""

    def __init__(
        self,
        base_url: str,
        table: str,
        pin: str,
        label: str = "demo",
        timeout: float = 10.0,
        retries: int = 3,
    ) -> None:
        self.base = base_url.rstrip("/")
        self.table = table
        self.pin = pin
        self.label = label
        self.timeout = timeout
        self.retries = retries
        self.token: str | None = None
        self.tokens: set[str] = set()  # every token this client got (the demo tells its own from a person's)
        self._uids = itertools.count(1)
        self._run = uuid.uuid4().hex[:8]
        self.sent: set[str] = set()  # uids of the actions this client sent

    # ------------------------------------------------------------ reading (open)

    def state(self) -> TableStateJSON:
        """The table's state (TableView's JSON, as GET /api/tables/{table}/state gives it)."""
        return cast("TableStateJSON", self._call("GET", f"/api/tables/{self.table}/state"))

    # ------------------------------------------------------------ acting (token)

    def login(self) -> None:
        body = self._call("POST", f"/api/tables/{self.table}/token", {"pin": self.pin, "label": self.label})
        self.token = str(cast("TokenAnswer", body)["token"])
        self.tokens.add(self.token)

    def act(self, action: Mapping[str, object]) -> ActionAnswer:
        """One referee action (`kind` + fields); returns the hub's answer (`rev`, `state`)."""
        return self._mutate(f"/api/tables/{self.table}/actions", action)

    def start_match(
        self,
        variant: str,
        players: tuple[str, str],
        options: Mapping[str, object] | None = None,
        race: Mapping[str, object] | None = None,
        shot_clock: Mapping[str, int] | None = None,
    ) -> ActionAnswer:
        body: dict[str, object] = {
            "variant": variant,
            "players": list(players),
            "options": dict(options or {}),
        }
        if race:
            body["race"] = dict(race)
        if shot_clock:
            body["shot_clock"] = dict(shot_clock)
        return self._mutate(f"/api/tables/{self.table}/match", body)

    def _mutate(self, path: str, body: Mapping[str, object]) -> ActionAnswer:
        """POST an action or a new match (ActionOut's JSON back), retried with the same uid."""
        uid = str(body.get("uid") or f"{self.label}-{self._run}-{next(self._uids)}")
        payload = {**body, "uid": uid}
        self.sent.add(uid)
        for attempt in range(self.retries + 1):
            if self.token is None:
                self.login()
            try:
                return cast("ActionAnswer", self._call("POST", path, payload, self.token))
            except PanelRefused as exc:
                if exc.status == 401 and attempt < self.retries:  # token expired or the hub restarted
                    self.token = None
                    continue
                if exc.status == 503 and attempt < self.retries:  # not committed in time: same uid again
                    time.sleep(0.2 * (attempt + 1))
                    continue
                raise
            except (urllib.error.URLError, TimeoutError, ConnectionError):
                if attempt >= self.retries:
                    raise
                time.sleep(0.2 * (attempt + 1))
        raise AssertionError("unreachable")

    # ------------------------------------------------------------ HTTP

    def _call(self, method: str, path: str, body: object = None, token: str | None = None) -> object:
        """The hub's JSON answer (the caller names its shape: hub/web/schemas.py); a refusal (4xx) raises
        PanelRefused with the error body's code and texts."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                answer: object = json.loads(resp.read() or b"{}")
                return answer
        except urllib.error.HTTPError as exc:
            raise refusal(exc) from None


def refusal(exc: urllib.error.HTTPError) -> PanelRefused:
    """The hub's error body (`{"error": {"code", "en", "ru"}}`, docs/web-api.md) as PanelRefused; a body
    that is not one (a proxy's page) gives the HTTP status and reason."""
    try:
        body = json.loads(exc.read())
    except ValueError:
        body = None
    err = body.get("error") if isinstance(body, dict) else None
    texts: Mapping[str, object] = err if isinstance(err, dict) else {}
    return PanelRefused(
        exc.code,
        str(texts.get("code", exc.code)),
        str(texts.get("en", exc.reason)),
        str(texts.get("ru", exc.reason)),
    )
