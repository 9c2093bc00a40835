"""The shot clock on the screens (issue 22, item 3), in a real Chromium against a real hub: the board and the
overlay count down from the match view's `shot_clock` and the hub's time, warn in the last 10 s (red, larger,
readable from five metres, Russian and English), say "Time!" at 0, and start again after the next strike; the
panel shows the seconds and the extension, and the start form sets the clock. The page's `Date.now()` is held
still (`page.clock.set_fixed_time`, its timers run on) so the seconds shown are exact: what the screen counts
is the hub's time plus the page's time since the state came.
Screens go to docs/screenshots/ with LUZA_SCREENSHOTS=1."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from hub import configfile
from hub.ingest.mqtt import RawMessage
from hub.service.hub import Hub
from hub.web.auth import PinStore
from hub.web.server import WebServer
from hub.web.settings import WebSettings
from luza_wire import protocol
from tests.dashboard.support import BOARD, PHONE, SHOTS

pytestmark = [pytest.mark.browser]

T0 = 1_794_668_400_000
PIN = "2468"
# the break at +1 s, its ball at +2.5 s: settled 1 s after the ball (docs/reconciliation.md §2a)
SETTLED = T0 + 3500


@dataclass
class Clock:
    ms: int = T0

    def __call__(self) -> int:
        return self.ms


@dataclass
class Table:
    """t1 on a hub with no broker: node payloads fed as MQTT delivers them, on the test's clock."""

    hub: Hub
    clock: Clock
    base: str
    seq: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def feed(self, kind: str, device: str, t: int, **fields: object) -> None:
        self.seq[device] += 1
        payload = protocol.encode_event(kind, device, 1, self.seq[device], t, **fields)
        self.hub.feed(RawMessage("mqtt", protocol.topic("t1", device, "evt"), payload, self.clock.ms))
        assert self.hub.wait_idle(10)

    def strike(self, t: int, device: str = "cue-a") -> None:
        self.feed("strike", device, t, pk=2.5, dbl=False)

    def state(self) -> dict[str, Any]:
        return dict(self.hub.state("t1")["match"])


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    cfg = configfile.parse(
        {
            "store": {"path": str(tmp_path / "luza.db")},
            "tables": [
                {
                    "id": "t1",
                    "name": "Стол 1",
                    "cues": {"cue-a": 0, "cue-b": 1},
                    "pockets": {"pk": [1, 2, 3, 4, 5, 6]},
                }
            ],
        }
    )
    PinStore(cfg.store.path).set("t1", PIN)
    clock = Clock()
    hub = Hub(cfg, clock=clock, mqtt=False).start()
    server = WebServer(hub, "127.0.0.1", 0, WebSettings(heartbeat_s=1.0)).start()
    try:
        yield Table(hub, clock, server.url)
    finally:
        server.stop()
        hub.stop()


def start_match(table: Table) -> None:
    """Free, 45 s a shot, one extension each; Ivan breaks and pots: his clock runs from the settle."""
    token = httpx.post(f"{table.base}/api/tables/t1/token", json={"pin": PIN, "label": "test"}, timeout=30)
    token.raise_for_status()
    auth = {"Authorization": f"Bearer {token.json()['token']}"}
    r = httpx.post(
        f"{table.base}/api/tables/t1/match",
        headers=auth,
        timeout=30,
        json={
            "variant": "free",
            "players": ["Иван Петров", "Пётр Иванов"],
            "shot_clock": {"limit_s": 45, "extensions": 1},
        },
    )
    assert r.status_code == 201, r.text
    r = httpx.post(
        f"{table.base}/api/tables/t1/actions", headers=auth, json={"kind": "lag", "winner": 0}, timeout=30
    )
    assert r.status_code == 200, r.text
    table.strike(T0 + 1000)
    table.clock.ms = T0 + 5000  # the state carries hub_ms = now: 43.5 s left
    table.feed("pocket", "pk", T0 + 2500, p=5, c="ivory", cf=0.95, dur=40)
    sc = table.state()["shot_clock"]
    assert sc["started_at"] == SETTLED and sc["expires_at"] == SETTLED + 45_000 and sc["running"]


def open_page(browser: Any, table: Table, path: str, lang: str, viewport: dict[str, int], at: int) -> Any:
    """A page whose Date.now() is held at `at` s (its timers run): the seconds it shows are exact."""
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.clock.set_fixed_time(at)
    page.goto(f"{table.base}{path}?lang={lang}")
    page.wait_for_function(
        "document.body.dataset.online === '1' && document.body.dataset.rev !== undefined", timeout=15_000
    )
    page.evaluate("document.fonts.ready")
    return page


def clock_shows(page: Any, phase: str, left: str, sel: str = "#shotclock") -> None:
    try:
        page.wait_for_function(
            "([s, p, l]) => { const e = document.querySelector(s); return e && !e.hidden && "
            "e.dataset.phase === p && e.dataset.left === l; }",
            arg=[sel, phase, left],
            timeout=15_000,
        )
    except Exception:
        shown = page.evaluate(
            "s => { const e = document.querySelector(s); return e && [e.hidden, e.dataset.phase, "
            "e.dataset.left, Date.now()]; }",
            sel,
        )
        raise AssertionError(f"{sel}: want {phase} {left}, shows {shown} ({page.errors})") from None


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    if name.startswith("board"):
        page.screenshot(path=str(SHOTS / f"{name}.jpg"), type="jpeg", quality=88)
    else:
        page.screenshot(path=str(SHOTS / f"{name}.png"))


# the page's own Date.now() in s (Playwright's unit): any value, the screens count from the hub's
WALL = 1_800_000_000


