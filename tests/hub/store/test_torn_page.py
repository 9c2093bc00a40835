"""Damage stays where it is (issue 18, item 4): a torn page of the hub's SQLite file, written over on disk
while the hub is down, is found by the start-up check (hub.store.integrity) and rebuilt as far as it can be;
the hub starts and scores, says what it did, and a match it cannot read is set aside. Real pages of a real
file are torn (tests/support/pages.py); exports of a damaged match: tests/web/test_torn_export.py."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

from hub.service.hub import Hub
from tests.hub.store.test_damage import make_hub, play_both_tables
from tests.support import pages

LUZA = [sys.executable, "-m", "hub.cli"]


def count(db: Path, sql: str) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return int(conn.execute(sql).fetchone()[0])


def store_alerts(hub: Hub, table: str) -> list[dict[str, object]]:
    return [a for a in hub.state(table)["alerts"] if str(a["kind"]).startswith("store_")]


def test_a_torn_index_page_of_an_empty_table_is_rebuilt_and_the_hub_scores(tmp_path: Path) -> None:
    db = tmp_path / "luza.db"
    ids = play_both_tables(db)
    rows = count(db, "SELECT count(*) FROM inputs")
    assert count(db, "SELECT count(*) FROM conflicts") == 0  # the index of an empty table
    pages.tear(db, pages.root_page(db, "conflicts_by_match"))
    assert pages.quick_check(db) != ["ok"]
    hub = make_hub(db)  # today's main: "database disk image is malformed", the hub does not start
    try:
        (alert,) = store_alerts(hub, "t1")
        assert (
            alert["kind"] == "store_repaired"
            and alert["action"] == "rebuilt"
            and alert["severity"] == "warning"
        )
        assert "fresh file" in str(alert["en"]) and "новый файл" in str(alert["ru"])
        kept = Path(str(alert["kept"]))
        assert kept.parent == tmp_path and kept.name.startswith("luza.db.damaged-")
        assert store_alerts(hub, "t2") == [alert]  # on every table
        assert (
            hub.state("t1")["match"]["match_id"] == ids["t1"]
            and hub.state("t2")["match"]["match_id"] == ids["t2"]
        )
        hub.submit("t1", {"kind": "close_shot"})  # it scores on
        hub.submit("t2", {"kind": "close_shot"})
    finally:
        hub.stop()
    # the damaged file kept as it was
    assert pages.quick_check(db) == ["ok"] and pages.quick_check(kept) != ["ok"]
    assert count(db, "SELECT count(*) FROM inputs") == rows + 2
    assert not Path(f"{db}.rebuilding").exists()
    hub = make_hub(db)  # whole now: no alert on the next start
    try:
        assert store_alerts(hub, "t1") == [] and hub.state("t1")["match"]["match_id"] == ids["t1"]
    finally:
        hub.stop()


def test_an_index_page_with_a_torn_header_is_reindexed_in_place(tmp_path: Path) -> None:
    db = tmp_path / "luza.db"
    ids = play_both_tables(db)
    pages.miscount(db, pages.root_page(db, "inputs_by_match"))  # an index with entries: its header disagrees
    assert "Fragmentation" in pages.quick_check(db)[0]
    hub = make_hub(db)
    try:
        (alert,) = store_alerts(hub, "t2")
        assert (
            alert["action"] == "reindexed"
            and alert["kept"] is None
            and "nothing was lost" in str(alert["en"])
        )
        assert hub.state("t2")["match"]["match_id"] == ids["t2"]
        hub.submit("t2", {"kind": "close_shot"})
    finally:
        hub.stop()
    assert pages.quick_check(db) == ["ok"] and list(tmp_path.glob("luza.db.damaged-*")) == []


def old_match_and_live_ones(db: Path) -> tuple[int, dict[str, int]]:
    """Table t1's first match, long enough to fill pages of its own and ended;
    then a live match on each table."""
    hub = make_hub(db)
    try:
        old = int(hub.new_match("t1", "free", ("Old", "Match"))["match_id"])
        hub.submit("t1", {"kind": "lag", "winner": 0})
        for _ in range(60):
            hub.submit("t1", {"kind": "open_shot"})
            hub.submit("t1", {"kind": "close_shot"})
        hub.submit("t1", {"kind": "end_match"})
        live = {t: int(hub.new_match(t, "free", ("Ivan", "Petr"))["match_id"]) for t in ("t1", "t2")}
        for t in live:
            hub.submit(t, {"kind": "lag", "winner": 0})
    finally:
        hub.stop()
    return old, live


def tear_old_match(db: Path, old: int) -> None:
    first = pages.leaf_pages(db, "inputs")[0]  # the oldest rows: the old match's alone
    assert count(db, f"SELECT min(id) FROM inputs WHERE match_id <> {old}") > 100
    pages.tear(db, first)


def test_a_torn_page_of_an_old_matchs_rows_sets_that_match_aside_and_the_tables_play(tmp_path: Path) -> None:
    db = tmp_path / "luza.db"
    old, live = old_match_and_live_ones(db)
    tear_old_match(db, old)
    hub = make_hub(db)
    try:
        (alert,) = store_alerts(hub, "t1")
        assert (
            alert["kind"] == "store_damaged" and alert["action"] == "damaged" and alert["set_aside"] == [old]
        )
        assert "restore a backup" in str(alert["en"]) and "резервную копию" in str(alert["ru"])
        for t, match_id in live.items():
            assert hub.state(t)["match"]["match_id"] == match_id
            hub.submit(t, {"kind": "open_shot"})
            hub.submit(t, {"kind": "close_shot"})
    finally:
        hub.stop()
    with sqlite3.connect(db) as conn:
        assert [m for (m,) in conn.execute("SELECT match_id FROM quarantine")] == [old]
        assert conn.execute("SELECT status FROM matches WHERE id = ?", (old,)).fetchone() == ("ended",)


def test_luza_export_of_a_torn_match_is_one_line_and_the_zip_lists_it(tmp_path: Path) -> None:
    db = tmp_path / "luza.db"
    old, live = old_match_and_live_ones(db)
    tear_old_match(db, old)
    one = subprocess.run(
        [*LUZA, "export", "--db", str(db), "--match", str(old)], capture_output=True, text=True, timeout=60
    )
    assert one.returncode == 2 and "Traceback" not in one.stderr and len(one.stderr.strip().splitlines()) == 1
    assert f"match {old} cannot be exported" in one.stderr and "damaged page" in one.stderr
    out = tmp_path / "all.zip"
    many = subprocess.run(
        [*LUZA, "export", "--db", str(db), "--all", "--lang", "en", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert many.returncode == 1 and "Traceback" not in many.stderr, many.stderr
    assert f"could not be read and are listed in luza-skipped.txt in the zip: {old} " in many.stderr
    with zipfile.ZipFile(out) as zf:
        names = set(zf.namelist())
        assert names == {f"luza-match-{i}.json" for i in live.values()} | {"luza-skipped.txt"}
        skipped = zf.read("luza-skipped.txt").decode()
    assert (
        skipped.startswith("These matches could not be read")
        and f"match {old}: match {old} cannot be" in skipped
    )
