"""Every REST route of docs/web-api.md: status, fields, and the exact bilingual error text."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from hub.service.hub import Hub
from tests.export.matchkit import PLAYERS, Table
from tests.web.conftest import auth

KINDS = (
    "lag, declare, identify, add_ball, jumped, remove, foul, fact, confirm, withdraw, choose, open_shot, "
    "close_shot, undo, interference, concede, decide, dismiss_alert, extension, "
    "new_match, next_frame, time_up, end_match"
)


def start(client: TestClient, headers: dict[str, str], variant: str = "free", **extra: Any) -> dict[str, Any]:
    r = client.post(
        "/api/tables/t1/match", headers=headers, json={"variant": variant, "players": list(PLAYERS), **extra}
    )
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def test_tables_and_state(client: TestClient, hub: Hub) -> None:
    tables = client.get("/api/tables").json()
    assert [(t["id"], t["name"]) for t in tables] == [("t1", "Стол 1"), ("t2", "Стол 2")]
    state = client.get("/api/tables/t1/state").json()
    for key in (
        "table",
        "name",
        "club",
        "rev",
        "boot",
        "hub_ms",
        "match",
        "last_match",
        "devices",
        "pin_set",
    ):
        assert key in state
    assert state["boot"] == hub.boot and state["pin_set"] is True and state["match"] is None
    assert client.get("/api/tables/t2/state").json()["pin_set"] is False
    assert [d["device"] for d in state["devices"]] == ["cue-a", "cue-b", "pk-12", "pk-34", "pk-56"]


def test_unknown_table(client: TestClient) -> None:
    r = client.get("/api/tables/t9/state")
    assert r.status_code == 404
    assert r.json() == {
        "error": {
            "code": "unknown_table",
            "en": "no table 't9'; the hub serves t1, t2",
            "ru": "нет стола 't9'; хаб обслуживает t1, t2",
            "field": "table",
        }
    }


def test_variants(client: TestClient) -> None:
    variants = {v["id"]: v for v in client.get("/api/variants").json()}
    assert set(variants) == {"free", "combined", "dynamic", "star", "hundred", "classic"}
    classic = variants["classic"]
    assert (
        classic["title"] == {"en": "Classic pyramid", "ru": "Классическая пирамида"}
        and classic["target"] == 71
    )
    target = next(o for o in classic["options"] if o["name"] == "target")
    assert target == {
        "name": "target",
        "label": {"en": "Points (balls) to win", "ru": "Очков (шаров) для победы"},
        "type": "int",
        "default": 71,
        "choices": None,
    }
    # the panel offers what the variant's profile says:
    # Classic's own foul (5.5) with its paragraph, Star's colours
    fouls = {f["code"]: f["paragraph"] for f in classic["profile"]["fouls"]}
    assert fouls["cue_ball_pocketed"] == "classic 5.5" and fouls["miss"] == "5.3"
    assert "cue_ball_pocketed" not in {f["code"] for f in variants["free"]["profile"]["fouls"]}
    star = variants["star"]["profile"]
    assert "wrong_own_ball" in {f["code"] for f in star["fouls"]} and "placement" not in {
        f["code"] for f in star["fouls"]
    }
    assert {"name": "cue_colour", "type": "colour"} in star["referee_facts"]
    assert "declarations" not in {f["name"] for f in variants["classic"]["profile"]["referee_facts"]}
    assert {"name": "touched_ten", "type": "flag"} in variants["hundred"]["profile"]["referee_facts"]


def test_start_a_match_and_act(client: TestClient, hub: Hub) -> None:
    headers = auth(client)
    body = start(client, headers, uid="start-1")
    assert body["ok"] and body["state"]["match"]["variant"] == "free" and body["rev"] == body["state"]["rev"]
    again = client.post(
        "/api/tables/t1/match",
        headers=headers,
        json={"variant": "free", "players": list(PLAYERS), "uid": "start-1"},
    )
    assert again.status_code == 201 and again.json()["state"]["match_id"] == body["state"]["match_id"]
    r = client.post("/api/tables/t1/actions", headers=headers, json={"kind": "lag", "winner": 1, "uid": "a1"})
    assert r.status_code == 200 and r.json()["state"]["match"]["to_play"] == 1
    assert r.json()["rev"] > body["rev"]


def test_a_second_start_is_refused(client: TestClient) -> None:
    headers = auth(client)
    start(client, headers)
    r = client.post("/api/tables/t1/match", headers=headers, json={"variant": "free", "players": ["A", "B"]})
    assert r.status_code == 409
    err = r.json()["error"]
    assert err["code"] == "refused" and err["field"] == "table"
    assert err["en"].startswith("table 't1' has match ") and err["en"].endswith(
        "in play; end it first (end_match)"
    )


def test_actions_without_a_match(client: TestClient) -> None:
    r = client.post("/api/tables/t1/actions", headers=auth(client), json={"kind": "lag", "winner": 0})
    assert r.status_code == 409
    assert r.json()["error"] == {
        "code": "no_match",
        "en": "no match is being played on table 't1'; start one (new_match)",
        "ru": "на столе 't1' нет партии; начните новую (new_match)",
        "field": "table",
    }


def test_refused_by_the_session(client: TestClient) -> None:
    headers = auth(client)
    start(client, headers)
    r = client.post("/api/tables/t1/actions", headers=headers, json={"kind": "undo"})
    assert r.status_code == 409
    assert r.json()["error"] == {
        "code": "refused",
        "en": "there is nothing to undo",
        "ru": "отменять нечего",
        "field": None,
    }


def test_a_call_on_the_classic_break_is_refused_with_the_reason(client: TestClient) -> None:
    """classic 5.2 (A-C4): refused when tapped (409, both languages), never "accepted" and then a held table;
    the same call after the break is accepted and shown as the next shot's call, and can be taken back."""
    headers = auth(client)
    start(client, headers, "classic")
    assert (
        client.post("/api/tables/t1/actions", headers=headers, json={"kind": "lag", "winner": 0}).status_code
        == 200
    )
    before = client.get("/api/tables/t1/state").json()["match"]
    # the engine asks for no call on the break
    assert "declaration" not in {n["kind"] for n in before["needs"]}
    r = client.post(
        "/api/tables/t1/actions", headers=headers, json={"kind": "declare", "ball": 6, "pocket": 3}
    )
    assert r.status_code == 409
    assert r.json()["error"] == {
        "code": "refused",
        "field": "calls",
        "en": "call refused: classic 5.2: no call is made on the break (A-C4); remove the declaration",
        "ru": "заказ не принят: classic 5.2: на начальном ударе заказ не делается (A-C4); уберите заказ",
    }
    assert client.get("/api/tables/t1/state").json()["match"]["next_shot"] == {"declarations": []}
    for kind in ("open_shot", "close_shot"):  # the break, played empty (classic 5.4: the turn passes)
        assert client.post("/api/tables/t1/actions", headers=headers, json={"kind": kind}).status_code == 200
    r = client.post(
        "/api/tables/t1/actions", headers=headers, json={"kind": "declare", "ball": 6, "pocket": 3}
    )
    assert r.status_code == 200
    board = r.json()["state"]["match"]
    assert board["status"] == "live" and board["next_shot"]["declarations"][0]["ball"] == 6
    r = client.post("/api/tables/t1/actions", headers=headers, json={"kind": "declare", "calls": []})
    assert r.status_code == 200 and r.json()["state"]["match"]["next_shot"] == {"declarations": []}


