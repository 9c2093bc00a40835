"""Every file the Pi installer writes, written only where its content changed (so a second run changes nothing).

    python -m hub.deploy.render --root DIR [--club NAME] [--table t1 ...] [--kiosk-table t1] [--tls] ...

hardware/pi/install.sh calls this after installing the packages and the virtual environment; with `--root`
the whole tree lands under DIR (tests, dry runs). luza.toml is written only if there is none (then it is the
club's, edited by `luza provision` and by hand; an installation from before the hub's telemetry connection
only gains its login in `[broker]`); the credentials file keeps every password it already has;
the broker's password file keeps every hash that still matches. The list of written files goes to
<etc>/installed-files for `install.sh --uninstall`.
"""  # noqa: E501

from __future__ import annotations

import argparse
import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from hub import config as cfgmod
from hub import configfile
from hub.deploy import broker_config as bc
from hub.deploy import credentials as creds
from hub.deploy import units
from hub.deploy.units import Paths
from hub.ota.keys import FILE as OTA_KEYS
from hub.ota.keys import keys_text
from luza_wire.frame import valid_id

MOSQUITTO_CONF = "/etc/mosquitto/mosquitto.conf"
OURS = "# Luza broker"


@dataclass(frozen=True)
class Options:
    """The installer's answers."""

    root: Path = Path("/")
    club: str = "Luza"
    club_ru: str = "Луза"
    tables: tuple[str, ...] = ("t1",)
    kiosk_table: str | None = None  # None: the first table; "" : no kiosk
    wifi_iface: str = "wlan0"
    screens: tuple[str, ...] = ("wall",)
    port: int = 1883
    tls: bc.Tls | None = None
    paths: Paths = field(default_factory=Paths)


@dataclass(frozen=True)
class File:
    path: str  # absolute on the Pi
    text: str
    mode: int = 0o644


def under(root: Path, path: str) -> Path:
    return root / path.lstrip("/")


def broker_files(opts: Options, cfg: cfgmod.Config, c: creds.Credentials) -> list[File]:
    layout = bc.Layout(port=opts.port, tls=opts.tls)
    old = under(opts.root, layout.passwd)
    previous = old.read_text() if old.exists() else ""
    return [
        File(MOSQUITTO_CONF, bc.mosquitto_conf(layout, bc.queue_limits(cfg))),
        File(layout.passwd, bc.passwd_text(c, previous), 0o640),
        File(layout.acl, bc.acl_text(cfg, c), 0o644),
    ]


def system_files(opts: Options, cfg: cfgmod.Config) -> list[File]:
    p = opts.paths
    sd = "/etc/systemd/system/"
    files = [
        File(sd + units.HUB_UNIT, units.hub_unit(p)),
        File(sd + units.BACKUP_UNIT, units.backup_service(p)),
        File(sd + units.BACKUP_TIMER, units.BACKUP_TIMER_TEXT),
        File(sd + units.WIFI_UNIT, units.wifi_unit(p, opts.wifi_iface)),
        File("/etc/NetworkManager/conf.d/luza-wifi-powersave.conf", units.NM_POWERSAVE),
        File("/etc/chrony/conf.d/luza.conf", units.CHRONY),
        File("/usr/local/bin/luza", units.wrapper(p), 0o755),
    ]
    kiosk = opts.kiosk_table if opts.kiosk_table is not None else (cfg.tables[0].id if cfg.tables else "")
    if kiosk:
        files += [
            File(sd + units.KIOSK_UNIT, units.kiosk_unit(p, kiosk)),
            File("/etc/pam.d/luza-kiosk", units.KIOSK_PAM),
        ]
    return files


def load_or_create_config(
    opts: Options, hub_password: str, tele_password: str
) -> tuple[cfgmod.Config, File | None]:
    """The club's luza.toml if there is one (never overwritten), else a new one from the answers."""
    path = under(opts.root, opts.paths.config)
    if path.exists():
        return configfile.load(path), None
    text = units.luza_toml(
        opts.paths, opts.club, opts.club_ru, list(opts.tables), hub_password, opts.port, tele_password
    )
    return configfile.parse(__import__("tomllib").loads(text), path.parent), File(
        opts.paths.config, text, 0o640
    )


def with_tele_login(opts: Options, cfg: cfgmod.Config, password: str) -> tuple[cfgmod.Config, File]:
    """An installation from before the telemetry connection: its luza.toml gains `tele_username` and
    `tele_password` in `[broker]` (a targeted edit; the rest is the club's), so the hub reads telemetry on a
    connection of its own from its next start."""
    path = under(opts.root, opts.paths.config)
    text = units.set_broker_key(path.read_text(), "tele_username", creds.TELE_USER)
    text = units.set_broker_key(text, "tele_password", password)
    return configfile.parse(__import__("tomllib").loads(text), path.parent), File(
        opts.paths.config, text, 0o640
    )


