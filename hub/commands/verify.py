"""`luza verify FILE`: re-check a JSON export with the rules engine, without the database it came from."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("verify", help="re-check a JSON match export",
                       description="Replay a luza-match-export file through the rules engine and say whether it "
                                   "reaches the same result, or where it differs. / Проверить файл партии.")
    p.add_argument("file", help="a file written by luza export --format json")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hub.export.model import ExportError
    from hub.export.verify import read, verify

    try:
        doc = read(args.file)
        v = verify(doc)
    except ExportError as exc:
        print(f"luza verify: {exc.en}", file=sys.stderr)
        return 2
    evidence = (doc.get("verification") or {}).get("evidence") or {}  # holes the hub knew of at export
    if v.ok and evidence.get("complete") is False:
        print(f"INCOMPLETE: match {v.match_id} replays to the same result ({v.shots} shots, {v.scores[0]}:"
              f"{v.scores[1]}), but {evidence.get('en')} / {evidence.get('ru')}")
        return 1
    if v.ok:
        print(f"verified: match {v.match_id} replays to the same result ({v.shots} shots, "
              f"{v.scores[0]}:{v.scores[1]}) / проверено: результат совпадает")
        return 0
    print(f"FAILED: {args.file} does not match its replay / НЕ СОВПАДАЕТ с пересчётом:")
    for p in v.problems:
        print(f"  {p}")
    return 1
