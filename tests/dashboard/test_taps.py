"""The referee panel's taps in a real Chromium against the real hub: it offers only what the rules allow at
that moment (no call on the Classic break; 100 points allows one there, §2), every accepted tap is taken back
from the panel (a call, a foul, a ball's number), and a tap made during a commit outage waits — "pending /
ожидает", the same uid — until the hub answers, however long, and counts once though the referee presses
again (issues 20 and 18)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from hub.virtual.table import VirtualTable
from hub.web.auth import PinStore
from hub.web.settings import WebSettings
from tests.dashboard.conftest import PIN, WebHub
from tests.dashboard.support import PHONE, LoopThread, wait_until
from tests.dashboard.test_browser import PLAYERS, enter_pin, open_page, play, shoot, start_free, text
from tests.hub.service.test_idempotent import Locked

pytestmark = [pytest.mark.browser, pytest.mark.mosquitto]
# the hub answers 503 after this: the old panel gave up after three of them (~4 s here)
SUBMIT_TIMEOUT_S = 1.0


@pytest.fixture
def web_settings() -> WebSettings:
    return WebSettings(heartbeat_s=1.0, submit_timeout_s=SUBMIT_TIMEOUT_S)


def referee_rows(web: WebHub) -> list[dict[str, Any]]:
    with sqlite3.connect(Path(web.cfg.store.path)) as conn:
        return [
            json.loads(r)
            for (r,) in conn.execute("SELECT record FROM inputs WHERE source = 'referee' ORDER BY id")
        ]


def board(web: WebHub) -> dict[str, Any]:
    assert web.hub is not None
    return web.hub.state("t1")["match"]  # type: ignore[no-any-return]


def start(panel: Any, variant: str) -> None:
    enter_pin(panel, PIN)
    panel.wait_for_selector("#start")
    panel.select_option("#variant", variant)
    panel.fill("#pa", PLAYERS[0])
    panel.fill("#pb", PLAYERS[1])
    panel.check('input[name="lag"][value="0"]')
    panel.click("#start")
    panel.wait_for_selector("#undo:not([disabled])")  # the lag is in: the break is next


def call(panel: Any, ball: int, pocket: int) -> None:
    panel.click("#declare")  # two taps: the ball, then the pocket
    panel.click(f'.sheet button[data-ball="{ball}"]')
    panel.click(f'.sheet g.pocket[data-pocket="{pocket}"] circle.hit')


def take_back(panel: Any, what: str) -> None:
    row = f'.tap[data-what="{what}"]'
    panel.click(f"{row} .take-back")
    panel.wait_for_selector(row, state="detached")


def test_classic_offers_no_call_on_the_break_and_every_tap_after_it_is_taken_back(
    browser: Any, web: WebHub, vtable: VirtualTable, loop: LoopThread
) -> None:
    """classic 5.2 (A-C4): on today's main the panel offered the call on the break, the hub said "accepted"
    and then held the break for it, and nothing on the panel took the call back."""
    panel = open_page(browser, web, "/referee/t1", PHONE)
    start(panel, "classic")
    assert panel.locator("#declare").count() == 0  # not offered on the break
    assert text(panel, "#no-call") == "Начальный удар: без заказа"
    play(loop, vtable, "a", 2)  # the break pots a ball into pocket 2: held until the referee names it
    ask = 'article.question[data-id^="identify:"]'
    panel.click(f'{ask} button[data-value="15"]', timeout=15_000)
    panel.wait_for_selector('.tap[data-what="identity"]')
    assert board(web)["scores"] == [15, 0]  # classic 5.1
    take_back(panel, "identity")  # the answer taken back: asked again, nothing scored on a guess
    panel.wait_for_selector(ask)
    wait_until(
        lambda: board(web)["scores"] == [0, 0] and board(web)["status"] == "held", 10, "the break held again"
    )
    panel.click(f'{ask} button[data-value="15"]')
    panel.wait_for_selector("#declare")  # after the break: the call for the next shot is offered
    call(panel, 14, 5)
    panel.wait_for_selector('.tap[data-what="call-next"]')
    assert "14" in text(panel, '.tap[data-what="call-next"]')
    assert board(web)["next_shot"]["declarations"] == [
        {"ball": 14, "pocket": 5, "kind": "object", "method": ""}
    ]
    take_back(panel, "call-next")
    assert board(web)["next_shot"] == {"declarations": []} and board(web)["status"] == "live"
    panel.click('button[data-foul="miss"]')  # a foul on the break (classic 5.6: the penalty), then taken back
    panel.wait_for_selector('.tap[data-what="foul"]')
    shoot(panel, "panel-taps-ru")
    wait_until(lambda: board(web)["scores"] == [-5, 5], 10, "the foul's penalty")
    take_back(panel, "foul")
    wait_until(lambda: board(web)["scores"] == [15, 0], 10, "the break's points back")
    kinds = [(r["kind"], r["args"].get("what") or r["args"].get("on")) for r in referee_rows(web)]
    assert kinds[-7:] == [
        ("identify", None),
        ("withdraw", "identity"),
        ("identify", None),
        ("declare", None),
        # every tap kept: a new input each
        ("declare", None),
        ("foul", True),
        ("foul", False),
    ]
    assert not panel.errors


def test_hundred_offers_a_call_on_the_break_and_takes_it_back(
    browser: Any, web: WebHub, vtable: VirtualTable, loop: LoopThread
) -> None:
    """hundred 2: only the safety rule binds the break and a called ball counts
    there, so the call is offered."""
    panel = open_page(browser, web, "/referee/t1?lang=en", PHONE)
    start(panel, "hundred")
    assert panel.locator("#no-call").count() == 0
    call(panel, 6, 3)
    panel.wait_for_selector('.tap[data-what="call-next"]')
    assert text(panel, '.tap[data-what="call-next"] .tap-what') == "Call for the next shot: 6 into pocket 3"
    take_back(panel, "call-next")
    assert board(web)["next_shot"] == {"declarations": []}
    call(panel, 6, 3)
    panel.wait_for_selector('.tap[data-what="call-next"]')
    play(loop, vtable, "a", 3)  # the break pots into the called pocket: the called ball counts
    wait_until(lambda: board(web)["scores"] == [6, 0], 15, "the called ball of the break to count")
    assert board(web)["status"] in ("live", "held") and not board(web)["alerts"]
    assert not panel.errors


def add_missed_ball(panel: Any, pocket: int) -> None:
    panel.click("section.card.shot button:has-text('Пропущенный шар')")
    panel.click(f'.sheet g.pocket[data-pocket="{pocket}"] circle.hit')
    panel.click('.sheet button[data-value="?"]')


def test_a_tap_during_a_commit_outage_waits_and_counts_once_though_pressed_again(
    browser: Any, web: WebHub, vtable: VirtualTable, loop: LoopThread
) -> None:
    """On today's main the panel gave up after three tries (three submit timeouts) and the referee's second
    press sent a new uid: both were stored when the commit resumed, the ball counted twice."""
    start_free(web)
    play(loop, vtable, "a", 3)
    wait_until(lambda: board(web)["scores"] == [1, 0], 15, "the first ball")
    panel = open_page(browser, web, "/referee/t1", PHONE)
    enter_pin(panel, PIN)
    panel.wait_for_selector("#undo:not([disabled])")
    tries: list[tuple[str, int]] = []  # (uid, status) of every answer to POST /actions
    panel.on(
        "response",
        lambda r: (
            tries.append((json.loads(r.request.post_data)["uid"], r.status))
            if r.url.endswith("/actions")
            else None
        ),
    )

    def unanswered() -> int:
        panel.evaluate("0")  # Playwright's sync API delivers the page's events while it is called
        return sum(1 for _, status in tries if status == 503)

    lock = Locked(Path(web.cfg.store.path))  # another writer holds the database: the hub's commit waits
    try:
        add_missed_ball(panel, 5)
        wait_until(lambda: unanswered() >= 3, 30, "three unanswered tries (the old panel gave up here)")
        pending = panel.locator("#pending:not([hidden])").count() == 1 and "Ожидает" in text(
            panel, "#pending"
        )
        if pending:
            shoot(panel, "panel-pending-ru")
        add_missed_ball(panel, 5)  # the referee presses again
        wait_until(lambda: unanswered() >= 4, 30, "a fourth unanswered try")
    finally:
        lock.release()
    assert web.hub is not None
    wait_until(
        lambda: web.hub.wait_idle(0.2) and panel.locator("#pending:not([hidden])").count() == 0,
        30,
        "the commit to resume and the panel's taps to be answered",
    )
    added = [r for r in referee_rows(web) if r["kind"] == "add_ball"]
    assert len(added) == 1, f"the ball was added {len(added)} times (uids {[r.get('uid') for r in added]})"
    assert board(web)["scores"] == [2, 0]
    assert len({uid for uid, _ in tries}) == 1 and tries[-1][1] == 200  # one uid, tried until answered
    assert pending  # the panel said so meanwhile: "Ожидает ответа хаба"
    assert not panel.errors


def test_a_tap_whose_token_died_waits_for_the_pin_and_is_sent_again_with_its_uid(
    browser: Any, web: WebHub, vtable: VirtualTable, loop: LoopThread
) -> None:
    """A new PIN set meanwhile (or a restarted hub) voids the panel's token: the hub answers 401 and the panel
    asks for the PIN. The tap stays pending, and once the PIN is entered it goes again with
    the same uid: stored once."""
    start_free(web)
    play(loop, vtable, "a", 3)
    wait_until(lambda: board(web)["scores"] == [1, 0], 15, "the first ball")
    panel = open_page(browser, web, "/referee/t1", PHONE)
    enter_pin(panel, PIN)
    panel.wait_for_selector("#undo:not([disabled])")
    uids: list[str] = []
    panel.on(
        "request",
        lambda r: uids.append(json.loads(r.post_data)["uid"]) if r.url.endswith("/actions") else None,
    )
    PinStore(web.cfg.store.path).set("t1", PIN)  # revokes the table's tokens at once
    add_missed_ball(panel, 5)
    panel.wait_for_selector(".keypad")  # 401: the PIN again
    assert "Ожидает" in text(panel, "#pending")
    enter_pin(panel, PIN)
    panel.wait_for_selector("#pending", state="hidden", timeout=15_000)
    wait_until(lambda: board(web)["scores"] == [2, 0], 10, "the missed ball")
    added = [r for r in referee_rows(web) if r["kind"] == "add_ball"]
    assert [r["uid"] for r in added] == [uids[0]] and set(uids) == {uids[0]} and len(uids) == 2
    assert not panel.errors
