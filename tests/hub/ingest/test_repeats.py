"""Repeated identical alerts and log lines are rate-limited (issue 12, item 5): a dismiss_alert tapped again
is not stored again, and a flood of identical log lines costs one line per minute."""

from __future__ import annotations

import json
import logging
import socket
from pathlib import Path

from hub import configfile
from hub.ingest.mqtt import RawMessage
from hub.logs import RepeatFilter
from hub.service.hub import Hub
from luza_wire import protocol
from tests.hub.conftest import TABLES
from tests.hub.service.test_service import PLAYERS
from tests.hub.store.test_bad_input import Serving, folder, write_config  # noqa: F401  (fixture)


def test_a_dismiss_alert_flood_stores_one_input(tmp_path: Path) -> None:
    hub = Hub(
        configfile.parse({"store": {"path": str(tmp_path / "luza.db")}, "tables": TABLES}), mqtt=False
    ).start()
    try:
        hub.new_match("t1", "free", PLAYERS)
        hub.submit("t1", {"kind": "open_shot"})  # a node that goes offline mid-match is an alert
        hub.feed(RawMessage("mqtt", protocol.topic("t1", "p-head", "status"), b'{"v": 1, "st": "lost"}', 1))
        assert hub.wait_idle(5)
        (alert,) = [a for a in hub.state("t1")["match"]["alerts"] if a["kind"] == "node_offline"]
        before = hub.store.count_inputs()  # type: ignore[union-attr]
        for _ in range(200):
            hub.submit("t1", {"kind": "dismiss_alert", "alert": alert["id"]})
        assert hub.store.count_inputs() == before + 1  # type: ignore[union-attr]
        assert not [a for a in hub.state("t1")["match"]["alerts"] if a["kind"] == "node_offline"]
    finally:
        hub.stop()


def record(msg: str) -> logging.LogRecord:
    return logging.LogRecord("luza.x", logging.WARNING, __file__, 1, msg, None, None)


def test_identical_log_lines_once_per_window_then_a_count() -> None:
    now = [0.0]
    f = RepeatFilter(60, clock=lambda: now[0])
    assert [f.filter(record("same")) for _ in range(1000)].count(True) == 1
    assert f.filter(record("another"))  # a different line is not held back
    now[0] = 61
    again = record("same")
    assert f.filter(again) and again.getMessage() == "same (and 999 more like it in the last 60 s)"
    assert not f.filter(record("same"))


def test_luza_serve_logs_a_flood_of_identical_bad_requests_once(folder: Path) -> None:  # noqa: F811
    control = folder / "ctl.sock"
    hub = Serving("--config", str(write_config(folder)), "--control", str(control))
    try:
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(10)
            s.connect(str(control))
            reader = s.makefile("rb")
            for _ in range(500):
                s.sendall(b"garbage\n")
                assert json.loads(reader.readline())["ok"] is False
            reader.close()
    finally:
        assert hub.stop() == 0
    assert sum("control request refused" in ln for ln in hub.lines) == 1, "".join(hub.lines[-5:])
