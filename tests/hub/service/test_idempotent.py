"""Idempotent referee actions (issue 12, item 3): a uid is applied once per table, across restarts, and a
re-sent action gets the first answer; `luza referee` and the demo referee give every
action a uid and re-send it."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from hub import configfile
from hub.cli import main
from hub.demo.terminal import TABLE, LocalReferee
from hub.service.control import ControlServer, send
from hub.service.hub import Hub
from hub.store import migrations
from hub.vocab.checks import RefereeInputError
from tests.hub.conftest import TABLES
from tests.hub.service.test_control import sock_dir  # noqa: F401  (fixture)
from tests.hub.service.test_service import PLAYERS, wait_for

START = {"kind": "new_match", "variant": "free", "players": list(PLAYERS), "uid": "start-1"}


def make_hub(db: Path, tables: list[dict[str, Any]] = TABLES) -> Hub:
    return Hub(configfile.parse({"store": {"path": str(db)}, "tables": tables}), mqtt=False).start()


def referee_rows(db: Path) -> list[tuple[str, str | None]]:
    with sqlite3.connect(db) as conn:
        return [
            (json.loads(r)["kind"], json.loads(r).get("uid"))
            for (r,) in conn.execute("SELECT record FROM inputs WHERE source = 'referee' ORDER BY id")
        ]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "luza.db"


def test_a_resent_action_is_stored_once_and_answered_with_the_first_result_across_a_restart(db: Path) -> None:
    hub = make_hub(db)
    first = hub.submit("t1", START)
    lag = hub.submit("t1", {"kind": "lag", "winner": 0, "uid": "lag-1"})
    hub.stop()
    hub = make_hub(db)
    try:
        # a new match with the same uid after a restart: the same match, no refusal
        again = hub.submit("t1", START)
        assert again["match_id"] == first["match_id"] and again["replayed"] is True
        lag_again = hub.submit("t1", {"kind": "lag", "winner": 0, "uid": "lag-1"})
        assert lag_again["cursor"] == lag["cursor"] and lag_again["replayed"] is True
        assert hub.state("t1")["cursor"] == lag["cursor"]  # nothing new stored
        with pytest.raises(RefereeInputError) as refused:
            hub.submit("t1", {"kind": "lag", "winner": 1, "uid": "lag-2"})  # refused: the lag is decided
        with pytest.raises(RefereeInputError) as refused_again:
            hub.submit("t1", {"kind": "lag", "winner": 1, "uid": "lag-2"})
        assert (refused_again.value.en, refused_again.value.code) == (refused.value.en, refused.value.code)
        hub.submit("t2", {**START, "players": ["A", "B"]})  # the uid is per table: t2 may use it too
    finally:
        hub.stop()
    assert referee_rows(db) == [("new_match", "start-1"), ("lag", "lag-1"), ("new_match", "start-1")]


def test_the_same_uid_twice_in_one_batch_is_applied_once(db: Path) -> None:
    hub = make_hub(db)
    try:
        hub.submit("t1", START)
        futures = [hub.submit_async("t1", {"kind": "lag", "winner": 1, "uid": "f-1"}) for _ in range(5)]
        answers = [f.result(10) for f in futures]
        assert [a.get("replayed", False) for a in answers] == [False, True, True, True, True]
        assert len({a["cursor"] for a in answers}) == 1
    finally:
        hub.stop()
    assert [k for k, _ in referee_rows(db)] == ["new_match", "lag"]


def test_migration_3_keeps_the_uids_already_stored(db: Path) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    for n in range(2):  # a database made by a hub of schema v2
        conn.executescript(f"BEGIN;\n{migrations.MIGRATIONS[n]}\nPRAGMA user_version = {n + 1};\nCOMMIT;")
    conn.execute("INSERT INTO tables VALUES ('t1', 'T', 0)")
    conn.execute(
        "INSERT INTO matches(id, table_id, variant, players, options, status, started_ms) "
        "VALUES (1, 't1', 'free', '[\"A\",\"B\"]', '{}', 'live', 0)"
    )
    conn.execute(
        "INSERT INTO inputs(table_id, match_id, source, at_ms, received_ms, record) VALUES "
        '(\'t1\', 1, \'referee\', 5, 5, \'{"type":"referee","kind":"lag","args":{"winner":0},'
        '"at_ms":5,"uid":"old-1"}\')'
    )
    conn.close()
    hub = make_hub(db)
    try:
        assert hub.submit("t1", {"kind": "lag", "winner": 0, "uid": "old-1"})["replayed"] is True
    finally:
        hub.stop()
    assert referee_rows(db) == [("lag", "old-1")]


class Locked:
    """Another connection holds the database's write lock, so the hub's commit waits (a slow commit)."""

    def __init__(self, db: Path) -> None:
        self.conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        self.conn.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.conn.execute("ROLLBACK")
        self.conn.close()


def test_luza_referee_resends_a_slow_action_with_the_same_uid_and_it_counts_once(
    db: Path,
    sock_dir: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    hub = make_hub(db)
    server = ControlServer(hub, sock_dir / "ctl.sock", submit_timeout=0.3).start()
    try:
        send(server.path, "t1", START)
        hub.submit("t1", {"kind": "lag", "winner": 0})
        lock = Locked(db)
        codes: list[int] = []
        sender = threading.Thread(
            target=lambda: codes.append(
                main(
                    [
                        "referee",
                        "--control",
                        str(server.path),
                        "--table",
                        "t1",
                        "--retries",
                        "20",
                        '{"kind": "open_shot"}',
                    ]
                )
            )
        )
        sender.start()
        wait_for(lambda: server.stats["errors"] >= 2, 30)  # the hub answered "not in time" twice: re-sent
        lock.release()
        sender.join(60)
        assert codes == [0]
        answer = json.loads(capsys.readouterr().out)
        assert answer["ok"] is True and answer["replayed"] is True
    finally:
        server.stop()
        hub.stop()
    rows = referee_rows(db)
    assert [k for k, _ in rows] == ["new_match", "lag", "open_shot"]
    assert rows[-1][1] is not None and rows[-1][1].startswith("cli-")


def test_the_demo_referee_gives_each_action_a_uid(db: Path) -> None:
    hub = make_hub(db, [{**TABLES[0], "id": TABLE}])
    try:
        hub.submit(TABLE, {k: v for k, v in START.items() if k != "uid"})
        ref = LocalReferee(hub)
        ref.act({"kind": "lag", "winner": 0})
        ref.act({"kind": "open_shot"})
    finally:
        hub.stop()
    uids = [u for _, u in referee_rows(db)[1:]]
    assert all(u and u.startswith("demo-") for u in uids) and len(set(uids)) == 2
