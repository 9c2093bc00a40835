"""Accessibility (issue 20, item 6): axe-core, the standard engine behind Lighthouse's and Deque's audits, run
in the real Chromium on every page the club uses — the wall board, the overlay, the referee panel (its PIN
screen, the start form, a match at the break and in play with a shot held for the referee), the club view
signed out and signed in, and the history pages — in Russian and in English, against the scenes' real hub
(tests/dashboard/scenes.py). Zero violations of WCAG 2.1 A/AA and axe's best practices; a failure lists
each rule, its impact, the elements and how to fix it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.dashboard.scenes import CLUB_PIN, ENDED, FULL_HD, HD, IDLE, PHONE, SceneWeb, new_page, open_scene
from tests.dashboard.support import ROOT

pytestmark = [pytest.mark.browser]

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def violations(page: Any) -> list[str]:
    """axe-core's violations on the page as it is now, one line each: rule (impact): elements — how to fix."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: "
        "['violations']}).then((r) => r.violations.map((v) => [v.id, v.impact, v.help, "
        "v.nodes.map((n) => n.target.join(' ')).slice(0, 6)]))",
        TAGS,
    )
    return [f"{rule} ({impact}): {', '.join(targets)} — {help_}" for rule, impact, help_, targets in found]


def audit(page: Any, what: str, found: dict[str, list[str]]) -> None:
    page.evaluate(
        "document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))))"
    )
    v = violations(page)
    if v:
        found[what] = v


def fail_with(found: dict[str, list[str]]) -> None:
    assert not found, "axe-core violations:\n" + "\n".join(
        f"{what}:\n  " + "\n  ".join(v) for what, v in found.items()
    )


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_board_and_the_overlay_have_no_violations(lang: str, browser: Any, scenes: SceneWeb) -> None:
    found: dict[str, list[str]] = {}
    page = new_page(browser, FULL_HD)
    for table in ("classic-break", "classic-play", "star-play", IDLE, ENDED):
        open_scene(browser, scenes, "board", table, lang, FULL_HD, page=page)
        audit(page, f"board {table}", found)
    for table in ("classic-play", ENDED):
        open_scene(browser, scenes, "overlay", table, lang, HD, page=page)
        audit(page, f"overlay {table}", found)
    fail_with(found)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_panel_and_the_club_view_have_no_violations(lang: str, browser: Any, scenes: SceneWeb) -> None:
    found: dict[str, list[str]] = {}
    page = new_page(browser, PHONE, scenes)
    for table in ("classic-break", "classic-play", "hundred-play", IDLE):
        open_scene(browser, scenes, "panel", table, lang, PHONE, page=page)
        audit(page, f"panel {table}", found)
    pin = new_page(browser, PHONE)
    open_scene(browser, scenes, "panel", IDLE, lang, PHONE, signed_in=False, page=pin)
    audit(pin, "panel PIN", found)
    open_scene(browser, scenes, "panel", "classic-play", lang, PHONE, page=page)
    page.click("#undo")  # the confirmation sheet over the panel
    page.wait_for_selector("[role=dialog]")
    audit(page, "panel, the undo sheet open", found)
    club = new_page(browser, HD)
    open_scene(browser, scenes, "club", IDLE, lang, HD, page=club)
    audit(club, "club", found)
    club.click("#club-signin")
    club.fill("#club-pin", "0000")
    club.click("#club-pin-ok")
    club.wait_for_selector("#club-pin-msg.bad")  # refused: the message in its warning colour
    audit(club, "club, the sign-in dialog after a wrong PIN", found)
    club.fill("#club-pin", CLUB_PIN)
    club.click("#club-pin-ok")
    club.wait_for_selector("#club-signout")  # signed in: the device actions are the club's own
    audit(club, "club, signed in", found)
    fail_with(found)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_history_pages_have_no_violations(lang: str, browser: Any, scenes: SceneWeb) -> None:
    found: dict[str, list[str]] = {}
    page = new_page(browser, HD)
    page.goto(f"{scenes.base}/matches?lang={lang}")
    page.wait_for_selector("a[href*='match?id=']", timeout=15_000)
    audit(page, "matches", found)
    page.click("a[href*='match?id=']")
    page.wait_for_load_state()
    page.wait_for_selector("#verify-status", timeout=30_000)
    audit(page, "match", found)
    fail_with(found)
