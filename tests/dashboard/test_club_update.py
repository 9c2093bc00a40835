"""The club view's update button (issue 19): a node is sent the hub's own firmware with the referee token of
its table, its progress and result show in its row, and the button waits while a match is in play — in a real
Chromium against the real hub, its HTTP and the virtual table's nodes (hub/virtual/node.py)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.dashboard.conftest import PIN, WebHub
from tests.dashboard.test_browser import open_page

pytestmark = [pytest.mark.browser, pytest.mark.mosquitto]

ROW = 'tr[data-device="pockets-123"]'


@pytest.mark.parametrize(("lang", "kept"), [("en", " kept"), ("ru", " установлена")])
def test_the_update_button_updates_a_node_between_matches(
    lang: str, kept: str, browser: Any, web: WebHub
) -> None:
    token = httpx.post(web.url("/api/tables/t1/token"), json={"pin": PIN}, timeout=30).json()["token"]
    club = open_page(browser, web, f"/?lang={lang}", {"width": 1600, "height": 900})
    club.evaluate("t => sessionStorage.setItem('luza.token.t1', t)", token)
    club.wait_for_selector(f"{ROW} button.upd:not([disabled])", timeout=10_000)
    club.click(f"{ROW} button.upd")
    club.wait_for_selector("#toast:not(.bad)", state="visible", timeout=60_000)  # the first push builds it
    club.wait_for_function(
        "([s, w]) => { const e = document.querySelector(s); return e && e.textContent.endsWith(w); }",
        arg=[f"{ROW} td.ota", kept],
        timeout=60_000,
    )
    assert web.hub is not None
    row = web.hub.registry.get("pockets-123")
    assert row is not None and row.ota is not None and row.ota["st"] == "ok" and row.online
    web.hub.new_match("t1", "free", ("Ivan", "Petr"))  # now the button waits for the match to end
    club.wait_for_selector(f"{ROW} button.upd[disabled]", timeout=10_000)
    assert club.locator('tr[data-device="t2-pockets"] button.upd').count() == 1
    assert not club.errors


def test_the_update_button_waits_while_the_node_is_still_downloading(browser: Any, web: WebHub) -> None:
    from tests.support.proxy import TcpProxy

    assert web.hub is not None and web.hub.ota.http_port is not None
    token = httpx.post(web.url("/api/tables/t1/token"), json={"pin": PIN}, timeout=30).json()["token"]
    club = open_page(browser, web, "/?lang=ru", {"width": 1600, "height": 900})
    club.evaluate("t => sessionStorage.setItem('luza.token.t1', t)", token)
    club.wait_for_selector(f"{ROW} button.upd:not([disabled])", timeout=10_000)
    proxy = TcpProxy(("127.0.0.1", web.hub.ota.http_port)).start()
    try:
        web.hub.ota.http_port = proxy.port  # the node's download stalls at its first byte: it stays under way
        proxy.hold_after(0)
        club.click(f"{ROW} button.upd")
        club.wait_for_selector(
            f'{ROW} button.upd[disabled][title="Узел уже обновляется: дождитесь конца"]', timeout=60_000
        )
        assert club.locator(f"{ROW} td.ota").text_content().startswith("загрузка")
        proxy.cut()  # the download fails by itself: the button is back
        club.wait_for_selector(f"{ROW} button.upd:not([disabled])", timeout=60_000)
        row = web.hub.registry.get("pockets-123")
        assert row is not None and row.ota is not None and row.ota["st"] == "refused"
        assert not club.errors
    finally:
        proxy.stop()