def test_malformed_by_the_hub_validation(client: TestClient) -> None:
    headers = auth(client)
    start(client, headers)
    r = client.post("/api/tables/t1/actions", headers=headers, json={"kind": "foul", "foul": "elbow"})
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["code"] == "malformed" and err["field"] == "foul"
    assert err["en"].startswith("foul: unknown foul 'elbow'; one of miss,")
    assert err["ru"].startswith("foul: неизвестное нарушение 'elbow'; одно из miss,")


@pytest.mark.parametrize(
    ("body", "field", "en", "ru"),
    [  # the hub's own words (as the control socket's)
        (
            {"kind": "lag", "winner": 2},
            "winner",
            "winner: must be the seat 0 or 1, got 2",
            "winner: нужно место игрока 0 или 1, получено 2",
        ),
        ({"kind": "lag"}, "winner", "winner: missing", "winner: не указано"),
        (
            {"kind": "lag", "winner": 0, "loser": 1},
            "loser",
            "loser: 'lag' has no field 'loser'; its fields: winner",
            "loser: у действия 'lag' нет поля 'loser'; его поля: winner",
        ),
        (
            {"kind": "shout"},
            "kind",
            f"kind: unknown referee action 'shout'; one of {KINDS}",
            f"kind: неизвестное действие судьи 'shout'; одно из {KINDS}",
        ),
        (
            {"winner": 0},
            "kind",
            f"kind: missing; one of {KINDS}",
            f"kind: не указано действие; одно из {KINDS}",
        ),
        # a kind of the hub's but not of this route: the schema says
        (
            {"kind": "new_match", "variant": "free"},
            "kind",
            "kind: unknown referee action 'new_match'; one of " + KINDS.replace("new_match, ", ""),
            "kind: неизвестное действие судьи 'new_match'; одно из " + KINDS.replace("new_match, ", ""),
        ),
    ],
)
def test_schema_errors_are_bilingual(
    client: TestClient, body: dict[str, Any], field: str, en: str | None, ru: str | None
) -> None:
    r = client.post("/api/tables/t1/actions", headers=auth(client), json=body)
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["code"] == "malformed" and err["field"] == field
    if en is not None:
        assert (err["en"], err["ru"]) == (en, ru)
    assert err["ru"] != err["en"]


