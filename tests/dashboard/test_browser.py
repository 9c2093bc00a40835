"""The dashboard in a real headless Chromium against the real hub and web app, with virtual nodes on a real
Mosquitto: the board follows the table, the referee panel acts, a wrong PIN is refused, the board comes back
by itself after the hub restarts. Each scenario writes its screens (Russian and English) to
docs/screenshots/ when LUZA_SCREENSHOTS is set."""

from __future__ import annotations

from typing import Any

import pytest

from hub.virtual.table import Pot, Shot, VirtualTable
from tests.dashboard.conftest import PIN, WebHub
from tests.dashboard.support import BOARD, PHONE, SHOTS, LoopThread, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.mosquitto]
PLAYERS = ("Иван Петров", "Alexei Smirnov")


def open_page(browser: Any, web: WebHub, path: str, viewport: dict[str, int] = BOARD) -> Any:
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(web.url(path))
    page.wait_for_function("document.body.dataset.online === '1'", timeout=10_000)
    return page


def shoot(page: Any, name: str, **kw: Any) -> None:
    """SHOTS/<name> (docs/screenshots with LUZA_SCREENSHOTS=1): full-screen felt as JPEG (a PNG of the
    gradient is 700 KB), the rest as PNG."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_selector("#toast", state="hidden") if page.locator("#toast").count() else None
    if name.startswith("board"):
        page.screenshot(path=str(SHOTS / f"{name}.jpg"), type="jpeg", quality=88, **kw)
    else:
        page.screenshot(path=str(SHOTS / f"{name}.png"), **kw)


def text(page: Any, selector: str) -> str:
    return str(page.locator(selector).first.inner_text(timeout=10_000)).strip()


def wait_text(page: Any, selector: str, want: str, timeout: float = 15.0) -> None:
    page.wait_for_function(
        "([s, w]) => { const e = document.querySelector(s); return e && e.textContent.trim() === w; }",
        arg=[selector, want],
        timeout=timeout * 1000,
    )


def play(loop: LoopThread, table: VirtualTable, player: str, pocket: int, colour: str = "ivory") -> None:
    loop.run(table.play([Shot(0, player, balls=(Pot(pocket, 800, colour),))]))


def start_free(web: WebHub) -> None:
    assert web.hub is not None
    web.hub.new_match("t1", "free", PLAYERS)
    web.hub.submit("t1", {"kind": "lag", "winner": 0})


def enter_pin(page: Any, pin: str) -> None:
    for d in pin:
        page.click(f'.keypad button[data-key="{d}"]')
    page.click(".keypad button.ok")


# ---------------------------------------------------------------- the board


def test_board_updates_when_a_virtual_node_drops_a_ball(
    browser: Any, web: WebHub, vtable: VirtualTable, loop: LoopThread
) -> None:
    start_free(web)
    page = open_page(browser, web, "/board/t1")
    assert text(page, "#p0 .score") == "0" and text(page, "#p0 .name") == PLAYERS[0]
    play(loop, vtable, "a", 3)
    wait_text(page, "#p0 .score", "1")
    assert page.locator('g.pocket[data-pocket="3"].flash').count() == 1  # the drop flashed where it fell
    assert page.locator("#p0.turn").count() == 1  # a potting player plays on (free 5.2)
    assert "Свободная" in text(page, "#variant")
    shoot(page, "board-free-ru")
    en = open_page(browser, web, "/board/t1?lang=en")
    assert text(en, "#p0 .turn-tag") == "▶ To play"
    shoot(en, "board-free-en")
    assert not page.errors and not en.errors


def test_board_reconnects_after_the_hub_restarts(
    browser: Any, web: WebHub, vtable: VirtualTable, loop: LoopThread
) -> None:
    start_free(web)
    play(loop, vtable, "a", 5)
    page = open_page(browser, web, "/board/t1")
    panel = open_page(browser, web, "/referee/t1", PHONE)
    enter_pin(panel, PIN)
    panel.wait_for_selector("#undo:not([disabled])")
    wait_text(page, "#p0 .score", "1")
    page.evaluate("window.__before_restart = true")
    web.stop()
    page.wait_for_selector("#offline:not([hidden])", timeout=20_000)  # the board says it has lost the hub
    panel.wait_for_selector("#offline:not([hidden])")
    # no blind taps
    assert panel.evaluate("[...document.querySelectorAll('button.act')].every(b => b.disabled)")
    web.start()
    # the panel's token died with the old hub (tokens live in its memory): it asks for the PIN again
    panel.wait_for_selector(".keypad", timeout=30_000)
    # the new hub has a new boot id: the board reloads itself (fresh code and state) and is live again
    page.wait_for_function(
        "window.__before_restart === undefined && document.body.dataset.online === '1'", timeout=30_000
    )
    wait_text(page, "#p0 .score", "1")
    assert page.locator("#offline").is_hidden()
    play(loop, vtable, "a", 6)
    wait_text(page, "#p0 .score", "2")


# ---------------------------------------------------------------- the referee panel


def test_a_wrong_pin_is_refused(browser: Any, web: WebHub) -> None:
    page = open_page(browser, web, "/referee/t1", PHONE)
    enter_pin(page, "1111")
    page.wait_for_function("document.querySelector('#pin-msg').textContent.includes('Неверный ПИН-код')")
    assert page.evaluate("sessionStorage.getItem('luza.token.t1')") is None
    assert page.locator("#start").count() == 0
    shoot(page, "panel-pin-ru")
    enter_pin(page, PIN)
    page.wait_for_selector("#start")  # the right PIN opens the panel: no match yet, so the start form


def sign_in_and_start_classic(page: Any) -> None:
    enter_pin(page, PIN)
    page.wait_for_selector("#start")
    page.select_option("#variant", "classic")
    page.fill("#pa", PLAYERS[0])
    page.fill("#pb", PLAYERS[1])
    page.check('input[name="lag"][value="0"]')
    page.click("#start")


def held_break(browser: Any, web: WebHub, vtable: VirtualTable, loop: LoopThread) -> tuple[Any, Any]:
    """Start Classic from the panel; the break pots a ball into pocket 2: held until the referee names it."""
    panel = open_page(browser, web, "/referee/t1", PHONE)
    board = open_page(browser, web, "/board/t1")
    sign_in_and_start_classic(panel)
    wait_text(board, "#p1 .name", PLAYERS[1])
    play(loop, vtable, "a", 2)
    panel.wait_for_selector('article.question[data-id^="identify:"]', timeout=15_000)
    board.wait_for_selector("body.held .heldmark", timeout=15_000)
    return panel, board


def test_panel_answers_a_held_question(
    browser: Any, web: WebHub, vtable: VirtualTable, loop: LoopThread
) -> None:
    panel, board = held_break(browser, web, vtable, loop)
    assert "луза 2" in text(panel, "article.question .evidence")
    shoot(panel, "panel-question-ru")
    shoot(board, "board-held-ru")
    en = open_page(browser, web, "/referee/t1?lang=en", PHONE)
    enter_pin(en, PIN)
    en.wait_for_selector('article.question[data-id^="identify:"]')
    shoot(en, "panel-question-en")
    en.close()
    panel.click('article.question[data-id^="identify:"] button[data-value="15"]')
    wait_text(board, "#p0 .score", "15")  # classic 5.1: ball 15 scores 15
    panel.wait_for_selector('article.question[data-id^="identify:"]', state="detached")
    assert board.locator("body.held").count() == 0
    assert not panel.errors and not board.errors


def test_panel_declares_and_confirms_a_classic_shot(
    browser: Any, web: WebHub, vtable: VirtualTable, loop: LoopThread
) -> None:
    panel, board = held_break(browser, web, vtable, loop)
    panel.click('article.question[data-id^="identify:"] button[data-value="15"]')
    wait_text(board, "#p0 .score", "15")
    panel.click("#declare")  # two taps: the ball, then the pocket
    panel.click('.sheet button[data-ball="14"]')
    panel.click('.sheet g.pocket[data-pocket="5"] circle.hit')
    panel.wait_for_selector(".toast:not(.bad):not([hidden])")
    play(loop, vtable, "a", 5)
    wait_text(board, "#p0 .score", "29")  # provisional until the shot is closed
    assert board.locator("#p0 .score.pending").count() == 1 and board.locator(".provmark").count() == 1
    panel.wait_for_selector("#close-shot:not([disabled])")
    # the fouls offered are the variant's (its profile from /api/variants): Classic's own cue-ball foul, cited
    assert "Классика п. 5.5" in text(panel, 'button[data-foul="cue_ball_pocketed"]')
    assert panel.locator('button[data-foul="wrong_own_ball"]').count() == 0  # a Star foul is not offered
    shoot(panel, "panel-shot-ru")
    panel.click("#close-shot")
    board.wait_for_selector(".provmark", state="detached")
    assert text(board, "#p0 .score") == "29" and board.locator("#p0 .score.pending").count() == 0
    assert "71" in text(board, "#target")
    shoot(board, "board-classic-ru")
    en = open_page(browser, web, "/board/t1?lang=en")
    wait_text(en, "#p0 .score", "29")
    shoot(en, "board-classic-en")
    assert text(panel, "#undo") == "Отменить удар 2"  # undo names what it undoes, in the panel's language
    panel.click("#menu")  # the match ends from the menu (confirmed): the board shows the final score
    panel.click('.sheet button[data-value="end"]')
    panel.click('.sheet button[data-value="true"]')
    board.wait_for_selector("#win:not([hidden])")
    assert "29 : 0" in text(board, "#win .final")
    shoot(board, "board-final-ru")
    panel.wait_for_selector("#start")  # and the panel offers the next match, names kept
    assert panel.input_value("#pa") == PLAYERS[0]
    assert not panel.errors and not board.errors


# ---------------------------------------------------------------- club view and overlay


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_club_view_and_overlay(
    lang: str, browser: Any, web: WebHub, vtable: VirtualTable, loop: LoopThread
) -> None:
    start_free(web)
    play(loop, vtable, "a", 1)
    club = open_page(browser, web, f"/?lang={lang}", {"width": 1440, "height": 900})
    wait_text(club, 'article.tcard[data-table="t1"] .pl b', "1")
    assert club.locator('article.tcard[data-table="t2"] .tfree').count() == 1
    for dev in ("pockets-123", "pockets-456", "cue-a", "cue-b"):
        assert club.locator(f'#devices tr[data-device="{dev}"]').count() == 1
    assert club.locator(".hitem.ok").count() == 3
    shoot(club, f"club-{lang}")
    overlay = open_page(browser, web, f"/overlay/t1?lang={lang}&scale=1.5", {"width": 1920, "height": 200})
    wait_text(overlay, ".seat.s0 .score", "1")
    assert overlay.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
    shoot(overlay, f"overlay-{lang}", omit_background=True)
    idle = open_page(browser, web, f"/board/t2?lang={lang}")
    idle.wait_for_selector("#idle:not([hidden]) img.qr")
    wait_until(
        lambda: idle.evaluate("document.querySelector('#idle img.qr').naturalWidth") > 0, 10, "the QR code"
    )
    shoot(idle, f"board-idle-{lang}")


def test_the_board_of_an_unknown_table_says_so(browser: Any, web: WebHub) -> None:
    page = browser.new_page(viewport=BOARD)
    page.goto(web.url("/board/nosuch"))
    page.wait_for_function(
        "document.querySelector('#offline') && !document.querySelector('#offline').hidden "
        "&& document.querySelector('#offline').textContent.includes('nosuch')"
    )
    assert "Хаб не знает стол" in text(page, "#offline")
