"""The lines of the referee's control socket (hub.service.control): what a request line is, how it is checked,
handed to the hub and answered, and how a line is written. The wire format is docs/hub.md's ("Control
socket"):

Request:  {"table": "t1", "action": {"kind": "declare", "ball": 3, "pocket": 5}}   (the dicts `Hub.submit` takes)
      or  {"ota": {...}}   (an update push from `luza firmware push`: hub.ota.control answers it)
Answer:   {"ok": true, "table": "t1", "cursor": 42, "match_id": 1, "match": <scoreboard>}
      or  {"ok": false, "error": {"code": "malformed", "en": "<en>", "ru": "<ru>", "field": "<name or null>"}}

A refused action (RefereeInputError), a line that is not JSON, not an object, too long, or names no configured
table gets an ok:false answer whose `error` is the refusal's hub.errors.ErrorBody, the same body the REST API
answers for the same refusal. No stack trace ever reaches the client: an unexpected error is logged here and
answered with hub.errors.INTERNAL_FAULT.
"""  # noqa: E501

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from typing import Literal, NotRequired, TypedDict, cast

from hub.errors import (
    INTERNAL_FAULT,
    MALFORMED,
    ErrorBody,
    Refusal,
    not_stored_in_time,
    unknown_table,
)
from hub.service.hub import Hub
from hub.vocab.checks import RefereeInputError

log = logging.getLogger("luza.control")

MAX_DEPTH = 16  # nesting of a request line; {"table", "action": {"calls": [{...}]}} is four
TOO_LONG = b"\x00too long"  # the line read in place of one over the limit; a sentinel, compared by identity


class ControlRequest(TypedDict, total=False):
    """One request line as parsed, not yet checked: each field holds whatever the client sent."""

    table: object  # a configured table's id
    action: object  # a referee action as `Hub.submit` takes it
    ota: object  # instead of both: an update push (hub.ota.control)


class TakenAnswer(TypedDict):
    """The answer to a referee action the hub took and committed."""

    ok: Literal[True]
    table: str
    cursor: int | None  # the input row it was stored as (for a replayed uid: the first one's)
    match_id: int | None
    match: object  # the table state's `match` (docs/table-view.schema.json), passed on as it is
    # the uid was taken before: cursor and match_id are the first answer's
    replayed: NotRequired[Literal[True]]


class RefusedAnswer(TypedDict):
    """The answer to a refused request: the refusal's body, as REST and the WebSocket give it."""

    ok: Literal[False]
    error: dict[str, str | None]  # hub.errors.ErrorBody.as_json: code, en, ru, field


# an update push's answer is hub.ota.control's ({"ok", "results"} or a refusal with "results": [])
ControlAnswer = TakenAnswer | RefusedAnswer | Mapping[str, object]


def refusal(body: ErrorBody) -> RefusedAnswer:
    """The answer to a refused request: the refusal's body, as REST and the WebSocket give it."""
    return {"ok": False, "error": body.as_json()}


