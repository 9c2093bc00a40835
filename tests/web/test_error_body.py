"""One refusal, one body, in every channel: REST, the WebSocket, the control socket and the CLI give the same
{"code", "en", "ru", "field"} (hub.errors.ErrorBody) for the same refusal, each in its own envelope, against
one real hub served over real HTTP, a real WebSocket and a real Unix socket."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from hub.cli import main
from hub.errors import ErrorBody, refusal_line
from hub.service.control import ControlServer, send
from hub.service.hub import Hub
from hub.web import WebSettings
from hub.web.auth import PinStore
from hub.web.server import WebServer, serve_in_thread
from tests.export.matchkit import PLAYERS
from tests.web.conftest import PIN

UNKNOWN_T9 = {
    "code": "unknown_table",
    "en": "no table 't9'; the hub serves t1, t2",
    "ru": "нет стола 't9'; хаб обслуживает t1, t2",
    "field": "table",
}


@pytest.fixture
def server(hub: Hub, web_settings: WebSettings) -> Iterator[WebServer]:
    PinStore(hub.config.store.path).set("t1", PIN)
    srv = serve_in_thread(hub, "127.0.0.1", 0, web_settings)
    yield srv
    srv.stop()


@pytest.fixture
def control(hub: Hub) -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="luza-err-", dir="/tmp"))  # a Unix socket path stays short
    s = ControlServer(hub, folder / "ctl.sock").start()
    yield s.path
    s.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def http(server: WebServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=15) as c:
        token = c.post("/api/tables/t1/token", json={"pin": PIN, "label": "panel"}).json()["token"]
        c.headers["Authorization"] = f"Bearer {token}"
        yield c


def rest(http: httpx.Client, table: str, action: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    r = http.post(f"/api/tables/{table}/actions", json=action)
    assert set(r.json()) == {"error"}, r.text
    return r.status_code, r.json()["error"]


def socket_answer(control: Path, table: str, action: dict[str, Any]) -> dict[str, Any]:
    answer = send(control, table, action)
    assert answer["ok"] is False and set(answer) == {"ok", "error"}, answer
    return answer["error"]  # type: ignore[no-any-return]


def cli(
    control: Path, table: str, action: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> dict[str, Any]:
    assert main(["referee", "--control", str(control), "--table", table, json.dumps(action)]) == 2
    out = capsys.readouterr()
    printed = json.loads(out.out)
    assert printed["ok"] is False and set(printed) == {"ok", "error"}
    body = printed["error"]
    assert out.err == f"refused: {body['en']} / отклонено: {body['ru']}\n"  # the one line, from the same body
    return body  # type: ignore[no-any-return]


def test_an_unknown_table_is_said_alike_in_every_channel(
    server: WebServer, http: httpx.Client, control: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r = http.get("/api/tables/t9/state")
    assert (r.status_code, r.json()) == (404, {"error": UNKNOWN_T9})
    assert rest(http, "t9", {"kind": "undo"}) == (404, UNKNOWN_T9)
    with connect(server.url.replace("http://", "ws://") + "/ws/tables/t9") as ws:
        assert json.loads(ws.recv(timeout=5)) == {"type": "error", "error": UNKNOWN_T9}
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    assert socket_answer(control, "t9", {"kind": "undo"}) == UNKNOWN_T9
    assert cli(control, "t9", {"kind": "undo"}, capsys) == UNKNOWN_T9


@pytest.mark.parametrize(
    ("action", "status", "code", "field"),
    [
        ({"kind": "lag", "winner": 0}, 409, "no_match", "table"),  # before any match
        ({"kind": "undo"}, 409, "refused", None),  # the session: nothing to undo yet
        # the hub's own check (the schema takes it)
        ({"kind": "foul", "foul": "elbow"}, 400, "malformed", "foul"),
        # refused by the schema first
        ({"kind": "fact", "name": "nonsense", "value": 1}, 422, "malformed", "name"),
        ({"kind": "lag", "winner": 2}, 422, "malformed", "winner"),
        ({"kind": "lag"}, 422, "malformed", "winner"),
        ({"winner": 0}, 422, "malformed", "kind"),
    ],
)
def test_a_refused_action_is_said_alike_by_rest_the_control_socket_and_the_cli(
    hub: Hub,
    http: httpx.Client,
    control: Path,
    capsys: pytest.CaptureFixture[str],
    action: dict[str, Any],
    status: int,
    code: str,
    field: str | None,
) -> None:
    if code != "no_match":
        hub.new_match("t1", "free", PLAYERS)
    got_status, body = rest(http, "t1", action)
    assert (got_status, body["code"]) == (status, code) and body["en"] and body["ru"] != body["en"]
    if field is not None:
        assert body["field"] == field
    assert socket_answer(control, "t1", action) == body
    assert cli(control, "t1", action, capsys) == body


def test_a_history_query_is_refused_alike_by_rest_and_the_cli(
    hub: Hub, http: httpx.Client, capsys: pytest.CaptureFixture[str]
) -> None:
    r = http.get("/api/matches", params={"status": "paused"})
    assert r.status_code == 400
    body = r.json()["error"]
    assert body == {
        "code": "malformed",
        "en": "status: one of live, ended, got 'paused'",
        "ru": "status: одно из live, ended, получено 'paused'",
        "field": "status",
    }
    assert main(["matches", "--db", hub.config.store.path, "--status", "paused"]) == 2
    assert capsys.readouterr().err == f"luza matches: --{refusal_line(ErrorBody(**body))}\n"
