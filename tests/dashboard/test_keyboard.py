"""The referee panel from a keyboard alone (issue 20, item 6): the PIN typed on the keys, Enter to sign in, a skip
link to the shot card, a sheet that opens on Enter with its first choice focused, closes on Escape with the focus
back where it was, and one real action (undo, confirmed) sent to the real hub — no mouse anywhere."""

from __future__ import annotations

from typing import Any

import pytest

from tests.dashboard.scenes import PHONE, PIN, SceneWeb, new_page

pytestmark = [pytest.mark.browser]


def focused(page: Any) -> str:
    return page.evaluate("document.activeElement ? (document.activeElement.id || document.activeElement.tagName) : ''")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_panel_signs_in_and_acts_from_the_keyboard(lang: str, browser: Any, scenes: SceneWeb) -> None:
    table = "classic-play" if lang == "ru" else "star-play"
    page = new_page(browser, PHONE)
    page.goto(f"{scenes.base}/referee/{table}?lang={lang}")
    page.wait_for_selector("#pin-dots")
    page.keyboard.type(PIN[:-1] + "9")  # a slip: the last digit wrong
    page.keyboard.press("Backspace")  # taken back from the keyboard
    assert page.inner_text("#pin-dots") == "●" * (len(PIN) - 1)
    page.keyboard.type(PIN[-1])
    page.keyboard.press("Enter")
    page.wait_for_selector("#card-shot", timeout=15_000)  # signed in: the match, its shot card
    rev = page.evaluate("document.body.dataset.rev")

    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Tab")  # the first stop: the skip link, shown once focused
    assert focused(page) == "skip" and page.is_visible("#skip")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'card-shot'")

    page.focus("#undo")  # the bottom bar's undo, reached as Tab would (focus() moves no pointer)
    page.keyboard.press("Enter")
    page.wait_for_selector("[role=dialog]")
    assert page.evaluate("document.activeElement.closest('[role=dialog]') !== null")  # the sheet's first choice
    page.keyboard.press("Escape")
    page.wait_for_selector("[role=dialog]", state="detached")
    assert focused(page) == "undo"  # back where the referee was; nothing sent
    assert page.evaluate("document.body.dataset.rev") == rev

    page.keyboard.press("Enter")  # again, and this time confirmed with Enter on "yes"
    page.wait_for_selector("[role=dialog]")
    page.keyboard.press("Enter")
    page.wait_for_function("(r) => document.body.dataset.rev !== r", arg=rev, timeout=15_000)  # the hub took it
    assert not page.errors, page.errors
