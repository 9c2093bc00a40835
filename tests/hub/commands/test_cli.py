"""The hub's commands: `luza devices`, `luza replay` (verifies, and catches a mismatch),
`luza serve` config errors."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from hub import config
from hub.cli import main
from hub.service.hub import Hub
from tests.hub.nodes import Node
from tests.hub.service.test_service import wait_for
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto


def test_devices_lists_the_registry(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub], capsys: pytest.CaptureFixture[str]
) -> None:
    hub = hubs(cfg)
    node = Node(mosquitto.port, "t1", "p-mid", "pocket", boot=2, fw="9.9")
    node.tele(bat=3.71, rssi=-58, ob=0)
    node.raw("evt", b"junk")
    wait_for(lambda: hub.stats["rejected"] == 1 and hub.stats["updates"] >= 2)
    node.close()
    hub.stop()
    assert main(["devices", "--db", cfg.store.path]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.startswith("p-mid"))
    for text in ("t1", "pocket", "9.9", "3.71 V", "-58 dBm", "malformed:1"):
        assert text in line, line
    assert main(["devices", "--db", cfg.store.path, "--json"]) == 0
    rows = {d["id"]: d for d in json.loads(capsys.readouterr().out)}
    assert rows["p-mid"]["boot"] == 2 and rows["p-mid"]["rejected"] == {"malformed": 1}


def test_replay_verifies_and_catches_a_tampered_state(
    cfg: config.Config, hubs: Callable[..., Hub], capsys: pytest.CaptureFixture[str]
) -> None:
    hub = hubs(cfg)
    match_id = hub.new_match("t1", "free", ("Ivan", "Petr"))["match_id"]
    hub.submit("t1", {"kind": "lag", "winner": 1})
    hub.stop()
    assert main(["replay", cfg.store.path, "--match", str(match_id)]) == 0
    assert "verified" in capsys.readouterr().out
    with sqlite3.connect(cfg.store.path) as db:  # someone edits the stored state behind the hub's back
        state = json.loads(db.execute("SELECT last_state FROM matches").fetchone()[0])
        state["to_play"] = 1 - state["to_play"]
        db.execute("UPDATE matches SET last_state = ?", (json.dumps(state),))
    assert main(["replay", cfg.store.path, "--match", str(match_id)]) == 1
    assert "MISMATCH" in capsys.readouterr().out
    assert main(["replay", cfg.store.path, "--match", "99"]) == 2
    assert "no match 99" in capsys.readouterr().err


def test_serve_names_the_bad_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "luza.toml"
    bad.write_text('[[tables]]\nid = "t1"\npockets = { p-foot = [5, 7] }\n')
    assert main(["serve", "--config", str(bad)]) == 2
    assert "tables[0].pockets: device 'p-foot' lists pocket 7; pockets are 1-6" in capsys.readouterr().err
    assert main(["devices", "--db", str(tmp_path / "none.db")]) == 2
