"""The history pages in a real Chromium: /matches finds a stored match by a player in either alphabet, /match
shows its shots with the cited reasons, the evidence, the hub's `luza verify` verdict, and downloads the JSON.
Two matches are played through a real Hub into a real SQLite store (tests/export/matchkit.py), then served."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from hub.deploy.broker import free_port
from hub.service.hub import Hub
from hub.web.auth import CLUB, PinStore
from hub.web.server import WebServer
from hub.web.settings import WebSettings
from tests.dashboard.support import SHOTS
from tests.export import matchkit
from tests.export.matchkit import Clock, Table, hub_config, play_classic, play_free_race, play_hundred

pytestmark = [pytest.mark.browser]
TABLET = {"width": 1024, "height": 768}
# the second match's players: "ivan" and "Петров" must not find it
OTHERS = ("Anna Kozlova", "Ольга Смирнова")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Match 1: Classic, Иван Петров v Сергей Кузнецов; match 2: 100 points, Anna Kozlova v Ольга Смирнова;
    then the hub with its web app on a free port (no broker: the matches are stored already)."""
    clock = Clock()
    hub = Hub(hub_config(tmp_path / "luza.db"), clock=clock, mqtt=False).start()
    port = free_port()
    server = None
    try:
        table = Table(hub, clock)
        table.births()
        hub.wait_idle()
        play_classic(table)
        table.wait(600_000)
        monkeypatch.setattr(matchkit, "PLAYERS", OTHERS)
        play_hundred(table)
        server = WebServer(hub, "127.0.0.1", port, WebSettings(heartbeat_s=1.0)).start()
        yield f"http://127.0.0.1:{port}"
    finally:
        if server is not None:
            server.stop()
        hub.stop()


