"""The token exchange: a table's referee PIN for a bearer token, through the PIN guard (hub.web.pinguard): one
evaluation per table at a time, wrong PINs locked per client address, the referee's established device never
locked out. A right PIN also gives the browser a device cookie, which makes it an established device."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from fastapi import APIRouter, Request, Response

from hub.web.context import Web
from hub.web.errors import ApiError
from hub.web.pinguard import LOCKED, NO_PIN, OK
from hub.web.schemas import ERRORS, TokenIn, TokenOut

router = APIRouter(tags=["access"], responses={s: ERRORS[s] for s in (401, 404, 409, 422, 429)})
DEVICE_COOKIE = "luza_device"
DEVICE_DAYS = 365


def _locked(table: str, seconds: int) -> ApiError:
    return ApiError(429, "locked", f"too many wrong PINs for table {table!r}; try again in {seconds} s",
                    f"слишком много неверных PIN для стола {table!r}; повторите через {seconds} с", "pin",
                    {"Retry-After": str(seconds)})


def _token_ok(web: Web, table: str, request: Request) -> bool:
    """Does the caller already hold a valid token for this table (the referee's panel signing in again)?"""
    if not request.headers.get("authorization"):
        return False
    try:
        web.authorize(table, request.headers.get("authorization"))
    except ApiError:
        return False
    return True


@router.post("/api/tables/{table}/token", response_model=TokenOut)
async def token(table: str, body: TokenIn, web: Web, request: Request, response: Response) -> dict[str, Any]:
    """Exchange the table's referee PIN for a token (valid for this table only)."""
    web.require_table(table)
    client = request.client.host if request.client else "?"
    device = request.cookies.get(DEVICE_COOKIE)
    verdict = await web.lockout.attempt(table, body.pin, client, device, _token_ok(web, table, request))
    if verdict.result == NO_PIN:
        raise ApiError(409, "no_pin", f"no referee PIN is set for table {table!r}: on the hub run "
                       f"`luza pin set --table {table}`",
                       f"для стола {table!r} не задан PIN судьи: на хабе выполните `luza pin set --table {table}`",
                       "pin")
    if verdict.result == LOCKED:
        raise _locked(table, verdict.retry_after)
    if verdict.result != OK:
        raise ApiError(401, "wrong_pin", "wrong PIN", "неверный PIN", "pin")
    if not device or len(device) > 100:
        device = secrets.token_urlsafe(24)
    await asyncio.to_thread(web.pins.remember_device, table, device)
    response.set_cookie(DEVICE_COOKIE, device, max_age=DEVICE_DAYS * 86400, path="/api/tables", httponly=True,
                        samesite="strict")
    issued = web.tokens.issue(table, body.label or "panel", web.pins.set_ms(table))
    return {"token": issued, "table": table, "expires_s": int(web.settings.token_ttl_s)}
