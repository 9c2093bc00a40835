"""hardware/pi/install.sh in its files-only mode (--root DIR): idempotent, units that systemd accepts, a
broker config that a real Mosquitto loads and enforces, and an uninstall that leaves the club's config."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from hub.deploy import units
from tests.deploy.conftest import Client
from tests.deploy.helpers import installed_broker
from tests.support.broker import free_port

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "hardware" / "pi" / "install.sh"


def install(root: Path, *args: str) -> str:
    env = {**os.environ, "LUZA_PYTHON": sys.executable}
    proc = subprocess.run(
        ["bash", str(INSTALL), "--root", str(root), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def snapshot(root: Path) -> dict[str, tuple[bytes, int, int]]:
    return {
        str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mode, p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_install_root_twice_changes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "pi"
    first = install(root, "--club", "Luza Club", "--club-ru", "Клуб «Луза»", "--table", "t1", "--table", "t2")
    assert "16 file(s) changed" in first
    before = snapshot(root)
    second = install(
        root, "--club", "Luza Club", "--club-ru", "Клуб «Луза»", "--table", "t1", "--table", "t2"
    )
    assert second.strip().endswith("0 file(s) changed")
    assert snapshot(root) == before
    cfg = tomllib.loads((root / "etc/luza/luza.toml").read_text())
    assert [t["id"] for t in cfg["tables"]] == ["t1", "t2"] and cfg["club"]["name_ru"] == "Клуб «Луза»"
    creds = json.loads((root / "etc/luza/credentials.json").read_text())
    assert cfg["broker"]["password"] == creds["hub"]
    assert (cfg["broker"]["tele_username"], cfg["broker"]["tele_password"]) == (
        "luza-hub-tele",
        creds["tele"],
    )
    assert (root / "etc/luza/credentials.json").stat().st_mode & 0o777 == 0o600
    keys = json.loads((root / "etc/luza/ota-keys.json").read_text())  # what the hub signs updates with
    assert (root / "etc/luza/ota-keys.json").stat().st_mode & 0o777 == 0o640 and keys == {}  # no node yet
    kiosk = (root / "etc/systemd/system" / units.KIOSK_UNIT).read_text()
    assert "http://127.0.0.1:8000/board/t1" in kiosk


def test_an_older_installation_gains_the_telemetry_login(tmp_path: Path) -> None:
    """Installed before the hub had a telemetry connection: luza.toml and the credentials have no such login.
    The installer's next run adds it (two lines in [broker]; the rest of the club's file untouched), once."""
    root = tmp_path / "pi"
    install(root, "--table", "t1")
    toml, cpath = root / "etc/luza/luza.toml", root / "etc/luza/credentials.json"
    old_text = (
        "".join(line for line in toml.read_text().splitlines(keepends=True) if not line.startswith("tele_"))
        + "# the club's own note\n"
    )
    toml.write_text(old_text)
    old_creds = json.loads(cpath.read_text())
    del old_creds["tele"]
    cpath.write_text(json.dumps(old_creds))
    for name in ("passwd", "acl"):  # and the broker knew no such account
        f = root / "etc/mosquitto/luza" / name
        f.write_text(f.read_text().replace("luza-hub-tele", "gone"))
    assert "wrote /etc/luza/luza.toml" in install(root, "--table", "t1")
    text = toml.read_text()
    creds = json.loads(cpath.read_text())
    added = [line for line in text.splitlines() if line not in old_text.splitlines()]
    assert added == ['tele_username = "luza-hub-tele"', f'tele_password = "{creds["tele"]}"']
    assert tomllib.loads(text)["broker"]["password"] == creds["hub"] == old_creds["hub"]
    assert "luza-hub-tele:" in (root / "etc/mosquitto/luza/passwd").read_text()
    assert (
        "user luza-hub-tele\ntopic read luza/v1/+/+/tele\n" in (root / "etc/mosquitto/luza/acl").read_text()
    )
    assert install(root, "--table", "t1").strip().endswith("0 file(s) changed")


def test_uninstall_keeps_the_clubs_config_unless_purged(tmp_path: Path) -> None:
    root = tmp_path / "pi"
    debian = root / "etc/mosquitto/mosquitto.conf"
    debian.parent.mkdir(parents=True)
    debian.write_text("# Debian's own\n")
    install(root)
    assert debian.read_text().startswith("# Luza broker")
    install(root, "--uninstall")
    left = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    assert left == ["etc/luza/credentials.json", "etc/luza/luza.toml", "etc/mosquitto/mosquitto.conf"]
    assert debian.read_text() == "# Debian's own\n"
    install(root)
    install(root, "--uninstall", "--purge")
    assert [p for p in root.rglob("*") if p.is_file()] == [debian]


def _stub_missing_executables(root: Path, unit_texts: list[str]) -> None:
    """systemd-analyze --root looks for each Exec* program under root: put the real one's path there."""
    for text in unit_texts:
        for m in re.finditer(r"^Exec\w+=[-@:+!]*(/\S+)", text, re.M):
            target = root / m.group(1).lstrip("/")
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text("#!/bin/sh\n")
                target.chmod(0o755)


