"""The token exchanges: a table's referee PIN, or the club's PIN, for a bearer token, through the PIN guard
(hub.web.pinguard): one evaluation per table (or for the club) at a time, wrong PINs locked per client
address, an established device never locked out. A right PIN also gives the browser a device cookie, which
makes it an established device."""

from __future__ import annotations

import asyncio
import secrets

from fastapi import APIRouter, Request, Response

from hub.web.auth import CLUB
from hub.web.context import Web, WebContext
from hub.web.errors import ApiError
from hub.web.pinguard import LOCKED, NO_PIN, OK
from hub.web.schemas import ERRORS, ClubTokenOut, TokenIn, TokenOut

router = APIRouter(tags=["access"], responses={s: ERRORS[s] for s in (401, 404, 409, 422, 429)})
DEVICE_COOKIE = "luza_device"
DEVICE_DAYS = 365


def _locked(scope: str, seconds: int) -> ApiError:
    if scope == CLUB:
        return ApiError(
            429,
            "locked",
            f"too many wrong club PINs; try again in {seconds} s",
            f"слишком много неверных PIN клуба; повторите через {seconds} с",
            "pin",
            {"Retry-After": str(seconds)},
        )
    return ApiError(
        429,
        "locked",
        f"too many wrong PINs for table {scope!r}; try again in {seconds} s",
        f"слишком много неверных PIN для стола {scope!r}; повторите через {seconds} с",
        "pin",
        {"Retry-After": str(seconds)},
    )


def _no_pin(scope: str) -> ApiError:
    if scope == CLUB:
        return ApiError(
            409,
            "no_pin",
            "no club PIN is set: on the hub run `luza pin set --club`",
            "PIN клуба не задан: на хабе выполните `luza pin set --club`",
            "pin",
        )
    return ApiError(
        409,
        "no_pin",
        f"no referee PIN is set for table {scope!r}: on the hub run `luza pin set --table {scope}`",
        f"для стола {scope!r} не задан PIN судьи: на хабе выполните `luza pin set --table {scope}`",
        "pin",
    )


async def _exchange(
    web: WebContext, scope: str, body: TokenIn, request: Request, response: Response, cookie_path: str
) -> str:
    """Check the PIN of `scope` (a table id, or CLUB) through the guard; a new token, or an ApiError."""
    client = request.client.host if request.client else "?"
    device = request.cookies.get(DEVICE_COOKIE)
    token_ok = web.bearer(request.headers.get("authorization"), scope) is not None  # signing in again
    verdict = await web.lockout.attempt(scope, body.pin, client, device, token_ok)
    if verdict.result == NO_PIN:
        raise _no_pin(scope)
    if verdict.result == LOCKED:
        raise _locked(scope, verdict.retry_after)
    if verdict.result != OK:
        raise ApiError(401, "wrong_pin", "wrong PIN", "неверный PIN", "pin")
    if not device or len(device) > 100:
        device = secrets.token_urlsafe(24)
    await asyncio.to_thread(web.pins.remember_device, scope, device)
    response.set_cookie(
        DEVICE_COOKIE, device, max_age=DEVICE_DAYS * 86400, path=cookie_path, httponly=True, samesite="strict"
    )
    return web.tokens.issue(
        scope, body.label or ("club" if scope == CLUB else "panel"), web.pins.set_ms(scope)
    )


@router.post("/api/tables/{table}/token", response_model=TokenOut)
async def token(table: str, body: TokenIn, web: Web, request: Request, response: Response) -> TokenOut:
    """Exchange the table's referee PIN for a token (valid for this table only)."""
    web.require_table(table)
    issued = await _exchange(web, table, body, request, response, "/api/tables")
    return TokenOut(token=issued, table=table, expires_s=int(web.settings.token_ttl_s))


@router.post("/api/club/token", response_model=ClubTokenOut)
async def club_token(body: TokenIn, web: Web, request: Request, response: Response) -> ClubTokenOut:
    """Exchange the club's PIN (`luza pin set --club`) for a club token: device actions on the club view and the
    heavy exports; never a referee action."""  # noqa: E501
    issued = await _exchange(web, CLUB, body, request, response, "/api/club")
    return ClubTokenOut(token=issued, expires_s=int(web.settings.token_ttl_s))
