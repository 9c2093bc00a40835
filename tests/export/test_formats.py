"""CSV, the HTML scoresheet and the PDF of matches played through the hub; an unfinished match exports too."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hub.cli import main
from hub.export import build, csvfile, html, load, pdf
from hub.store.database import Store
from tests.export.matchkit import Clock, Table, open_hub


def test_the_default_install_renders_pdf() -> None:
    """Issue 22, item 6: WeasyPrint is a base dependency (pyproject.toml), so a club's plain install exports
    PDF. A session once lost it from the dependency list and the PDF tests quietly
    skipped: now they cannot."""
    from importlib.metadata import requires

    assert any(r.lower().startswith("weasyprint") for r in requires("luza") or []), (
        "pyproject.toml lost weasyprint"
    )
    assert pdf.available(), "WeasyPrint does not import: run scripts/setup (pango, fonts-dejavu-core)"
    assert shutil.which("pdftotext"), (
        "the PDF tests read the PDF with pdftotext: scripts/setup --dev (poppler-utils)"
    )


def test_csv_has_one_row_per_shot_and_reads_back_with_the_csv_module(match_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "m.csv"
    assert main(["export", "--db", str(match_db), "--match", "1", "--format", "csv", "-o", str(out)]) == 0
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM a spreadsheet needs to read UTF-8
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    assert rows.pop()["match"].startswith("#luza-signature ed25519 ")  # the last row is the signature
    assert [r["shot"] for r in rows] == [str(n) for n in range(1, 10)]
    assert list(rows[0]) == list(csvfile.COLUMNS)
    assert (
        rows[0]["shooter"] == "Иван Петров"
        and rows[0]["balls"] == "4"
        and rows[0]["ball_numbers_from"] == "referee"
    )
    foul = rows[4]
    assert foul["fouls"] == "classic 5.5" and foul["points_b"] == "-5" and foul["points_a"] == "5"
    assert "биток упал в лузу" in foul["reasons_ru"] and "cue ball went into a pocket" in foul["reasons_en"]
    assert (rows[-1]["score_a"], rows[-1]["score_b"]) == ("71", "8")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "ru",
            [
                "Протокол партии",
                "Классическая пирамида",
                "Победитель: Иван Петров (71:8)",
                "Стол 1",
                "Проверено повторным расчётом",
                "Бильярдный клуб «Луза»",
                "Судья",
            ],
        ),
        (
            "en",
            [
                "Match scoresheet",
                "Classic pyramid",
                "Winner: Иван Петров (71:8)",
                "Replay-verified",
                "Luza Billiard Club",
                "Referee",
            ],
        ),
    ],
)
def test_the_html_scoresheet_in_each_language(lang: str, words: list[str], match_db: Path) -> None:
    doc = build(load(Store(match_db, readonly=True), 1))
    page = html.render(doc, lang)
    for w in words:
        assert w in page, w
    assert page.count('<tr class="foul">') == 1 and "@page" in page and "@media screen" in page
    assert "14.11.2026" in page and "15:00" in page  # the fixed clock, shown in UTC here
    assert "classic 5.5" in page and "+15" in page and "\u22125" in page


def test_the_pdf_text_has_the_cyrillic_names_the_final_score_and_the_winner(
    match_db: Path, tmp_path: Path
) -> None:
    out = tmp_path / "m.pdf"
    assert (
        main(
            [
                "export",
                "--db",
                str(match_db),
                "--match",
                "2",
                "--format",
                "pdf",
                "--lang",
                "ru",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    assert out.read_bytes().startswith(b"%PDF")
    txt = subprocess.run(
        ["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True, check=True
    ).stdout
    for w in (
        "Иван Петров",
        "Сергей Кузнецов",
        "Победитель: Иван Петров (52:0)",
        "Пирамидка 100 очков",
        "hundred 19",
    ):
        assert w in txt, (w, txt[:500])


def test_an_unfinished_match_exports_with_its_open_shot_marked_provisional(tmp_path: Path) -> None:
    clock = Clock()
    hub = open_hub(tmp_path / "luza.db", clock)
    try:
        t = Table(hub, clock)
        t.births()
        hub.new_match("t1", "classic", ("Анна", "Мария"))
        t.ref("lag", winner=1)
        t.wait(5000)
        t.shot(1, [2])
        t.ref("identify", item="pk-12/1/1", ball=7)
        t.ref("declare", ball=3, pocket=4)
        t.wait(1000)
        t.strike(1)
        t.wait(700)
        t.pot(4)  # the shot is still rolling when the export is made
        hub.wait_idle()
        doc = build(load(Store(tmp_path / "luza.db", readonly=True), 1))
    finally:
        hub.stop()
    assert doc["match"]["status"] == "live" and doc["result"]["status"] == "live"
    last = doc["shots"][-1]
    assert last["provisional"] is True and last["status"] == "provisional" and last["closed_ms"] is None
    assert last["score_after"] == [0, 10] and doc["result"]["provisional_scores"] == [0, 10]
    assert doc["result"]["scores"] == [0, 7] and doc["result"]["winner"] is None
    page = html.render(doc, "en")
    assert '<tr class="provisional">' in page and "Match not finished (0:10, provisional)" in page


def test_without_weasyprint_pdf_says_how_to_install_it(
    match_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # as if WeasyPrint were missing (a hand-made install)
    monkeypatch.setitem(sys.modules, "weasyprint", None)
    assert not pdf.available()
    out = tmp_path / "m.pdf"
    assert main(["export", "--db", str(match_db), "--match", "1", "--format", "pdf", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("luza export: PDF export needs WeasyPrint: pip install weasyprint")
        and err.count("\n") == 1
    )
    assert not out.exists()
