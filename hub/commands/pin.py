"""`luza pin set --table t1` / `luza pin set --club`: set a table's referee PIN or the club's PIN (asked
twice, or `--pin`), stored as a scrypt hash in the hub's database. There is no default PIN; the referee panel
exchanges its table's PIN for a token, the club view the club's PIN for a club token
(docs/web-api.md, docs/security.md)."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from hub import config as cfgmod
from hub import configfile
from hub.errors import refusal_line
from luza_wire import frame


def register(sub: Any) -> None:
    p = sub.add_parser(
        "pin",
        help="set a table's referee PIN or the club's PIN / задать PIN судьи стола или клуба",
        description="Referee PINs of the tables and the club's PIN. / PIN судей столов и PIN клуба.",
    )
    actions = p.add_subparsers(dest="pin_action", metavar="ACTION", required=True)
    s = actions.add_parser(
        "set", help="set (or change) a table's PIN or the club's; who used the old one signs in again"
    )
    whose = s.add_mutually_exclusive_group(required=True)
    whose.add_argument("--table", help="table id from luza.toml, e.g. t1: that table's referee PIN")
    whose.add_argument(
        "--club",
        action="store_true",
        help="the club's PIN: device actions on the club view (blink a node) and the heavy exports",
    )
    s.add_argument("--pin", help="the PIN (4..12 digits); asked twice without echo if not given")
    where = s.add_mutually_exclusive_group(required=True)
    where.add_argument("--config", help="path to luza.toml (the store path and tables come from it)")
    where.add_argument("--db", help="path to the hub's database (without a config)")
    s.set_defaults(func=run)


def _ask() -> str | None:
    first = getpass.getpass("PIN (4-12 digits / 4-12 цифр): ")
    second = getpass.getpass("PIN again / ещё раз: ")
    if first != second:
        print("luza pin: the two PINs differ / PIN не совпадают", file=sys.stderr)
        return None
    return first


def run(args: argparse.Namespace) -> int:
    from hub.web.auth import CLUB, PinError, PinStore, check_pin_format  # late: `luza --help` stays light

    db = args.db
    # with --db nothing else checks it; a PIN under `bad/id` guards no table
    if not args.club and not frame.valid_id(args.table):
        print(
            f"luza pin: {args.table!r} is not a table id: use 1-32 of a-z, 0-9 and '-', as in luza.toml, "
            f"e.g. t1 / {args.table!r} — не id стола: 1-32 символа из a-z, 0-9 и '-', как в luza.toml",
            file=sys.stderr,
        )
        return 2
    if args.config:
        try:
            cfg = configfile.load(args.config)
        except cfgmod.ConfigError as exc:
            print(f"luza pin: {exc}", file=sys.stderr)
            return 2
        if not args.club and cfg.table(args.table) is None:
            known = ", ".join(t.id for t in cfg.tables)
            print(
                f"luza pin: no table {args.table!r} in {args.config} (tables: {known}) / "
                f"стола {args.table!r} нет (столы: {known})",
                file=sys.stderr,
            )
            return 2
        db = cfg.store.path
    pin = args.pin if args.pin is not None else _ask()
    if pin is None:
        return 2
    try:
        check_pin_format(pin)
        PinStore(db).set(CLUB if args.club else args.table, pin)
    except PinError as exc:
        print(f"luza pin: {refusal_line(exc.body)}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"luza pin: cannot write {db}: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # sqlite3.Error: not a database, read-only, locked for too long
        print(f"luza pin: cannot store the PIN in {db}: {exc}", file=sys.stderr)
        return 2
    if args.club:
        print("club PIN set / PIN клуба задан")
    else:
        print(f"PIN set for table {args.table} / PIN стола {args.table} задан")
    return 0
