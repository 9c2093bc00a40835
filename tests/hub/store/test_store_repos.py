"""The store's repositories (hub/store/: pins, files, history, suspects, gaps, Store.table_name) on real
SQLite files: what each keeps and reads back, and the edge cases their callers rely on."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from hub.store import files, gaps, history, migrations, suspects
from hub.store.database import Store
from hub.store.pins import PinRow, Pins


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path / "luza.db")
    with s.transaction():
        s.ensure_table("t1", "Стол 1", 1)
        s.ensure_table("t2", "Table 2", 1)
    return s


def _pin(set_ms: int, salt: bytes = b"s" * 16) -> PinRow:
    return PinRow(salt, b"h" * 32, 2**14, 8, 1, set_ms)


# ------------------------------------------------------------ pins


def test_a_pin_is_kept_per_table_and_replaced_by_the_next(store: Store) -> None:
    pins = Pins(store.path)
    assert pins.get("t1") is None
    pins.set("t1", _pin(100))
    pins.set("t1", _pin(200, b"x" * 16))
    pins.set("*club", _pin(300))
    assert pins.get("t1") == _pin(200, b"x" * 16)
    assert pins.get("*club") == _pin(300) and pins.get("t2") is None


def test_pins_bring_an_older_database_up_to_date(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:
        for n in range(6):  # schema v6: before `pins`
            conn.executescript(f"BEGIN;\n{migrations.MIGRATIONS[n]}\nPRAGMA user_version = {n + 1};\nCOMMIT;")
    Pins(db).set("t1", _pin(5))
    with sqlite3.connect(db) as conn:
        assert migrations.version(conn) == migrations.LATEST
    assert Pins(db).get("t1") == _pin(5)


def test_a_device_counts_only_under_the_pin_it_signed_in_with(store: Store) -> None:
    pins = Pins(store.path)
    pins.remember_device("t1", "dev-a", 10, keep=5)  # no PIN yet: nothing to sign in under
    assert not pins.is_device("t1", "dev-a")
    pins.set("t1", _pin(100))
    pins.remember_device("t1", "dev-a", 110, keep=5)
    assert pins.is_device("t1", "dev-a") and not pins.is_device("t2", "dev-a")
    pins.set("t1", _pin(200))  # a new PIN forgets every device
    assert not pins.is_device("t1", "dev-a")
    pins.remember_device("t1", "dev-a", 210, keep=5)
    pins.forget_device("t1", "dev-a")
    assert not pins.is_device("t1", "dev-a")


def test_only_the_most_recently_used_devices_are_kept(store: Store) -> None:
    pins = Pins(store.path)
    pins.set("t1", _pin(100))
    for i in range(4):
        pins.remember_device("t1", f"dev-{i}", 1000 + i, keep=3)
    pins.remember_device("t1", "dev-1", 2000, keep=3)  # used again: stays
    pins.remember_device("t1", "dev-9", 3000, keep=3)
    assert [pins.is_device("t1", f"dev-{i}") for i in (0, 1, 2, 3, 9)] == [False, True, False, True, True]


# ------------------------------------------------------------ files


def _fill(store: Store) -> None:
    with store.transaction():
        m = store.new_match("t1", "free", ["A", "B"], {}, 5_000)
        store.append_sensor("t1", m, "mqtt", ("p1", 1, 1), 7_000, 7_500, {"kind": "pocket"})
        store.append_action("t1", m, 8_000, 8_100, {"kind": "undo"})
        store.end_match(m, 9_000)


def test_a_summary_says_what_a_luza_database_holds(store: Store) -> None:
    _fill(store)
    held = files.summary(Path(store.path))
    assert held.integrity == "ok" and {"inputs", "matches", "pins"} <= held.tables
    assert (held.schema, held.matches, held.inputs) == (migrations.LATEST, 1, 2)


def test_a_summary_of_other_files(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (x)")
    held = files.summary(other)
    assert (
        held.integrity == "ok" and held.tables == {"notes"} and held.matches is None and held.inputs is None
    )
    text = tmp_path / "text.db"
    text.write_bytes(b"this is not a database at all, just text" * 100)
    with pytest.raises(sqlite3.DatabaseError):
        files.summary(text)


def test_a_snapshot_is_one_single_file_copy_while_the_writer_keeps_its_transaction(
    store: Store, tmp_path: Path
) -> None:
    _fill(store)
    with store.transaction():  # an uncommitted write is not in the copy
        store.append_action("t1", None, 9_500, 9_500, {"kind": "undo"})
        files.snapshot(Path(store.path), tmp_path / "copy.db")
    held = files.summary(tmp_path / "copy.db")
    assert (held.matches, held.inputs) == (1, 2)
    with sqlite3.connect(tmp_path / "copy.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_the_latest_time_a_file_kept(store: Store, tmp_path: Path) -> None:
    assert files.latest_ms(tmp_path / "missing.db") == 0
    assert files.latest_ms(Path(store.path)) == 0
    _fill(store)
    assert files.latest_ms(Path(store.path)) == 9_000  # the match's end
    with store.transaction():
        store.save_high_water(50_000)
    assert files.latest_ms(Path(store.path)) == 50_000
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"x" * 5000)
    assert files.latest_ms(junk) == 0


# ------------------------------------------------------------ history and tables


def _matches(store: Store) -> list[int]:
    with store.transaction():
        a = store.new_match("t1", "free", ["Иван Петров", "Anna"], {}, 1_000)
        store.save_state(a, {"scores": [71, 8], "winner": 0, "provisional": False})
        store.end_match(a, 2_000)
        b = store.new_match("t2", "classic", ["Ivan Kuznetsov", "Олег"], {}, 3_000)
        store.save_state(b, {"scores": [1, 0], "provisional": True})
        c = store.new_match("t1", "classic", ["Пётр", "Anna"], {}, 5_000)
    return [a, b, c]


def _ids(result: tuple[int, list[history.MatchLine]]) -> tuple[int, list[int]]:
    return result[0], [m.id for m in result[1]]


def test_the_history_filters_and_pages_newest_first(store: Store) -> None:
    a, b, c = _matches(store)
    everything = history.MatchFilter()
    assert _ids(history.search(store, everything, 50, 0)) == (3, [c, b, a])
    assert _ids(history.search(store, everything, 1, 1)) == (3, [b])
    assert _ids(history.search(store, history.MatchFilter(table="t1"), 50, 0)) == (2, [c, a])
    assert _ids(history.search(store, history.MatchFilter(variant="classic", status="live"), 50, 0)) == (
        2,
        [c, b],
    )
    assert _ids(history.search(store, history.MatchFilter(since_ms=1_000, until_ms=5_000), 50, 0)) == (
        2,
        [b, a],
    )
    assert _ids(history.search(store, history.MatchFilter(status="ended", table="t2"), 50, 0)) == (0, [])


def test_the_history_finds_a_player_in_either_alphabet(store: Store) -> None:
    a, b, c = _matches(store)
    for query, want in (
        ("ivan", [b, a]),
        ("ИВАН", [b, a]),
        ("петров", [a]),
        ("oleg", [b]),
        ("anna", [c, a]),
        ("sidorov", []),
    ):
        assert _ids(history.search(store, history.MatchFilter(player=query), 50, 0))[1] == want, query


def test_a_history_line_carries_the_last_stored_result(store: Store) -> None:
    a, b, c = _matches(store)
    lines = {m.id: m for m in history.search(store, history.MatchFilter(), 50, 0)[1]}
    assert lines[a] == history.MatchLine(
        a, "t1", "free", ["Иван Петров", "Anna"], "ended", 1_000, 2_000, [71, 8], 0, False
    )
    assert lines[b].scores == [1, 0] and lines[b].winner is None and lines[b].provisional is True
    assert lines[c].scores is None and lines[c].ended_ms is None


def test_a_table_name_is_read_back(store: Store) -> None:
    assert store.table_name("t1") == "Стол 1" and store.table_name("t9") is None


# ------------------------------------------------------------ suspects


def _sensor(store: Store, match: int | None, seq: int, record: dict[str, Any], device: str = "p1") -> None:
    store.append_sensor("t1", match, "mqtt", (device, 1, seq), seq * 10, seq * 10 + 3, record)


def test_suspects_are_the_flagged_inputs_of_one_match(store: Store) -> None:
    with store.transaction():
        m = store.new_match("t1", "free", ["A", "B"], {}, 0)
        other = store.new_match("t2", "free", ["C", "D"], {}, 0)
        _sensor(store, m, 1, {"kind": "pocket", "fields": {"pocket": 2}})
        _sensor(store, m, 2, {"kind": "pocket", "fields": {"pocket": 4}, "suspect": "future"})
        _sensor(store, m, 3, {"kind": "beam", "fields": {}, "suspect": "before_match"})
        _sensor(store, m, 4, {"kind": "pocket", "fields": {"pocket": "x"}, "suspect": "future"})
        _sensor(store, other, 5, {"kind": "pocket", "fields": {"pocket": 1}, "suspect": "future"})
    assert suspects.flagged(store, m) == [
        suspects.Flagged("p1", 1, 2, "future"),
        suspects.Flagged("p1", 1, 3, "before_match"),
        suspects.Flagged("p1", 1, 4, "future"),
    ]
    assert suspects.pockets(store, m) == [
        suspects.SuspectPocket("p1", 1, 2, 23, 4, "future"),
        suspects.SuspectPocket("p1", 1, 4, 43, "x", "future"),
    ]
    assert suspects.flagged(store, 999) == [] and suspects.pockets(store, 999) == []


# ------------------------------------------------------------ gaps: gone ranges and stored seqs


def test_gone_ranges_are_kept_once(store: Store) -> None:
    with store.transaction():
        gaps.record_gone(store, "p1", 1, 5, 7, 100)
        gaps.record_gone(store, "p1", 1, 5, 7, 200)  # the same answer again
        gaps.record_gone(store, "p1", 1, 2, 3, 300)
        gaps.record_gone(store, "p2", 4, 9, 9, 300)
    assert gaps.gone(store) == {("p1", 1): [(2, 3), (5, 7)], ("p2", 4): [(9, 9)]}


def test_stored_seqs_above_a_mark(store: Store) -> None:
    with store.transaction():
        for seq in (1, 2, 4, 5, 9):
            _sensor(store, None, seq, {"kind": "beam"})
        _sensor(store, None, 3, {"kind": "beam"}, device="p2")
    assert gaps.seqs_above(store, "p1", 1, 0, 10) == [1, 2, 4, 5, 9]
    assert gaps.seqs_above(store, "p1", 1, 2, 2) == [4, 5]
    assert gaps.seqs_above(store, "p1", 2, 0, 10) == []
    assert gaps.first_above(store, "p1", 1, 2) == 4 and gaps.first_above(store, "p1", 1, 9) is None
    assert gaps.first_above(store, "p2", 1, 0) == 3
