"""Every error the web app answers: {"error": {"code", "en", "ru", "field"}} with a 4xx (or 503), never a 500."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from hub.reconcile.actions import ACTION_MODELS
from hub.reconcile.checks import RefereeInputError

log = logging.getLogger("luza.web")

STATUS = {"malformed": 400, "unknown_table": 404, "no_match": 409, "refused": 409, "unavailable": 503}


class ApiError(Exception):
    """An answer other than success: status, code, English and Russian text, the field at fault."""

    def __init__(self, status: int, code: str, en: str, ru: str, field: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(en)
        self.status, self.code, self.en, self.ru, self.field = status, code, en, ru, field
        self.headers = headers

    def response(self) -> JSONResponse:
        return JSONResponse(body(self.code, self.en, self.ru, self.field), self.status, headers=self.headers)


def body(code: str, en: str, ru: str, field: str | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "en": en, "ru": ru, "field": field}}


def from_referee(exc: RefereeInputError) -> ApiError:
    return ApiError(STATUS.get(exc.code, 409), exc.code, exc.en, exc.ru, exc.field)


def unknown_table(table: str, known: list[str]) -> ApiError:
    return ApiError(404, "unknown_table", f"no table {table!r}; the hub serves {', '.join(known)}",
                    f"нет стола {table!r}; хаб обслуживает {', '.join(known)}", "table")


RU_MESSAGES: dict[str, str] = {
    "less_than_equal": "должно быть не больше {le}",
    "less_than": "должно быть меньше {lt}",
    "greater_than_equal": "должно быть не меньше {ge}",
    "greater_than": "должно быть больше {gt}",
    "string_too_short": "слишком короткий текст (не меньше {min_length})",
    "string_too_long": "слишком длинный текст (не больше {max_length})",
    "too_short": "слишком мало элементов (не меньше {min_length})",
    "too_long": "слишком много элементов (не больше {max_length})",
    "int_type": "нужно целое число", "int_parsing": "нужно целое число", "int_from_float": "нужно целое число",
    "float_type": "нужно число", "float_parsing": "нужно число",
    "bool_type": "нужно true или false", "bool_parsing": "нужно true или false",
    "string_type": "нужен текст", "dict_type": "нужен объект", "list_type": "нужен список",
    "model_type": "нужен объект", "model_attributes_type": "нужен объект",
    "literal_error": "допустимо одно из: {expected}", "enum": "допустимо одно из: {expected}",
    "string_pattern_mismatch": "недопустимые символы",
}


def _where(loc: Sequence[Any]) -> str:
    parts = [str(p) for p in loc]
    if parts[:1] == ["body"]:
        parts = parts[1:]
        if len(parts) > 1 and parts[0] in ACTION_MODELS:  # the discriminated union's tag: not a field
            parts = parts[1:]
    return ".".join(parts) or "body"


def _ru(error: Mapping[str, Any]) -> str:
    text = RU_MESSAGES.get(str(error.get("type")), "недопустимое значение")
    try:
        return text.format(**(error.get("ctx") or {}))
    except (KeyError, IndexError, ValueError):
        return "недопустимое значение"


def _validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    first: dict[str, Any] = dict(errors[0]) if errors else {"loc": ("body",), "msg": "invalid request", "type": ""}
    where = _where(first.get("loc", ()))
    if first.get("type") == "json_invalid":
        return ApiError(422, "malformed", "the body is not valid JSON", "тело запроса — не корректный JSON",
                        "body").response()
    if first.get("type") == "missing":
        en, ru = f"{where}: missing", f"{where}: не указано"
    elif first.get("type") == "extra_forbidden":
        en, ru = f"{where}: unknown field", f"{where}: неизвестное поле"
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
        en, ru = f"{where}: {first.get('msg')}", f"{where}: {_ru(first)}"
    return ApiError(422, "malformed", en, ru, where).response()


def _http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 404:
        return ApiError(404, "not_found", f"nothing at {request.url.path}", f"по адресу {request.url.path} ничего нет"
                        ).response()
    if exc.status_code == 405:
        return ApiError(405, "method_not_allowed", f"{request.method} is not allowed on {request.url.path}",
                        f"метод {request.method} не поддерживается для {request.url.path}").response()
    return ApiError(exc.status_code, "malformed" if exc.status_code == 400 else "http_error", str(exc.detail),
                    f"ошибка запроса: {exc.detail}").response()


def _api(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return exc.response()


def _internal(request: Request, exc: Exception) -> JSONResponse:
    log.exception("request %s %s failed", request.method, request.url.path, exc_info=exc)
    return ApiError(503, "internal", "internal error of the hub (see its log); nothing was confirmed",
                    "внутренняя ошибка хаба (см. журнал); ничего не подтверждено").response()


def install(app: FastAPI) -> None:
    """Register the handlers that turn every failure into the contract's error body."""
    app.add_exception_handler(ApiError, _api)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(Exception, _internal)
