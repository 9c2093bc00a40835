"""A match with a torn page, exported through a real `luza serve --http` (issue 18, item 4): the export
answers one clear error (410 `damaged`, both languages; one warning line in the log, no traceback), the zip of
every match leaves it out and lists it, and the hub that started on the damaged file serves the live match."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import httpx

from hub.web.auth import CLUB, PinStore
from tests.hub.store.test_torn_page import old_match_and_live_ones, tear_old_match
from tests.support.config import write_luza_toml
from tests.web.test_serve_http import ServeHttp, free_port

TABLES = (
    {"id": "t1", "pockets": {"p1": [1, 2, 3, 4, 5, 6]}},
    {"id": "t2", "pockets": {"p2": [1, 2, 3, 4, 5, 6]}},
)


def test_the_export_of_a_torn_match_is_one_clear_error_and_the_zip_lists_it(tmp_path: Path) -> None:
    db = tmp_path / "luza.db"
    old, live = old_match_and_live_ones(db)
    tear_old_match(db, old)
    conf = write_luza_toml(tmp_path / "luza.toml", f"mqtt://127.0.0.1:{free_port()}", db, TABLES)  # no broker
    PinStore(db).set(CLUB, "13579")  # the zip of every match is the club's: a club token (hub/web/heavy.py)
    port = free_port()
    serve = ServeHttp(conf, port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as api:
            state = api.get("/api/tables/t1/state").json()
            assert state["match"]["match_id"] == live["t1"]
            assert [a["kind"] for a in state["alerts"]] == ["store_damaged"]
            r = api.get(f"/api/matches/{old}/export", params={"format": "csv"})
            assert r.status_code == 410, r.text
            err = r.json()["error"]
            assert err["code"] == "damaged" and err["field"] == "match"
            assert err["en"].startswith(f"match {old} cannot be exported: part of it is on a damaged page")
            assert err["ru"].startswith(f"партию {old} нельзя выгрузить")
            assert api.get(f"/api/matches/{old}").status_code == 410
            assert api.get(f"/api/matches/{live['t2']}/export").status_code == 200  # the others export
            token = api.post("/api/club/token", json={"pin": "13579"}).json()["token"]
            z = api.get(
                "/api/matches/export.zip", params={"lang": "en"}, headers={"Authorization": f"Bearer {token}"}
            )
            assert z.status_code == 200  # streamed: the matches left out are listed inside, not in a header
            with zipfile.ZipFile(io.BytesIO(z.content)) as zf:
                assert set(zf.namelist()) == {f"luza-match-{i}.json" for i in live.values()} | {
                    "luza-skipped.txt"
                }
                assert f"match {old}: " in zf.read("luza-skipped.txt").decode()
    finally:
        assert serve.stop() == 0
    log = "".join(serve.lines)
    assert "Traceback" not in log and "damaged page" in log
    refusals = [line for line in serve.lines if f"match {old} cannot be exported" in line]
    # identical ones: once a minute
    assert refusals and all(" WARNING luza.web: " in line for line in refusals)