def test_systemd_analyze_verifies_the_units(tmp_path: Path) -> None:
    exe = shutil.which("systemd-analyze")
    if exe is None:
        pytest.skip("systemd-analyze not installed (scripts/setup --dev installs systemd from apt)")
    root = tmp_path / "pi"
    install(root)
    sd = root / "etc/systemd/system"
    names = [units.HUB_UNIT, units.KIOSK_UNIT, units.BACKUP_UNIT, units.BACKUP_TIMER, units.WIFI_UNIT]
    _stub_missing_executables(root, [(sd / n).read_text() for n in names])
    # the distribution's units and targets, as on a merged-/usr Debian (/lib -> usr/lib)
    shutil.copytree(Path("/lib/systemd/system").resolve(), root / "usr/lib/systemd/system", symlinks=True)
    if not (root / "lib").exists():
        (root / "lib").symlink_to("usr/lib")
    proc = subprocess.run(
        [exe, "verify", f"--root={root}", *names], capture_output=True, text=True, timeout=60
    )
    if "Failed to initialize manager" in proc.stderr or "Operation not permitted" in proc.stderr:
        pytest.skip(f"systemd-analyze cannot run in this container: {proc.stderr.strip()[:200]}")
    assert proc.returncode == 0 and proc.stderr.strip() == "", proc.stderr
    # and a broken unit is caught, so the check is not vacuous
    (sd / units.HUB_UNIT).write_text(
        (sd / units.HUB_UNIT).read_text().replace("Restart=always", "Restart=sometimes")
    )
    bad = subprocess.run([exe, "verify", f"--root={root}", units.HUB_UNIT], capture_output=True, text=True)
    assert "sometimes" in bad.stderr


def test_hub_unit_restarts_and_feeds_a_watchdog(tmp_path: Path) -> None:
    text = units.hub_unit(units.Paths())
    for line in ("Type=notify", "Restart=always", "WatchdogSec=30", "User=luza", "LimitNOFILE=8192"):
        assert line in text.splitlines()
    kiosk = units.kiosk_unit(units.Paths(), "t9")
    assert "Restart=always" in kiosk and kiosk.count("http://127.0.0.1:8000/board/t9") == 3


@pytest.mark.mosquitto
def test_the_installed_broker_config_runs_in_a_real_mosquitto(tmp_path: Path) -> None:
    """The production files (not the demo's), with only paths moved into the test folder."""
    root = tmp_path / "pi"
    port = free_port()
    install(root, "--table", "t1", "--port", str(port))
    toml = root / "etc/luza/luza.toml"
    toml.write_text(toml.read_text().replace("pockets = {}", "pockets = { p1 = [1] }"))
    # re-run after a node was added: its password and ACL appear
    install(root, "--table", "t1", "--port", str(port))
    creds = json.loads((root / "etc/luza/credentials.json").read_text())
    assert set(creds["devices"]) == {"t1.p1"}
    broker = installed_broker(root, tmp_path / "b", port)
    try:
        node = Client(broker, "t1.p1", creds["devices"]["t1.p1"])
        hub = Client(broker, "luza-hub", creds["hub"])
        anon = Client(broker, None, None)
        try:
            assert node.connect() == 0 and hub.connect() == 0 and anon.connect() == 135
            assert node.publish("luza/v1/t1/p1/evt") == 0
            assert node.publish("luza/v1/t1/state") == 135
            assert hub.publish("luza/v1/t1/state") == 0
        finally:
            for c in (node, hub, anon):
                c.close()
    finally:
        broker.stop()


def test_the_units_command_lines_are_ones_luza_accepts() -> None:
    """ExecStart of the hub and the backup is parsed by luza's own argument parser (no flag it lacks)."""
    import shlex

    from hub.cli import build_parser

    p = units.Paths()
    for text, command in ((units.hub_unit(p), "serve"), (units.backup_service(p), "backup")):
        line = next(x for x in text.splitlines() if x.startswith("ExecStart="))
        argv = shlex.split(line.removeprefix("ExecStart="))
        assert argv[0] == p.luza
        args = build_parser().parse_args(argv[1:])
        assert args.command == command and callable(args.func)