def open_page(browser: Any, url: str) -> Any:
    page = browser.new_page(viewport=TABLET, accept_downloads=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(url)
    return page


def search(page: Any, player: str) -> list[str]:
    """Type a player, search, and wait for the rows that answer this search (body[data-shown] = its query)."""
    page.fill("#player", player)
    page.click("#find")
    page.wait_for_function(
        "(p) => new URLSearchParams(document.body.dataset.shown || '').get('player') === p",
        arg=player,
        timeout=10_000,
    )
    return [tr.get_attribute("data-id") for tr in page.query_selector_all("#matches tbody tr")]


def fits(page: Any) -> bool:
    """Nothing wider than the tablet's screen (no sideways scrolling of the page)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_find_a_match_in_either_alphabet_and_open_it(browser: Any, site: str) -> None:
    page = open_page(browser, f"{site}/matches?lang=ru")
    page.wait_for_selector("#matches tbody tr")
    assert sorted(tr.get_attribute("data-id") for tr in page.query_selector_all("#matches tbody tr")) == [
        "1",
        "2",
    ]
    assert page.inner_text("h1") == "История партий"
    page.screenshot(path=str(SHOTS / "matches-ru.png"))
    assert search(page, "ivan") == ["1"]
    assert search(page, "Петров") == ["1"]
    assert search(page, "Анна") == ["2"]  # and back: "Anna Kozlova" by Cyrillic, "Ольга Смирнова" by Latin
    assert search(page, "olga smirnova") == ["2"]
    assert search(page, "sidorov") == [] and page.inner_text("#found") == "Партий не найдено"
    assert fits(page)
    assert search(page, "Петров") == ["1"]
    with page.expect_navigation():
        page.click("#matches tbody tr[data-id='1'] a")
    assert "/match?id=1" in page.url and "lang=ru" in page.url
    page.wait_for_selector("#timeline li.shot")
    page.wait_for_selector("#verify-status")
    assert page.get_attribute("#verify-status", "data-status") == "verified"
    assert page.inner_text("#verify-status") == "ПРОВЕРЕНО"
    assert page.inner_text("#evidence-status") == "полные"
    assert len(page.query_selector_all("#timeline li.shot")) == 9
    assert "§classic 5.5" in page.inner_text("#timeline")  # the cue ball pocketed, with its paragraph
    assert "71:8" in page.inner_text("#summary")
    with page.expect_download() as dl:
        page.click("#dl-json")
    doc = json.loads(Path(dl.value.path()).read_text(encoding="utf-8"))
    assert (
        doc["format"] == "luza-match-export"
        and doc["match"]["id"] == 1
        and doc["result"]["scores"] == [71, 8]
    )
    assert page.errors == []
    page.close()


def test_pages_in_english_and_the_club_link(browser: Any, site: str) -> None:
    page = open_page(browser, f"{site}/?lang=en")
    page.wait_for_selector("#history-link")
    assert page.inner_text("#history-link") == "Match history"
    with page.expect_navigation():
        page.click("#history-link")
    page.wait_for_selector("#matches tbody tr")
    assert page.inner_text("h1") == "Match history" and "lang=en" in page.url
    ru, en = page.evaluate(
        "async () => { const m = await import('/static/js/history-texts.js'); "
        "return [m.HISTORY_KEYS.ru, m.HISTORY_KEYS.en]; }"
    )
    assert ru == en and len(ru) > 30  # every history text in both languages
    page.screenshot(path=str(SHOTS / "matches-en.png"))
    page.goto(f"{site}/match?id=2&lang=en")
    page.wait_for_selector("#verify-status")
    assert (
        page.inner_text("#verify-status") == "VERIFIED" and page.inner_text("#evidence-status") == "complete"
    )
    assert "Anna Kozlova" in page.inner_text("#summary") and "§" in page.inner_text("#timeline")
    assert page.query_selector("#dl-pdf") is None and "PDF" in page.inner_text("#downloads")  # the club's
    assert fits(page)
    page.screenshot(path=str(SHOTS / "match-en.png"), full_page=True)
    page.goto(f"{site}/match?id=1&lang=ru")
    page.wait_for_selector("#verify-status")
    page.screenshot(path=str(SHOTS / "match-ru.png"), full_page=True)
    page.goto(f"{site}/match?id=99&lang=en")
    page.wait_for_selector("#error:not([hidden])")
    assert "no match 99" in page.inner_text("#error")
    assert page.errors == []
    page.close()


def test_the_match_page_downloads_the_pdf_with_the_clubs_sign_in(
    browser: Any, site: str, tmp_path: Path
) -> None:
    """Issue 20, item 5: the PDF (a heavy export) is the club's; the club view's sign-in opens it on the match
    page (the referee token of a table no longer does, hub/web/heavy.py)."""
    PinStore(tmp_path / "luza.db").set(CLUB, "13579")
    token = httpx.post(f"{site}/api/club/token", json={"pin": "13579"}, timeout=30).json()["token"]
    page = open_page(browser, f"{site}/match?id=2&lang=en")
    page.wait_for_selector("#verify-status")
    assert page.query_selector("#dl-pdf") is None  # not signed in: "PDF — for the club"
    # as the club view's sign-in leaves it
    page.evaluate("(t) => sessionStorage.setItem('luza.club.token', t)", token)
    page.reload()
    page.wait_for_selector("#dl-pdf")
    with page.expect_download(timeout=180_000) as download:  # a PDF render on a loaded machine (WeasyPrint)
        page.click("#dl-pdf")
    path = download.value.path()
    assert Path(path).read_bytes().startswith(b"%PDF") and not page.errors


@pytest.fixture
def race_site(tmp_path: Path) -> Iterator[str]:
    """Match 1: a Free race to 2 frames with a balls handicap, won 2:1 by Сергей
    (tests/export/matchkit.py)."""
    clock = Clock()
    hub = Hub(hub_config(tmp_path / "luza.db"), clock=clock, mqtt=False).start()
    server = None
    try:
        table = Table(hub, clock)
        table.births()
        hub.wait_idle()
        play_free_race(table)
        server = WebServer(hub, "127.0.0.1", free_port(), WebSettings(heartbeat_s=1.0)).start()
        yield server.url
    finally:
        if server is not None:
            server.stop()
        hub.stop()


def test_the_match_page_of_a_race_shows_every_frame(browser: Any, race_site: str) -> None:
    """Issue 22, item 6: a race's match page has the frame score, each frame's breaker (general 11: they
    alternate), score and winner, and the shots under their frame's heading; in both languages."""
    page = open_page(browser, f"{race_site}/match?id=1&lang=ru")
    page.wait_for_selector("#frames tbody tr")
    assert (
        page.inner_text("#race h2") == "Встреча до 2 побед"
        and page.inner_text("#frame-score") == "Партии 1:2"
    )
    # the frame score
    assert page.inner_text("h1") == "Встреча 1" and page.inner_text("#summary .sc b") == "1:2"
    rows = [
        [td.inner_text() for td in tr.query_selector_all("td")]
        for tr in page.query_selector_all("#frames tbody tr")
    ]
    assert [r[0] for r in rows] == ["1", "2", "3"]
    assert [r[1] for r in rows] == ["Иван Петров", "Сергей Кузнецов", "Иван Петров"]  # the break alternates
    assert [r[3] for r in rows] == ["Иван Петров", "Сергей Кузнецов", "Сергей Кузнецов"]
    assert rows[1][2] == "1:8" and rows[0][4] == "сдана" and rows[1][4] == ""
    heads = page.query_selector_all("#timeline .frame-head")
    assert [h.inner_text() for h in heads] == ["Партия 1", "Партия 2", "Партия 3"]
    page.wait_for_selector("#verify-status")
    assert page.inner_text("#verify-status") == "ПРОВЕРЕНО" and fits(page)
    page.screenshot(path=str(SHOTS / "match-race-ru.png"), full_page=True)
    page.goto(f"{race_site}/match?id=1&lang=en")
    page.wait_for_selector("#frames tbody tr")
    assert (
        page.inner_text("#race h2") == "Race to 2 frames" and page.inner_text("#frame-score") == "Frames 1:2"
    )
    assert page.inner_text("#frames thead").split() == ["Frame", "Broke", "Score", "Won", "by"]
    assert page.errors == []
    page.close()
