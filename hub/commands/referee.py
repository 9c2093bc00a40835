"""`luza referee --control PATH --table t1 '<action json>'`: send one referee action to a running `luza serve`
over its control socket (hub.control) and print the answer."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("referee", help="send one referee action to a running hub (its --control socket)",
                       description="Send one referee action to `luza serve --control PATH`; print the answer "
                                   "(JSON). Exit 0 if taken, 2 if refused, 1 if no hub answers. / Отправить "
                                   "действие судьи работающему хабу.")
    p.add_argument("--control", required=True, metavar="PATH", help="the hub's control socket (luza serve --control)")
    p.add_argument("--table", required=True, help="table id, as in luza.toml")
    p.add_argument("--timeout", type=float, default=15.0, help="seconds to wait for the answer (default 15)")
    p.add_argument("action", help='the action as JSON, e.g. \'{"kind": "declare", "ball": 3, "pocket": 5}\'')
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hub.control import send  # imported late: `luza --help` must not need the whole hub

    try:
        action = json.loads(args.action)
    except ValueError as exc:
        return _refused(f"the action is not JSON ({exc})", f"действие не в формате JSON ({exc})")
    try:
        answer = send(args.control, args.table, action, timeout=args.timeout)
    except (OSError, ValueError) as exc:
        print(f"luza referee: no answer from the hub at {args.control}: {exc}", file=sys.stderr)
        print(f"luza referee: хаб по адресу {args.control} не ответил: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(answer, ensure_ascii=False))
    if answer.get("ok") is True:
        return 0
    return _refused(str(answer.get("error")), str(answer.get("error_ru")))


def _refused(en: str, ru: str) -> int:
    print(f"refused: {en}", file=sys.stderr)
    print(f"отклонено: {ru}", file=sys.stderr)
    return 2
