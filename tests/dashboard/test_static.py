"""The dashboard's files, checked without a browser: both languages carry every text, nothing is fetched from
the internet, every file a page links exists, the vendored fonts are real woff2 files with their licence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "dashboard"
PAGES = ("board.html", "referee.html", "club.html", "overlay.html", "players.html", "player.html")


def text_keys(lang: str) -> set[str]:
    src = (ROOT / "js" / "i18n.js").read_text()
    block = re.search(rf"^  {lang}: \{{\n(.*?)^  \}},", src, re.S | re.M)
    assert block, f"no {lang} block in i18n.js"
    return set(re.findall(r"^\s+(\w+):", block.group(1), re.M)) | set(
        re.findall(r",\s(\w+):", block.group(1))
    )


def test_russian_and_english_have_the_same_texts() -> None:
    ru, en = text_keys("ru"), text_keys("en")
    assert len(ru) > 100
    assert ru == en, f"only ru: {sorted(ru - en)}; only en: {sorted(en - ru)}"


def test_every_text_key_used_by_the_pages_exists() -> None:
    keys = text_keys("ru")
    used: set[str] = set()
    for js in (ROOT / "js").glob("*.js"):
        used |= set(re.findall(r"\bt\(\s*[\"'](\w+)[\"']", js.read_text()))
    missing = sorted(k for k in used if k not in keys)
    assert not missing, f"t() keys without a text: {missing}"


@pytest.mark.parametrize(
    "path",
    sorted(p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*") if p.suffix in (".html", ".js", ".css")),
)
def test_nothing_is_loaded_from_the_internet(path: str) -> None:
    src = (ROOT / path).read_text()
    urls = [u for u in re.findall(r"https?://[^\s\"')]+", src) if u != "http://www.w3.org/2000/svg"]
    assert not urls, f"{path} refers to {urls}: a wall screen may have no internet"


@pytest.mark.parametrize("page", PAGES)
def test_every_static_file_a_page_links_exists(page: str) -> None:
    html = (ROOT / page).read_text()
    links = re.findall(r"(?:src|href)=\"/static/([^\"]+)\"", html)
    assert links
    for css in re.findall(r"href=\"/static/(css/[^\"]+)\"", html):
        links += re.findall(r"url\(/static/([^)]+)\)", (ROOT / css).read_text())
    for link in links:
        assert (ROOT / link).is_file(), f"{page} links /static/{link}, which does not exist"


def test_js_imports_resolve() -> None:
    for js in (ROOT / "js").glob("*.js"):
        for mod in re.findall(r"from \"\./([\w-]+\.js)\"", js.read_text()):
            assert (ROOT / "js" / mod).is_file(), f"{js.name} imports ./{mod}"


def test_fonts_are_woff2_with_cyrillic_and_the_licence() -> None:
    fonts = sorted((ROOT / "fonts").glob("*.woff2"))
    assert any("cyrillic" in f.name for f in fonts) and any("latin" in f.name for f in fonts)
    for f in fonts:
        assert f.read_bytes()[:4] == b"wOF2", f"{f.name} is not a woff2 file"
    assert "SIL Open Font License" in (ROOT / "fonts" / "OFL-Inter.txt").read_text()
