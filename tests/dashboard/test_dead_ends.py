"""No dead ends on the club view and the panel (issue 20, item 5), in a real Chromium against the real hub:
the club signs in with its own PIN and the Blink button makes a virtual node blink (it answered 401 whatever
one did); a PIN lockout counts down on screen and lets the PIN in again when it is over (it said "60 s" and
stayed so); the lag choice of the start form names the players typed above it (it said "Player 1/2")."""

from __future__ import annotations

from typing import Any

import pytest

from hub.virtual.table import VirtualTable
from hub.web.auth import CLUB, PinStore
from hub.web.settings import WebSettings
from tests.dashboard.conftest import PIN, WebHub
from tests.dashboard.support import PHONE, wait_until
from tests.dashboard.test_browser import enter_pin, open_page, shoot

pytestmark = [pytest.mark.browser, pytest.mark.mosquitto]
CLUB_PIN = "13579"
LOCKOUT_S = 3
CLUB_VIEW = {"width": 1440, "height": 900}


@pytest.fixture
def web_settings() -> WebSettings:
    # the second wrong PIN locks, for 3 s
    return WebSettings(heartbeat_s=1.0, pin_attempts=2, lockout_s=LOCKOUT_S)


def left(page: Any, selector: str) -> int:
    return int(page.locator(selector).get_attribute("data-left") or -1)


@pytest.mark.parametrize(("lang", "sent"), [("ru", "Команда отправлена"), ("en", "Command sent")])
def test_the_club_signs_in_and_blinks_a_node(
    lang: str, sent: str, browser: Any, web: WebHub, vtable: VirtualTable
) -> None:
    PinStore(web.cfg.store.path).set(CLUB, CLUB_PIN)
    node = next(n for n in vtable.nodes if n.device == "pockets-123")
    club = open_page(browser, web, f"/?lang={lang}", CLUB_VIEW)
    blink = club.locator('#devices tr[data-device="pockets-123"] button:not(.upd)')
    blink.wait_for()
    club.wait_for_function(
        "!document.querySelector('#devices tr[data-device=\"pockets-123\"] button:not(.upd)').disabled"
    )
    blink.click()  # no token yet: the club's sign-in opens instead of a 401
    club.wait_for_selector("dialog.signin[open] #club-pin")
    shoot(club, f"club-signin-{lang}")
    club.fill("#club-pin", "1111")
    club.click("#club-pin-ok")
    club.wait_for_function(
        "(w) => document.querySelector('#club-pin-msg').textContent === w",
        arg="Неверный ПИН-код" if lang == "ru" else "Wrong PIN",
    )
    club.fill("#club-pin", CLUB_PIN)
    club.click("#club-pin-ok")
    club.wait_for_selector("dialog.signin", state="detached")
    club.wait_for_function(
        "([s]) => !document.querySelector('#toast').hidden && "
        "document.querySelector('#toast').textContent === s",
        arg=[sent],
    )
    assert "bad" not in (club.locator("#toast").get_attribute("class") or "")
    wait_until(lambda: node.node is not None and node.node.board.blinks > 0, 10, "the node's identify blink")
    assert club.locator("#club-signout").count() == 1  # signed in: the next blink needs no PIN
    before = node.node.board.blinks
    blink.click()
    club.wait_for_function(
        "([s]) => document.querySelector('#toast').textContent === s && "
        "!document.querySelector('dialog.signin')",
        arg=[sent],
    )
    wait_until(lambda: node.node.board.blinks > before, 10, "the second blink")
    assert not club.errors


def test_the_club_sign_in_counts_its_lockout_down(browser: Any, web: WebHub) -> None:
    PinStore(web.cfg.store.path).set(CLUB, CLUB_PIN)
    club = open_page(browser, web, "/?lang=en", CLUB_VIEW)
    club.click("#club-signin")
    club.fill("#club-pin", "1111")
    club.click("#club-pin-ok")
    club.wait_for_function("document.querySelector('#club-pin-msg').textContent === 'Wrong PIN'")
    club.fill("#club-pin", "1111")  # the second wrong PIN locks this address out for 3 s
    club.click("#club-pin-ok")
    club.wait_for_function(
        "document.querySelector('#club-pin-msg').textContent.startsWith("
        "'Too many wrong PINs — try again in ')"
    )
    assert club.locator("#club-pin-ok").is_disabled()
    first = left(club, "#club-pin-msg")
    club.wait_for_function(f"Number(document.querySelector('#club-pin-msg').dataset.left) < {first}")
    club.wait_for_function(
        "document.querySelector('#club-pin-msg').textContent === 'You may enter the PIN again'",
        timeout=(LOCKOUT_S + 5) * 1000,
    )
    club.fill("#club-pin", CLUB_PIN)
    club.click("#club-pin-ok")
    club.wait_for_selector("#club-signout")


def test_the_panel_counts_its_pin_lockout_down(browser: Any, web: WebHub) -> None:
    page = open_page(browser, web, "/referee/t1", PHONE)
    enter_pin(page, "1111")
    page.wait_for_function("document.querySelector('#pin-msg').textContent === 'Неверный ПИН-код'")
    enter_pin(page, "1111")  # the second wrong PIN locks this address out for 3 s
    page.wait_for_function(
        "document.querySelector('#pin-msg').textContent.startsWith("
        "'Слишком много неверных ПИН-кодов — повторите через ')"
    )
    first = left(page, "#pin-msg")
    assert 1 <= first <= LOCKOUT_S and page.locator(".keypad button.ok").is_disabled()
    shoot(page, "panel-pin-locked-ru")
    page.wait_for_function(f"Number(document.querySelector('#pin-msg').dataset.left) < {first}")  # it counts
    page.wait_for_function(
        "document.querySelector('#pin-msg').textContent === 'Можно ввести ПИН-код снова'",
        timeout=(LOCKOUT_S + 5) * 1000,
    )
    enter_pin(page, PIN)
    page.wait_for_selector("#start")


def test_the_lag_choice_names_the_players_typed_above_it(browser: Any, web: WebHub) -> None:
    page = open_page(browser, web, "/referee/t1?lang=en", PHONE)
    enter_pin(page, PIN)
    page.wait_for_selector("#start")
    labels = page.locator("fieldset.lag label.radio")
    assert [labels.nth(i).inner_text().strip() for i in range(3)] == ["—", "Player 1", "Player 2"]
    page.fill("#pa", "Иван Петров")
    page.fill("#pb", "Alexei Smirnov")
    assert [labels.nth(i).inner_text().strip() for i in range(3)] == ["—", "Иван Петров", "Alexei Smirnov"]
    cue = page.locator('select[name="cue-cue-a"] option')
    assert [cue.nth(i).inner_text().strip() for i in range(2)] == ["Иван Петров", "Alexei Smirnov"]
    page.fill("#pb", "")
    assert labels.nth(2).inner_text().strip() == "Player 2"
    page.fill("#pb", "Alexei Smirnov")
    page.check('input[name="lag"][value="1"]')
    page.click("#start")
    page.wait_for_selector("#undo")
    assert web.hub is not None
    wait_until(lambda: (web.hub.state("t1")["match"] or {}).get("to_play") == 1, 10, "the lag won by seat 1")
