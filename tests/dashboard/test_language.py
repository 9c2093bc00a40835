"""One language per screen (issue 20, item 4), in a real Chromium against a real hub: every page of every
variant's busiest scene (tests/dashboard/scenes.py) shows no word of the other alphabet outside names
(elements marked `translate="no"`: players, tables, devices) and text marked with its own `lang`; rule
references read "Классика п. 5.4" / "Classic §5.4"; a foul has the same words on the panel and the board; the
page title is in the page's language; the language toggle on every page is
remembered, and `?lang=` still wins."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.dashboard.scenes import ENDED, FULL_HD, IDLE, PHONE, VARIANT_IDS, SceneWeb, new_page, open_scene

pytestmark = [pytest.mark.browser]

# Every visible text node, and the texts a screen reader reads (aria-label, title, alt, the page's title),
# that carries a letter of the other alphabet outside a name
# (translate="no") or text marked in its own language.
FOREIGN_JS = """(lang) => {
  const other = lang === "ru" ? /[A-Za-z]/ : /[А-Яа-яЁё]/;
  const exempt = (el) => el.closest('[translate="no"]')
    || [...document.querySelectorAll("[lang]")].some((x) => x !== document.documentElement && x.contains(el)
       && x.lang !== lang);
  const shown = (el) => el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0;
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest("script, style") || !shown(el) || exempt(el)) continue;
    if (other.test(n.textContent)) out.push(n.textContent.trim());
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [alt]")) {
    if (exempt(el)) continue;
    for (const a of ["aria-label", "title", "alt"]) {
      const v = el.getAttribute(a);
      if (v && other.test(v)) out.push(`${a}=${v}`);
    }
  }
  if (other.test(document.title)) out.push(`<title>${document.title}`);
  return out;
}"""

PLAY = [f"{v}-play" for v in VARIANT_IDS]
BREAK = [f"{v}-break" for v in VARIANT_IDS]
SCREENS = (
    [("board", t, True) for t in [*PLAY, *BREAK, IDLE, ENDED]]
    + [("panel", t, True) for t in [*PLAY, *BREAK, IDLE]]
    + [("panel", IDLE, False)]
    + [("overlay", t, True) for t in [*PLAY, ENDED]]
    + [("club", IDLE, True)]
)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_no_word_of_the_other_language_on_any_screen(lang: str, browser: Any, scenes: SceneWeb) -> None:
    found: dict[str, list[str]] = {}
    pages = {
        (vp["width"], signed): new_page(browser, vp, scenes if signed else None)
        for vp in (PHONE, FULL_HD)
        for signed in (True, False)
    }
    for kind, table, signed_in in SCREENS:
        viewport = PHONE if kind == "panel" else FULL_HD
        page = open_scene(
            browser,
            scenes,
            kind,
            table,
            lang,
            viewport,
            signed_in,
            page=pages[(viewport["width"], signed_in)],
        )
        assert page.evaluate("document.documentElement.lang") == lang
        foreign = page.evaluate(FOREIGN_JS, lang)
        if foreign:
            found[f"{kind} {table}{'' if signed_in else ' (PIN)'}"] = foreign
        assert not page.errors, page.errors
    assert not found, f"{lang} screens show the other alphabet: {found}"


@pytest.mark.parametrize(("lang", "cite"), [("ru", r"Общие правила п\. \d"), ("en", r"General rules §\d")])
def test_rule_references_are_in_the_screen_language(
    lang: str, cite: str, browser: Any, scenes: SceneWeb
) -> None:
    board = open_scene(browser, scenes, "board", "free-break", lang, FULL_HD)
    line = board.locator("#lastshot").inner_text()
    assert re.search(cite, line) and "general" not in line, line  # "general 11: lag won" on main
    panel = open_scene(browser, scenes, "panel", "hundred-play", lang, PHONE)
    history = panel.locator(".card.history").inner_text()
    assert re.search(r"100 очков п\. \d" if lang == "ru" else r"100 points §\d", history), history
    assert not re.search(r"\b(general|classic|hundred|star|free|dynamic|combined) \d", history), history


def test_the_language_toggle_is_remembered_and_lang_in_the_address_wins(
    browser: Any, scenes: SceneWeb
) -> None:
    context = browser.new_context(viewport=FULL_HD)
    board = context.new_page()
    board.goto(f"{scenes.base}/board/free-play")
    board.wait_for_function("document.body.dataset.online === '1'")
    assert board.evaluate("document.documentElement.lang") == "ru" and board.title() == "Луза — табло"
    board.click("a.lang-toggle")
    board.wait_for_function("document.documentElement.lang === 'en' && document.body.dataset.online === '1'")
    assert board.title() == "Luza — board"
    for path, title in (
        ("/", "Luza — club"),
        ("/referee/free-play", "Luza — referee"),
        ("/overlay/free-play", "Luza — overlay"),
        ("/board/free-play", "Luza — board"),
    ):
        page = context.new_page()
        page.goto(scenes.base + path)  # no ?lang=: the choice made on the board
        page.wait_for_function("document.body.dataset.online === '1'")
        assert (page.evaluate("document.documentElement.lang"), page.title()) == ("en", title)
        assert page.locator("a.lang-toggle").count() == 1  # every page has the toggle (back to Russian)
        page.close()
    page = context.new_page()
    page.goto(f"{scenes.base}/?lang=ru")  # the address still wins
    page.wait_for_function("document.body.dataset.online === '1'")
    assert page.evaluate("document.documentElement.lang") == "ru" and page.title() == "Луза — клуб"
    context.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_foul_has_the_same_words_on_the_panel_and_the_board(
    lang: str, browser: Any, scenes: SceneWeb
) -> None:
    table = "dynamic-play" if lang == "ru" else "combined-play"  # an open shot each (left open by the scene)
    board = open_scene(browser, scenes, "board", table, lang, FULL_HD)
    panel = open_scene(browser, scenes, "panel", table, lang, PHONE)
    button = panel.locator('button[data-foul="push"]')
    offered = button.inner_text().replace("\n", " — ")  # the button: its name, and its rule under it
    button.click()
    entry = panel.locator('.card.taps .tap[data-what="foul"] .tap-what')
    entry.wait_for(timeout=15_000)
    called = entry.inner_text()
    assert called == offered, (called, offered)
    assert called.startswith(
        "Пропих — Общие правила п. 19.1" if lang == "ru" else "Push or press shot — General"
    )
    panel.click("#close-shot")
    flash = board.locator("#foul:not([hidden]) .why")
    flash.wait_for(timeout=15_000)
    assert flash.inner_text() == called  # the spectators read what the referee tapped
    assert not panel.errors and not board.errors


@pytest.mark.parametrize("table", [IDLE, ENDED])
def test_the_toggle_is_on_top_of_the_boards_full_screens(table: str, browser: Any, scenes: SceneWeb) -> None:
    """The free table's QR screen and the final score cover the whole board: the toggle stays above them (it
    was under them, so a free table's board could not change language but by its address)."""
    board = open_scene(browser, scenes, "board", table, "en", FULL_HD)
    board.wait_for_selector(f"#{'idle' if table == IDLE else 'win'}:not([hidden])")
    on_top = board.evaluate(
        "() => { const a = document.querySelector('a.lang-toggle'), r = a.getBoundingClientRect();"
        " return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === a; }"
    )
    assert on_top, "the language toggle is covered"
    board.click("a.lang-toggle")
    board.wait_for_function("document.documentElement.lang === 'ru' && document.body.dataset.online === '1'")