def plan(opts: Options) -> list[File]:
    """Every file with its content, credentials first (luza.toml carries the hub's passwords)."""
    cpath = under(opts.root, opts.paths.etc + "/credentials.json")
    current = creds.load(cpath)
    hub_pw = current.hub if current else creds.new_password()
    tele_pw = current.tele if current and current.tele else creds.new_password()
    cfg, toml = load_or_create_config(opts, hub_pw, tele_pw)
    if cfg.broker.tele_username is None:
        cfg, toml = with_tele_login(opts, cfg, tele_pw)
    base = replace(current or creds.Credentials(hub_pw, creds.new_password()), tele=tele_pw)
    if cfg.broker.password and cfg.broker.password != base.hub:  # luza.toml is the truth for the hub's logins
        base = replace(base, hub=cfg.broker.password)
    if cfg.broker.tele_username == creds.TELE_USER and cfg.broker.tele_password:
        base = replace(base, tele=cfg.broker.tele_password)
    c = creds.ensure(base, cfg, sorted(set(opts.screens) | set(base.screens)))
    files = [
        File(opts.paths.etc + "/credentials.json", c.to_json(), 0o600),
        # the hub signs updates with them
        File(opts.paths.etc + "/" + OTA_KEYS, keys_text(c.devices), 0o640),
    ]
    if toml is not None:
        files.append(toml)
    files += broker_files(opts, cfg, c) + system_files(opts, cfg)
    listed = {f.path for f in files} | {opts.paths.config, opts.paths.etc + "/installed-files"}
    manifest = "\n".join(sorted(listed)) + "\n"
    return [*files, File(opts.paths.etc + "/installed-files", manifest)]


def write(root: Path, files: Sequence[File]) -> list[str]:
    """Write each file whose content or mode differs (keeping its owner and group);
    returns the paths written."""
    changed = []
    for f in files:
        target = under(root, f.path)
        data = f.text.encode()
        if target.exists() and target.read_bytes() == data and (target.stat().st_mode & 0o777) == f.mode:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if f.path == MOSQUITTO_CONF and target.exists() and not target.read_text().startswith(OURS):
            target.replace(target.with_name("mosquitto.conf.orig-luza"))  # Debian's, put back on uninstall
        owner = target.stat() if target.exists() else None
        tmp = target.with_name(target.name + ".luza-tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, f.mode)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        if owner is not None and (owner.st_uid, owner.st_gid) != (os.geteuid(), os.getegid()):
            with contextlib.suppress(PermissionError):  # e.g. root:mosquitto on the password file stays so
                os.chown(tmp, owner.st_uid, owner.st_gid)
        os.chmod(tmp, f.mode)
        os.replace(tmp, target)
        changed.append(f.path)
    return changed


def tls_files(root: Path, etc: str, host: str) -> bc.Tls:
    """A self-signed CA and a server certificate for the LAN listener, made once with openssl."""
    d = under(root, etc + "/tls")
    t = bc.Tls(f"{etc}/tls/ca.crt", f"{etc}/tls/server.crt", f"{etc}/tls/server.key")
    if (d / "server.crt").exists():
        return t
    d.mkdir(parents=True, exist_ok=True)
    run = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "3650"]
    subprocess.run(
        [*run, "-keyout", str(d / "ca.key"), "-out", str(d / "ca.crt"), "-subj", "/CN=Luza club CA"],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            "openssl",
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(d / "server.key"),
            "-out",
            str(d / "server.csr"),
            "-subj",
            f"/CN={host}",
        ],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            "openssl",
            "x509",
            "-req",
            "-in",
            str(d / "server.csr"),
            "-CA",
            str(d / "ca.crt"),
            "-CAkey",
            str(d / "ca.key"),
            "-CAcreateserial",
            "-days",
            "3650",
            "-out",
            str(d / "server.crt"),
        ],
        check=True,
        capture_output=True,
    )
    for name in ("ca.key", "server.key"):
        os.chmod(d / name, 0o640)
    return t


def parse_args(argv: Sequence[str] | None) -> Options:
    ap = argparse.ArgumentParser(prog="python -m hub.deploy.render", description=__doc__.split("\n")[0])
    ap.add_argument("--root", default="/", help="write everything under this folder (default /)")
    ap.add_argument("--club", default="Luza")
    ap.add_argument("--club-ru", default=None)
    ap.add_argument("--table", action="append", default=[], help="a table id for a new luza.toml (repeat)")
    ap.add_argument(
        "--kiosk-table", default=None, help="table on the wall screen (default: the first; '' none)"
    )
    ap.add_argument("--wifi-iface", default="wlan0")
    ap.add_argument("--screen", action="append", default=[], help="a read-only screen login (default: wall)")
    ap.add_argument("--port", type=int, default=1883)
    ap.add_argument(
        "--tls", action="store_true", help="TLS on the LAN listener (8883); plain MQTT on 127.0.0.1"
    )
    ap.add_argument("--tls-host", default="luza.local")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--http", default="0.0.0.0:8000", help="where the web app listens (default 0.0.0.0:8000)")
    a = ap.parse_args(argv)
    for t in a.table:
        if not valid_id(t):
            ap.error(f"--table {t!r}: use 1-32 of a-z, 0-9 and '-', e.g. t1")
    root = Path(a.root)
    if not re.fullmatch(r"[0-9a-zA-Z.:\[\]-]+:\d{1,5}", a.http):
        ap.error(f"--http {a.http!r}: write HOST:PORT, e.g. 0.0.0.0:8000")
    paths = Paths(chromium=a.chromium, http=a.http)
    tls = tls_files(root, paths.etc, a.tls_host) if a.tls else None
    return Options(
        root=root,
        club=a.club,
        club_ru=a.club_ru or a.club,
        tables=tuple(a.table) or ("t1",),
        kiosk_table=a.kiosk_table,
        wifi_iface=a.wifi_iface,
        screens=tuple(a.screen) or ("wall",),
        port=a.port,
        tls=tls,
        paths=paths,
    )


def main(argv: Sequence[str] | None = None) -> int:
    opts = parse_args(argv)
    try:
        changed = write(opts.root, plan(opts))
    except (cfgmod.ConfigError, creds.CredentialsError) as exc:
        print(f"install: {exc}", file=sys.stderr)
        return 2
    for path in changed:
        print(f"  wrote {path}")
    print(f"{len(changed)} file(s) changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
