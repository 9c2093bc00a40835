"""The broker passwords of one installation: the hub (and its telemetry connection), the admin tool, every
node and every screen.

Kept in one JSON file readable by root only (/etc/luza/credentials.json on the Pi). `ensure` gives every
account in luza.toml a password, keeps the ones already there (so re-running the installer changes nothing)
and drops nodes no longer in the config (their access ends with the next broker reload). `rotate` replaces
one password. The broker only ever sees hashes (hub.deploy.broker_config.passwd_text). Beside the file,
ota-keys.json holds what the hub needs of the node passwords for over-the-air updates (keys derived from them,
hub.ota.keys), readable by the hub's group.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from hub.config import Config
from hub.ota.keys import FILE as OTA_KEYS
from hub.ota.keys import keys_text

HUB_USER = "luza-hub"  # also the hub's MQTT client id: the broker forces client id = user name
TELE_USER = HUB_USER + "-tele"  # the hub's second connection: reads telemetry only (hub.ingest.mqtt)
TOOL_USER = "luza-tool"  # `luza provision` and diagnostics: reads everything, sends node commands
SCREEN_PREFIX = "screen-"


class CredentialsError(ValueError):
    """A credentials file that cannot be read or a user that does not exist."""


def device_user(table: str, device: str) -> str:
    """A node's broker user name: `<table>.<device>` (a dot cannot occur in ids, so it never collides)."""
    return f"{table}.{device}"


def new_password() -> str:
    return secrets.token_urlsafe(18)


@dataclass(frozen=True)
class Credentials:
    """Passwords by account. `devices` keys are `device_user(table, device)`, `screens` keys are screen names;
    `tele` is TELE_USER's ("" in a file from before it existed: `ensure` gives it one)."""

    hub: str
    tool: str
    devices: dict[str, str] = field(default_factory=dict)
    screens: dict[str, str] = field(default_factory=dict)
    tele: str = ""

    def users(self) -> dict[str, str]:
        """Every broker user name and its password."""
        out = {HUB_USER: self.hub, TOOL_USER: self.tool}
        if self.tele:
            out[TELE_USER] = self.tele
        out.update(self.devices)
        out.update({SCREEN_PREFIX + name: pw for name, pw in self.screens.items()})
        return out

    def to_json(self) -> str:
        doc = {
            "hub": self.hub,
            "tele": self.tele,
            "tool": self.tool,
            "devices": dict(sorted(self.devices.items())),
            "screens": dict(sorted(self.screens.items())),
        }
        return json.dumps(doc, indent=2) + "\n"


def from_json(text: str, where: str = "credentials") -> Credentials:
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise CredentialsError(f"{where}: not valid JSON ({exc})") from None
    ok = (
        isinstance(doc, dict)
        and isinstance(doc.get("hub"), str)
        and isinstance(doc.get("tool"), str)
        and isinstance(doc.get("tele", ""), str)
    )
    maps = [doc.get(k, {}) for k in ("devices", "screens")] if isinstance(doc, dict) else []
    if not ok or not all(isinstance(m, dict) and all(isinstance(v, str) for v in m.values()) for m in maps):
        raise CredentialsError(
            f'{where}: expected {{"hub": ..., "tele": ..., "tool": ..., "devices": {{}}, '
            f'"screens": {{}}}} with string passwords'
        )
    return Credentials(doc["hub"], doc["tool"], dict(maps[0]), dict(maps[1]), doc.get("tele", ""))


def load(path: Path) -> Credentials | None:
    """The saved credentials, or None if there is no file yet."""
    try:
        return from_json(path.read_text(), str(path))
    except FileNotFoundError:
        return None


def save(creds: Credentials, path: Path) -> bool:
    """Write (mode 0600) if the content changed, and the nodes' update keys beside it; True if it did."""
    text = creds.to_json()
    keys = path.with_name(OTA_KEYS)
    _write(keys, keys_text(creds.devices), 0o640)
    if path.exists() and path.read_text() == text:
        return False
    _write(path, text, 0o600)
    return True


def _write(path: Path, text: str, mode: int) -> None:
    """Replace `path` with `text` (mode `mode`), keeping the group of the file it
    replaces (root:luza stays so)."""
    if path.exists() and path.read_text() == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    before = path.stat() if path.exists() else None
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    if before is not None and before.st_gid != os.getegid():
        with contextlib.suppress(PermissionError):
            os.chown(tmp, -1, before.st_gid)
    os.chmod(tmp, mode)
    os.replace(tmp, path)


def config_devices(config: Config) -> list[str]:
    return [device_user(t.id, d.id) for t in config.tables for d in t.devices]


def ensure(creds: Credentials | None, config: Config, screens: Iterable[str] = ()) -> Credentials:
    """Every account the config needs has a password; existing ones are kept; nodes gone from the config and
    screens not asked for any more are dropped (pass the current screens to keep them)."""
    base = creds or Credentials(new_password(), new_password())
    base = base if base.tele else replace(base, tele=new_password())  # an installation from before TELE_USER
    devices = {u: base.devices.get(u) or new_password() for u in config_devices(config)}
    wanted = list(screens)
    for name in wanted:
        if not _screen_name_ok(name):
            raise CredentialsError(f"screen name {name!r}: use 1-32 of a-z, 0-9 and '-'")
    kept = {n: base.screens.get(n) or new_password() for n in wanted}
    return replace(base, devices=devices, screens=kept)


def rotate(creds: Credentials, user: str) -> Credentials:
    """A new password for one broker user (hub, its telemetry connection, tool, a node `<table>.<device>` or
    `screen-<name>`)."""
    if user == HUB_USER:
        return replace(creds, hub=new_password())
    if user == TELE_USER and creds.tele:
        return replace(creds, tele=new_password())
    if user == TOOL_USER:
        return replace(creds, tool=new_password())
    if user in creds.devices:
        return replace(creds, devices={**creds.devices, user: new_password()})
    name = user.removeprefix(SCREEN_PREFIX)
    if user.startswith(SCREEN_PREFIX) and name in creds.screens:
        return replace(creds, screens={**creds.screens, name: new_password()})
    raise CredentialsError(f"no broker user {user!r}; users: {', '.join(sorted(creds.users()))}")


def _screen_name_ok(name: str) -> bool:
    return 1 <= len(name) <= 32 and all(c.isdigit() or c == "-" or "a" <= c <= "z" for c in name)
