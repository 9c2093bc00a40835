"""The nodes' update keys: HMAC-SHA256(broker password, "luza-ota-1"),
as firmware/ota.py `node_key` derives it.

The hub signs each node's manifest with that node's key and checks the node's download credential with it. It
does not read the broker passwords (credentials.json is root's alone): the installer, `luza provision` and
`luza rotate` write the derived keys to ota-keys.json beside them (hub.deploy.credentials.save), readable by
the hub's group. A node not in the file (an open broker: no password) has the key of the empty password, so a
locked node is never fed by a hub that lacks its key: its signature check refuses the manifest.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from pathlib import Path

LABEL = b"luza-ota-1"
FILE = "ota-keys.json"


class KeysError(ValueError):
    """An ota-keys.json that cannot be read; the message names the file and what to do."""


def node_key(password: str | None) -> bytes:
    return hmac.new((password or "").encode(), LABEL, hashlib.sha256).digest()


def keys_text(devices: Mapping[str, str]) -> str:
    """The keys file for the node passwords `devices` (broker user `<table>.<device>` -> password)."""
    return json.dumps({user: node_key(pw).hex() for user, pw in sorted(devices.items())}, indent=2) + "\n"


class Keys:
    """The keys by `<table>.<device>`; a node not listed has the key of the empty password."""

    def __init__(
        self, keys: Mapping[str, bytes] | None = None, path: Path | None = None, mtime: float | None = None
    ) -> None:
        self._keys = dict(keys or {})
        self.path, self.mtime = path, mtime

    @classmethod
    def load(cls, path: str | Path | None) -> Keys:
        if path is None:
            return cls()
        p = Path(path)
        try:
            mtime = p.stat().st_mtime
            doc = json.loads(p.read_text())
            keys = {str(user): bytes.fromhex(str(h)) for user, h in doc.items()}
        except FileNotFoundError:
            return cls(path=p)
        except (OSError, ValueError, AttributeError) as exc:
            raise KeysError(
                f"{path}: cannot read the nodes' update keys ({exc}); run the installer again "
                "(hardware/pi/install.sh) to write it"
            ) from None
        return cls(keys, p, mtime)

    def fresh(self) -> Keys:
        """These keys, or the file's new ones if `luza provision` or `luza rotate` rewrote it since."""
        if self.path is None:
            return self
        try:
            mtime: float | None = self.path.stat().st_mtime
        except OSError:
            mtime = None
        if mtime == self.mtime:
            return self
        try:
            return Keys.load(self.path)
        except KeysError:
            return self  # a file being rewritten: the keys we had until it reads whole

    @classmethod
    def from_passwords(cls, devices: Mapping[str, str]) -> Keys:
        return cls({user: node_key(pw) for user, pw in devices.items()})

    def key(self, table: str, device: str) -> bytes:
        return self._keys.get(f"{table}.{device}") or node_key("")

    def sign(self, table: str, device: str, data: bytes) -> str:
        return hmac.new(self.key(table, device), data, hashlib.sha256).hexdigest()

    def check(self, table: str, device: str, path: str, credential: str | None) -> bool:
        """Is `credential` (the X-Luza-Auth header) the node's own for this download path?"""
        want = self.sign(table, device, path.encode())
        return credential is not None and hmac.compare_digest(want, credential.strip().lower())
