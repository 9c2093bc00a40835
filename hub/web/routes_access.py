"""The token exchange: a table's referee PIN for a bearer token, with wrong PINs rate-limited."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from hub.web.context import Web
from hub.web.errors import ApiError
from hub.web.schemas import ERRORS, TokenIn, TokenOut

router = APIRouter(tags=["access"], responses={s: ERRORS[s] for s in (401, 404, 409, 422, 429)})


def _locked(table: str, seconds: int) -> ApiError:
    return ApiError(429, "locked", f"too many wrong PINs for table {table!r}; try again in {seconds} s",
                    f"слишком много неверных PIN для стола {table!r}; повторите через {seconds} с", "pin",
                    {"Retry-After": str(seconds)})


@router.post("/api/tables/{table}/token", response_model=TokenOut)
async def token(table: str, body: TokenIn, web: Web) -> dict[str, Any]:
    """Exchange the table's referee PIN for a token (valid for this table only)."""
    web.require_table(table)
    wait = web.lockout.retry_after(table)
    if wait:
        raise _locked(table, wait)
    ok = await asyncio.to_thread(web.pins.verify, table, body.pin)  # scrypt: off the event loop
    if ok is None:
        raise ApiError(409, "no_pin", f"no referee PIN is set for table {table!r}: on the hub run "
                       f"`luza pin set --table {table}`",
                       f"для стола {table!r} не задан PIN судьи: на хабе выполните `luza pin set --table {table}`",
                       "pin")
    if not ok:
        locked = web.lockout.wrong(table)
        if locked:
            raise _locked(table, locked)
        raise ApiError(401, "wrong_pin", "wrong PIN", "неверный PIN", "pin")
    web.lockout.right(table)
    issued = web.tokens.issue(table, body.label or "panel", web.pins.set_ms(table))
    return {"token": issued, "table": table, "expires_s": int(web.settings.token_ttl_s)}
