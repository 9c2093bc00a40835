"""A silent link is seen (issue 20, item 2): between a real Chromium and the real web app sits a TCP proxy
that stops forwarding without closing anything (a half-open link: no close frame, no reset, as when the club's
access point dies). Within 5 s the board shows its full-screen offline state (score dimmed, clock stopped,
"нет связи — последнее обновление ЧЧ:ММ:СС"), the panel disables its buttons and says why, the overlay shows a
strip; within 2 s of the link coming back all three are live again and follow the table.

The web app runs with its default settings (the heartbeat a club gets),
not the short ones of the other tests."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from hub.virtual.table import VirtualTable
from hub.web.settings import WebSettings
from tests.dashboard.conftest import PIN, WebHub
from tests.dashboard.support import BOARD, PHONE, LoopThread
from tests.dashboard.test_browser import enter_pin, play, shoot, start_free, wait_text
from tests.support.proxy import TcpProxy

pytestmark = [pytest.mark.browser, pytest.mark.mosquitto]
OFFLINE_WITHIN_S = 5.0
BACK_WITHIN_S = 2.0
STAMP = re.compile(r"\d\d:\d\d:\d\d")

SHOWN = (
    "(() => { const o = document.querySelector('#offline'); return o && !o.hidden && "
    "o.getBoundingClientRect().width > 0; })()"
)
OFFLINE = f"() => document.body.dataset.online === '0' && {SHOWN}"
PANEL_OFFLINE = OFFLINE + " && [...document.querySelectorAll('button.act')].every((b) => b.disabled)"
ONLINE = "() => document.body.dataset.online === '1' && document.querySelector('#offline').hidden"
PANEL_ONLINE = ONLINE + " && !document.querySelector('#undo').disabled"


@pytest.fixture
def web_settings() -> WebSettings:
    return WebSettings()  # the defaults a club runs with


@pytest.fixture
def proxy(web: WebHub) -> Iterator[TcpProxy]:
    p = TcpProxy(("127.0.0.1", web.port)).start()
    try:
        yield p
    finally:
        p.stop()


def through(browser: Any, proxy: TcpProxy, path: str, viewport: dict[str, int]) -> Any:
    """A page loaded through the proxy (its socket and its REST calls go through it too), once it is live."""
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"http://127.0.0.1:{proxy.port}{path}")
    page.wait_for_function("document.body.dataset.online === '1'", timeout=10_000)
    return page


def within(page: Any, script: str, deadline: float, what: str) -> float:
    """Wait until `script` holds on `page`, at the latest by `deadline` (monotonic); the seconds it took."""
    left = deadline - time.monotonic()
    assert left > 0, f"no time left to see {what}"
    page.wait_for_function(script, timeout=left * 1000)
    return time.monotonic()


def test_a_silent_link_is_shown_offline_within_5_s_and_live_again_within_2_s(
    browser: Any, web: WebHub, vtable: VirtualTable, loop: LoopThread, proxy: TcpProxy
) -> None:
    start_free(web)
    play(loop, vtable, "a", 5)
    board = through(browser, proxy, "/board/t1", BOARD)
    panel = through(browser, proxy, "/referee/t1", PHONE)
    enter_pin(panel, PIN)
    panel.wait_for_selector("#undo:not([disabled])")
    overlay = through(browser, proxy, "/overlay/t1?lang=en", {"width": 1920, "height": 200})
    wait_text(board, "#p0 .score", "1")
    wait_text(overlay, ".seat.s0 .score", "1")

    proxy.silence()
    cut = time.monotonic()
    seen = {
        name: within(page, script, cut + OFFLINE_WITHIN_S, f"the {name} offline") - cut
        for name, page, script in (
            ("board", board, OFFLINE),
            ("panel", panel, PANEL_OFFLINE),
            ("overlay", overlay, OFFLINE),
        )
    }
    # the board: a full-screen state, readable from five metres, with the time of the last word from the hub
    box = board.locator("#offline").bounding_box()
    assert box["width"] >= BOARD["width"] * 0.95 and box["height"] >= BOARD["height"] * 0.95
    line = board.locator("#offline .offline-msg")
    assert re.fullmatch(r"нет связи — последнее обновление \d\d:\d\d:\d\d", line.inner_text().strip().lower())
    assert float(line.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)")) >= 0.05 * BOARD["height"]
    assert (
        float(
            board.locator("#p0 .score").evaluate(
                "(e) => { let o = 1; for (; e; e = e.parentElement) o *= "
                "Number(getComputedStyle(e).opacity); return o; }"
            )
        )
        <= 0.5
    )
    clock = board.locator("#clock").inner_text()
    assert clock and board.evaluate("document.body.classList.contains('is-offline')")
    # the panel says why its buttons are off; the overlay shows a strip a viewer can see
    assert "нет связи" in panel.locator("#offline").inner_text().lower()
    assert panel.locator("button.act").count() > 3
    strip = overlay.locator("#offline").bounding_box()
    assert strip["height"] >= 20 and strip["width"] >= 300
    assert "no connection" in overlay.locator("#offline").inner_text().lower()
    assert STAMP.search(overlay.locator("#offline").inner_text())
    shoot(board, "board-offline-ru")
    shoot(panel, "panel-offline-ru")
    shoot(overlay, "overlay-offline-en", omit_background=True)
    time.sleep(1.2)  # not a handshake: the stopped clock must not move over a second
    assert board.locator("#clock").inner_text() == clock

    proxy.restore()
    back = time.monotonic()
    again = {
        name: within(page, script, back + BACK_WITHIN_S, f"the {name} live again") - back
        for name, page, script in (
            ("board", board, ONLINE),
            ("panel", panel, PANEL_ONLINE),
            ("overlay", overlay, ONLINE),
        )
    }
    play(loop, vtable, "a", 6)  # and they follow the table again
    wait_text(board, "#p0 .score", "2")
    wait_text(overlay, ".seat.s0 .score", "2")
    for page in (board, panel, overlay):
        assert not page.errors
    print(
        f"offline seen after {', '.join(f'{k} {v:.1f} s' for k, v in seen.items())}; live again after "
        f"{', '.join(f'{k} {v:.1f} s' for k, v in again.items())}"
    )
