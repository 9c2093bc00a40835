"""`luza matches` (search and paging), `luza export --all` to a zip, the settings snapshot used by replay, the
`luza replay` node-offline false MISMATCH, and one-line errors for bad input."""

from __future__ import annotations

import dataclasses
import json
import zipfile
from pathlib import Path

import jsonschema
import pytest

from hub.cli import main
from hub.export.history import Query, QueryError, search
from hub.ingest.mqtt import RawMessage
from hub.service.rebuild import replay_match
from hub.store.database import Store
from hub.view.build import scoreboard
from luza_wire import protocol
from tests.export.conftest import played_db
from tests.export.matchkit import PLAYERS, Clock, Table, open_hub
from tests.export.test_json import ROOT


def ids(db: Path, **q: object) -> tuple[int, list[int]]:
    total, rows = search(Store(db, readonly=True), Query(**q))  # type: ignore[arg-type]
    return total, [r["id"] for r in rows]


def test_search_by_table_variant_player_dates_and_status_with_paging(match_db: Path) -> None:
    assert ids(match_db) == (2, [2, 1])  # newest first
    assert ids(match_db, variant="classic") == (1, [1])
    assert ids(match_db, player="ИВАН") == (2, [2, 1])  # any case, Cyrillic too
    assert ids(match_db, player="анна") == (0, [])
    assert ids(match_db, table="t2") == (0, [])
    assert ids(match_db, status="ended", limit=1) == (2, [2])
    assert ids(match_db, status="ended", limit=1, offset=1) == (2, [1])
    store = Store(match_db, readonly=True)
    first, second = (store.match(1), store.match(2))
    assert first is not None and second is not None
    assert ids(match_db, since_ms=second.started_ms) == (1, [2])
    assert ids(match_db, until_ms=second.started_ms) == (1, [1])
    row = search(store, Query(variant="hundred"))[1][0]
    assert row["players"] == list(PLAYERS) and row["scores"] == [52, 0] and row["winner"] == 0
    assert row["title"]["ru"].startswith("Пирамидка")
    with pytest.raises(QueryError, match="status"):
        search(store, Query(status="paused"))


def test_luza_matches_prints_the_history(match_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matches", "--db", str(match_db), "--player", "сергей", "--variant", "hundred"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 match(es); page 1") and "Иван Петров v Сергей Кузнецов  52:0  ended" in out
    assert main(["matches", "--db", str(match_db), "--json", "--limit", "1", "--page", "2"]) == 0
    page = json.loads(capsys.readouterr().out)
    assert page["total"] == 2 and [m["id"] for m in page["matches"]] == [1]


