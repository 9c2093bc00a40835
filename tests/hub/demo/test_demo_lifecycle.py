"""`luza demo` as a process: stopped by SIGTERM or a terminal's Ctrl-C it leaves nothing running and logs no
warning; restarted on the same --workdir mid-match it resumes that match; a person who signs into the panel
takes the table over until idle (issue 20, item 7)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.demo.client import PanelClient
from hub.demo.web import Presence, run_web_demo
from hub.web.auth import Tokens
from tests.hub.service.test_service import wait_for

pytestmark = pytest.mark.mosquitto

ROOT = Path(__file__).resolve().parents[3]


class Demo:
    """`luza demo --port 0 --workdir DIR` as a real subprocess, its output read as it comes."""

    def __init__(self, workdir: Path, *args: str, group: bool = False) -> None:
        self.workdir = workdir
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "hub.cli",
                "demo",
                "--port",
                "0",
                "--workdir",
                str(workdir),
                "--speed",
                "25",
                "--seed",
                "3",
                *args,
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            start_new_session=group,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        wait_for(
            lambda: (
                any(line.startswith("Luza demo is running") for line in self.lines)
                or self.proc.poll() is not None
            ),
            60,
        )
        assert self.proc.poll() is None, self.proc.stderr.read() if self.proc.stderr else ""
        self.url = next(line for line in self.lines if line.startswith("Luza demo is running")).split(
            ": ", 1
        )[1]

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def until(self, pred: Callable[[], bool], timeout: float = 60) -> None:
        """Wait for `pred`; a demo that exits meanwhile fails the test with what it said."""
        wait_for(lambda: self.proc.poll() is not None or pred(), timeout)
        if self.proc.poll() is not None:
            _, err = self.proc.communicate()
            raise AssertionError(f"the demo exited with {self.proc.returncode}: {err}")

    def state(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"{self.url}/api/tables/demo/state", timeout=10) as resp:
            return json.loads(resp.read())  # type: ignore[no-any-return]

    def shots(self) -> int:
        return int((self.state().get("match") or {}).get("shot_count", 0))

    def broker_pids(self) -> list[int]:
        """The Mosquitto processes running on this demo's broker config (left behind ones included)."""
        conf = str(self.workdir / "broker" / "mosquitto.conf").encode()
        pids = []
        for proc in Path("/proc").iterdir():
            try:
                cmd = (proc / "cmdline").read_bytes()
                stat = (proc / "stat").read_text()
            except OSError:
                continue
            if conf in cmd and b"mosquitto" in cmd and stat.rsplit(")", 1)[1].split()[0] != "Z":
                pids.append(int(proc.name))
        return pids

    def stop(self, sig: signal.Signals, group: bool = False) -> tuple[int, str]:
        """Send `sig` (to the demo, or to its whole process group as a terminal's Ctrl-C does); its exit code
        and stderr."""
        if group:
            os.killpg(self.proc.pid, sig)
        else:
            self.proc.send_signal(sig)
        _, err = self.proc.communicate(timeout=60)
        return self.proc.returncode, err

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()
        for pid in self.broker_pids():  # a broker left behind must not outlive the test
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def demos() -> Iterator[list[Demo]]:
    started: list[Demo] = []
    yield started
    for demo in started:
        demo.kill()


def _clean(code: int, err: str) -> None:
    assert code == 0, err
    assert "WARNING" not in err and "Traceback" not in err and "internal error" not in err, err


@pytest.mark.parametrize("group", [False, True], ids=["SIGTERM", "Ctrl-C"])
def test_a_stopped_demo_leaves_no_broker_and_logs_no_warning(
    tmp_path: Path, demos: list[Demo], group: bool
) -> None:
    """SIGTERM to the demo (a service manager, `kill`) and SIGINT to its process group (a terminal's Ctrl-C)
    both finish the shot, stop the table, web server, hub and then the broker, and exit 0."""
    demo = Demo(tmp_path, group=group)
    demos.append(demo)
    demo.until(lambda: demo.shots() >= 1)
    brokers = demo.broker_pids()
    assert len(brokers) == 1
    code, err = demo.stop(signal.SIGINT if group else signal.SIGTERM, group=group)
    _clean(code, err)
    assert "stopping after this shot" in err
    assert demo.broker_pids() == []


