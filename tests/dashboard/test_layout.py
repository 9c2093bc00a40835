"""Layout that never cuts what matters (issue 20, item 3), in a real Chromium against a real hub: every
variant's busiest scene (tests/dashboard/scenes.py: 40-character names in both alphabets, the rack to set, the
cue ball in hand, a held shot, an ended match) on the board and the overlay at 1280x720 and 1920x1080, the
referee panel on a phone and at 1280x720, the club view, in Russian and English. The test fails when any text
is cut or spills out of its box: a text's boxes must lie inside every ancestor that clips it (an ellipsis is
text laid out past its box) and inside every ancestor it belongs to, up to a scroll container, and inside the
screen. The screens go to docs/screenshots/layout/ with LUZA_SCREENSHOTS=1."""

from __future__ import annotations

from typing import Any

import pytest

from tests.dashboard.scenes import (
    ENDED,
    FULL_HD,
    HD,
    IDLE,
    PHONE,
    VARIANT_IDS,
    SceneWeb,
    new_page,
    open_scene,
)
from tests.dashboard.support import KEEP_SHOTS, SHOTS

pytestmark = [pytest.mark.browser]

# [text, the element it overflows, how] for every text node whose boxes leave a box they must stay in.
CUT_JS = """() => {
  const out = [];
  const fixedScreen = !document.body.classList.contains("panel") && !document.body.classList.contains("club");
  const name = (el) => el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`;
  const range = document.createRange();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const text = n.textContent.trim();
    const el = n.parentElement;
    // (.vh: text for screen readers only, clipped to nothing on purpose)
    if (!text || !el || el.closest("script, style, .vh") || !el.checkVisibility()) continue;
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      if (r.width < 1 || r.height < 1) continue;
      // a glyph's box is taller than a tight line (line-height under 1.2): a quarter of the font size is slack
      const slackY = 0.25 * parseFloat(getComputedStyle(el).fontSize);
      const cut = (box, axis, how, who) => {
        const [a0, a1, b0, b1, slack] = axis === "x" ? [r.left, r.right, box.left, box.right, 2]
          : [r.top, r.bottom, box.top, box.bottom, slackY];
        if (a0 < b0 - slack || a1 > b1 + slack) out.push([text.slice(0, 60), who, `${how} ${axis}`]);
      };
      let x = true, y = true; // still checked on this axis (a scroll container makes the rest reachable)
      for (let a = el; a && a !== document.body && (x || y); a = a.parentElement) { // the page itself may scroll
        const cs = getComputedStyle(a);
        if (cs.display === "inline" || cs.display === "contents") continue;
        const box = a.getBoundingClientRect();
        for (const axis of ["x", "y"]) {
          if (axis === "x" ? !x : !y) continue;
          const ov = axis === "x" ? cs.overflowX : cs.overflowY;
          if (/auto|scroll/.test(ov)) { if (axis === "x") x = false; else y = false; continue; }
          cut(box, axis, ov === "visible" ? "spills out of" : "is cut by", name(a));
        }
        if (cs.position === "fixed") break; // its box is the screen's: checked below
      }
      const screen = { left: 0, right: innerWidth, top: 0, bottom: innerHeight };
      if (x) cut(screen, "x", "leaves", "the screen"); // unless inside something that scrolls sideways
      if (fixedScreen) cut(screen, "y", "leaves", "the screen"); // the panel and the club view scroll
    }
  }
  const seen = new Set();
  return out.filter((o) => { const k = o.join("|"); if (seen.has(k)) return false; seen.add(k); return true; });
}"""  # noqa: E501

PLAY = [f"{v}-play" for v in VARIANT_IDS]
BREAK = [f"{v}-break" for v in VARIANT_IDS]
SIZES = {"hd": HD, "fullhd": FULL_HD}


# The screens kept in docs/screenshots/layout/ (LUZA_SCREENSHOTS=1):
# the busiest of each variant, both languages.
KEEP = {
    *(f"board-{v}-play-ru-fullhd" for v in VARIANT_IDS),
    *(f"board-{v}-play-en-hd" for v in VARIANT_IDS),
    "board-classic-break-ru-fullhd",
    "board-classic-break-en-hd",
    "board-ended-ru-fullhd",
    *(f"overlay-{v}-play-{lang}-fullhd" for v in ("classic", "star") for lang in ("ru", "en")),
    *(
        f"panel-{t}-{lang}-phone"
        for t in ("classic-play", "star-play", "hundred-break")
        for lang in ("ru", "en")
    ),
    "club-ru-hd",
    "club-en-hd",
}