def test_export_all_since_a_day_writes_a_zip_of_every_match(match_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.zip"
    assert (
        main(
            [
                "export",
                "--db",
                str(match_db),
                "--all",
                "--since",
                "2026-11-14",
                "--format",
                "csv",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    with zipfile.ZipFile(out) as zf:
        assert sorted(zf.namelist()) == ["luza-match-1.csv", "luza-match-2.csv"]
    assert main(["export", "--db", str(match_db), "--all", "--since", "2026-11-16", "-o", str(out)]) == 0
    with zipfile.ZipFile(out) as zf:
        assert zf.namelist() == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["export", "--match", "99"], "luza export: no match 99 in "),
        (
            ["export", "--match", "1", "--format", "docx"],
            "luza export: unknown format 'docx'; one of json, csv, html, pdf",
        ),
        (["export", "--match", "1", "--lang", "de"], "luza export: unknown language 'de'; ru or en"),
        (
            ["export", "--match", "1", "-o", "/nonexistent/dir/m.json"],
            "luza export: cannot write /nonexistent/dir/m.json:",
        ),
        (
            ["export", "--all", "--since", "yesterday", "-o", "x.zip"],
            "luza export: --since: expected a date YYYY-MM-DD",
        ),
        (["export", "--all"], "luza export: --all writes a zip: give -o FILE.zip"),
        (["matches", "--status", "paused"], "luza matches: --status: one of live, ended, got 'paused'"),
        (["matches", "--limit", "0"], "luza matches: --limit: 1..500, got 0"),
    ],
)
def test_bad_input_gets_one_clear_line(
    argv: list[str], message: str, match_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--db", str(match_db)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1, err


def test_bad_files_get_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "not.json").write_text("{nope")
    (tmp_path / "other.json").write_text('{"format": "something-else"}')
    (tmp_path / "not.db").write_text("not a database at all, just text " * 50)
    cases = [
        (["verify", str(tmp_path / "missing.json")], "luza verify: no such file:"),
        (["verify", str(tmp_path / "not.json")], "luza verify: "),
        (["verify", str(tmp_path / "other.json")], "luza verify: not a luza-match-export file"),
        (["export", "--db", str(tmp_path / "none.db"), "--match", "1"], "luza export: no database at"),
        (["export", "--db", str(tmp_path / "not.db"), "--match", "1"], "luza export: "),
    ]
    for argv, message in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(message) and err.count("\n") == 1, err


def test_a_replay_after_the_config_changed_still_gives_the_stored_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = played_db(tmp_path / "luza.db", ("classic",))
    store = Store(db, readonly=True)
    match = store.match(1)
    assert match is not None and match.settings is not None
    assert match.settings["settle"]["roll_ms"] == 12000 and match.last_state is not None
    today = {"roll_ms": 300}  # a club shortens the settle time: balls falling 0.8 s after the stroke would
    #                           now be cut into shots of their own
    again = replay_match(store, match, today)
    assert scoreboard(again.session)["scores"] == match.last_state["scores"] == [71, 8]
    unsnapped = replay_match(store, dataclasses.replace(match, settings=None), today)
    assert scoreboard(unsnapped.session)["scores"] != [71, 8]  # what the snapshot protects against
    toml = tmp_path / "today.toml"
    toml.write_text("[settle]\nroll_ms = 300\n")
    assert main(["replay", str(db), "--match", "1", "--config", str(toml)]) == 0
    assert "verified: the re-derived state equals the stored state" in capsys.readouterr().out


def test_replay_verifies_a_match_whose_stored_state_has_a_node_offline_alert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = Clock()
    hub = open_hub(tmp_path / "luza.db", clock)
    try:
        t = Table(hub, clock)
        t.births()
        hub.new_match("t1", "classic", PLAYERS)
        t.ref("lag", winner=0)
        t.wait(3000)
        offline = protocol.encode_status("offline", 1, role="pocket")
        hub.feed(RawMessage("mqtt", protocol.topic("t1", "pk-34", "status"), offline, clock.ms))
        t.wait(3000)
        t.shot(0, [5])
        hub.wait_idle()
        assert any(a["kind"] == "node_offline" for a in hub.state("t1")["match"]["alerts"])
    finally:
        hub.stop()
    assert main(["replay", str(tmp_path / "luza.db"), "--match", "1"]) == 0
    assert "verified" in capsys.readouterr().out


def test_a_match_stored_before_schema_v2_migrates_replays_and_exports_without_a_snapshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    from hub.store import migrations
    from hub.vocab.inputs import input_to_record, parse_referee_action

    db = tmp_path / "old.db"
    conn = sqlite3.connect(db)
    conn.executescript(migrations.MIGRATIONS[0] + "\nPRAGMA user_version = 1;")
    conn.execute("INSERT INTO tables(id, name, created_ms) VALUES ('t1', 'Table 1', 0)")
    conn.execute(
        "INSERT INTO matches(table_id, variant, players, options, status, started_ms) "
        "VALUES ('t1', 'free', '[\"A\", \"B\"]', '{}', 'live', 1000)"
    )
    lag = input_to_record(parse_referee_action({"kind": "lag", "winner": 1}, 2000))
    conn.execute(
        "INSERT INTO inputs(table_id, match_id, source, at_ms, received_ms, record) "
        "VALUES ('t1', 1, 'referee', 2000, 2000, ?)",
        (json.dumps(lag),),
    )
    conn.commit()
    conn.close()
    Store(db).close()  # a hub opening it migrates to the latest schema
    store = Store(db, readonly=True)
    match = store.match(1)
    assert match is not None and match.settings is None
    assert replay_match(store, match, {}).inputs == 1
    out = tmp_path / "old.json"
    assert main(["export", "--db", str(db), "--match", "1", "-o", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["settings"] is None and doc["match"]["table"]["name"] == "Table 1"
    jsonschema.validate(doc, json.loads((ROOT / "docs" / "match-export.schema.json").read_text()))
    assert doc["result"]["scores"] == [0, 0] and doc["actions"][0]["kind"] == "lag"
    capsys.readouterr()
    assert main(["verify", str(out)]) == 0


def test_the_database_can_be_named_by_the_hubs_config(
    match_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toml = tmp_path / "luza.toml"
    toml.write_text(f'[store]\npath = "{match_db}"\n')
    assert main(["matches", "--config", str(toml), "--variant", "classic"]) == 0
    assert capsys.readouterr().out.startswith("1 match(es)")
    assert main(["matches", "--config", str(tmp_path / "none.toml")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("luza matches: ") and "cannot read config" in err and err.count("\n") == 1
