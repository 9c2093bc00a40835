"""Online backups of the hub's live SQLite database, their rotation, and restoring one.

`backup` copies the database with SQLite's backup API from a read-only connection, in one step: the copy is
one consistent snapshot (a WAL reader), taken while the hub keeps writing. The copy is checked
(`PRAGMA integrity_check`) and switched to a single file (journal_mode DELETE) before it gets its final name,
so a backup folder only ever holds complete backups; the newest `keep` are kept.

`restore` refuses a backup that is not a sound Luza database, keeps the current database (and its WAL) beside
it as `<db>.before-restore-<time>`, and puts the backup in place. The hub must be stopped first.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from hub.store import files

PREFIX = "luza-"
SUFFIX = ".db"


class BackupError(Exception):
    """A backup or restore that cannot be done, with a message a person can act on."""


class BadBackup(BackupError):
    """The file named as a backup is missing, damaged or not a Luza database: bad input (exit 2)."""


@dataclass(frozen=True)
class Checked:
    """What a sound backup holds."""

    schema: int
    matches: int
    inputs: int


def check(path: Path) -> Checked:
    """Open `path` read-only and make sure it is a sound Luza database."""
    if not path.is_file():
        raise BadBackup(f"{path}: no such file")
    try:
        held = files.summary(path)
    except sqlite3.DatabaseError as exc:
        raise BadBackup(f"{path}: not a readable SQLite database ({exc})") from None
    if held.integrity != "ok":
        raise BadBackup(f"{path}: damaged ({held.integrity}); pick an older backup")
    if held.matches is None or held.inputs is None:
        raise BadBackup(f"{path}: not a Luza database (no inputs/matches tables)")
    return Checked(held.schema, held.matches, held.inputs)


def backups(folder: Path) -> list[Path]:
    """The complete backups in `folder`, oldest first (names sort by time)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.name.startswith(PREFIX) and p.name.endswith(SUFFIX))


def backup(db: Path, folder: Path, keep: int = 14, now: float | None = None) -> Path:
    """Back the live database `db` up into `folder` as luza-<UTC time>.db; keep the newest `keep`."""
    if not db.is_file():
        raise BackupError(f"{db}: no database to back up (check store.path in luza.toml)")
    if keep < 1:
        raise BackupError("--keep must be at least 1")
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now if now is not None else time.time()))
    target = folder / f"{PREFIX}{stamp}{SUFFIX}"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{PREFIX}{stamp}-{n}{SUFFIX}"
    partial = folder / (target.name + ".partial")
    try:
        files.snapshot(db, partial)  # all pages in one step: one read transaction, one consistent snapshot
        check(partial)
        os.replace(partial, target)
    except (sqlite3.Error, OSError, BackupError) as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(f"backup of {db} failed: {exc}") from None
    for old in backups(folder)[:-keep]:
        old.unlink()
    return target


def restore(source: Path, db: Path, now: float | None = None) -> tuple[Checked, Path | None]:
    """Put backup `source` in place of `db` (hub stopped). Returns what it holds and where the old db went."""
    checked = check(source)
    kept: Path | None = None
    db.parent.mkdir(parents=True, exist_ok=True)
    if db.exists():
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now if now is not None else time.time()))
        kept = db.with_name(f"{db.name}.before-restore-{stamp}")
        for ext in ("", "-wal", "-shm"):
            old = Path(str(db) + ext)
            if old.exists():
                os.replace(old, Path(str(kept) + ext))
    tmp = db.with_name(db.name + ".restoring")
    shutil.copyfile(source, tmp)
    os.replace(tmp, db)
    return checked, kept