def test_a_body_that_is_not_json(client: TestClient) -> None:
    r = client.post(
        "/api/tables/t1/actions",
        headers={**auth(client), "Content-Type": "application/json"},
        content=b"{not json",
    )
    assert r.status_code == 422
    assert r.json()["error"] == {
        "code": "malformed",
        "en": "the body is not valid JSON",
        "ru": "тело запроса — не корректный JSON",
        "field": "body",
    }


def test_every_action_kind_is_in_the_openapi_document(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    schemas = doc["components"]["schemas"]
    kinds = {
        s["properties"]["kind"].get("const")
        for s in schemas.values()
        if "kind" in s.get("properties", {})
        and s["properties"]["kind"].get("const")
        # the table view's alerts (hub/vocab/alerts.py) have a kind too
        and "severity" not in s["properties"]
    }
    from hub.vocab.referee import ACTION_KINDS

    assert kinds == set(ACTION_KINDS)
    assert set(schemas["FoulAction"]["properties"]) == {
        "kind",
        "uid",
        "foul",
        "on",
        "offender",
        "shot",
        "shot_number",
    }


def test_devices_and_commands(client: TestClient, table: Table) -> None:
    table.births()
    table.hub.wait_idle()
    devices = {d["device"]: d for d in client.get("/api/devices").json()}
    assert (
        devices["pk-12"]["online"]
        and devices["pk-12"]["fw"] == "0.3.1"
        and devices["pk-12"]["pockets"] == [1, 2]
    )
    assert devices["cue-b"]["seat"] == 1
    r = client.post("/api/devices/pk-12/commands", json={"name": "identify"})
    assert r.status_code == 401
    r = client.post(
        "/api/devices/pk-12/commands", headers=auth(client), json={"name": "identify", "seconds": 5}
    )
    assert r.status_code == 503  # no broker in this test: the hub says it cannot reach the node
    assert r.json()["error"]["en"] == "the hub has no link to the node now (no broker connection)"
    r = client.post(
        "/api/devices/pk-12/commands",
        headers=auth(client),
        json={"name": "calibrate", "pocket": 5, "colour": "red"},
    )
    assert (
        r.status_code == 400
        and r.json()["error"]["en"]
        == "calibrate needs `pocket` (one of this node's pockets: [1, 2]) and `colour`"
    )
    r = client.post("/api/devices/nobody/commands", headers=auth(client), json={"name": "identify"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_device"
    r = client.post("/api/devices/t2-p/commands", headers=auth(client), json={"name": "identify"})
    assert r.status_code == 401  # a token of t1 does not command t2's nodes


def test_healthz_and_metrics(client: TestClient, table: Table) -> None:
    h = client.get("/healthz")
    assert h.status_code == 200
    assert h.json() | {"hub_ms": 0} == {
        "ok": True,
        "worker_alive": True,
        "broker_connected": None,
        "queue_depth": 0,
        "boot": table.hub.boot,
        "hub_ms": 0,
        "tables": 2,
        "websocket_clients": 0,
        "alerts": [],
    }
    table.hub.new_match("t1", "free", PLAYERS)
    table.births()
    table.strike(0)
    table.strike(0)
    table.hub.wait_idle()
    text = client.get("/metrics").text
    assert "luza_events_accepted_total 2.0" in text and "luza_devices_online 5.0" in text
    assert "luza_event_commit_seconds_count 2.0" in text and "luza_websocket_clients 0.0" in text
    assert 'luza_ingest_shed_total{class="tele"} 0.0' in text  # the ingest queue's budget (hub.service.inbox)


def test_pages_and_qr(client: TestClient) -> None:
    for path, marker in (
        ("/", "club"),
        ("/board/t1", "board"),
        ("/referee/t1", "referee"),
        ("/overlay/t1", "overlay"),
    ):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert f"/static/js/{marker}.js" in r.text
    assert client.get("/static/css/base.css").status_code == 200
    assert client.get("/static/../pyproject.toml").status_code == 404
    qr = client.get("/api/tables/t1/qr.svg?lang=en")
    assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml"
    assert qr.text.startswith("<svg") and "<path" in qr.text
    assert client.get("/api/tables/t9/qr.svg").status_code == 404


def test_not_found_and_wrong_method(client: TestClient) -> None:
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json()["error"] == {
        "code": "not_found",
        "en": "nothing at /api/nothing",
        "ru": "по адресу /api/nothing ничего нет",
        "field": None,
    }
    r = client.delete("/api/tables")
    assert (
        r.status_code == 405 and r.json()["error"]["ru"] == "метод DELETE не поддерживается для /api/tables"
    )
