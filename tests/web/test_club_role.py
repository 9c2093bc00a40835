"""The club role and the dead ends of issue 20, item 5, through the real app: the club's PIN (`luza pin set
--club`, stored hashed like a table's) buys a club token at POST /api/club/token, locked out per address like
a table's; that token commands any node and makes the heavy exports, a referee's token no longer does the
latter and the club's never acts on a match. Errors name what does not exist: a question, an alert (404)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from hub.ingest.mqtt import RawMessage
from hub.service.hub import Hub
from hub.web.auth import CLUB, PinStore
from luza_wire import protocol
from tests.export.matchkit import PLAYERS, Table
from tests.web.conftest import auth

CLUB_PIN = "13579"
LUZA = [sys.executable, "-m", "hub.cli"]


def club_pin(client: TestClient) -> None:
    PinStore(client.app.state.luza.hub.config.store.path).set(CLUB, CLUB_PIN)  # type: ignore[attr-defined]


def club_auth(client: TestClient) -> dict[str, str]:
    r = client.post("/api/club/token", json={"pin": CLUB_PIN, "label": "manager"})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def test_no_club_pin_says_how_to_set_one(client: TestClient) -> None:
    r = client.post("/api/club/token", json={"pin": "1234"})
    assert r.status_code == 409
    assert r.json()["error"] == {
        "code": "no_pin",
        "field": "pin",
        "en": "no club PIN is set: on the hub run `luza pin set --club`",
        "ru": "PIN клуба не задан: на хабе выполните `luza pin set --club`",
    }


def test_the_club_pin_buys_a_club_token_and_is_locked_out_like_a_tables(client: TestClient) -> None:
    club_pin(client)
    r = client.post("/api/club/token", json={"pin": CLUB_PIN})
    assert r.status_code == 200 and r.json()["role"] == "club" and r.json()["expires_s"] == 12 * 3600
    assert "luza_device" in r.cookies  # an established device, as a referee's phone is
    client.cookies.clear()  # from here a new device
    # the table's PIN is not the club's
    assert client.post("/api/club/token", json={"pin": "2468"}).status_code == 401
    assert client.post("/api/club/token", json={"pin": "0000"}).status_code == 401
    r = client.post("/api/club/token", json={"pin": "0000"})  # the third wrong one (settings: 3)
    assert r.status_code == 429 and r.headers["retry-after"] == "2"
    assert r.json()["error"] == {
        "code": "locked",
        "field": "pin",
        "en": "too many wrong club PINs; try again in 2 s",
        "ru": "слишком много неверных PIN клуба; повторите через 2 с",
    }
    assert client.post("/api/tables/t1/token", json={"pin": "2468"}).status_code == 200  # the tables go on


def test_the_club_token_commands_any_node_and_never_acts_on_a_match(client: TestClient, table: Table) -> None:
    club_pin(client)
    table.births()
    table.hub.wait_idle()
    club = club_auth(client)
    for device in ("pk-12", "t2-p"):  # a node of t1 and one of t2 (t2 has no referee PIN at all)
        r = client.post(f"/api/devices/{device}/commands", headers=club, json={"name": "identify"})
        # past the door: no broker in this test, the hub says it cannot reach it
        assert r.status_code == 503, r.text
    r = client.post("/api/devices/pk-12/commands", json={"name": "identify"})
    assert (
        r.status_code == 401
        and "club PIN" in r.json()["error"]["en"]
        and "PIN клуба" in r.json()["error"]["ru"]
    )
    r = client.post("/api/devices/pk-12/commands", headers=auth(client), json={"name": "identify"})
    assert r.status_code == 503  # the table's referee still blinks their own nodes
    body = {"variant": "free", "players": list(PLAYERS)}
    assert client.post("/api/tables/t1/match", headers=club, json=body).status_code == 401


def test_heavy_exports_take_the_club_token_not_a_referees(client: TestClient) -> None:
    club_pin(client)
    referee = auth(client)
    assert (
        client.post(
            "/api/tables/t1/match", headers=referee, json={"variant": "free", "players": list(PLAYERS)}
        ).status_code
        == 201
    )
    r = client.get("/api/matches/export.zip", params={"format": "json"}, headers=referee)
    assert r.status_code == 401
    assert "club PIN" in r.json()["error"]["en"] and "`luza pin set --club`" in r.json()["error"]["en"]
    r = client.get("/api/matches/export.zip", params={"format": "json"}, headers=club_auth(client))
    assert r.status_code == 200 and r.content.startswith(b"PK")


def test_a_new_club_pin_revokes_club_tokens(client: TestClient, hub: Hub) -> None:
    club_pin(client)
    club = club_auth(client)
    ok = client.get("/api/matches/export.zip", params={"format": "json"}, headers=club)
    assert ok.status_code == 200
    PinStore(hub.config.store.path).set(CLUB, "86420")
    assert client.get("/api/matches/export.zip", params={"format": "json"}, headers=club).status_code == 401


def test_luza_pin_set_club(tmp_path: Path) -> None:
    conf = tmp_path / "luza.toml"
    db = tmp_path / "luza.db"
    conf.write_text(f'[store]\npath = "{db}"\n\n[[tables]]\nid = "t1"\n')
    ok = subprocess.run(
        [*LUZA, "pin", "set", "--config", str(conf), "--club", "--pin", "97531"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ok.returncode == 0 and ok.stdout.strip() == "club PIN set / PIN клуба задан", ok.stderr
    assert PinStore(db).verify(CLUB, "97531") is True and PinStore(db).verify("t1", "97531") is None
    with sqlite3.connect(db) as conn:  # hashed like a table's: scrypt with a salt, never the PIN
        salt, digest = conn.execute("SELECT salt, hash FROM pins WHERE table_id = ?", (CLUB,)).fetchone()
    assert b"97531" not in salt + digest and len(digest) == 32
    both = subprocess.run(
        [*LUZA, "pin", "set", "--db", str(db), "--club", "--table", "t1", "--pin", "1234"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert both.returncode == 2 and "not allowed with argument" in both.stderr


def test_answering_a_question_that_does_not_exist_names_it(client: TestClient) -> None:
    headers = auth(client)
    assert (
        client.post(
            "/api/tables/t1/match", headers=headers, json={"variant": "free", "players": list(PLAYERS)}
        ).status_code
        == 201
    )
    for question in ("late_drop:pk-12/9/9", "nosuch"):
        r = client.post(
            "/api/tables/t1/actions",
            headers=headers,
            json={"kind": "confirm", "question": question, "answer": "count"},
        )
        assert r.status_code == 404, r.text
        assert r.json()["error"] == {
            "code": "not_found",
            "field": "question",
            "en": f"there is no question {question!r} in this match (its questions are in the state's "
            "`match.questions`)",
            "ru": f"в партии нет вопроса {question!r} (они — в `match.questions` состояния)",
        }
    r = client.post(
        "/api/tables/t1/actions",
        headers=headers,
        json={"kind": "withdraw", "what": "answer", "question": "nosuch"},
    )
    assert r.status_code == 404 and "'nosuch'" in r.json()["error"]["en"]


def test_dismissing_an_alert_that_does_not_exist_is_404_naming_it(client: TestClient, hub: Hub) -> None:
    headers = auth(client)
    assert (
        client.post(
            "/api/tables/t1/match", headers=headers, json={"variant": "free", "players": list(PLAYERS)}
        ).status_code
        == 201
    )
    before = hub.state("t1")["cursor"]
    r = client.post(
        "/api/tables/t1/actions", headers=headers, json={"kind": "dismiss_alert", "alert": "no-such"}
    )
    assert r.status_code == 404, r.text
    assert r.json()["error"] == {
        "code": "not_found",
        "field": "alert",
        "en": "there is no alert 'no-such' to dismiss on table 't1' "
        "(its alerts are in the state's `match.alerts`)",
        "ru": "на столе 't1' нет предупреждения 'no-such', скрывать нечего (они "
        "— в `match.alerts` состояния)",
    }
    assert hub.state("t1")["cursor"] == before  # nothing stored
    # an alert that is there is dismissed (200), once; a second dismissal of it is the same answer, not a 404
    client.post("/api/tables/t1/actions", headers=headers, json={"kind": "open_shot"})
    hub.feed(RawMessage("mqtt", protocol.topic("t1", "pk-12", "status"), b'{"v": 1, "st": "lost"}', 1))
    assert hub.wait_idle(5)
    (alert,) = [a for a in hub.state("t1")["match"]["alerts"] if a["kind"] == "node_offline"]
    for _ in range(2):
        r = client.post(
            "/api/tables/t1/actions", headers=headers, json={"kind": "dismiss_alert", "alert": alert["id"]}
        )
        assert r.status_code == 200, r.text
    assert not [a for a in hub.state("t1")["match"]["alerts"] if a["kind"] == "node_offline"]
