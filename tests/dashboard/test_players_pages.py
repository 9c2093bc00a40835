"""The players' pages in a real Chromium, in Russian and English: the leaderboard /players (search in either
alphabet, a row opens the player, CSV), the player /player?id=N (every figure, fouls worded by the rule, head
to head with the handicap, recent matches opening the match page), reached from the club view and the history
pages; merging a duplicate with the club's sign-in; the panel's start form choosing players from the registry
(and adding one) with one thumb. The seeded matches of tests/stats/seeded.py, served by a real hub."""

from __future__ import annotations

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
from tests.dashboard.support import PHONE, SHOTS
from tests.export.matchkit import Clock, open_hub
from tests.stats.seeded import seed

pytestmark = [pytest.mark.browser]
TABLET = {"width": 1024, "height": 768}
PIN, CLUB_PIN = "2468", "13579"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Hub, dict[str, int]]]:
    """The seeded matches, then a hub (no broker) with its web app on a free port; a referee PIN for t1 and
    the club's PIN."""
    db = tmp_path / "luza.db"
    clock = Clock()
    ids = seed(db, clock)
    clock.ms += 600_000
    hub = open_hub(db, clock)
    pins = PinStore(db)
    pins.set("t1", PIN)
    pins.set(CLUB, CLUB_PIN)
    server = None
    port = free_port()
    try:
        server = WebServer(hub, "127.0.0.1", port, WebSettings(heartbeat_s=1.0)).start()
        yield f"http://127.0.0.1:{port}", hub, ids
    finally:
        if server is not None:
            server.stop()
        hub.stop()


