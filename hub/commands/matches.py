"""`luza matches`: search the match history (table, variant, player, dates, status) with paging."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from hub.commands.history_args import add_db, open_store
from hub.errors import refusal_line
from hub.export.days import local_zone, parse_day


def register(sub: Any) -> None:
    p = sub.add_parser(
        "matches",
        help="list and search matches",
        description="Search the match history, newest first. / История партий.",
    )
    add_db(p)
    p.add_argument("--table", help="table id")
    p.add_argument("--variant", help="variant id (free, combined, dynamic, classic, star, hundred)")
    p.add_argument("--player", help="part of a player's name (any case)")
    p.add_argument("--since", metavar="YYYY-MM-DD", help="started on or after this day")
    p.add_argument("--until", metavar="YYYY-MM-DD", help="started before this day")
    p.add_argument("--status", help="live | ended")
    p.add_argument("--limit", type=int, default=50, help="matches per page (1..500, default 50)")
    p.add_argument("--page", type=int, default=1, help="page number, from 1")
    p.add_argument("--json", action="store_true", help="print JSON: {total, matches}")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hub.export import text
    from hub.export.history import Query, QueryError, search
    from hub.export.model import ExportError

    tz = local_zone()
    try:
        if args.page < 1:
            raise ExportError(f"--page: 1 or more, got {args.page}")
        q = Query(
            args.table,
            args.variant,
            args.player,
            parse_day(args.since, tz, "--since"),
            parse_day(args.until, tz, "--until"),
            args.status,
            args.limit,
            (args.page - 1) * args.limit,
        )
        total, rows = search(open_store(args), q)
    except ExportError as exc:
        print(f"luza matches: {refusal_line(exc.body)}", file=sys.stderr)
        return 2
    except QueryError as exc:  # its field is an option here: --status
        print(f"luza matches: --{refusal_line(exc.body)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"total": total, "matches": rows}, ensure_ascii=False, indent=1))
        return 0
    print(f"{total} match(es); page {args.page}")
    for m in rows:
        score = text.score(m["scores"]) or "-"
        win = f", winner {m['players'][m['winner']]}" if m["winner"] in (0, 1) else ""
        if m["provisional"]:
            score += " (provisional: a shot is open)"
        print(
            f"{m['id']:>6}  {text.local(m['started_ms'], tz)}  {m['table']:<8} {m['variant']:<9} "
            f"{m['players'][0]} v {m['players'][1]}  {score}  {m['status']}{win}"
        )
    return 0