def test_the_board_counts_down_warns_in_the_last_10_s_and_starts_again_after_the_strike(
    browser: Any, table: Table
) -> None:
    start_match(table)
    board = open_page(browser, table, "/board/t1", "ru", BOARD, WALL)
    clock_shows(board, "running", "44")  # 43.5 s left, rounded up
    assert board.locator("#shotclock .sc-label").inner_text() == "На удар"
    calm = board.locator("#shotclock .sc-left").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert calm >= 0.12 * BOARD["height"]  # about 15 % of the screen: readable from five metres

    board.clock.set_fixed_time(WALL + 35)  # 8.5 s left
    clock_shows(board, "warn", "9")
    box = board.locator("#shotclock")
    big = board.locator("#shotclock .sc-left").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert big > calm and box.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(200, 20, 20)"
    assert box.is_visible() and board.locator("#table").is_visible()
    shoot(board, "board-shot-clock-warn-ru")

    board.clock.set_fixed_time(WALL + 45)  # 1.5 s past
    clock_shows(board, "expired", "0")
    assert board.locator("#shotclock .sc-label").inner_text() == "Время!"

    en = open_page(browser, table, "/board/t1", "en", BOARD, WALL)
    en.clock.set_fixed_time(WALL + 35)
    clock_shows(en, "warn", "9")
    assert en.locator("#shotclock .sc-label").inner_text() == "Shot clock"
    shoot(en, "board-shot-clock-warn-en")

    # the strike stops Ivan's clock (56.5 s: over time) and Petr's starts at its settle
    table.clock.ms = T0 + 60_000
    table.strike(T0 + 60_000)
    sc = table.state()["shot_clock"]
    assert sc["last"]["shot_ms"] == 56_500 and sc["last"]["expired"] and sc["started_at"] == T0 + 62_000
    clock_shows(en, "settling", "45")  # the balls may still roll: the full time, not counting yet
    q = next(q for q in table.state()["questions"] if q["kind"] == "shot_clock")
    assert q["cite"] == "general 26"
    for page in (board, en):
        assert not page.errors, page.errors
        page.close()


def test_the_overlay_and_the_panel_show_the_clock_and_the_extension(browser: Any, table: Table) -> None:
    start_match(table)
    overlay = open_page(browser, table, "/overlay/t1", "en", {"width": 1280, "height": 720}, WALL)
    overlay.clock.set_fixed_time(WALL + 36)
    clock_shows(overlay, "warn", "8")
    assert overlay.locator("#shotclock .sc-label").inner_text() == "Shot clock"
    assert (
        overlay.locator("#shotclock").evaluate("e => getComputedStyle(e).backgroundColor")
        == "rgb(200, 20, 20)"
    )
    shoot(overlay, "overlay-shot-clock-en")
    ru = open_page(browser, table, "/overlay/t1", "ru", {"width": 1280, "height": 720}, WALL)
    ru.clock.set_fixed_time(WALL + 36)
    clock_shows(ru, "warn", "8")
    assert ru.locator("#shotclock .sc-label").inner_text() == "На удар"
    shoot(ru, "overlay-shot-clock-ru")
    ru.close()

    token = httpx.post(f"{table.base}/api/tables/t1/token", json={"pin": PIN, "label": "panel"}, timeout=30)
    panel = browser.new_page(viewport=PHONE)
    panel.clock.set_fixed_time(WALL)
    panel.add_init_script(f"sessionStorage.setItem('luza.token.t1', {token.json()['token']!r});")
    panel.goto(f"{table.base}/referee/t1?lang=ru")
    panel.wait_for_selector("#extension", timeout=15_000)
    clock_shows(panel, "running", "44", "#panel-shotclock")
    assert "осталось 1" in panel.locator("#extension").inner_text()
    table.clock.ms = T0 + 10_000
    panel.locator("#extension").click()
    panel.wait_for_function(
        "() => document.querySelector('#extension') && document.querySelector('#extension').disabled",
        timeout=15_000,
    )
    assert table.state()["shot_clock"]["expires_at"] == SETTLED + 90_000
    assert table.state()["shot_clock"]["extensions_left"] == [0, 1]
    clock_shows(overlay, "running", "84")  # the new state: hub time T0 + 10 s, 90 s from the settle at 3.5 s
    clock_shows(panel, "running", "84", "#panel-shotclock")
    assert "+ продление ×1" in panel.locator("#panel-shotclock").inner_text()
    panel.wait_for_selector("#toast", state="hidden", timeout=15_000)
    shoot(panel, "panel-shot-clock-ru")
    for page in (overlay, panel):
        page.close()


def test_the_start_form_sets_the_shot_clock(browser: Any, table: Table) -> None:
    token = httpx.post(f"{table.base}/api/tables/t1/token", json={"pin": PIN, "label": "panel"}, timeout=30)
    panel = browser.new_page(viewport=PHONE)
    panel.add_init_script(f"sessionStorage.setItem('luza.token.t1', {token.json()['token']!r});")
    panel.goto(f"{table.base}/referee/t1?lang=en")
    panel.wait_for_selector("#sc-limit", timeout=15_000)
    panel.fill("#pa", "Ivan")
    panel.fill("#pb", "Petr")
    panel.select_option("#sc-limit", "60")
    panel.select_option("#sc-ext", "2")
    panel.locator("fieldset.shot-clock").scroll_into_view_if_needed()
    shoot(panel, "panel-start-shot-clock-en")
    panel.click("#start")
    panel.wait_for_selector("#extension", timeout=15_000)
    settings = table.hub.store.match(1).settings if table.hub.store is not None else None
    assert settings is not None and settings["shot_clock"] == {
        "limit_ms": 60_000,
        "extensions": 2,
        "extension_ms": 60_000,
        "warn_ms": 10_000,
    }
    panel.close()