def encode_line(obj: Mapping[str, object]) -> bytes:
    """One line of the socket: compact JSON, UTF-8, newline."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


class RequestLines:
    """Answers one request line at a time for `hub` (any thread), counting each outcome with `count`
    (requests, ok, refused, malformed, unknown_table, too_long, errors, ota)."""

    def __init__(self, hub: Hub, submit_timeout: float, max_line: int, count: Callable[[str], None]) -> None:
        self.hub, self.submit_timeout, self.max_line, self.count = hub, submit_timeout, max_line, count

    def answer(self, raw: bytes) -> ControlAnswer:
        """The answer to one request line (`TOO_LONG` for one over the limit). Never raises."""
        self.count("requests")
        try:
            req = self._load(raw)
            if "ota" in req:  # an update push from `luza firmware push` (hub.ota.control)
                from hub.ota.control import answer as ota_answer

                self.count("ota")
                return ota_answer(self.hub, req["ota"])
            table, action = self._parse(req)
            state = self.hub.submit(table, action, timeout=self.submit_timeout)
        except RefereeInputError as exc:
            self.count("refused")
            log.info("referee action refused: %s", exc.en)
            return refusal(exc.body)
        except _Malformed as exc:
            self.count(exc.counter)
            log.warning("control request refused: %s", exc.body.en)
            return refusal(exc.body)
        except TimeoutError:
            self.count("errors")
            log.error("the hub did not commit a referee action within %.1f s", self.submit_timeout)
            return refusal(not_stored_in_time(self.submit_timeout))
        except Exception:  # never a stack trace to the client; the log has it
            self.count("errors")
            log.exception("control request failed")
            return refusal(INTERNAL_FAULT)
        self.count("ok")
        answer: TakenAnswer = {
            "ok": True,
            "table": table,
            "cursor": state.get("cursor"),
            "match_id": state.get("match_id"),
            "match": state.get("match"),
        }
        if state.get("replayed"):
            answer["replayed"] = True  # this uid was taken before: cursor and match_id are the first answer's
        return answer

    def _load(self, raw: bytes) -> ControlRequest:
        if raw is TOO_LONG:
            raise _Malformed(
                "too_long",
                f"the line is longer than {self.max_line} bytes; send one JSON object per line",
                f"строка длиннее {self.max_line} байт; отправляйте по одному объекту JSON в строке",
            )
        try:
            req = json.loads(raw.decode("utf-8"))
            if _too_deep(req, MAX_DEPTH):
                raise ValueError(f"nested more than {MAX_DEPTH} levels deep")
        except RecursionError:
            raise _Malformed(
                "malformed",
                f"the JSON is nested more than {MAX_DEPTH} levels deep; an action is two levels deep",
                f"JSON вложен глубже {MAX_DEPTH} уровней; действие — это два уровня",
            ) from None
        except (UnicodeDecodeError, ValueError) as exc:
            example = '{"table": "t1", "action": {"kind": ...}}'
            raise _Malformed(
                "malformed",
                f"not a JSON line ({exc}); send {example}",
                f"строка не JSON ({exc}); отправьте {example}",
            ) from None
        if not isinstance(req, dict):
            raise _Malformed(
                "malformed",
                f'the request must be a JSON object {{"table", "action"}}, got {type(req).__name__}',
                f'запрос должен быть объектом JSON {{"table", "action"}}, получено {type(req).__name__}',
            )
        return cast(ControlRequest, req)  # a JSON object: its fields are checked where they are read

    def _parse(self, req: ControlRequest) -> tuple[str, dict[str, object]]:
        table, action = req.get("table"), req.get("action")
        known = [t.id for t in self.hub.config.tables]
        if table is None:
            raise _Malformed(
                "malformed",
                f"table: missing; the hub serves {', '.join(known)}",
                f"table: не указан стол; хаб обслуживает {', '.join(known)}",
                "table",
            )
        if not isinstance(table, str) or table not in known:
            raise _Malformed.of_body("unknown_table", unknown_table(table, known))
        if not isinstance(action, dict):
            raise _Malformed(
                "malformed",
                'action: must be an object such as {"kind": "lag", "winner": 0}',
                'action: нужен объект, напр. {"kind": "lag", "winner": 0}',
                "action",
            )
        return table, action


class _Malformed(Refusal):
    """A request line refused before it reaches the hub; `counter` is its stats key."""

    def __init__(
        self, counter: str, en: str, ru: str, field: str | None = None, code: str = MALFORMED
    ) -> None:
        super().__init__(en, ru, field, code)
        self.counter = counter

    @staticmethod
    def of_body(counter: str, body: ErrorBody) -> _Malformed:
        return _Malformed(counter, body.en, body.ru, body.field, body.code)


def _too_deep(obj: object, limit: int) -> bool:
    """Do lists and objects nest deeper than `limit` levels in `obj`?"""
    if not isinstance(obj, (dict, list)):
        return False
    if limit <= 0:
        return True
    return any(_too_deep(v, limit - 1) for v in (obj.values() if isinstance(obj, dict) else obj))
