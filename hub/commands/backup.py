"""`luza backup` (online backup of the live database, with rotation) and `luza
restore` (put a backup back)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

UNIT = "luza-hub.service"


def register(sub: Any) -> None:
    b = sub.add_parser(
        "backup",
        help="back the hub's database up (safe while the hub runs); keep the newest N",
        description="Online backup of the live SQLite database into a folder, oldest removed. / "
        "Резервная копия базы хаба (можно на ходу).",
    )
    _where(b)
    b.add_argument("--dir", required=True, help="backup folder, e.g. /var/backups/luza")
    b.add_argument("--keep", type=int, default=14, help="how many backups to keep (default 14)")
    b.set_defaults(func=run_backup)
    r = sub.add_parser(
        "restore",
        help="replace the hub's database with a backup (stop the hub first)",
        description="Restore a backup; the current database is kept beside it. / "
        "Восстановить базу из резервной копии (сначала остановите хаб).",
    )
    r.add_argument("backup", nargs="?", help="the backup file (see --list)")
    _where(r)
    r.add_argument("--list", metavar="DIR", help="list the backups in DIR instead")
    r.add_argument("--force", action="store_true", help="restore even though systemd says the hub is running")
    r.set_defaults(func=run_restore)


def _where(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--config", help="luza.toml (its store.path is the database)")
    g.add_argument("--db", help="the database file itself")


def _db(args: argparse.Namespace, cmd: str) -> Path | None:
    if args.db:
        return Path(args.db)
    if not args.config:
        print(
            f"luza {cmd}: give --config luza.toml or --db PATH / укажите --config или --db", file=sys.stderr
        )
        return None
    from hub import config as cfgmod
    from hub import configfile

    try:
        return Path(configfile.load(args.config).store.path)
    except cfgmod.ConfigError as exc:
        print(f"luza {cmd}: {exc}", file=sys.stderr)
        return None


def run_backup(args: argparse.Namespace) -> int:
    from hub.deploy.backup import BackupError, backup

    db = _db(args, "backup")
    if db is None:
        return 2
    try:
        target = backup(db, Path(args.dir), args.keep)
    except BackupError as exc:
        print(f"luza backup: {exc}", file=sys.stderr)
        return 1
    print(f"backup / копия: {target} ({target.stat().st_size} bytes)")
    return 0


def hub_running() -> bool:
    """True if systemd runs here and says luza-hub is active."""
    if not os.path.isdir("/run/systemd/system"):
        return False
    try:
        return subprocess.run(["systemctl", "is-active", "--quiet", UNIT], timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def run_restore(args: argparse.Namespace) -> int:
    from hub.deploy.backup import BackupError, BadBackup, backups, restore

    if args.list:
        found = backups(Path(args.list))
        for p in found:
            print(f"{p}  {p.stat().st_size} bytes")
        if not found:
            print(f"no backups in {args.list} / резервных копий нет")
        return 0
    db = _db(args, "restore")
    if db is None:
        return 2
    if not args.backup:
        print(
            "luza restore: name the backup file (luza restore --list DIR shows them) / укажите файл копии",
            file=sys.stderr,
        )
        return 2
    if hub_running() and not args.force:
        print(
            f"luza restore: the hub is running; stop it first: sudo systemctl stop {UNIT} / "
            "сначала остановите хаб",
            file=sys.stderr,
        )
        return 1
    try:
        checked, kept = restore(Path(args.backup), db)
    except BadBackup as exc:  # missing, damaged, not a Luza database: name another file (docs/hub.md: exit 2)
        print(f"luza restore: {exc}", file=sys.stderr)
        return 2
    except BackupError as exc:
        print(f"luza restore: {exc}", file=sys.stderr)
        return 1
    print(
        f"restored / восстановлено: {args.backup} -> {db} "
        f"({checked.matches} matches, {checked.inputs} inputs)"
    )
    if kept is not None:
        print(f"the previous database is kept as / прежняя база сохранена: {kept}")
    print(f"start the hub / запустите хаб: sudo systemctl start {UNIT}")
    return 0
