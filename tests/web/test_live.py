"""The app on a real uvicorn server: WebSockets (state on connect, every change, heartbeats, resync by rev, a
new boot after a restart, the club view) and real HTTP from the demo's panel client."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from hub.demo.client import PanelClient, PanelRefused
from hub.service.hub import Hub
from hub.web import WebSettings
from hub.web.auth import PinStore
from hub.web.server import WebServer, serve_in_thread
from tests.export.matchkit import PLAYERS, Table
from tests.support.proxy import TcpProxy
from tests.web.conftest import PIN


@pytest.fixture
def server(hub: Hub, web_settings: WebSettings) -> Iterator[WebServer]:
    PinStore(hub.config.store.path).set("t1", PIN)
    srv = serve_in_thread(hub, "127.0.0.1", 0, web_settings)
    yield srv
    srv.stop()


def ws_url(server: WebServer, path: str) -> str:
    return server.url.replace("http://", "ws://") + path


def receive(
    ws: ClientConnection, want: Callable[[dict[str, Any]], bool], timeout: float = 5.0
) -> dict[str, Any]:
    """The first message that `want` accepts (others, such as heartbeats, are skipped)."""
    while True:
        msg = json.loads(ws.recv(timeout=timeout))
        if want(msg):
            return msg  # type: ignore[no-any-return]


def test_state_on_connect_then_every_change_then_heartbeats(
    server: WebServer, hub: Hub, table: Table
) -> None:
    with connect(ws_url(server, "/ws/tables/t1")) as ws:
        first = json.loads(ws.recv(timeout=5))
        assert first["type"] == "state" and first["table"] == "t1" and first["boot"] == hub.boot
        assert first["pin_set"] is True and first["match"] is None
        hub.new_match("t1", "free", PLAYERS)
        started = receive(ws, lambda m: m["type"] == "state" and m["match"] is not None)
        assert started["rev"] > first["rev"] and started["match"]["players"] == list(PLAYERS)
        table.ref("lag", winner=0)
        table.strike(0)
        table.pot(5)
        hub.wait_idle()
        latest = hub.state("t1")["rev"]
        dropped = receive(ws, lambda m: m["type"] == "state" and m["rev"] == latest)
        assert dropped["match"]["shot"]["pocketed"][0]["pocket"] == 5 and dropped["match"]["provisional"]
        beat = receive(ws, lambda m: m["type"] == "heartbeat")
        assert beat == {
            "type": "heartbeat",
            "table": "t1",
            "rev": latest,
            "boot": hub.boot,
            "hub_ms": beat["hub_ms"],
        }


def test_resync_by_rev(server: WebServer, hub: Hub) -> None:
    hub.new_match("t1", "free", PLAYERS)
    state = hub.state("t1")
    with connect(ws_url(server, f"/ws/tables/t1?rev={state['rev']}&boot={hub.boot}")) as ws:
        hello = json.loads(ws.recv(timeout=5))
        assert hello == {
            "type": "hello",
            "table": "t1",
            "rev": state["rev"],
            "boot": hub.boot,
            "hub_ms": hello["hub_ms"],
        }
    with connect(ws_url(server, f"/ws/tables/t1?rev={state['rev'] - 1}&boot={hub.boot}")) as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "state"  # behind: the whole state at once
    with connect(ws_url(server, f"/ws/tables/t1?rev={state['rev']}&boot=an-old-boot")) as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "state"  # another boot: its revs mean nothing here


def test_unknown_table_says_why_and_closes_with_4404(server: WebServer) -> None:
    with connect(ws_url(server, "/ws/tables/t9")) as ws:
        assert json.loads(ws.recv(timeout=5)) == {
            "type": "error",
            "error": {
                "code": "unknown_table",
                "en": "no table 't9'; the hub serves t1, t2",
                "ru": "нет стола 't9'; хаб обслуживает t1, t2",
                "field": "table",
            },
        }
        with pytest.raises(ConnectionClosed) as exc:
            ws.recv(timeout=5)
    assert (
        exc.value.rcvd is not None
        and exc.value.rcvd.code == 4404
        and exc.value.rcvd.reason == "unknown_table"
    )


def test_club_socket(server: WebServer, hub: Hub) -> None:
    with connect(ws_url(server, "/ws/club")) as ws:
        club = json.loads(ws.recv(timeout=5))
        assert club["type"] == "club" and [t["id"] for t in club["tables"]] == ["t1", "t2"]
        assert club["health"]["worker_alive"] and club["health"]["websocket_clients"] == 1
        assert {d["device"] for d in club["devices"]} >= {"pk-12", "cue-a", "t2-p"}
        hub.new_match("t2", "star", PLAYERS)
        changed = receive(ws, lambda m: m["type"] == "club" and m["tables"][1]["state"]["match"] is not None)
        assert changed["tables"][1]["state"]["match"]["variant"] == "star"


def test_the_socket_closes_when_the_server_stops_and_a_restart_brings_a_new_boot(
    open_hub: Callable[..., Hub], web_settings: WebSettings
) -> None:
    hub = open_hub()
    srv = serve_in_thread(hub, "127.0.0.1", 0, web_settings)
    port, boot = srv.port, hub.boot
    with connect(ws_url(srv, "/ws/tables/t1")) as ws:
        assert json.loads(ws.recv(timeout=5))["boot"] == boot
        srv.stop()
        hub.stop()
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(timeout=5)
    again = open_hub()
    srv2 = WebServer(again, "127.0.0.1", port, web_settings).start()
    try:
        with connect(ws_url(srv2, f"/ws/tables/t1?rev=1&boot={boot}")) as ws2:
            state = json.loads(ws2.recv(timeout=5))
            assert state["type"] == "state" and state["boot"] == again.boot != boot
    finally:
        srv2.stop()


def test_the_demo_panel_client_plays_over_real_http(server: WebServer, hub: Hub, table: Table) -> None:
    panel = PanelClient(server.url, "t1", pin=PIN, label="demo")
    panel.start_match("classic", PLAYERS)
    panel.act({"kind": "lag", "winner": 0})
    table.wait(5000)
    table.shot(0, [5])
    hub.wait_idle()
    q = next(q for q in panel.state()["match"]["questions"] if q["action"] == "identify")
    answer = panel.act({"kind": "identify", "item": q["item"], "ball": 4})
    assert answer["ok"] and answer["state"]["match"]["scores"][0] == 4  # classic 5.1
    with pytest.raises(PanelRefused) as exc:
        panel.act({"kind": "undo", "uid": "u-1"})
        panel.act({"kind": "close_shot"})
    assert exc.value.status == 409 and exc.value.code == "refused"
    amended = hub.session("t1").amendments  # type: ignore[union-attr]
    assert any(a["by"] == "demo" for rows in amended.values() for a in rows)


def test_metrics_count_websocket_clients(server: WebServer) -> None:
    with connect(ws_url(server, "/ws/tables/t1")) as ws:
        ws.recv(timeout=5)
        text = urllib.request.urlopen(server.url + "/metrics", timeout=5).read().decode()
        assert "luza_websocket_clients 1.0" in text


def test_the_hub_pings_every_socket_and_drops_one_gone_silent(open_hub: Callable[..., Hub]) -> None:
    """Issue 20, item 2: a client behind a half-open link (a proxy that stops forwarding, closes nothing) is
    dropped after the hub's ping goes unanswered, and its slot is free again; a client that answers stays."""
    hub = open_hub()
    settings = WebSettings(heartbeat_s=0.2, ws_ping_s=0.5, ws_ping_timeout_s=0.5)
    srv = serve_in_thread(hub, "127.0.0.1", 0, settings)
    proxy = TcpProxy(("127.0.0.1", srv.port)).start()
    live = srv.app.state.luza.live
    try:
        with (
            connect(f"ws://127.0.0.1:{proxy.port}/ws/tables/t1", ping_interval=None) as silent,
            connect(ws_url(srv, "/ws/tables/t2"), ping_interval=None) as talking,
        ):
            silent.recv(timeout=5)
            talking.recv(timeout=5)
            assert live.clients == 2
            proxy.silence()
            cut = time.monotonic()
            while live.clients > 1:  # a condition, polled: the hub's ping timeout decides when
                assert time.monotonic() - cut < 5, "the hub kept a silent client's socket"
                talking.recv(timeout=5)  # heartbeats keep coming to the one that answers pings
            dropped_after = time.monotonic() - cut
            assert live.slots.open == 1  # its slot is free again
            assert json.loads(talking.recv(timeout=5))["type"] == "heartbeat"
            assert dropped_after <= settings.ws_ping_s + settings.ws_ping_timeout_s + 1.5
    finally:
        proxy.stop()
        srv.stop()


def compact(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def test_a_state_message_is_the_hubs_one_encoding_of_the_change(server: WebServer, hub: Hub) -> None:
    """Issue 21 item 6: the WebSocket sends the payload the hub encoded once for the change (the retained MQTT
    state), spliced into its envelope; the bytes are what encoding the envelope's JSON would give."""
    with connect(ws_url(server, "/ws/tables/t1")) as ws:
        ws.recv(timeout=5)
        hub.new_match("t1", "free", ("Ёлкин", 'Ann "the cue"'))
        while True:  # the message of the hub's latest state (a later change may pass the one read)
            raw = ws.recv(timeout=5)
            assert isinstance(raw, str)
            msg, state = json.loads(raw), hub.state("t1")
            if msg["type"] == "state" and msg["match"] is not None and msg["rev"] == state["rev"]:
                break
        assert hub.state_payload("t1") == compact(state).encode()
        whole = {"type": "state", **state, "pin_set": True}
        assert raw == compact(whole)
        assert "Ёлкин" in raw and list(msg) == list(whole)
