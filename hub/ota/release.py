"""Releases: what the hub can send a node, kept in its OTA folder (luza.toml [ota] dir).

    <dir>/releases/<id>/release.json     {"id", "kind": "fw"|"cfg", "fw", "files": [[path, size, sha256],
    ...], "made_ms"} <dir>/releases/<id>/files/<path>     the bytes, as a node's slot will hold them

A firmware release is a `luza firmware build` minus its main.py (the loader is never sent over the air:
firmware/loader.py); its id is `<VERSION>-<8 hex of the files' hashes>`, so the same build is the same
release. A config release carries one file, config.json: the settings to change (what the `config` command's
`set` holds), merged and validated on the node; its id is `cfg-<8 hex>`. `signed_manifest` is the body a node
gets: `<HMAC-SHA256 hex>\\n<JSON>`, for that node only (firmware/ota.py `parse_manifest` checks it).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from hub.ota.keys import Keys
from luza_wire import ota as wire_ota

_VERSION = re.compile(r'^VERSION\s*=\s*"([^"]{1,32})"', re.M)
ROOT = Path(__file__).resolve().parents[2]


class ReleaseView(TypedDict):
    """A release as GET /api/ota lists it (docs/web-api.md)."""

    id: str
    kind: str  # fw | cfg
    fw: str
    files: int
    bytes: int
    made_ms: int


class ReleaseError(ValueError):
    """A release that cannot be made or found; `en`/`ru` say what to do."""

    def __init__(self, en: str, ru: str) -> None:
        super().__init__(en)
        self.en, self.ru = en, ru


@dataclass(frozen=True)
class Release:
    id: str
    kind: str
    fw: str
    files: tuple[tuple[str, int, str], ...]
    made_ms: int
    folder: Path

    def file(self, path: str) -> Path | None:
        """The stored bytes of one of the release's files (None if it has no such file)."""
        if not any(p == path for p, _, _ in self.files):
            return None
        return self.folder / "files" / path

    @property
    def size(self) -> int:
        return sum(n for _, n, _ in self.files)

    def view(self) -> ReleaseView:
        return ReleaseView(
            id=self.id,
            kind=self.kind,
            fw=self.fw,
            files=len(self.files),
            bytes=self.size,
            made_ms=self.made_ms,
        )


def manifest(release: Release, device: str) -> bytes:
    """The manifest's JSON for one node (firmware/ota.py reads it)."""
    return json.dumps(
        {
            "v": 1,
            "dev": device,
            "r": release.id,
            "kind": release.kind,
            "fw": release.fw,
            "files": [list(f) for f in release.files],
        },
        separators=(",", ":"),
    ).encode()


def signed_manifest(release: Release, table: str, device: str, keys: Keys) -> bytes:
    data = manifest(release, device)
    return keys.sign(table, device, data).encode() + b"\n" + data


def _entries(files: dict[str, bytes]) -> tuple[tuple[str, int, str], ...]:
    return tuple((p, len(b), hashlib.sha256(b).hexdigest()) for p, b in sorted(files.items()))


def _digest(entries: tuple[tuple[str, int, str], ...]) -> str:
    return hashlib.sha256("".join(f"{p} {h}\n" for p, _, h in entries).encode()).hexdigest()[:8]


class Releases:
    """The releases in one OTA folder."""

    def __init__(self, folder: str | Path) -> None:
        self.root = Path(folder) / "releases"

    def _store(self, rid: str, kind: str, fw: str, files: dict[str, bytes]) -> Release:
        entries = _entries(files)
        folder = self.root / rid
        existing = self.get(rid)
        if existing is not None:
            return existing
        tmp = Path(tempfile.mkdtemp(prefix=".new-", dir=self._ensure()))
        for path, data in files.items():
            target = tmp / "files" / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        meta = {
            "id": rid,
            "kind": kind,
            "fw": fw,
            "files": [list(e) for e in entries],
            "made_ms": int(time.time() * 1000),
        }
        (tmp / "release.json").write_text(json.dumps(meta, indent=1))
        tmp.chmod(0o755)
        tmp.rename(folder)  # whole or not at all
        release = self.get(rid)
        assert release is not None
        return release

    def _ensure(self) -> Path:
        self.root.mkdir(parents=True, exist_ok=True)
        return self.root

    def add_build(self, build_dir: Path, fw: str) -> Release:
        """A `luza firmware build` folder as a release (its main.py, the loader, stays out)."""
        files = {
            p.relative_to(build_dir).as_posix(): p.read_bytes()
            for p in sorted(build_dir.rglob("*"))
            if p.is_file() and p.relative_to(build_dir).parts[0] in ("firmware", "luza_wire")
        }
        if not any(p.startswith("firmware/__init__.") for p in files):
            raise ReleaseError(
                f"{build_dir} is not a firmware build (no firmware/__init__): run luza firmware build",
                f"{build_dir} — не сборка прошивки (нет firmware/__init__): luza firmware build",
            )
        rid = f"{fw}-{_digest(_entries(files))}"
        return self._store(rid, "fw", fw, files)

    def add_config(self, change: dict[str, object]) -> Release:
        """A config change (the settings to change, as the `config` command's `set`) as a release. Any JSON
        object: the node merges it into its settings and validates the result (firmware/config.py)."""
        if not isinstance(change, dict) or not change:
            raise ReleaseError(
                'a config change is a JSON object of the settings to change, e.g. {"beam": '
                '{"debounce_ms": 3}}',
                'изменение настроек — объект JSON, например {"beam": {"debounce_ms": 3}}',
            )
        data = json.dumps(change, sort_keys=True, separators=(",", ":")).encode()
        rid = "cfg-" + hashlib.sha256(data).hexdigest()[:8]
        return self._store(rid, "cfg", "config", {"config.json": data})

    def add_tree(self, root: Path = ROOT, source: bool = False) -> Release:
        """Build the firmware of a source tree (this hub's own by default) and keep it as a release."""
        from hub.ota import build as fw

        m = _VERSION.search((root / "firmware" / "__init__.py").read_text())
        version = m.group(1) if m else "0"
        with tempfile.TemporaryDirectory(dir=self._ensure(), prefix=".build-") as tmp:
            try:
                fw.build(Path(tmp) / "b", root=root, log=lambda _line: None, source=source)
            except fw.FirmwareError as exc:
                raise ReleaseError(
                    f"the firmware does not build: {exc}", f"прошивка не собирается: {exc}"
                ) from None
            return self.add_build(Path(tmp) / "b", version)

    def get(self, rid: str) -> Release | None:
        if not wire_ota.valid_release(rid):
            return None
        try:
            meta = json.loads((self.root / rid / "release.json").read_text())
            files = tuple((str(p), int(n), str(h)) for p, n, h in meta["files"])
            return Release(meta["id"], meta["kind"], meta["fw"], files, int(meta["made_ms"]), self.root / rid)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def all(self) -> list[Release]:
        if not self.root.is_dir():
            return []
        found = (self.get(p.name) for p in self.root.iterdir() if not p.name.startswith("."))
        return sorted((r for r in found if r is not None), key=lambda r: (r.made_ms, r.id))

    def latest(self, kind: str = "fw") -> Release | None:
        got = [r for r in self.all() if r.kind == kind]
        return got[-1] if got else None

    def remove(self, rid: str) -> None:
        if self.get(rid) is not None:
            shutil.rmtree(self.root / rid)