def _store(db: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_a_demo_restarted_on_its_workdir_mid_match_resumes_that_match(
    tmp_path: Path, demos: list[Demo]
) -> None:
    first = Demo(tmp_path, "--variant", "classic")
    demos.append(first)
    first.until(lambda: first.shots() >= 2)
    _clean(*first.stop(signal.SIGTERM))
    ((match_id, status),) = _store(tmp_path / "luza.db", "SELECT id, status FROM matches")
    assert status == "live"  # classic to 71 points: two shots in, the match is still in play
    played = _store(tmp_path / "luza.db", f"SELECT count(*) FROM inputs WHERE match_id = {match_id}")[0][0]

    second = Demo(tmp_path, "--variant", "classic")
    demos.append(second)
    second.until(
        lambda: f"resuming match {match_id} from the store / продолжаю партию из базы" in second.lines
    )
    assert second.state()["match_id"] == match_id
    start = second.shots()
    # it scores on
    second.until(lambda: second.state()["match_id"] != match_id or second.shots() >= start + 2)
    _clean(*second.stop(signal.SIGTERM))
    assert second.broker_pids() == []
    more = _store(tmp_path / "luza.db", f"SELECT count(*) FROM inputs WHERE match_id = {match_id}")[0][0]
    assert more > played
    by = {
        json.loads(r)["args"].get("by")
        for (r,) in _store(
            tmp_path / "luza.db",
            f"SELECT record FROM inputs WHERE match_id = {match_id} AND source = 'referee'",
        )
    }
    assert by == {"demo"}
    received = [r for (r,) in _store(tmp_path / "luza.db", "SELECT received_ms FROM inputs ORDER BY id")]
    assert received == sorted(received)  # the hub's clock went on forward across the restart


def test_presence_is_a_token_other_than_the_demos_used_within_the_idle_time() -> None:
    now = [100.0]
    tokens = Tokens(3600, clock=lambda: now[0])
    demo = PanelClient("http://unused", "demo", "2468")
    demo.tokens.add(tokens.issue("demo", "demo", None))
    person = Presence(tokens, demo, idle_s=60)
    assert person() is None  # only the demo's own token
    theirs = tokens.issue("demo", "panel", None)
    tokens.issue("other", "elsewhere", None)
    assert person() == "panel"
    now[0] += 61
    assert person() is None  # idle for longer than idle_s: the demo takes the table back
    assert tokens.get(theirs) is not None  # a tap with it
    assert person() == "panel"


def test_a_person_who_signs_in_takes_the_table_over_until_idle(tmp_path: Path) -> None:
    """A person signs in mid-match and ends it: the demo does not start the next one; the person starts theirs
    (the virtual players play it, the demo's referee stands by);
    idle for `person_idle_s`, the demo goes on."""
    lines: list[str] = []
    idle_s = 6.0
    seen: dict[str, Any] = {}

    def person(base: str) -> None:
        def act() -> None:
            panel = PanelClient(base, "demo", "2468", label="panel")
            wait_for(lambda: (panel.state().get("match") or {}).get("shot_count", 0) >= 2, 60)
            panel.act({"kind": "end_match", "reason": "my turn"})
            wait_for(lambda: any("the demo stands by" in line for line in lines), 30)
            seen["after_standby"] = panel.state()["match_id"]
            panel.start_match("free", ("Olga", "Irina"))
            panel.act({"kind": "lag", "winner": 1})
            wait_for(lambda: (panel.state().get("match") or {}).get("shot_count", 0) >= 2, 60)
            panel.act({"kind": "end_match", "reason": "enough"})
            left = time.monotonic()
            wait_for(lambda: panel.state()["match_id"] not in (None, 2), 60)  # the demo's next match
            seen["waited"] = time.monotonic() - left

        def run() -> None:
            try:
                act()
            except Exception as exc:  # reported by the test below
                seen["error"] = repr(exc)

        threading.Thread(target=run, daemon=True).start()

    result = run_web_demo(
        ["free"],
        speed=25.0,
        seed=5,
        workdir=str(tmp_path),
        port=0,
        matches=3,
        out=lines.append,
        pause_s=0,
        on_ready=person,
        person_idle_s=idle_s,
    )
    assert "error" not in seen, seen["error"]
    assert "match 1: ended from the panel / партия завершена с панели" in lines
    assert "'panel' has the referee panel: the demo stands by / на панели судьи человек: демо ждёт" in lines
    assert seen["after_standby"] is None  # no match was started for the person
    assert "match 2: refereed from the panel by 'panel' / судит человек с панели" in lines
    assert seen["waited"] >= idle_s - 1.0
    assert [m[0] for m in result.matches] == ["free"] and result.problem is None  # match 3, the demo's
    rows = _store(tmp_path / "luza.db", "SELECT match_id, record FROM inputs WHERE source = 'referee'")
    by = {m: {json.loads(r)["args"].get("by") for mid, r in rows if mid == m} for m in (1, 2, 3)}
    assert by == {1: {"demo", "panel"}, 2: {"panel"}, 3: {"demo"}}
    players = _store(tmp_path / "luza.db", "SELECT players FROM matches WHERE id = 2")[0][0]
    assert json.loads(players) == ["Olga", "Irina"]