def open_page(browser: Any, url: str, viewport: dict[str, int] = TABLET) -> Any:
    page = browser.new_page(viewport=viewport, accept_downloads=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(url)
    return page


def rows(page: Any) -> list[int]:
    return [int(tr.get_attribute("data-id")) for tr in page.query_selector_all("#board tbody tr")]


def search(page: Any, q: str) -> list[int]:
    page.fill("#player", q)
    page.click("#find")
    page.wait_for_function("(q) => document.body.dataset.shown === q", arg=q, timeout=10_000)
    return rows(page)


def fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_the_leaderboard_in_russian_and_a_search_in_either_alphabet(browser: Any, site: Any) -> None:
    base, _, ids = site
    page = open_page(browser, f"{base}/?lang=ru")
    page.wait_for_selector("#players-link")
    assert page.inner_text("#players-link") == "Игроки"
    with page.expect_navigation():
        page.click("#players-link")
    page.wait_for_selector("#board tbody tr")
    assert page.inner_text("h1") == "Рейтинг игроков" and "lang=ru" in page.url
    assert rows(page) == [ids["anna"], ids["dup"], ids["ivan"], ids["sergei"]]
    assert page.inner_text("#found") == "Учтено встреч: 4"
    ivan = page.inner_text(f"#board tr[data-id='{ids['ivan']}']")
    # pot rate, shot time
    assert "Иван Петров" in ivan and "1499.3" in ivan and "78%" in ivan and "5.1" in ivan
    assert fits(page)
    page.screenshot(path=str(SHOTS / "players-ru.png"), full_page=True)
    assert search(page, "ivan") == [ids["dup"], ids["ivan"]]
    assert search(page, "Кузнецов") == [ids["sergei"]]
    assert search(page, "seryi") == [ids["sergei"]]  # by the nickname, in Latin
    assert search(page, "sidorov") == [] and page.inner_text("#found") == "Никого не найдено"
    assert search(page, "") == [ids["anna"], ids["dup"], ids["ivan"], ids["sergei"]]
    with page.expect_download() as dl:
        page.click("#csv")
    assert Path(dl.value.path()).read_bytes().decode("utf-8-sig").startswith("rank,id,name")
    with page.expect_navigation():
        page.click(f"#board tr[data-id='{ids['sergei']}'] a")
    assert f"/player?id={ids['sergei']}" in page.url and "lang=ru" in page.url
    page.wait_for_function("(id) => document.body.dataset.loaded === id", arg=str(ids["sergei"]))
    assert page.inner_text("h1") == "Сергей Кузнецов"
    assert "Классика п. 5.5 — 2" in page.inner_text("#fouls")  # the foul worded by its rule, in Russian
    assert page.inner_text("[data-pocket='4']") == "Луза 4: 2"
    assert page.errors == []
    page.close()


def test_the_player_page_in_both_languages(browser: Any, site: Any) -> None:
    base, _, ids = site
    page = open_page(browser, f"{base}/player?id={ids['ivan']}&lang=en")
    page.wait_for_function("(id) => document.body.dataset.loaded === id", arg=str(ids["ivan"]))
    assert page.inner_text("h1") == "Ivan Petrov"  # the Latin spelling on an English screen
    cards = {el.get_attribute("data-figure"): el.inner_text() for el in page.query_selector_all(".card-f")}
    assert "2" in cards["matches"] and "won 1" in cards["matches"] and "lost 1" in cards["matches"]
    assert "71 : 60" in cards["points"]
    assert "4 ball(s) (47 points)" in cards["best_run"] and "match #1" in cards["best_run"]
    assert "78%" in cards["pot_rate"] and "7 of 9" in cards["pot_rate"]
    assert "2.33" in cards["balls_per_visit"]
    assert "5.1 s" in cards["shot_time"] and "longest 9.0 s" in cards["shot_time"]
    assert "potted 1" in cards["breaks"]
    assert "100 points §19 — 1" in page.inner_text("#fouls")
    h2h = page.inner_text("#h2h")
    assert "Sergei Kuznetsov" in h2h and "Anna Kozlova" in h2h and "no handicap" in h2h
    assert "points to your opponent in a frame to 71" in h2h
    assert page.inner_text("#rating b") == "1499.3"
    assert fits(page)
    page.screenshot(path=str(SHOTS / "player-en.png"), full_page=True)
    with page.expect_navigation():
        page.click("#recent tr[data-match='2'] td a")
    assert "/match?id=2" in page.url and "lang=en" in page.url
    page.wait_for_selector("#summary a.pn")
    with page.expect_navigation():
        page.click(f"#summary a.pn[data-player='{ids['anna']}']")  # the match page opens its players' pages
    page.wait_for_function("(id) => document.body.dataset.loaded === id", arg=str(ids["anna"]))
    assert page.inner_text("h1") == "Anna Kozlova"
    page.goto(f"{base}/player?id={ids['ivan']}&lang=ru")
    page.wait_for_function("(id) => document.body.dataset.loaded === id", arg=str(ids["ivan"]))
    assert page.inner_text("h1") == "Иван Петров" and "Личные встречи" in page.inner_text("main")
    page.screenshot(path=str(SHOTS / "player-ru.png"), full_page=True)
    page.goto(f"{base}/players?lang=en")
    page.wait_for_selector("#board tbody tr")
    assert page.inner_text("h1") == "Player rankings"
    assert "Ivan Petrov" in page.inner_text(f"#board tr[data-id='{ids['ivan']}']")
    keys = page.evaluate(
        "async () => { const m = await import('/static/js/stats-texts.js'); "
        "return [m.STATS_KEYS.ru, m.STATS_KEYS.en]; }"
    )
    assert keys[0] == keys[1] and len(keys[0]) > 40  # every text in both languages
    page.screenshot(path=str(SHOTS / "players-en.png"), full_page=True)
    page.goto(f"{base}/matches?lang=en")
    page.wait_for_selector("#players-link")
    assert page.inner_text("#players-link") == "Players"
    page.goto(f"{base}/player?id=99&lang=en")
    page.wait_for_selector("#error:not([hidden])")
    assert "no player 99" in page.inner_text("#error")
    assert page.errors == []
    page.close()


def test_the_club_merges_a_duplicate_on_the_players_page(browser: Any, site: Any) -> None:
    base, _, ids = site
    token = httpx.post(f"{base}/api/club/token", json={"pin": CLUB_PIN}, timeout=30).json()["token"]
    page = open_page(browser, f"{base}/player?id={ids['ivan']}&lang=ru")
    page.wait_for_function("(id) => document.body.dataset.loaded === id", arg=str(ids["ivan"]))
    assert page.is_hidden("#merge-box")  # not signed in as the club
    # as the club view's sign-in leaves it
    page.evaluate("(t) => sessionStorage.setItem('luza.club.token', t)", token)
    page.reload()
    page.wait_for_selector("#merge-box:not([hidden])")
    page.fill("#dup", str(ids["sergei"]))
    page.click("#merge-btn")
    page.wait_for_selector("#merge-msg.err")
    assert "играли друг с другом" in page.inner_text("#merge-msg")
    page.fill("#dup", str(ids["dup"]))
    page.click("#merge-btn")
    page.wait_for_selector("#merge-msg.ok-msg")
    assert page.inner_text("#merge-msg") == "Готово: перенесено встреч — 1"
    page.wait_for_function("() => document.querySelector('[data-figure=matches] .v').textContent === '3'")
    page.goto(f"{base}/player?id={ids['dup']}&lang=ru")
    page.wait_for_selector("#merged:not([hidden])")
    assert f"объединён с игроком №{ids['ivan']}" in page.inner_text("#merged")
    assert page.errors == []
    page.close()


def test_the_panel_chooses_and_adds_players(browser: Any, site: Any) -> None:
    base, hub, ids = site
    page = open_page(browser, f"{base}/referee/t1?lang=ru", PHONE)
    for d in PIN:
        page.click(f'.keypad button[data-key="{d}"]')
    page.click(".keypad button.ok")
    page.wait_for_selector("#start")
    page.fill("#pa", "")
    page.type("#pa", "петр")
    page.wait_for_selector(f"#picks-0 button[data-player='{ids['ivan']}']")
    box = page.query_selector(f"#picks-0 button[data-player='{ids['ivan']}']").bounding_box()
    assert box["height"] >= 48 and box["width"] >= 300  # a thumb's target, across the phone
    page.click(f"#picks-0 button[data-player='{ids['ivan']}']")
    assert page.input_value("#pa") == "Иван Петров" and "№" in page.inner_text("#chosen-0")
    page.fill("#pb", "")
    page.type("#pb", "Ольга Смирнова")
    # the picker searches as the name is typed: wait for the answer to the whole name, not to its first word
    page.wait_for_function(
        "(t) => document.querySelector('#add-player-1')?.textContent === t",
        arg="+ Добавить «Ольга Смирнова» в реестр",
        timeout=15_000,
    )
    page.screenshot(path=str(SHOTS / "panel-players-ru.png"), full_page=True)
    page.click("#add-player-1")
    page.wait_for_selector("#chosen-1:not([hidden])")
    olga = int(page.inner_text("#chosen-1").split("№")[1].split()[0])
    page.check('input[name="lag"][value="0"]')
    page.click("#start")
    page.wait_for_function("() => !document.querySelector('#start')", timeout=15_000)
    hub.wait_idle()
    match = hub.state("t1")["match"]
    assert match["player_ids"] == [ids["ivan"], olga]
    found = httpx.get(f"{base}/api/players", params={"q": "olga smirnova"}, timeout=30).json()["players"]
    assert [p["id"] for p in found] == [olga] and found[0]["name_en"] == "Olga Smirnova"
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_players_pages_have_no_axe_violations(lang: str, browser: Any, site: Any) -> None:
    """axe-core (tests/dashboard/test_axe.py's audit): the leaderboard, a player, the start form's picker."""
    from tests.dashboard.test_axe import audit, fail_with

    base, _, ids = site
    found: dict[str, list[str]] = {}
    page = open_page(browser, f"{base}/players?lang={lang}")
    page.wait_for_selector("#board tbody tr")
    audit(page, "players", found)
    page.goto(f"{base}/player?id={ids['ivan']}&lang={lang}")
    page.wait_for_function("(id) => document.body.dataset.loaded === id", arg=str(ids["ivan"]))
    audit(page, "player", found)
    panel = open_page(browser, f"{base}/referee/t1?lang={lang}", PHONE)
    for d in PIN:
        panel.click(f'.keypad button[data-key="{d}"]')
    panel.click(".keypad button.ok")
    panel.wait_for_selector("#start")
    panel.fill("#pa", "")
    panel.type("#pa", "ivan")
    panel.wait_for_selector("#picks-0 button.add")
    audit(panel, "panel, the player picker open", found)
    fail_with(found)
