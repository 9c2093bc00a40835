"""The hub's side of over-the-air updates (hub/ota/): keys the node derives alike, releases, manifests the
node's own parser accepts, the push's refusals, the go to swap held while a match is in play, and the
downloads' credential check on the hub's HTTP."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from firmware import ota as node_ota
from hub import config, configfile
from hub.ota import build as fw
from hub.ota.keys import Keys, KeysError, keys_text, node_key
from hub.ota.release import ReleaseError, Releases, signed_manifest
from hub.ota.service import Ota

TABLES = [
    {"id": "t1", "pockets": {"p1": [1, 2, 3]}, "cues": {"cue-a": 0}},
    {"id": "t2", "pockets": {"p4": [4]}},
]


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("b") / "build"
    fw.build(out, log=lambda _line: None, source=True)
    return out


def cfg(tmp: Path, **ota: Any) -> config.Config:
    return configfile.parse({"tables": TABLES, "store": {"path": str(tmp / "luza.db")}, "ota": ota})


def test_the_hub_derives_the_same_key_as_the_node_and_reads_the_installers_file(tmp_path: Path) -> None:
    assert node_key("pw") == node_ota.node_key("pw") and node_key(None) == node_ota.node_key("")
    path = tmp_path / "ota-keys.json"
    path.write_text(keys_text({"t1.p1": "pw1"}))
    keys = Keys.load(path)
    # not listed: open
    assert keys.key("t1", "p1") == node_key("pw1") and keys.key("t1", "p9") == node_key("")
    assert Keys.load(tmp_path / "none.json").key("t1", "p1") == node_key("")
    import os

    path.write_text(keys_text({"t1.p1": "pw2"}))  # `luza provision` / `luza rotate` rewrote it
    os.utime(path, (1, 1))
    assert keys.fresh().key("t1", "p1") == node_key("pw2") and keys.key("t1", "p1") == node_key("pw1")
    path.write_text("{not json")
    with pytest.raises(KeysError, match=r"ota-keys\.json: cannot read the nodes. update keys"):
        Keys.load(path)


def test_ota_section_defaults_beside_the_database_and_the_config(tmp_path: Path) -> None:
    c = cfg(tmp_path)
    assert c.ota.dir == str(tmp_path / "ota") and c.ota.keys is None and c.ota.host is None
    (tmp_path / "luza.toml").write_text('[store]\npath = "x.db"\n[ota]\nhost = "10.0.0.2"\n')
    (tmp_path / "ota-keys.json").write_text("{}")
    loaded = configfile.load(tmp_path / "luza.toml")
    assert loaded.ota.keys == str(tmp_path / "ota-keys.json") and loaded.ota.host == "10.0.0.2"
    with pytest.raises(config.ConfigError, match=r"ota\.url: unknown key"):
        configfile.parse({"ota": {"url": "x"}})


def test_a_build_is_a_release_whose_manifest_only_its_node_accepts(tmp_path: Path, build: Path) -> None:
    releases = Releases(tmp_path / "ota")
    r = releases.add_build(build, "0.1.0")
    assert r.id.startswith("0.1.0-") and releases.add_build(build, "0.1.0").id == r.id  # same build, same id
    assert not any(p == "main.py" for p, _, _ in r.files)  # the loader is never sent
    assert any(p == "firmware/ota.py" for p, _, _ in r.files) and r.file("firmware/ota.py") is not None
    assert r.file("../luza.db") is None and releases.latest() == r and releases.get("../x") is None
    keys = Keys.from_passwords({"t1.p1": "pw1", "t2.p4": "pw4"})
    body = signed_manifest(r, "t1", "p1", keys)
    m, why = node_ota.parse_manifest(body, node_ota.node_key("pw1"), "p1", r.id)
    assert why is None and m is not None and m["files"] == [list(f) for f in r.files]
    # another node's key
    assert node_ota.parse_manifest(body, node_ota.node_key("pw4"), "p1", r.id)[1] == "sig"
    assert (
        node_ota.parse_manifest(signed_manifest(r, "t2", "p4", keys), node_ota.node_key("pw4"), "p1", r.id)[1]
        == "manifest"
    )  # p4's own manifest is not p1's
    with pytest.raises(ReleaseError, match="not a firmware build"):
        releases.add_build(tmp_path, "0.1.0")


def test_a_config_change_is_a_one_file_release(tmp_path: Path) -> None:
    releases = Releases(tmp_path / "ota")
    r = releases.add_config({"beam": {"jam_ms": 1500}})
    assert r.kind == "cfg" and r.id.startswith("cfg-") and [p for p, _, _ in r.files] == ["config.json"]
    path = r.file("config.json")
    assert path is not None and json.loads(path.read_text()) == {"beam": {"jam_ms": 1500}}
    with pytest.raises(ReleaseError, match="JSON object"):
        releases.add_config({})


def test_the_hubs_own_firmware_is_built_once_with_mpy_cross(tmp_path: Path) -> None:
    releases = Releases(tmp_path / "ota")
    r = releases.add_tree()
    from firmware import VERSION

    assert r.fw == VERSION and r.id.startswith(VERSION + "-")
    assert any(p == "firmware/node.mpy" for p, _, _ in r.files) and releases.add_tree().id == r.id


class Fake:
    """The hub pieces the service calls: table states, registry rows, the command sender."""

    def __init__(self) -> None:
        self.states: dict[str, dict[str, Any]] = {"t1": {"match": None}, "t2": {"match": None}}
        self.rows: dict[str, Any] = {
            d: SimpleNamespace(state="online", ota=None) for d in ("p1", "cue-a", "p4")
        }
        self.sent: list[tuple[str, str, dict[str, Any]]] = []
        self.link = True

    def send(self, device: str, name: str, **args: Any) -> bool:
        self.sent.append((device, name, args))
        return self.link


def service(tmp: Path, build: Path) -> tuple[Ota, Fake, str]:
    fake = Fake()
    svc = Ota(cfg(tmp), lambda t: fake.states[t], fake.rows.get, fake.send, keys=Keys())
    assert svc.releases is not None
    rid = svc.releases.add_build(build, "0.1.0").id
    return svc, fake, rid


def test_push_refuses_each_node_that_cannot_take_it_now_with_a_clear_line(
    tmp_path: Path, build: Path
) -> None:
    svc, fake, rid = service(tmp_path, build)
    fake.states["t1"] = {"match": {"over": False}}
    fake.rows["p4"].state = "lost"
    got = {p.device: p for p in svc.push(["p1", "p4", "zz"], rid)}
    assert (
        got["p1"].code == "match_in_play"
        and "has a match in play" in got["p1"].en
        and "идёт партия" in got["p1"].ru
    )
    assert got["p4"].code == "offline" and got["zz"].code == "unknown_device" and fake.sent == []
    fake.states["t1"] = {"match": {"over": True}}  # a finished match is not in play
    (p,) = svc.push(["p1"], rid)
    assert p.code == "no_http" and "luza serve --http" in p.en
    svc.http_port = 8000
    (p,) = svc.push(["p1"], rid)
    assert p.ok and fake.sent == [("p1", "ota", {"r": rid, "port": 8000})]
    fake.link = False
    assert svc.push(["p1"], rid)[0].code == "unreachable"
    with pytest.raises(ReleaseError, match="no release 'nope'"):
        svc.push(["p1"], "nope")
    assert svc.stats["pushed"] == 1 and svc.stats["refused"] == 5


def test_a_node_already_updating_is_refused_until_its_update_has_ended(tmp_path: Path, build: Path) -> None:
    svc, fake, rid = service(tmp_path, build)
    svc.http_port = 8000
    fake.rows["p1"].ota = {"st": "fetch", "r": "0.1.0-aa", "to": "0.1.0", "n": 3, "of": 40}
    fake.rows["p4"].ota = {"st": "trial", "r": "0.1.0-aa", "to": "0.1.0"}
    got = {p.device: p for p in svc.push(["p1", "p4", "cue-a"], rid)}
    assert got["p1"].code == "busy" and got["p1"].en == (
        "p1 is already updating (downloading 0.1.0-aa 3/40): push "
        "again once it says ok, rolled back or refused"
    )
    assert got["p1"].ru.startswith("p1 уже обновляется (downloading 0.1.0-aa 3/40)")
    assert got["p4"].code == "busy" and "(trying 0.1.0-aa)" in got["p4"].en
    assert got["cue-a"].ok and [d for d, _, _ in fake.sent] == ["cue-a"]
    # ended (or waiting for its go: a newer one replaces it)
    for st in ("staged", "ok", "rolled_back", "refused"):
        fake.rows["p1"].ota = {"st": st, "r": "0.1.0-aa"}
        assert svc.push(["p1"], rid)[0].ok, st


def test_a_node_staged_during_a_match_gets_the_go_when_the_match_is_over(tmp_path: Path, build: Path) -> None:
    svc, fake, rid = service(tmp_path, build)
    fake.states["t1"] = {"match": {"over": False}}
    fake.rows["p1"].ota = {"st": "staged", "r": rid}
    svc.after_commit(["p1"])
    assert fake.sent == []  # held: the match is in play
    svc.after_commit([])
    assert fake.sent == []
    fake.states["t1"] = {"match": None}
    svc.after_commit([])
    assert fake.sent == [("p1", "ota", {"r": rid, "do": "swap"})]
    svc.after_commit([])
    assert len(fake.sent) == 1  # once


def test_downloads_need_the_nodes_own_credential(tmp_path: Path, build: Path) -> None:
    from hub.service.hub import Hub
    from hub.web import create_app

    keys = Keys.from_passwords({"t1.p1": "pw1"})
    hub = Hub(cfg(tmp_path), mqtt=False).start()
    try:
        hub.ota.keys = keys
        assert hub.ota.releases is not None
        r = hub.ota.releases.add_build(build, "0.1.0")
        with TestClient(create_app(hub)) as client:
            path = f"/ota/p1/{r.id}/manifest"
            good = {"X-Luza-Auth": node_ota.auth(node_ota.node_key("pw1"), path)}
            ok = client.get(path, headers=good)
            assert (
                ok.status_code == 200
                and node_ota.parse_manifest(ok.content, node_ota.node_key("pw1"), "p1", r.id)[1] is None
            )
            for headers in ({}, {"X-Luza-Auth": node_ota.auth(node_ota.node_key("pw2"), path)}):
                denied = client.get(path, headers=headers)
                assert denied.status_code == 403 and denied.json()["error"]["ru"]
            fpath = f"/ota/p1/{r.id}/f/firmware/ota.py"
            got = client.get(fpath, headers={"X-Luza-Auth": node_ota.auth(node_ota.node_key("pw1"), fpath)})
            assert got.status_code == 200 and got.content == (build / "firmware" / "ota.py").read_bytes()
            other = f"/ota/p1/{r.id}/f/firmware/../../../luza.db"
            assert client.get(
                other, headers={"X-Luza-Auth": node_ota.auth(node_ota.node_key("pw1"), other)}
            ).status_code in (403, 404)
            assert hub.ota.stats["denied"] >= 2
            assert client.get("/api/ota").json()["latest"] == r.id
    finally:
        hub.stop()
