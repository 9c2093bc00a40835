"""`luza referee --control PATH --table t1 '<action json>'`: send one referee action to a running `luza serve`
over its control socket (hub.service.control) and print the answer.

Every action carries a `uid` (one is made unless the action or `--uid` gives it). When the hub does not answer
in time (a slow commit, a dropped connection), the same action is sent again with the same uid, up to
`--retries` times: the hub applies it once and answers the re-send with the first result.

A refusal is printed as the hub gives it, {"ok": false, "error": {"code", "en", "ru", "field"}} (the same body
the REST API answers, hub.errors.ErrorBody), with one line `refused: <en> / отклонено: <ru>` on stderr; an
action refused here before it is sent (not JSON, nested too deeply) is printed the same way."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping
from typing import Any

from hub.errors import INTERNAL_ERROR, MALFORMED, REFUSED, UNAVAILABLE, ErrorBody

MAX_DEPTH = 16  # an action is two levels deep; anything deeper is refused before it is sent


def register(sub: Any) -> None:
    p = sub.add_parser(
        "referee",
        help="send one referee action to a running hub (its --control socket)",
        description="Send one referee action to `luza serve --control PATH`; print the answer "
        "(JSON). Exit 0 if taken, 2 if refused, 1 if no hub answers. / Отправить "
        "действие судьи работающему хабу.",
    )
    p.add_argument(
        "--control", required=True, metavar="PATH", help="the hub's control socket (luza serve --control)"
    )
    p.add_argument("--table", required=True, help="table id, as in luza.toml")
    p.add_argument("--timeout", type=float, default=15.0, help="seconds to wait for the answer (default 15)")
    p.add_argument("--uid", help="the action's uid (default: a new one); the same uid is applied once")
    p.add_argument(
        "--retries",
        type=int,
        default=3,
        help="send again (same uid) this many times if the hub does not answer in time (default 3)",
    )
    p.add_argument("action", help='the action as JSON, e.g. \'{"kind": "declare", "ball": 3, "pocket": 5}\'')
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hub.service.control import send, with_uid  # imported late: `luza --help` must not need the whole hub

    try:
        action = json.loads(args.action)
    except (ValueError, RecursionError) as exc:
        return _refused(
            ErrorBody(
                MALFORMED,
                f"the action is not JSON ({_short(exc)})",
                f"действие не в формате JSON ({_short(exc)})",
                "action",
            )
        )
    if _depth(action) > MAX_DEPTH:
        return _refused(
            ErrorBody(
                MALFORMED,
                f"the action is nested more than {MAX_DEPTH} levels deep",
                f"вложенность действия больше {MAX_DEPTH} уровней",
                "action",
            )
        )
    if args.uid and isinstance(action, dict):
        action = {**action, "uid": args.uid}
    action = with_uid(action)
    answer: dict[str, object] = {}  # the hub's answer line as received: read field by field (`_body_of`)
    for attempt in range(max(0, args.retries) + 1):
        last = attempt >= args.retries
        try:
            answer = send(args.control, args.table, action, timeout=args.timeout)
        except TimeoutError as exc:  # the hub may be committing it: the same uid again is harmless
            if last:
                return _no_answer(args.control, exc)
            continue
        except (OSError, ValueError) as exc:
            return _no_answer(args.control, exc)
        if answer.get("ok") is True or _body_of(answer).code not in (UNAVAILABLE, INTERNAL_ERROR) or last:
            break
        time.sleep(min(0.2 * 2**attempt, 2.0))
    if answer.get("ok") is True:
        print(json.dumps(answer, ensure_ascii=False))
        return 0
    return _refused(_body_of(answer))


def _body_of(answer: Mapping[str, object]) -> ErrorBody:
    """The refusal in a hub's answer (a body that is not an object is taken as the English text)."""
    err = answer.get("error")
    if not isinstance(err, dict):
        return ErrorBody(REFUSED, str(err), str(err))
    field = err.get("field")
    return ErrorBody(
        str(err.get("code") or REFUSED),
        str(err.get("en")),
        str(err.get("ru") or err.get("en")),
        field if isinstance(field, str) else None,
    )


def _depth(obj: object, level: int = 1) -> int:
    """How deeply lists and objects nest in `obj` (stops counting past MAX_DEPTH)."""
    if level > MAX_DEPTH or not isinstance(obj, (dict, list)):
        return level
    items = obj.values() if isinstance(obj, dict) else obj
    return max((_depth(v, level + 1) for v in items), default=level)


def _short(exc: BaseException) -> str:
    return "nested too deeply" if isinstance(exc, RecursionError) else str(exc)


def _no_answer(path: str, exc: BaseException) -> int:
    print(
        f"luza referee: no answer from the hub at {path}: {exc or type(exc).__name__} / "
        f"хаб по адресу {path} не ответил",
        file=sys.stderr,
    )
    return 1


def _refused(body: ErrorBody) -> int:
    print(json.dumps({"ok": False, "error": body.as_json()}, ensure_ascii=False))
    print(f"refused: {body.en} / отклонено: {body.ru}", file=sys.stderr)
    return 2
