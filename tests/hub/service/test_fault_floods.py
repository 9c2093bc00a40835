"""Fault scenario (issue 12, items 5 and 6): `luza serve` plays a match through a real Mosquitto while a flood
of invalid 5 KB payloads arrives, 60 idle connections sit on its control socket, a second hub tries to start
on the same database, and the referee's lag is sent twice with one uid. The final board equals the
same match played without the faults; the hub's peak RSS and the database's growth are measured."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from hub.service.hub import Hub
from hub.view.build import stored
from hub.view.match import MatchView
from tests.hub.conftest import make_config
from tests.hub.nodes import expected_board
from tests.hub.service.test_control import ServeWithControl, sock_dir  # noqa: F401  (fixture)
from tests.hub.service.test_faults import ROOT, retained_state, sensor_count, stored_referee, write_config
from tests.hub.service.test_service import PLAYERS, facts, nodes_for_t1, shots, wait_for
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto

FLOOD = 20_000
BAD = b'{"v": 1, "k": "pocket", ' + b"x" * 5000  # 5 KB, not JSON


def peak_rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(ln.split()[1] for ln in status.splitlines() if ln.startswith("VmHWM:"))) / 1024


def db_bytes(db: Path) -> int:
    return sum(os.path.getsize(p) for p in (db, Path(f"{db}-wal")) if p.exists())


def rejected_total(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return int(conn.execute("SELECT coalesce(sum(count), 0) FROM rejected_counts").fetchone()[0])


def flood(port: int) -> None:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="flooder")
    c.max_inflight_messages_set(1000)
    c.max_queued_messages_set(0)
    c.connect("127.0.0.1", port)
    c.loop_start()
    infos = [c.publish("luza/v1/t1/p-head/evt", BAD, qos=1) for _ in range(FLOOD)]
    for info in infos:
        info.wait_for_publish(60)
    c.loop_stop()
    c.disconnect()


def luza_referee(control: Path, action: str, uid: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "hub.cli",
            "referee",
            "--control",
            str(control),
            "--table",
            "t1",
            "--uid",
            uid,
            action,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_a_match_through_floods_idle_sockets_a_second_hub_and_a_resent_action(
    mosquitto: Mosquitto,
    tmp_path: Path,
    sock_dir: Path,  # noqa: F811
) -> None:
    db, control = tmp_path / "luza.db", sock_dir / "ctl.sock"
    hub = Hub(make_config(mosquitto, db)).start(connect_timeout=5)  # the referee starts the match
    match_id = hub.new_match("t1", "free", PLAYERS)["match_id"]
    hub.stop()
    serve = ServeWithControl(write_config(tmp_path / "luza.toml", mosquitto, db), control)
    cue, pockets, nodes = nodes_for_t1(mosquitto.port)
    idle = []
    try:
        rss_before, size_before = peak_rss_mb(serve.proc.pid), db_bytes(db)
        for _ in range(60):
            s = socket.socket(socket.AF_UNIX)
            s.connect(str(control))
            idle.append(s)
        flooder = threading.Thread(target=flood, args=(mosquitto.port,))
        flooder.start()
        second = subprocess.run(
            [sys.executable, "-m", "hub.cli", "serve", "--config", str(tmp_path / "luza.toml")],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert second.returncode == 3 and f"pid {serve.proc.pid} " in second.stderr, second.stderr
        first = luza_referee(control, '{"kind": "lag", "winner": 0}', "lag-1")
        again = luza_referee(control, '{"kind": "lag", "winner": 0}', "lag-1")  # a re-send: the first answer
        assert first.returncode == 0 and again.returncode == 0, first.stderr + again.stderr
        assert json.loads(again.stdout)["replayed"] is True
        assert json.loads(again.stdout)["cursor"] == json.loads(first.stdout)["cursor"]
        sent = shots(cue, pockets, 20, seed=12)
        for node, payload in sent:
            node.send(payload)
        flooder.join(120)
        wait_for(lambda: sensor_count(db) == len(sent) and rejected_total(db) == FLOOD, 120)
        rss, grown = peak_rss_mb(serve.proc.pid), db_bytes(db) - size_before
        print(
            f"\nflood of {FLOOD} invalid 5 KB payloads + 60 idle control connections: peak RSS "
            f"{rss_before:.0f} -> {rss:.0f} MB, database +{grown / 1e6:.2f} MB"
        )
        assert grown < 5_000_000 and rss < 200
        expected = expected_board("free", PLAYERS, {}, match_id, "t1", [*stored_referee(db), *facts(sent)])
        assert [a.kind for a in stored_referee(db)] == ["lag"]
        wait_for(lambda: stored(MatchView.model_validate(retained_state(mosquitto)["match"])) == expected, 10)
    finally:
        for s in idle:
            s.close()
        serve.stop()
        for n in nodes:
            n.close()
    assert serve.proc.returncode == 0 and "Traceback" not in "".join(serve.lines)