def check(page: Any, what: str, found: dict[str, list[Any]], shot: str | None = None) -> None:
    page.evaluate(
        "document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))))"
    )
    cut = page.evaluate(CUT_JS)
    if cut:
        found[what] = cut
    if shot in KEEP and KEEP_SHOTS:
        (SHOTS / "layout").mkdir(parents=True, exist_ok=True)
        if shot.startswith("board"):
            page.screenshot(path=str(SHOTS / "layout" / f"{shot}.jpg"), type="jpeg", quality=75)
        elif shot.startswith("overlay"):  # the bar, on a transparent page
            page.screenshot(
                path=str(SHOTS / "layout" / f"{shot}.png"),
                omit_background=True,
                clip={"x": 0, "y": 0, "width": page.viewport_size["width"], "height": 160},
            )
        else:
            page.screenshot(path=str(SHOTS / "layout" / f"{shot}.png"))
    assert not page.errors, page.errors


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_board_and_the_overlay_cut_nothing(lang: str, size: str, browser: Any, scenes: SceneWeb) -> None:
    found: dict[str, list[Any]] = {}
    viewport = SIZES[size]
    page = new_page(browser, viewport)
    for table in [*BREAK, *PLAY, IDLE, ENDED]:
        open_scene(browser, scenes, "board", table, lang, viewport, page=page)
        check(page, f"board {table}", found, f"board-{table}-{lang}-{size}")
    for table in [*PLAY, ENDED]:
        open_scene(browser, scenes, "overlay", table, lang, viewport, page=page)
        check(page, f"overlay {table}", found, f"overlay-{table}-{lang}-{size}")
    assert not found, f"cut or spilt text ({lang}, {viewport}): {found}"


@pytest.mark.parametrize("size", ["phone", "hd"])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_panel_and_the_club_view_cut_nothing(
    lang: str, size: str, browser: Any, scenes: SceneWeb
) -> None:
    found: dict[str, list[Any]] = {}
    viewport = PHONE if size == "phone" else HD
    page = new_page(browser, viewport, scenes)
    for table in [*BREAK, *PLAY, IDLE]:
        open_scene(browser, scenes, "panel", table, lang, viewport, page=page)
        check(page, f"panel {table}", found, f"panel-{table}-{lang}-{size}")
    pin = new_page(browser, viewport)
    open_scene(browser, scenes, "panel", IDLE, lang, viewport, signed_in=False, page=pin)
    check(pin, "panel PIN", found, f"panel-pin-{lang}-{size}")
    open_scene(browser, scenes, "club", IDLE, lang, viewport, page=page)
    check(page, "club", found, f"club-{lang}-{size}")
    assert not found, f"cut or spilt text ({lang}, {viewport}): {found}"


def test_the_chip_strip_puts_what_to_do_first_and_counts_the_rest(browser: Any, scenes: SceneWeb) -> None:
    """A new Classic rack is one chip, first (on main: 15 "ball N: rack" chips squeezing "Break shot"); on a
    screen too narrow for every chip, those that do not fit collapse into one chip that counts them."""
    page = open_scene(browser, scenes, "board", "classic-break", "ru", FULL_HD)
    chips = page.locator("#banner .chip").all_inner_texts()
    assert chips[0].endswith("Расставить пирамиду (15)") and chips[1:] == [
        "Биток с руки из дома",
        "Начальный удар",
    ]
    page.set_viewport_size({"width": 560, "height": 720})  # a narrow screen: the chips keep their size
    page.wait_for_function("document.querySelector('#banner .chip.more') !== null")
    shown = page.locator("#banner .chip:not(.more)").all_inner_texts()
    more = page.locator("#banner .chip.more")
    assert shown[0].endswith("Расставить пирамиду (15)")  # what the referee does first stays
    n = 3 - len(shown)
    assert n >= 1 and more.inner_text() == f"ещё {n}"
    assert more.get_attribute("title").endswith("Начальный удар")  # the hidden ones, named
    assert page.evaluate(
        "(() => { const b = document.getElementById('banner'); "
        "return b.scrollWidth <= b.clientWidth + 1; })()"
    )  # nothing cut in the strip
    page.set_viewport_size(FULL_HD)  # room again: every chip comes back
    page.wait_for_function("document.querySelector('#banner .chip.more') === null")
    assert page.locator("#banner .chip").count() == 3
