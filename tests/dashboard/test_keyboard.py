"""The referee panel from a keyboard alone (issue 20, item 6): the PIN typed on the keys, Enter to sign in, a
skip link to the shot card and one to undo and the menu (Tab reached undo 31 stops past the shot card in
Star), a sheet that opens on Enter with its first choice focused, closes on Escape with the focus back where
it was, and one real action (undo, confirmed) sent to the real hub — no mouse anywhere."""

from __future__ import annotations

from typing import Any

import pytest

from tests.dashboard.scenes import PHONE, PIN, SceneWeb, new_page

pytestmark = [pytest.mark.browser]


def tab_to(page: Any, target: str, key: str = "Tab") -> int:
    """Press Tab (or `key`) until the element `target` (an id) has the focus; how many presses it took (fails
    past 60)."""
    for stops in range(1, 61):
        page.keyboard.press(key)
        if focused(page) == target:
            return stops
    raise AssertionError(f"#{target} not reached with 60 Tab presses (the focus on {focused(page)!r})")


def on_screen(page: Any, selector: str) -> bool:
    """Whether the element is inside the viewport (a skip link waits above it until
    the keyboard reaches it)."""
    return bool(
        page.evaluate(
            "(s) => { const r = document.querySelector(s).getBoundingClientRect(); "
            "return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }",
            selector,
        )
    )


def focused(page: Any) -> str:
    return page.evaluate(
        "document.activeElement ? (document.activeElement.id || document.activeElement.tagName) : ''"
    )


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
    assert focused(page) == "skip" and on_screen(page, "#skip")
    page.keyboard.press("Tab")  # the second: the one to undo and the menu
    assert focused(page) == "skip-bar" and on_screen(page, "#skip-bar") and not on_screen(page, "#skip")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'card-shot'")

    tab_to(page, "skip-bar", "Shift+Tab")  # back up to the top
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'bar'")
    # the bottom bar's undo, the next stop (it was 31 stops past the shot card)
    assert tab_to(page, "undo") == 1
    page.keyboard.press("Enter")
    page.wait_for_selector("[role=dialog]")
    # the sheet's first choice
    assert page.evaluate("document.activeElement.closest('[role=dialog]') !== null")
    page.keyboard.press("Escape")
    page.wait_for_selector("[role=dialog]", state="detached")
    assert focused(page) == "undo"  # back where the referee was; nothing sent
    assert page.evaluate("document.body.dataset.rev") == rev

    page.keyboard.press("Enter")  # again, and this time confirmed with Enter on "yes"
    page.wait_for_selector("[role=dialog]")
    page.keyboard.press("Enter")
    # the hub took it
    page.wait_for_function("(r) => document.body.dataset.rev !== r", arg=rev, timeout=15_000)
    assert not page.errors, page.errors
