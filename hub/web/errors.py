"""Every error the web app answers: {"error": <hub.errors.ErrorBody>} = {"error": {"code", "en", "ru",
"field"}} with a 4xx (or 503), never a 500. The body is the one every channel gives for the same refusal
(hub/errors.py); this module only adds the HTTP status."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic_core import ErrorDetails
from starlette.exceptions import HTTPException as StarletteHTTPException

from hub.errors import (
    BUSY,
    DAMAGED,
    INTERNAL_ERROR,
    INTERNAL_FAULT,
    MALFORMED,
    NO_MATCH,
    NOT_FOUND,
    REFUSED,
    UNAVAILABLE,
    UNKNOWN_TABLE,
    ErrorBody,
    Refusal,
)
from hub.errors import unknown_table as unknown_table_body
from hub.vocab.actions import ACTION_MODELS
from hub.vocab.checks import RefereeInputError
from hub.vocab.inputs import parse_referee_action

log = logging.getLogger("luza.web")

STATUS = {
    MALFORMED: 400,
    UNKNOWN_TABLE: 404,
    NOT_FOUND: 404,
    NO_MATCH: 409,
    REFUSED: 409,
    DAMAGED: 410,
    BUSY: 429,
    UNAVAILABLE: 503,
    INTERNAL_ERROR: 503,
}
"""The HTTP status of a refusal's code, unless the route says otherwise (a schema error is 422)."""


