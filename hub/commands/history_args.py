"""Arguments shared by `luza matches`, `luza export`, `luza players`, `luza stats`: the database, dates as
local days."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from hub.export.model import ExportError
from hub.store.database import Store

DEFAULT_DB = "luza.db"


def add_db(p: Any) -> None:
    p.add_argument(
        "--db", help=f"the hub's SQLite database (default: --config's store.path, else {DEFAULT_DB})"
    )
    p.add_argument("--config", help="luza.toml: take the database path from its [store] section")


def db_path(args: argparse.Namespace, must_exist: bool = True) -> str:
    """The database's path (--db, else --config's store.path, else luza.db);
    ExportError if it is not there."""
    from hub import config, configfile

    if args.db is None:
        try:
            args.db = configfile.load(args.config).store.path if args.config else DEFAULT_DB
        except (config.ConfigError, OSError) as exc:
            raise ExportError(str(exc)) from None
    if must_exist and not Path(args.db).is_file():
        raise ExportError(f"no database at {args.db} (give --db PATH)", f"нет базы {args.db} (укажите --db)")
    return str(args.db)


def open_store(args: argparse.Namespace) -> Store:
    """The database read-only; ExportError with a one-line reason if it cannot be opened."""
    from hub.errors import SchemaError

    db_path(args, must_exist=False)
    try:
        return Store(args.db, readonly=True)
    except FileNotFoundError:
        raise ExportError(
            f"no database at {args.db} (give --db PATH)", f"нет базы {args.db} (укажите --db)"
        ) from None
    except (SchemaError, OSError) as exc:
        raise ExportError(str(exc)) from None
    except Exception as exc:  # sqlite3.DatabaseError: not a database
        raise ExportError(
            f"{args.db} cannot be read as a Luza database: {exc}",
            f"{args.db} не читается как база Luza: {exc}",
        ) from None
