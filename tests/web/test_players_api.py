"""The player registry and the statistics over REST, through the real app: a search is open, adding a player
takes a referee's token (of any table) or the club's, merging takes the club's; a match started with player
ids counts for those players on /api/stats, /api/players/{id} and in the CSV;
the CLI says the same as the API."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from hub.service.hub import Hub
from hub.stats.compute import compute
from tests.export.matchkit import Table, play_classic
from tests.web.conftest import auth
from tests.web.test_club_role import club_auth, club_pin

LUZA = [sys.executable, "-m", "hub.cli"]


def add(client: TestClient, headers: dict[str, str], **fields: object) -> dict[str, object]:
    r = client.post("/api/players", json=fields, headers=headers)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def test_search_and_add(client: TestClient) -> None:
    r = client.post("/api/players", json={"name": "Иван Петров"})
    assert r.status_code == 401 and r.json()["error"]["ru"].startswith("чтобы добавить игрока")
    ref = auth(client)
    ivan = add(client, ref, name="Иван Петров", nickname="Ваня")
    assert (ivan["id"], ivan["name_en"], ivan["photo"]) == (1, "Ivan Petrov", False)
    club_pin(client)
    add(client, club_auth(client), name="Anna Kozlova")
    for q, found in (
        ("ivan", ["Иван Петров"]),
        ("Петров", ["Иван Петров"]),
        ("анна", ["Anna Kozlova"]),
        ("vanya", ["Иван Петров"]),
        ("", ["Anna Kozlova", "Иван Петров"]),
        ("nobody", []),
    ):
        r = client.get("/api/players", params={"q": q})
        assert r.status_code == 200 and [p["name"] for p in r.json()["players"]] == found, q
    r = client.post("/api/players", json={"name": "X", "photo": "data:image/gif;base64,AAAA"}, headers=ref)
    assert r.status_code == 400 and r.json()["error"]["field"] == "photo"
    r = client.post("/api/players", json={"name": "X", "age": 40}, headers=ref)
    assert r.status_code == 422
    assert client.get("/api/players/7").status_code == 404
    assert client.get("/api/players/seven").json()["error"]["field"] == "player"


def test_a_match_with_player_ids_counts_for_them(
    client: TestClient, hub: Hub, table: Table, tmp_path: Path
) -> None:
    ref = auth(client)
    ivan, sergei = (add(client, ref, name=n)["id"] for n in ("Иван Петров", "Сергей Кузнецов"))
    dup = add(client, ref, name="Ivan Petrov")["id"]
    r = client.post(
        "/api/tables/t1/match",
        headers=ref,
        json={
            "variant": "classic",
            "players": ["Ivan Petrov", "Сергей Кузнецов"],
            "player_ids": [dup, sergei],
        },
    )
    assert r.status_code == 201 and r.json()["state"]["match"]["player_ids"] == [dup, sergei]
    client.post("/api/tables/t1/actions", headers=ref, json={"kind": "end_match"})
    table.births()
    hub.wait_idle()
    play_classic_with_ids(table, [ivan, sergei])
    board = client.get("/api/stats").json()
    assert board["counted"] == 2 and board["players"][0]["id"] == ivan
    me = client.get(f"/api/players/{ivan}").json()
    assert me["figures"]["matches"]["won"] == 1 and me["figures"]["points"] == {"for": 71, "against": 8}
    assert me["head_to_head"][0]["opponent"]["id"] == sergei and me["head_to_head"][0]["won"] == 1
    # merging is the club's
    r = client.post("/api/players/merge", json={"duplicate": dup, "into": ivan}, headers=ref)
    assert r.status_code == 401 and "club" in r.json()["error"]["en"]
    club_pin(client)
    club = club_auth(client)
    r = client.post("/api/players/merge", json={"duplicate": ivan, "into": sergei}, headers=club)
    assert r.status_code == 409 and r.json()["error"]["field"] == "into"  # they played each other
    r = client.post("/api/players/merge", json={"duplicate": dup, "into": ivan}, headers=club)
    assert r.status_code == 200 and r.json()["moved_matches"] == 1
    old = client.get(f"/api/players/{dup}").json()
    assert old["merged_into"] == ivan and old["figures"] is None
    me = client.get(f"/api/players/{ivan}").json()
    assert me["figures"]["matches"]["played"] == 2 and me["figures"]["matches"]["unfinished"] == 1
    r = client.get("/api/stats.csv")
    assert r.status_code == 200 and r.headers["content-disposition"].endswith('"luza-players.csv"')
    rows = list(csv.DictReader(io.StringIO(r.content.decode("utf-8-sig"))))
    assert [(x["id"], x["name"], x["matches"], x["won"]) for x in rows] == [
        (str(ivan), "Иван Петров", "2", "1"),
        (str(sergei), "Сергей Кузнецов", "2", "0"),
    ]
    assert rows[0]["best_run_balls"] == "4" and rows[1]["fouls"] == "classic 5.5: 1"
    # the CLI reads the same database and says the same
    db = str(hub.config.store.path)
    out = subprocess.run([*LUZA, "stats", "--db", db, "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["players"] == board_now(db)
    out = subprocess.run(
        [*LUZA, "players", "list", "--db", db, "--search", "ivan"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0 and "Иван Петров" in out.stdout and "Ivan Petrov  (merged" not in out.stdout
    out = subprocess.run(
        [*LUZA, "players", "merge", str(ivan), str(sergei), "--db", db],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2 and "played each other" in out.stderr and out.stderr.count("\n") == 1
    out = subprocess.run(
        [*LUZA, "stats", "--db", str(tmp_path / "none.db")], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 2 and out.stderr.startswith("luza stats: no database at")


def board_now(db: str) -> list[dict[str, object]]:
    from hub.stats.figures import leaderboard

    fig, _ = compute(db)
    return json.loads(json.dumps(leaderboard(fig)))  # type: ignore[no-any-return]


def play_classic_with_ids(table: Table, ids: list[int]) -> None:
    """tests/export/matchkit.py's Classic match, started with the players' ids."""
    hub = table.hub
    real = hub.new_match
    hub.new_match = lambda t, v, p, o=None: hub.submit(
        t,
        {
            "kind": "new_match",
            "variant": v,  # type: ignore[method-assign]
            "players": list(p),
            "player_ids": ids,
        },
    )
    try:
        play_classic(table)
    finally:
        hub.new_match = real  # type: ignore[method-assign]
