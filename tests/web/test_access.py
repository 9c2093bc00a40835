"""Access: PIN -> token per table, 401 without or with another table's token, lockout with Retry-After, a new
PIN revokes the tokens, `luza pin set`."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hub.service.hub import Hub
from hub.web.auth import Lockout, PinStore, Tokens
from tests.web.conftest import PIN, auth

LUZA = [sys.executable, "-m", "hub.cli"]


def test_token_exchange(client: TestClient) -> None:
    r = client.post("/api/tables/t1/token", json={"pin": PIN})
    assert r.status_code == 200
    body = r.json()
    assert body["table"] == "t1" and body["expires_s"] == 12 * 3600 and len(body["token"]) >= 32


def test_wrong_pin(client: TestClient) -> None:
    r = client.post("/api/tables/t1/token", json={"pin": "0000"})
    assert r.status_code == 401
    assert r.json() == {
        "error": {"code": "wrong_pin", "en": "wrong PIN", "ru": "неверный PIN", "field": "pin"}
    }


def test_no_pin_set_says_how_to_set_one(client: TestClient) -> None:
    r = client.post("/api/tables/t2/token", json={"pin": "1234"})
    assert r.status_code == 409
    assert r.json()["error"] == {
        "code": "no_pin",
        "field": "pin",
        "en": "no referee PIN is set for table 't2': on the hub run `luza pin set --table t2`",
        "ru": "для стола 't2' не задан PIN судьи: на хабе выполните `luza pin set --table t2`",
    }


def test_mutating_calls_need_the_tables_token(client: TestClient) -> None:
    body = {"variant": "free", "players": ["A", "B"]}
    r = client.post("/api/tables/t1/match", json=body)
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    assert r.json()["error"] == {
        "code": "unauthorized",
        "field": "authorization",
        "en": "this needs the referee's token for table 't1': enter the PIN on the panel",
        "ru": "нужен токен судьи стола 't1': введите PIN на панели",
    }
    assert (
        client.post(
            "/api/tables/t1/match", json=body, headers={"Authorization": "Bearer made-up"}
        ).status_code
        == 401
    )
    PinStore(client.app.state.luza.hub.config.store.path).set("t2", "9999")  # type: ignore[attr-defined]
    t2 = auth(client, "t2", "9999")
    assert client.post("/api/tables/t1/match", json=body, headers=t2).status_code == 401
    assert client.post("/api/tables/t2/match", json=body, headers=t2).status_code == 201


def test_lockout_after_wrong_pins_with_retry_after(client: TestClient) -> None:
    for _ in range(2):
        assert client.post("/api/tables/t1/token", json={"pin": "1111"}).status_code == 401
    r = client.post("/api/tables/t1/token", json={"pin": "1111"})  # the third wrong PIN locks (settings: 3)
    assert r.status_code == 429 and r.headers["retry-after"] == "2"
    assert r.json()["error"] == {
        "code": "locked",
        "field": "pin",
        "en": "too many wrong PINs for table 't1'; try again in 2 s",
        "ru": "слишком много неверных PIN для стола 't1'; повторите через 2 с",
    }
    r = client.post("/api/tables/t1/token", json={"pin": PIN})  # even the right PIN waits
    assert r.status_code == 429 and 1 <= int(r.headers["retry-after"]) <= 2
    # other tables unaffected
    assert client.post("/api/tables/t2/token", json={"pin": "1"}).status_code == 409


def test_lockout_grows_and_a_right_pin_resets_it() -> None:
    now = [0.0]
    lock = Lockout(3, 300, 60, 900, clock=lambda: now[0])
    assert [lock.wrong("t1") for _ in range(3)] == [0, 0, 60]
    assert lock.retry_after("t1") == 60
    now[0] = 61
    assert lock.retry_after("t1") == 0
    assert [lock.wrong("t1") for _ in range(3)] == [0, 0, 120]  # doubled
    now[0] = 1000
    lock.right("t1")
    assert [lock.wrong("t1") for _ in range(3)] == [0, 0, 60]
    for _ in range(20):
        for _ in range(3):
            lock.wrong("t2")
    assert lock.retry_after("t2") <= 900  # capped at lockout_max_s


def test_tokens_expire() -> None:
    now = [0.0]
    tokens = Tokens(10, clock=lambda: now[0])
    t = tokens.issue("t1", "panel", 1)
    assert tokens.get(t) is not None
    now[0] = 11
    assert tokens.get(t) is None


def test_a_new_pin_revokes_the_tokens(client: TestClient, hub: Hub) -> None:
    headers = auth(client)
    body = {"variant": "free", "players": ["A", "B"]}
    PinStore(hub.config.store.path).set("t1", "13579")
    assert client.post("/api/tables/t1/match", json=body, headers=headers).status_code == 401
    assert (
        client.post("/api/tables/t1/match", json=body, headers=auth(client, pin="13579")).status_code == 201
    )


def test_pins_are_stored_hashed(hub: Hub) -> None:
    PinStore(hub.config.store.path).set("t1", "24682468")
    conn = sqlite3.connect(hub.config.store.path)
    row = conn.execute("SELECT salt, hash, n FROM pins WHERE table_id = 't1'").fetchone()
    conn.close()
    assert b"24682468" not in row[0] + row[1] and len(row[1]) == 32 and row[2] == 2**14
    store = PinStore(hub.config.store.path)
    assert store.verify("t1", "24682468") is True and store.verify("t1", "2468") is False
    assert store.verify("t2", "2468") is None


def test_luza_pin_set(tmp_path: Path) -> None:
    conf = tmp_path / "luza.toml"
    db = tmp_path / "luza.db"
    conf.write_text(f'[store]\npath = "{db}"\n\n[[tables]]\nid = "t1"\n')
    ok = subprocess.run(
        [*LUZA, "pin", "set", "--config", str(conf), "--table", "t1", "--pin", "4321"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ok.returncode == 0 and ok.stdout.strip() == "PIN set for table t1 / PIN стола t1 задан"
    assert PinStore(db).verify("t1", "4321") is True
    bad = subprocess.run(
        [*LUZA, "pin", "set", "--config", str(conf), "--table", "t1", "--pin", "12ab"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        bad.returncode == 2
        and bad.stderr.strip() == "luza pin: a PIN is 4 to 12 digits / PIN — от 4 до 12 цифр"
    )
    other = subprocess.run(
        [*LUZA, "pin", "set", "--config", str(conf), "--table", "t7", "--pin", "1234"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert other.returncode == 2 and "no table 't7'" in other.stderr and "Traceback" not in other.stderr


@pytest.mark.parametrize("table", ["bad/id", "T1", "", "t1; drop", "x" * 33])
def test_luza_pin_set_refuses_a_table_id_that_is_not_one(tmp_path: Path, table: str) -> None:
    db = tmp_path / "luza.db"  # with --db there is no luza.toml to check the table against (main exited 0)
    done = subprocess.run(
        [*LUZA, "pin", "set", "--db", str(db), "--table", table, "--pin", "4321"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stdout == ""
    assert (
        done.stderr.count("\n") == 1 and "is not a table id" in done.stderr and "не id стола" in done.stderr
    )
    assert not db.exists() or PinStore(db).verify(table, "4321") is None


@pytest.mark.parametrize("pin", ["", "123", "1234567890123", "１２３４"])
def test_pin_format(hub: Hub, pin: str) -> None:
    from hub.web.auth import PinError

    with pytest.raises(PinError):
        PinStore(hub.config.store.path).set("t1", pin)
