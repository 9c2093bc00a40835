"""The club view shows failed PIN attempts per table (issue 18, item 5): a small line on the table's card, in
Russian and English, updated as they happen — in a real Chromium against the real hub and web app."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.dashboard.conftest import WebHub
from tests.dashboard.test_browser import open_page

pytestmark = [pytest.mark.browser, pytest.mark.mosquitto]


def wrong_pin(web: WebHub) -> int:
    return httpx.post(web.url("/api/tables/t1/token"), json={"pin": "1111"}, timeout=30).status_code


@pytest.mark.parametrize(
    ("lang", "first", "then"),
    [("ru", "Неверных ПИН-кодов: 2", "Неверных ПИН-кодов: 3"), ("en", "Wrong PINs: 2", "Wrong PINs: 3")],
)
def test_the_club_view_counts_failed_pins(
    lang: str, first: str, then: str, browser: Any, web: WebHub
) -> None:
    assert [wrong_pin(web), wrong_pin(web)] == [401, 401]
    club = open_page(browser, web, f"/?lang={lang}", {"width": 1440, "height": 900})
    line = club.locator('article.tcard[data-table="t1"] .taccess')
    assert line.inner_text(timeout=10_000).startswith(first)
    assert club.locator('article.tcard[data-table="t2"] .taccess').count() == 0  # nothing failed there
    assert wrong_pin(web) == 401
    club.wait_for_function(
        "([s, w]) => document.querySelector(s).textContent.startsWith(w)",
        arg=['article.tcard[data-table="t1"] .taccess', then],
        timeout=10_000,
    )
    assert not club.errors