class ApiError(Exception):
    """An answer other than success: the HTTP status and the refusal's body (hub.errors.ErrorBody), made from
    its parts (a route's own check) or from a refusal (`ApiError.of`)."""

    def __init__(
        self,
        status: int,
        code: str,
        en: str,
        ru: str,
        field: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(en)
        self.status, self.body, self.headers = status, ErrorBody(code, en, ru, field), headers

    @classmethod
    def of(
        cls, refusal: Refusal | ErrorBody, status: int | None = None, headers: dict[str, str] | None = None
    ) -> ApiError:
        """The answer to a refusal: its body, with `status` or the one its code maps to (STATUS)."""
        body = refusal.body if isinstance(refusal, Refusal) else refusal
        return cls(
            STATUS.get(body.code, 409) if status is None else status,
            body.code,
            body.en,
            body.ru,
            body.field,
            headers,
        )

    def response(self) -> JSONResponse:
        return JSONResponse({"error": self.body.as_json()}, self.status, headers=self.headers)


def from_referee(exc: Refusal) -> ApiError:
    """A refused referee action (hub.vocab.checks.RefereeInputError) as an answer."""
    return ApiError.of(exc)


def unknown_table(table: str, known: list[str]) -> ApiError:
    """No such table (hub.errors.unknown_table): 404."""
    return ApiError.of(unknown_table_body(table, known))


RU_MESSAGES: dict[str, str] = {
    "less_than_equal": "должно быть не больше {le}",
    "less_than": "должно быть меньше {lt}",
    "greater_than_equal": "должно быть не меньше {ge}",
    "greater_than": "должно быть больше {gt}",
    "string_too_short": "слишком короткий текст (не меньше {min_length})",
    "string_too_long": "слишком длинный текст (не больше {max_length})",
    "too_short": "слишком мало элементов (не меньше {min_length})",
    "too_long": "слишком много элементов (не больше {max_length})",
    "int_type": "нужно целое число",
    "int_parsing": "нужно целое число",
    "int_from_float": "нужно целое число",
    "float_type": "нужно число",
    "float_parsing": "нужно число",
    "bool_type": "нужно true или false",
    "bool_parsing": "нужно true или false",
    "string_type": "нужен текст",
    "dict_type": "нужен объект",
    "list_type": "нужен список",
    "model_type": "нужен объект",
    "model_attributes_type": "нужен объект",
    "literal_error": "допустимо одно из: {expected}",
    "enum": "допустимо одно из: {expected}",
    "string_pattern_mismatch": "недопустимые символы",
}


# A union's member in a validation error's location (`options.target.bool`): pydantic's, not a field.
_UNION_MEMBER = re.compile(r"(int|bool|str|float|none|[a-z-]+\[.*\])")


def _where(loc: Sequence[int | str]) -> str:
    parts = [str(p) for p in loc]
    if parts[:1] == ["body"]:
        parts = parts[1:]
        if len(parts) > 1 and parts[0] in ACTION_MODELS:  # the discriminated union's tag: not a field
            parts = parts[1:]
    parts = parts[:1] + [p for p in parts[1:] if not _UNION_MEMBER.fullmatch(p)]
    return ".".join(parts) or "body"


def _ru_where(where: str) -> str:
    """The field at fault as a Russian reader is told it: the request's body is «тело запроса»."""
    return "тело запроса" if where == "body" else where


def _ru(error: ErrorDetails) -> str:
    text = RU_MESSAGES.get(str(error.get("type")), "недопустимое значение")
    # 'a' or 'b': 'a', 'b'
    ctx = {k: str(v).replace(" or ", ", ") for k, v in (error.get("ctx") or {}).items()}
    try:
        return text.format(**ctx)
    except (KeyError, IndexError, ValueError):
        return "недопустимое значение"


_ACTIONS = re.compile(r"/api/tables/[^/]+/actions")


def _as_the_hub_says(request: Request, exc: RequestValidationError) -> RefereeInputError | None:
    """A referee action the schema refused, refused as the hub's own check refuses it (what the control socket
    answers for it), or None if that check would take it (then the schema's words stand)."""
    if request.method != "POST" or not _ACTIONS.fullmatch(request.url.path):
        return None
    if isinstance(exc.body, Mapping) and exc.body.get("kind") == "new_match":
        return None  # a kind the hub takes, but not on this route (POST .../match starts a match)
    try:
        parse_referee_action(exc.body, 0)
    except RefereeInputError as refused:
        return refused
    return None


def _validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    first: ErrorDetails = (  # FastAPI's entries are pydantic's, their `loc` led by "body", "path", ...
        errors[0] if errors else ErrorDetails(type="", loc=("body",), msg="invalid request", input=None)
    )
    where = _where(first.get("loc", ()))
    if first.get("type") == "json_invalid":
        return ApiError(
            422, MALFORMED, "the body is not valid JSON", "тело запроса — не корректный JSON", "body"
        ).response()
    refusal = _as_the_hub_says(request, exc)
    if refusal is not None:  # the same words as the control socket's for the same action
        return ApiError.of(refusal, 422).response()
    if first.get("type") == "missing":
        en, ru = f"{where}: missing", f"{_ru_where(where)}: не указано"
    elif first.get("type") == "extra_forbidden":
        en, ru = f"{where}: unknown field", f"{_ru_where(where)}: неизвестное поле"
    elif first.get("type") in ("union_tag_invalid", "union_tag_not_found"):
        kinds = ", ".join(k for k in ACTION_MODELS if k != "new_match")
        tag = (first.get("ctx") or {}).get("tag")
        if tag is None:
            en, ru = f"kind: missing; one of {kinds}", f"kind: не указано действие; одно из {kinds}"
        else:
            en = f"kind: unknown referee action {tag!r}; one of {kinds}"
            ru = f"kind: неизвестное действие судьи {tag!r}; одно из {kinds}"
        where = "kind"
    else:
        en, ru = f"{where}: {first.get('msg')}", f"{_ru_where(where)}: {_ru(first)}"
    return ApiError(422, MALFORMED, en, ru, where).response()


# Starlette's and FastAPI's own refusals (`HTTPException(400, "There was an error parsing the body")`, a body
# over the limit, ...): their words in Russian by status, never the English detail inside the Russian text.
HTTP_RU: dict[int, str] = {
    400: "тело запроса не прочитать: отправьте JSON в кодировке UTF-8",
    401: "нужна авторизация",
    403: "доступ запрещён",
    406: "хаб не может ответить в запрошенном формате",
    408: "запрос не дошёл целиком вовремя",
    411: "не указана длина тела запроса",
    413: "тело запроса слишком большое",
    415: "тип тела запроса не поддерживается: отправьте JSON",
}


def _http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 404:
        return ApiError(
            404, NOT_FOUND, f"nothing at {request.url.path}", f"по адресу {request.url.path} ничего нет"
        ).response()
    if exc.status_code == 405:
        return ApiError(
            405,
            "method_not_allowed",
            f"{request.method} is not allowed on {request.url.path}",
            f"метод {request.method} не поддерживается для {request.url.path}",
        ).response()
    ru = HTTP_RU.get(exc.status_code, f"запрос не выполнен (HTTP {exc.status_code})")
    return ApiError(
        exc.status_code, MALFORMED if exc.status_code == 400 else "http_error", str(exc.detail), ru
    ).response()


def _api(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return exc.response()


def _internal(request: Request, exc: Exception) -> JSONResponse:
    log.exception("request %s %s failed", request.method, request.url.path, exc_info=exc)
    return ApiError.of(INTERNAL_FAULT).response()


def install(app: FastAPI) -> None:
    """Register the handlers that turn every failure into the contract's error body."""
    app.add_exception_handler(ApiError, _api)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(Exception, _internal)
