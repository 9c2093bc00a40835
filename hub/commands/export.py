"""`luza export`: one match (or every match since a date, zipped) as JSON, CSV, HTML or PDF."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from hub.commands.history_args import add_db, open_store
from hub.errors import refusal_line
from hub.export.days import local_zone, parse_day


def register(sub: Any) -> None:
    p = sub.add_parser(
        "export",
        help="export a match: json | csv | html | pdf",
        description="Export a match as the JSON evidence log, CSV (one row per shot), or the "
        "scoresheet in HTML or PDF. / Выгрузить партию: JSON, CSV, протокол HTML/PDF.",
    )
    add_db(p)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--match", type=int, metavar="N", help="match id (see luza matches)")
    which.add_argument("--all", action="store_true", help="every match (with --since/--until) into one zip")
    p.add_argument("--since", metavar="YYYY-MM-DD", help="with --all: matches started on or after this day")
    p.add_argument("--until", metavar="YYYY-MM-DD", help="with --all: matches started before this day")
    p.add_argument("--format", default="json", help="json | csv | html | pdf (default json)")
    p.add_argument("--lang", default="ru", help="ru | en: the scoresheet's language (default ru)")
    p.add_argument("-o", "--output", metavar="FILE", help="where to write (default: stdout for one match)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hub.export.files import check_format, export_all, export_match
    from hub.export.model import ExportError

    tz = local_zone()
    try:
        check_format(args.format, args.lang)
        if args.all and not args.output:
            raise ExportError("--all writes a zip: give -o FILE.zip", "--all пишет zip: укажите -o ФАЙЛ.zip")
        since, until = parse_day(args.since, tz, "--since"), parse_day(args.until, tz, "--until")
        store = open_store(args)
        now = int(time.time() * 1000)
        skipped: tuple[tuple[int, str], ...] = ()
        if args.all:
            zipped = export_all(store, args.format, args.lang, tz, since, until, now)
            count, data, skipped = zipped.count, zipped.data, zipped.skipped
        else:
            count, data = 1, export_match(store, args.match, args.format, args.lang, tz, now)
        _write(args.output, data)
    except ExportError as exc:
        print(f"luza export: {refusal_line(exc.body)}", file=sys.stderr)
        return 2
    if args.output:
        print(f"luza export: {count} match(es) -> {args.output} ({len(data)} bytes)", file=sys.stderr)
    if skipped:
        ids = ", ".join(str(i) for i, _ in skipped)
        print(
            f"luza export: {len(skipped)} match(es) could not be read and are listed in luza-skipped.txt "
            f"in the zip: {ids} / не прочитаны партии: {ids}",
            file=sys.stderr,
        )
        return 1
    return 0


def _write(output: str | None, data: bytes) -> None:
    from hub.export.model import ExportError

    if not output or output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        Path(output).write_bytes(data)
    except OSError as exc:
        raise ExportError(
            f"cannot write {output}: {exc.strerror or exc}",
            f"не удалось записать {output}: {exc.strerror or exc}",
        ) from None
