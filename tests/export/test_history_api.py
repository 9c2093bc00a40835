"""The history and export REST routes (hub.web.history) served by a real uvicorn server on a free port."""

from __future__ import annotations

import csv
import io
import socket
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from hub.web import heavy
from hub.web.heavy import Gate
from hub.web.history import history_router

GATE = Gate(lambda token: token == "club-token")  # the web app's gate takes a live club token (hub.web.heavy)
CLUB = {"Authorization": "Bearer club-token"}


@pytest.fixture(scope="module")
def api(match_db: Path) -> Iterator[httpx.Client]:
    app = FastAPI()
    app.include_router(history_router(match_db, GATE))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    started = threading.Event()
    for _ in range(200):  # wait on the condition: the server says it has started
        if server.started:
            started.set()
            break
        started.wait(0.05)
    assert server.started
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        yield client
    server.should_exit = True
    thread.join(10)


def test_search_with_filters_and_paging(api: httpx.Client) -> None:
    r = api.get("/api/matches", params={"player": "иван", "limit": 1})
    assert r.status_code == 200
    body = r.json()
    assert body["total"] == 2 and body["limit"] == 1 and [m["id"] for m in body["matches"]] == [2]
    assert body["matches"][0]["scores"] == [52, 0] and body["matches"][0]["title"]["en"]
    r = api.get("/api/matches", params={"variant": "classic", "status": "ended", "since": "2026-11-14"})
    assert [m["id"] for m in r.json()["matches"]] == [1]


def test_one_match_as_json_and_as_files(api: httpx.Client) -> None:
    doc = api.get("/api/matches/1").json()
    assert doc["format"] == "luza-match-export" and doc["result"]["scores"] == [71, 8]
    r = api.get("/api/matches/1/export", params={"format": "csv"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert 'filename="luza-match-1.csv"' in r.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(r.content.decode("utf-8-sig"))))[:-1]  # the last: the signature
    assert len(rows) == 9
    r = api.get("/api/matches/2/export", params={"format": "html", "lang": "en"})
    assert (
        r.status_code == 200
        and "Match scoresheet" in r.text
        and r.headers["content-disposition"].startswith("inline")
    )
    r = api.get("/api/matches/2/export", params={"format": "pdf"}, headers=CLUB)
    assert r.status_code == 200 and r.content.startswith(b"%PDF")


def test_every_match_as_a_zip(api: httpx.Client) -> None:
    r = api.get("/api/matches/export.zip", params={"format": "json", "since": "2026-11-01"}, headers=CLUB)
    assert r.status_code == 200 and "content-length" not in r.headers  # streamed, a match at a time
    with zipfile.ZipFile(io.BytesIO(r.content)) as zf:
        assert sorted(zf.namelist()) == ["luza-match-1.json", "luza-match-2.json"]
        assert zf.testzip() is None


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/api/matches/export.zip", {"format": "pdf"}),
        ("/api/matches/export.zip", {"format": "csv"}),
        ("/api/matches/1/export", {"format": "pdf"}),
    ],
)
def test_heavy_exports_are_the_clubs(api: httpx.Client, path: str, params: dict[str, str]) -> None:
    for headers in ({}, {"Authorization": "Bearer guess"}):
        r = api.get(path, params=params, headers=headers)
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
        assert "club PIN" in r.json()["error"]["en"] and "PIN клуба" in r.json()["error"]["ru"]


def test_a_second_heavy_export_while_one_runs_is_told_when_to_come_back(api: httpx.Client) -> None:
    job = GATE.begin(10, "pdf")  # one is running (ten PDFs, none done yet)
    try:
        for path, params in (
            ("/api/matches/export.zip", {"format": "json"}),
            ("/api/matches/1/export", {"format": "pdf"}),
        ):
            r = api.get(path, params=params, headers=CLUB)
            assert r.status_code == 429, r.text
            err, wait = r.json()["error"], int(r.headers["Retry-After"])
            assert wait >= 1 and err["code"] == "busy"
            assert (
                err["en"].endswith(f"busy, try again in {wait} s")
                and f"повторите через {wait} с" in err["ru"]
            )
    finally:
        GATE.end(job)
    assert api.get("/api/matches/export.zip", params={"format": "json"}, headers=CLUB).status_code == 200


def test_a_zip_is_bounded(api: httpx.Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(heavy.MAX_ZIP, "json", 1)
    r = api.get("/api/matches/export.zip", params={"format": "json"}, headers=CLUB)
    assert r.status_code == 413 and "narrow since/until" in r.json()["error"]["en"]


@pytest.mark.parametrize(
    ("path", "params", "status", "code", "en"),
    [
        ("/api/matches/99", {}, 404, "not_found", "no match 99"),
        ("/api/matches/99/export", {"format": "csv"}, 404, "not_found", "no match 99"),
        ("/api/matches/x", {}, 400, "malformed", "match: expected a whole number, got 'x'"),
        ("/api/matches/1/export", {"format": "docx"}, 400, "malformed", "unknown format 'docx'"),
        ("/api/matches/1/export", {"lang": "de"}, 400, "malformed", "unknown language 'de'"),
        ("/api/matches", {"status": "paused"}, 400, "malformed", "status: one of live, ended"),
        ("/api/matches", {"limit": "many"}, 400, "malformed", "limit: expected a whole number"),
        ("/api/matches", {"since": "yesterday"}, 400, "malformed", "since: expected a date YYYY-MM-DD"),
        ("/api/matches/export.zip", {"format": "xml"}, 400, "malformed", "unknown format 'xml'"),
    ],
)
def test_bad_requests_get_the_contracts_error_body(
    api: httpx.Client, path: str, params: dict[str, str], status: int, code: str, en: str
) -> None:
    r = api.get(path, params=params)
    assert r.status_code == status
    err = r.json()["error"]
    assert err["code"] == code and err["en"].startswith(en) and err["ru"] and err["ru"] != err["en"]


def test_a_missing_match_does_not_tell_a_web_client_where_the_database_is(api: httpx.Client) -> None:
    assert api.get("/api/matches/99").json()["error"] == {
        "code": "not_found",
        "en": "no match 99",
        "ru": "партии 99 нет",
        "field": "match",
    }


def test_pdf_without_weasyprint_is_501_with_the_install_line(
    api: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "weasyprint", None)  # the server runs in this process
    r = api.get("/api/matches/1/export", params={"format": "pdf"}, headers=CLUB)
    assert r.status_code == 501 and r.json()["error"]["en"].startswith("PDF export needs WeasyPrint")


def test_a_player_is_found_in_either_alphabet(api: httpx.Client) -> None:
    for query in ("ivan", "IVAN petrov", "Петров", "kuznetsov"):
        body = api.get("/api/matches", params={"player": query}).json()
        assert body["total"] == 2, query
    assert api.get("/api/matches", params={"player": "sidorov"}).json()["total"] == 0


def test_the_hub_verifies_a_stored_match_as_luza_verify_does(api: httpx.Client) -> None:
    body = api.get("/api/matches/1/verify").json()
    assert body["status"] == "verified" and body["ok"] is True, body
    assert body["scores"] == [71, 8] and body["shots"] == 9 and body["problems"] == []
    assert body["evidence"]["complete"] is True and body["signature"]["status"] == "signed"
    assert "71:8" in body["en"] and "71:8" in body["ru"]
    r = api.get("/api/matches/99/verify")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
