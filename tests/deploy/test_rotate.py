"""`luza rotate`: after the broker's reload the old password is refused and the new one works; the hub's
rotation keeps luza.toml and the credentials in step, so the installer then has nothing to change."""

from __future__ import annotations

import json
import signal
import tomllib
from pathlib import Path

import pytest

from hub.cli import main
from hub.commands.rotate import set_hub_password
from hub.ota.keys import Keys, node_key
from tests.deploy.conftest import Client
from tests.deploy.helpers import installed_broker
from tests.deploy.test_install import install
from tests.support.broker import free_port

pytestmark = pytest.mark.mosquitto


def _connects(broker: object, user: str, password: str) -> int:
    c = Client(broker, user, password)  # type: ignore[arg-type]
    try:
        return c.connect()
    finally:
        c.close()


def test_rotate_a_node_and_the_hub(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, port = tmp_path / "pi", free_port()
    install(root, "--table", "t1", "--port", str(port))
    toml = root / "etc/luza/luza.toml"
    toml.write_text(toml.read_text().replace("pockets = {}", "pockets = { p1 = [1] }"))
    install(root, "--table", "t1", "--port", str(port))
    cpath = root / "etc/luza/credentials.json"
    old = json.loads(cpath.read_text())
    broker = installed_broker(root, tmp_path / "b", port)
    try:
        assert _connects(broker, "t1.p1", old["devices"]["t1.p1"]) == 0
        assert main(["rotate", "t1.p1", "--root", str(root)]) == 0
        assert "luza provision" in capsys.readouterr().out
        assert broker.proc is not None
        broker.proc.send_signal(signal.SIGHUP)  # `systemctl reload mosquitto`
        new = json.loads(cpath.read_text())
        assert new["devices"]["t1.p1"] != old["devices"]["t1.p1"] and new["hub"] == old["hub"]
        keys = Keys.load(root / "etc/luza/ota-keys.json")  # the hub signs the node's updates with its new key
        assert keys.key("t1", "p1") == node_key(new["devices"]["t1.p1"]) != node_key(old["devices"]["t1.p1"])
        for _ in range(100):  # the reload is asynchronous: wait until the old password stops working
            if _connects(broker, "t1.p1", old["devices"]["t1.p1"]) != 0:
                break
        assert _connects(broker, "t1.p1", old["devices"]["t1.p1"]) != 0
        assert _connects(broker, "t1.p1", new["devices"]["t1.p1"]) == 0
        assert main(["rotate", "luza-hub", "--root", str(root)]) == 0
        hub_pw = json.loads(cpath.read_text())["hub"]
        assert tomllib.loads(toml.read_text())["broker"]["password"] == hub_pw != old["hub"]
        assert install(root, "--table", "t1", "--port", str(port)).strip().endswith("0 file(s) changed")
    finally:
        broker.stop()
    assert main(["rotate", "t9.nobody", "--root", str(root)]) == 2
    assert "no broker user 't9.nobody'" in capsys.readouterr().err


def test_rotate_the_hubs_telemetry_account(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, port = tmp_path / "pi", free_port()
    install(root, "--table", "t1", "--port", str(port))
    toml, cpath = root / "etc/luza/luza.toml", root / "etc/luza/credentials.json"
    old = json.loads(cpath.read_text())
    assert tomllib.loads(toml.read_text())["broker"]["tele_password"] == old["tele"]
    broker = installed_broker(root, tmp_path / "b", port)
    try:
        assert _connects(broker, "luza-hub-tele", old["tele"]) == 0
        assert main(["rotate", "luza-hub-tele", "--root", str(root)]) == 0
        assert "restart the hub" in capsys.readouterr().out
        new = json.loads(cpath.read_text())
        assert new["tele"] != old["tele"] and {k: v for k, v in new.items() if k != "tele"} == {
            k: v for k, v in old.items() if k != "tele"
        }
        broker_section = tomllib.loads(toml.read_text())["broker"]
        assert broker_section["tele_password"] == new["tele"] and broker_section["password"] == old["hub"]
        assert broker.proc is not None
        broker.proc.send_signal(signal.SIGHUP)  # `systemctl reload mosquitto`
        for _ in range(100):  # the reload is asynchronous: wait until the old password stops working
            if _connects(broker, "luza-hub-tele", old["tele"]) != 0:
                break
        assert _connects(broker, "luza-hub-tele", old["tele"]) != 0
        assert _connects(broker, "luza-hub-tele", new["tele"]) == 0
        assert _connects(broker, "luza-hub", old["hub"]) == 0
        assert install(root, "--table", "t1", "--port", str(port)).strip().endswith("0 file(s) changed")
    finally:
        broker.stop()


def test_set_hub_password_is_a_targeted_edit() -> None:
    text = (
        '[club]\nname = "x"\n\n[broker]  # the broker\nurl = '
        '"mqtt://127.0.0.1:1883"\npassword = "old"\n[store]\n'
    )
    assert set_hub_password(text, "new") == text.replace('password = "old"', 'password = "new"')
    added = set_hub_password('[broker]\nurl = "mqtt://h:1"\n', "pw")
    assert tomllib.loads(added)["broker"] == {"url": "mqtt://h:1", "password": "pw"}
    assert tomllib.loads(set_hub_password('[club]\nname = "x"\n', "pw"))["broker"] == {"password": "pw"}


def test_rewritten_broker_files_keep_their_owner(tmp_path: Path) -> None:
    """The installer makes the password file root:mosquitto; `luza rotate`/`provision` rewriting it must not
    hand it back to root:root, or Mosquitto could no longer read it after the reload."""
    import os

    if os.geteuid() != 0:
        pytest.skip("changing a file's owner needs root")
    root = tmp_path / "pi"
    install(root, "--table", "t1")
    passwd = root / "etc/mosquitto/luza/passwd"
    os.chown(passwd, 0, 4321)
    assert main(["rotate", "luza-tool", "--root", str(root)]) == 0
    assert (passwd.stat().st_uid, passwd.stat().st_gid, passwd.stat().st_mode & 0o777) == (0, 4321, 0o640)
