"""Damage stays local (issue 12, item 5): a match with a stored row that cannot be read is set aside
(quarantined) — its table shows an alert and can start a new match, the other tables run."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from hub import configfile
from hub.service.hub import Hub
from tests.hub.conftest import TABLES

PLAYERS = ["Ivan", "Petr"]


def make_hub(db: Path) -> Hub:
    return Hub(configfile.parse({"store": {"path": str(db)}, "tables": TABLES}), mqtt=False).start()


def play_both_tables(db: Path) -> dict[str, int]:
    hub = make_hub(db)
    try:
        ids = {t: hub.new_match(t, "free", ("Ivan", "Petr"))["match_id"] for t in ("t1", "t2")}
        for t in ids:
            hub.submit(t, {"kind": "lag", "winner": 0})
            hub.submit(t, {"kind": "open_shot"})
        return ids
    finally:
        hub.stop()


def damage(db: Path, sql: str, *args: object) -> None:
    """Write over a stored row as a failing disk or a stray editor would
    (the append-only trigger set aside)."""
    conn = sqlite3.connect(db, isolation_level=None)
    trigger = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'inputs_no_update'").fetchone()[0]
    conn.execute("DROP TRIGGER inputs_no_update")
    conn.execute(sql, args)
    conn.execute(trigger)
    conn.close()


def test_an_unreadable_input_row_sets_its_match_aside_and_the_other_table_runs(tmp_path: Path) -> None:
    db = tmp_path / "luza.db"
    ids = play_both_tables(db)
    damage(
        db,
        'UPDATE inputs SET record = \'{"type": "referee", "ki\' WHERE id = '
        "(SELECT max(id) FROM inputs WHERE match_id = ?)",
        ids["t1"],
    )
    hub = make_hub(db)  # the old hub did not start at all
    try:
        t1, t2 = hub.state("t1"), hub.state("t2")
        assert t1["match"] is None and [a["kind"] for a in t1["alerts"]] == ["match_quarantined"]
        alert = t1["alerts"][0]
        assert (
            alert["match_id"] == ids["t1"] and alert["en"] and alert["ru"] and "not JSON" in alert["reason"]
        )
        assert t2["match"]["match_id"] == ids["t2"] and t2["alerts"] == []
        hub.submit("t2", {"kind": "close_shot"})  # the other table plays on
        fresh = hub.new_match("t1", "free", ("Ivan", "Petr"))  # the damaged table starts again
        assert fresh["match_id"] > ids["t2"] and fresh["alerts"] == []
    finally:
        hub.stop()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT status FROM matches WHERE id = ?", (ids["t1"],)).fetchone() == ("ended",)
        assert conn.execute("SELECT match_id FROM quarantine").fetchall() == [(ids["t1"],)]
    hub = make_hub(db)  # and after another restart: the new match is live, the old one stays aside
    try:
        assert hub.state("t1")["match"]["match_id"] == fresh["match_id"] and hub.state("t1")["alerts"] == []
    finally:
        hub.stop()


def test_an_unreadable_match_row_is_set_aside_too(tmp_path: Path) -> None:
    db = tmp_path / "luza.db"
    ids = play_both_tables(db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE matches SET players = '[\"Ivan\", ' WHERE id = ?", (ids["t2"],))
    hub = make_hub(db)
    try:
        assert hub.state("t2")["match"] is None and hub.state("t2")["alerts"][0]["cursor"] is None
        assert hub.state("t1")["match"]["match_id"] == ids["t1"]
    finally:
        hub.stop()


def test_luza_replay_of_a_set_aside_match_lists_the_damaged_row(tmp_path: Path) -> None:
    from hub.service.rebuild import replay_match
    from hub.store.database import Store

    db = tmp_path / "luza.db"
    ids = play_both_tables(db)
    damage(
        db,
        "UPDATE inputs SET record = 'garbage' WHERE id = (SELECT max(id) FROM inputs WHERE match_id = ?)",
        ids["t1"],
    )
    store = Store(db, readonly=True)
    try:
        match = store.match(ids["t1"])
        assert match is not None
        replay = replay_match(store, match, {})
        assert len(replay.unreadable) == 1 and replay.refused[0][1].startswith("unreadable record")
    finally:
        store.close()
