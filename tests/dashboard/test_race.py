"""A race to 2 frames with a handicap played through the referee panel in a real Chromium (general 11, A-G4,
A-G5): the start form's race fields, the frame score on the board, the overlay, the panel and the club view,
the next frame started from the panel with the break alternated.
Screens to docs/screenshots/ with LUZA_SCREENSHOTS."""

from __future__ import annotations

from typing import Any

import pytest

from hub.virtual.table import VirtualTable
from tests.dashboard.conftest import PIN, WebHub
from tests.dashboard.support import PHONE, LoopThread
from tests.dashboard.test_axe import audit, fail_with
from tests.dashboard.test_browser import PLAYERS, enter_pin, open_page, play, shoot, text, wait_text

pytestmark = [pytest.mark.browser, pytest.mark.mosquitto]


def start_race(panel: Any) -> None:
    """The start form: Free, a race to 2, two balls on Alexei's shelf in every frame, Иван won the lag."""
    enter_pin(panel, PIN)
    panel.wait_for_selector("#start")
    panel.select_option("#variant", "free")
    panel.fill("#pa", PLAYERS[0])
    panel.fill("#pb", PLAYERS[1])
    panel.fill("#race-to", "2")
    panel.select_option("#hcp-kind", "balls")
    panel.fill("#hcp-amount", "2")
    panel.select_option("#hcp-seat", "1")
    panel.check('input[name="lag"][value="0"]')


def concede(panel: Any, seat: int) -> None:
    """From the panel's menu: the player concedes the frame (confirmed)."""
    panel.click("#menu")
    panel.click(f'.sheet button[data-value="concede{seat}"]')
    panel.click('.sheet button[data-value="true"]')


def test_a_race_to_2_through_the_panel_shows_the_frame_score_everywhere(
    browser: Any, web: WebHub, vtable: VirtualTable, loop: LoopThread
) -> None:
    panel = open_page(browser, web, "/referee/t1", PHONE)
    board = open_page(browser, web, "/board/t1")
    overlay = open_page(browser, web, "/overlay/t1")
    start_race(panel)
    panel.locator("fieldset.race").scroll_into_view_if_needed()
    shoot(panel, "panel-start-race-ru")
    panel.click("#start")
    # general A-G5: the two handicap balls count for Alexei from the start
    wait_text(board, "#p1 .score", "2")
    assert text(board, "#race") == "до 2 побед · партия 1"
    assert text(board, "#p1 .race .hcp") == "фора 2 ш." and board.locator("#p0 .race .hcp").count() == 0
    assert board.locator("#p1 .shelf .ball").count() == 2
    assert text(overlay, ".mid .race") == "до 2 побед · партия 1"
    play(loop, vtable, "a", 3)  # Иван pots one on the break
    wait_text(board, "#p0 .score", "1")
    concede(panel, 1)  # Alexei concedes frame 1
    panel.wait_for_selector("#next-frame")
    board.wait_for_selector("#win:not([hidden])")
    assert text(board, "#win .final b") == "1 : 0"  # the frame score, big
    assert "Иван Петров выигрывает партию 1" in text(board, "#win .winner")
    assert "Следующую партию разбивает Alexei Smirnov" in text(board, "#win .verdict")  # general 11
    wait_text(overlay, ".seat.s0 .fscore", "1")
    assert text(overlay, ".seat.s1 .fscore") == "0"
    assert "Партии 1:0" in text(panel, "#frame-score")
    shoot(board, "board-race-frame-ru")
    shoot(panel, "panel-race-next-ru")
    found: dict[str, list[str]] = {}
    audit(board, "board at the end of frame 1", found)
    audit(panel, "panel: next frame", found)
    overlay.wait_for_selector("#flash", state="hidden", timeout=15_000)  # the win flash (4 s), then the bar
    shoot(overlay, "overlay-race-ru")
    en_board = open_page(browser, web, "/board/t1?lang=en")
    assert "Alexei Smirnov breaks the next frame" in text(en_board, "#win .verdict")
    shoot(en_board, "board-race-frame-en")
    en_panel = open_page(browser, web, "/referee/t1?lang=en", PHONE)
    enter_pin(en_panel, PIN)
    en_panel.wait_for_selector("#next-frame")
    assert text(en_panel, "#next-frame") == "Start frame 2"
    shoot(en_panel, "panel-race-next-en")
    en_panel.close()
    en_overlay = open_page(browser, web, "/overlay/t1?lang=en")
    wait_text(en_overlay, ".mid .race", "race to 2 · frame 1")
    assert text(en_overlay, ".seat.s1 .hcp") == "hcp 2 ball(s)"
    shoot(en_overlay, "overlay-race-en")
    en_overlay.close()

    panel.click("#next-frame")  # frame 2: Alexei breaks (general 11), the handicap again (general A-G5)
    wait_text(board, "#race", "до 2 побед · партия 2")
    board.wait_for_selector("#win", state="hidden")
    board.wait_for_selector("#p1.turn")
    assert text(board, "#p0 .score") == "0" and text(board, "#p1 .score") == "2"
    assert board.locator("#p0 .race .dot.won").count() == 1
    club = open_page(browser, web, "/")
    club.wait_for_selector('article.tcard[data-table="t1"] .trace')
    assert "Партии 1:0" in text(club, 'article.tcard[data-table="t1"] .trace')
    assert "Alexei Smirnov: 2 шар. на полке" in text(club, 'article.tcard[data-table="t1"] .trace')
    shoot(club, "club-race-ru")
    audit(board, "board in frame 2", found)
    audit(overlay, "overlay in frame 2", found)
    audit(club, "club view, a race", found)
    fail_with(found)  # axe-core: no WCAG 2.1 A/AA violation on the race's screens
    play(loop, vtable, "b", 4)
    wait_text(board, "#p1 .score", "3")
    concede(panel, 1)  # Alexei concedes frame 2: Иван has won the race 2:0
    panel.wait_for_selector("#end-race")
    board.wait_for_selector("#win:not([hidden])")
    assert text(board, "#win .winner") == "Иван Петров выигрывает встречу"
    assert text(board, "#win .final b") == "2 : 0"
    wait_text(overlay, ".seat.s0 .fscore", "2")
    shoot(board, "board-race-won-ru")
    panel.click("#end-race")
    # the match ended: its final board stays, with the QR for the next
    board.wait_for_selector("#win .next .qr")
    assert text(board, "#win .final b") == "2 : 0"
    for page in (panel, board, overlay, en_board, club):
        assert not page.errors, page.errors
