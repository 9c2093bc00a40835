"""`luza players`: the player registry — list (or search, in either alphabet), add, merge a duplicate.

    luza players list [--search TEXT] [--all] [--json]
    luza players add NAME [--en NAME] [--nickname N] [--club C] [--photo FILE]
    luza players merge DUPLICATE INTO

Works on the database file with or without a running hub (docs/statistics.md, "The registry")."""

from __future__ import annotations

import argparse
import base64
import json
import sys
import time
from pathlib import Path
from typing import Any

from hub.commands.history_args import add_db, db_path
from hub.errors import refusal_line
from hub.export.model import ExportError

PHOTO_TYPES = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".webp": "webp"}


def register(sub: Any) -> None:
    p = sub.add_parser(
        "players",
        help="the player registry: list, add, merge / реестр игроков",
        description="The player registry. / Реестр игроков.",
    )
    actions = p.add_subparsers(dest="players_action", metavar="ACTION", required=True)
    ls = actions.add_parser("list", help="every player, or those a search finds (either alphabet)")
    add_db(ls)
    ls.add_argument("--search", help="part of a name or nickname, in either alphabet (ivan, Петров)")
    ls.add_argument("--all", action="store_true", help="the merged duplicates too")
    ls.add_argument("--json", action="store_true", help="print JSON")
    ls.set_defaults(func=run_list)
    ad = actions.add_parser("add", help="register a player")
    add_db(ad)
    ad.add_argument("name", help="the name as the player writes it (either alphabet)")
    ad.add_argument("--en", help="the Latin spelling (default: romanised from a Cyrillic name)")
    ad.add_argument("--nickname", default="")
    ad.add_argument("--club", default="")
    ad.add_argument("--photo", help="a PNG, JPEG or WebP file (at most ~145 kB)")
    ad.add_argument("--json", action="store_true", help="print the new player as JSON")
    ad.set_defaults(func=run_add)
    mg = actions.add_parser(
        "merge", help="merge a duplicate into a player: its matches and figures move there"
    )
    add_db(mg)
    mg.add_argument("duplicate", type=int, help="the duplicate's id")
    mg.add_argument("into", type=int, help="the id it is merged into")
    mg.set_defaults(func=run_merge)


def _fail(exc: Any) -> int:
    print(f"luza players: {refusal_line(exc.body)}", file=sys.stderr)
    return 2


def _line(p: Any) -> str:
    extra = [x for x in (f"«{p.nickname}»" if p.nickname else "", p.club) if x]
    merged = f"  (merged into {p.merged_into})" if p.merged_into is not None else ""
    return f"{p.id:>5}  {p.name}  /  {p.name_en}{'  ' + ', '.join(extra) if extra else ''}{merged}"


def run_list(args: argparse.Namespace) -> int:
    from hub.stats.registry import public
    from hub.store.players import Players

    try:
        reg = Players(db_path(args))
    except ExportError as exc:
        return _fail(exc)
    rows = reg.search(args.search, limit=500) if args.search else reg.all(include_merged=args.all)
    if args.json:
        print(json.dumps([public(p) for p in rows], ensure_ascii=False, indent=1))
        return 0
    print(f"{len(rows)} player(s)")
    for p in rows:
        print(_line(p))
    return 0


def _photo(path: str | None) -> str | None:
    if not path:
        return None
    kind = PHOTO_TYPES.get(Path(path).suffix.lower())
    if kind is None:
        raise ExportError(
            f"--photo: a .png, .jpg or .webp file, got {path}",
            f"--photo: нужен файл .png, .jpg или .webp, получено {path}",
        )
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ExportError(
            f"--photo: cannot read {path}: {exc.strerror}", f"--photo: не читается {path}: {exc.strerror}"
        ) from None
    return f"data:image/{kind};base64,{base64.b64encode(data).decode()}"


def run_add(args: argparse.Namespace) -> int:
    from hub.stats.registry import PlayerError, add, public

    try:
        row = add(
            db_path(args),
            {
                "name": args.name,
                "name_en": args.en,
                "nickname": args.nickname,
                "club": args.club,
                "photo": _photo(args.photo),
            },
            int(time.time() * 1000),
        )
    except (ExportError, PlayerError) as exc:
        return _fail(exc)
    print(json.dumps(public(row), ensure_ascii=False) if args.json else f"added {_line(row).strip()}")
    return 0


def run_merge(args: argparse.Namespace) -> int:
    from hub.stats.registry import PlayerError, merge

    try:
        moved = merge(db_path(args), args.duplicate, args.into, int(time.time() * 1000))
    except (ExportError, PlayerError) as exc:
        return _fail(exc)
    print(f"merged player {args.duplicate} into {args.into}: {moved} match(es) moved")
    return 0
