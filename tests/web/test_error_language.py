"""Every refusal of the web API says it in Russian in its `ru` text (issue 20, item 4): FastAPI's own
validation and body-parsing messages, the engine's option checks and the hub's own checks — no English words
in the Russian (identifiers of the API stay: field names, quoted values, codes). Against the real app
(TestClient) on a real hub."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hub.service.hub import Hub
from tests.export.matchkit import PLAYERS
from tests.web.conftest import auth

# English words that have no business in a Russian sentence (identifiers are quoted or snake_case).
ENGLISH = {
    "the",
    "a",
    "an",
    "is",
    "are",
    "was",
    "were",
    "must",
    "be",
    "should",
    "of",
    "to",
    "or",
    "and",
    "not",
    "with",
    "for",
    "there",
    "error",
    "parsing",
    "body",
    "field",
    "required",
    "missing",
    "invalid",
    "valid",
    "value",
    "got",
    "expected",
    "type",
    "int",
    "str",
    "bool",
    "float",
    "integer",
    "string",
    "number",
    "object",
    "list",
    "dict",
    "input",
    "unknown",
    "allowed",
    "method",
    "found",
    "please",
    "only",
    "greater",
    "less",
    "than",
    "equal",
    "least",
    "most",
    "characters",
    "items",
    "json_invalid",
}


def english_words(ru: str, field: str | None = None) -> list[str]:
    if field and ru.startswith(f"{field}:"):
        ru = ru[len(field) + 1 :]  # the field at fault is named as the API names it
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", " ", ru)  # quoted values and commands are the API's
    return [w for w in re.findall(r"[A-Za-z_][\w.-]*", text) if w.lower() in ENGLISH]  # cue-a: one identifier


BAD_JSON = {"Content-Type": "application/json"}
REQUESTS: list[tuple[str, str, dict[str, Any]]] = [
    ("token", "/api/tables/t1/token", {"content": b"not json", "headers": BAD_JSON}),
    ("token", "/api/tables/t1/token", {"content": b'{"pin": "\xc3"}', "headers": BAD_JSON}),  # not UTF-8
    ("token", "/api/tables/t1/token", {"content": b"pin=1", "headers": {"Content-Type": "text/plain"}}),
    ("token", "/api/tables/t1/token", {"json": {"pin": 123}}),
    ("token", "/api/tables/t1/token", {"json": {}}),
    ("token", "/api/tables/t1/token", {"json": [1]}),
    ("token", "/api/tables/t1/token", {"json": {"pin": "1" * 300}}),
    (
        "match",
        "/api/tables/t1/match",
        {"json": {"variant": "classic", "players": ["a", "b"], "options": {"target": "x"}}},
    ),
    (
        "match",
        "/api/tables/t1/match",
        {"json": {"variant": "classic", "players": ["a", "b"], "options": {"target": 1.5}}},
    ),
    (
        "match",
        "/api/tables/t1/match",
        {"json": {"variant": "classic", "players": ["a", "b"], "options": {"incorrect_break_rebreak": 3}}},
    ),
    ("match", "/api/tables/t1/match", {"json": {"variant": "nope", "players": ["a", "b"]}}),
    ("match", "/api/tables/t1/match", {"json": {"variant": "classic", "players": ["a"]}}),
    ("match", "/api/tables/t1/match", {"json": {"variant": "classic", "players": ["", ""]}}),
    (
        "match",
        "/api/tables/t1/match",
        {"json": {"variant": "classic", "players": ["a", "b"], "cues": {"zz": 0}}},
    ),
    ("match", "/api/tables/t1/match", {"json": {"variant": "classic", "players": ["a", "b"], "extra": 1}}),
    ("action", "/api/tables/t1/actions", {"json": {"kind": "foul", "foul": "elbow"}}),
    ("action", "/api/tables/t1/actions", {"json": {"kind": "lag", "winner": "x"}}),
    ("action", "/api/tables/t1/actions", {"json": {"kind": "zzz"}}),
    ("action", "/api/tables/t1/actions", {"json": {"winner": 0}}),
    ("action", "/api/tables/t1/actions", {"json": {"kind": "declare", "ball": "x", "pocket": 9}}),
    ("action", "/api/tables/t1/actions", {"json": {"kind": "fact", "name": "cushions", "value": "abc"}}),
    ("action", "/api/tables/t1/actions", {"json": {"kind": "identify", "item": 5}}),
    ("action", "/api/tables/t1/actions", {"json": {"kind": "undo", "uid": 5}}),
    ("action", "/api/tables/t1/actions", {"json": {"kind": "undo", "extra": 5}}),
    ("action", "/api/tables/t1/actions", {"content": b"{", "headers": BAD_JSON}),
    ("action", "/api/tables/t9/actions", {"json": {"kind": "undo"}}),
    ("device", "/api/devices/nope/commands", {"json": {"name": "identify"}}),
    ("device", "/api/devices/pk-12/commands", {"json": {"name": "zz"}}),
    ("device", "/api/devices/pk-12/commands", {"json": {}}),
]
GETS = [
    "/api/tables/t9/state",
    "/api/matches?status=x",
    "/api/matches?limit=x",
    "/api/matches?limit=-1",
    "/api/matches/abc",
    "/api/matches/999",
    "/nope",
]


@pytest.mark.parametrize(
    ("what", "path", "request_kw"), REQUESTS, ids=[f"{i}-{r[0]}" for i, r in enumerate(REQUESTS)]
)
def test_a_refused_request_says_it_in_russian(
    client: TestClient, hub: Hub, what: str, path: str, request_kw: dict[str, Any]
) -> None:
    if what == "action":
        hub.new_match("t1", "free", PLAYERS)
    headers = {**(auth(client) if what != "token" else {}), **request_kw.pop("headers", {})}
    r = client.post(path, headers=headers, **request_kw)
    assert 400 <= r.status_code < 500, r.text
    body = r.json()["error"]
    assert body["ru"] and body["en"] and body["ru"] != body["en"], body
    assert not english_words(body["ru"], body["field"]), body["ru"]
    assert "There was an error" not in body["ru"] and not re.search(
        r"должен быть (int|bool|str)\b", body["ru"]
    )


@pytest.mark.parametrize("path", GETS)
def test_a_refused_query_says_it_in_russian(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert 400 <= r.status_code < 500, r.text
    body = r.json()["error"]
    assert body["ru"] != body["en"] and not english_words(body["ru"], body["field"]), body


def test_fastapi_own_refusals_are_said_in_russian(client: TestClient) -> None:
    r = client.post("/api/tables/t1/token", content=b'{"pin": "\xc3"}', headers=BAD_JSON)
    assert r.status_code == 400  # FastAPI's "There was an error parsing the body"
    assert r.json()["error"]["ru"] == "тело запроса не прочитать: отправьте JSON в кодировке UTF-8"
    r = client.post(
        "/api/tables/t1/match",
        headers=auth(client),
        json={"variant": "classic", "players": ["a", "b"], "options": {"target": "x"}},
    )
    assert (
        r.json()["error"]["ru"]
        == "нельзя начать партию: параметр 'target' должен быть целым числом, получено 'x'"
    )
    r = client.post("/api/tables/t1/token", json=[1])
    assert r.json()["error"]["ru"] == "тело запроса: нужен объект"
