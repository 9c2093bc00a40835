"""The match time limit on the screens (general A-G6), in a real Chromium against a real hub (its clock the
test's): the board, the overlay and the panel count the match time down (h:mm:ss) beside the race from the
race's `deadline_ms` and the state's `hub_ms`, and say «Время!» / "Time!" once the hub has stored `time_up`;
the panel's start form sets the limit and the rule. Every state the pages receive fits the table
view's schema (conftest)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.dashboard.envelopes import ENVELOPES
from tests.dashboard.support import PHONE
from tests.dashboard.test_shot_clock import PIN, T0, WALL, Table, open_page, shoot
from tests.dashboard.test_shot_clock import table as table

pytestmark = [pytest.mark.browser]


def auth(table: Table) -> dict[str, str]:
    token = httpx.post(f"{table.base}/api/tables/t1/token", json={"pin": PIN, "label": "test"}, timeout=30)
    token.raise_for_status()
    return {"Authorization": f"Bearer {token.json()['token']}"}


def shows(page: Any, phase: str, text: str) -> None:
    try:
        page.wait_for_function(
            "([p, x]) => { const e = document.querySelector('#match-time'); return e && !e.hidden"
            " && e.dataset.phase === p && e.querySelector('.mt-left').textContent === x; }",
            arg=[phase, text],
            timeout=15_000,
        )
    except Exception:
        shown = page.evaluate(
            "() => { const e = document.querySelector('#match-time'); return e && [e.hidden, "
            "e.dataset.phase, e.textContent]; }"
        )
        raise AssertionError(f"#match-time: want {phase} {text}, shows {shown} ({page.errors})") from None


def test_general_a_g6_the_screens_count_the_match_time_down_and_say_time(browser: Any, table: Table) -> None:
    """general A-G6: a race to 3 with a 1-minute limit started at T0: the board shows 0:01:00 - the page's own
    seconds since the state; at T0 + 60 s the hub stores time_up and every screen says Time! / Время!."""
    r = httpx.post(
        f"{table.base}/api/tables/t1/match",
        headers=auth(table),
        timeout=30,
        json={
            "variant": "free",
            "players": ["Иван Петров", "Пётр Иванов"],
            "race": {"race_to": 3, "time_limit_min": 1},
        },
    )
    assert r.status_code == 201, r.text
    race = table.state()["race"]
    assert race["deadline_ms"] == T0 + 60_000 and not race["time_called"]
    board = open_page(browser, table, "/board/t1", "ru", {"width": 1920, "height": 1080}, WALL)
    shows(board, "running", "0:01:00")
    assert board.locator("#match-time .mt-label").inner_text() == "Время встречи"
    board.clock.set_fixed_time(WALL + 15)  # the page's own 15 s since the state: 45 s left
    shows(board, "running", "0:00:45")
    overlay = open_page(browser, table, "/overlay/t1", "en", {"width": 1280, "height": 720}, WALL + 100)
    overlay.clock.set_fixed_time(WALL + 101)  # its state came at WALL + 100: 59 s left
    shows(overlay, "running", "0:00:59")
    assert overlay.locator("#match-time .mt-label").inner_text() == "Match time"
    panel = browser.new_page(viewport=PHONE)
    panel.errors = []
    panel.on("pageerror", lambda e: panel.errors.append(str(e)))
    panel.clock.set_fixed_time(WALL)
    token = auth(table)["Authorization"].split()[1]
    panel.add_init_script(f"sessionStorage.setItem('luza.token.t1', {token!r});")
    panel.goto(f"{table.base}/referee/t1?lang=ru")
    panel.wait_for_selector("#frame-score", timeout=15_000)
    shows(panel, "running", "0:01:00")

    table.clock.ms = T0 + 60_000  # the hub's time reaches the limit: it stores time_up by itself
    assert table.hub.wait_idle(10)
    for page, word in ((board, "Время!"), (overlay, "Time!"), (panel, "Время!")):
        shows(page, "called", word)
    assert table.state()["race"]["time_called"]
    assert (
        board.locator("#match-time .mt-left").evaluate("e => getComputedStyle(e).color") == "rgb(255, 77, 77)"
    )
    shoot(board, "board-match-time-up-ru")
    assert ENVELOPES.checked > 0  # the states the pages got were checked against the schema (conftest)
    for page in (board, overlay, panel):
        assert not page.errors, page.errors
        page.close()


def test_general_a_g6_the_start_form_sets_the_time_limit_and_the_rule(browser: Any, table: Table) -> None:
    """general A-G6: the panel's start form (en) sends the limit in minutes and the rule with the race."""
    token = auth(table)["Authorization"].split()[1]
    panel = browser.new_page(viewport=PHONE)
    panel.add_init_script(f"sessionStorage.setItem('luza.token.t1', {token!r});")
    panel.goto(f"{table.base}/referee/t1?lang=en")
    panel.wait_for_selector("#time-limit", timeout=15_000)
    assert "Time limit" in panel.locator("label[for=time-limit]").inner_text()
    assert panel.locator("#time-rule option").all_inner_texts() == [
        "finish the frame, the leader wins",
        "the referee decides",
    ]
    panel.fill("#pa", "Ivan")
    panel.fill("#pb", "Petr")
    panel.fill("#race-to", "3")
    panel.fill("#time-limit", "90")
    panel.select_option("#time-rule", "referee")
    panel.locator("fieldset.race").scroll_into_view_if_needed()
    shoot(panel, "panel-start-time-limit-en")
    panel.click("#start")
    panel.wait_for_selector("#match-time:not([hidden])", timeout=15_000)
    race = table.state()["race"]
    assert (
        race["time_limit_min"] == 90
        and race["time_rule"] == "referee"
        and race["deadline_ms"] == T0 + 5_400_000
    )
    assert panel.locator("#match-time .mt-left").inner_text() == "1:30:00"
    panel.close()
