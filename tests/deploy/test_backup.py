"""Nightly backups: an online backup of a database the hub is writing, restored,
replays to the same result."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import pytest

from hub import configfile
from hub.cli import main
from hub.deploy.backup import BackupError, backup, backups, check
from hub.ingest.mqtt import RawMessage
from hub.service.hub import Hub
from luza_wire import protocol

T0 = 1_800_000_000_000
TABLES = [
    {
        "id": "t1",
        "pockets": {"pockets-123": [1, 2, 3], "pockets-456": [4, 5, 6]},
        "cues": {"cue-a": 0, "cue-b": 1},
    }
]


def shots(hub: Hub, stop: threading.Event, clock: list[int]) -> None:
    """Player a strikes and pots into pocket 1..3 every 5 s (hub time) until told to stop: a long break."""
    seq = 0
    while not stop.is_set():
        clock[0] += 5000
        t = clock[0]
        seq += 1
        hub.feed(
            RawMessage(
                "mqtt",
                protocol.topic("t1", "cue-a", "evt"),
                protocol.encode_event("strike", "cue-a", 1, seq, t - 4000, pk=8.0),
                t,
            )
        )
        hub.feed(
            RawMessage(
                "mqtt",
                protocol.topic("t1", "pockets-123", "evt"),
                protocol.encode_event(
                    "pocket", "pockets-123", 1, seq, t - 3000, p=1 + seq % 3, dur=40, c="ivory", cf=0.9
                ),
                t,
            )
        )
        hub.wait_idle(5)


def replay(db: Path, match: int, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["replay", str(db), "--match", str(match), "--json"])
    return code, capsys.readouterr().out


def test_backup_of_a_live_database_restores_to_the_same_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "luza.db"
    cfg = configfile.parse({"store": {"path": str(db)}, "tables": TABLES})
    clock = [T0]
    hub = Hub(cfg, clock=lambda: clock[0], mqtt=False).start()
    stop = threading.Event()
    writer = threading.Thread(target=shots, args=(hub, stop, clock))
    try:
        match = hub.new_match("t1", "free", ("Ivan", "Petr"))["match_id"]
        hub.submit("t1", {"kind": "lag", "winner": 0})
        writer.start()
        deadline = threading.Event()
        while hub.stats["accepted"] < 10 and not deadline.wait(0.01):
            pass
        assert main(["backup", "--db", str(db), "--dir", str(tmp_path / "backups")]) == 0  # while it writes
        written_at_backup = hub.stats["accepted"]
        while hub.stats["accepted"] < written_at_backup + 6 and not deadline.wait(0.01):
            pass
    finally:
        stop.set()
        if writer.is_alive():
            writer.join(10)
        hub.stop()
    capsys.readouterr()
    [saved] = backups(tmp_path / "backups")
    held = check(saved)
    with sqlite3.connect(db) as live:
        total = live.execute("SELECT count(*) FROM inputs").fetchone()[0]
    assert 10 <= held.inputs < total  # a snapshot from the middle of the writing
    restored = tmp_path / "restored" / "luza.db"
    assert main(["restore", str(saved), "--db", str(restored)]) == 0
    assert f"{held.inputs} inputs" in capsys.readouterr().out
    out_backup, out_restored = replay(saved, match, capsys), replay(restored, match, capsys)
    assert out_backup == out_restored
    assert out_restored[0] == 0 and "verified" in out_restored[1]
    board = json.loads(out_restored[1][out_restored[1].index("{") : out_restored[1].rindex("}") + 1])
    assert board["scores"][0] >= 3 and hub.stats["rejected"] == 0  # balls were potted before the backup


def test_rotation_keeps_the_newest(tmp_path: Path) -> None:
    db = tmp_path / "luza.db"
    with sqlite3.connect(db) as c:
        c.execute("CREATE TABLE inputs (id INTEGER)")
        c.execute("CREATE TABLE matches (id INTEGER)")
    made = [backup(db, tmp_path / "b", keep=3, now=T0 / 1000 + 86400 * i) for i in range(5)]
    assert backups(tmp_path / "b") == made[2:]
    assert not list((tmp_path / "b").glob("*.partial"))


def test_restore_refuses_what_is_not_a_sound_backup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    live = tmp_path / "luza.db"
    live.write_bytes(b"keep me")
    assert main(["restore", str(junk), "--db", str(live)]) == 2  # bad input (docs/hub.md); main said 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a readable SQLite database" in err
    assert live.read_bytes() == b"keep me"
    assert main(["restore", str(tmp_path / "none.db"), "--db", str(live)]) == 2
    assert "no such file" in capsys.readouterr().err
    with pytest.raises(BackupError, match="no database to back up"):
        backup(tmp_path / "missing.db", tmp_path / "b")
    assert main(["backup", "--dir", str(tmp_path)]) == 2
    assert "--config" in capsys.readouterr().err
