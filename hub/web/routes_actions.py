"""Acting on a table (a referee token for that table): start a match, every referee action."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Header, status

from hub.vocab.actions import RefereeActionBody, to_request
from hub.web.context import Web, WebContext
from hub.web.schemas import ERRORS, ActionOut, MatchIn

router = APIRouter(tags=["referee"], responses={s: ERRORS[s] for s in (400, 401, 404, 409, 422, 503)})
Authorization = Annotated[
    str | None, Header(description="Bearer <token> from POST /api/tables/{table}/token")
]


def _answer(web: WebContext, table: str) -> ActionOut:
    state = web.envelope(table)
    return ActionOut(ok=True, rev=state.rev, state=state)


@router.post("/api/tables/{table}/match", response_model=ActionOut, status_code=status.HTTP_201_CREATED)
async def start_match(table: str, body: MatchIn, web: Web, authorization: Authorization = None) -> ActionOut:
    """Start a match: variant, players, options, the cue nodes' seats (default: luza.toml's)."""
    web.require_table(table)
    token = web.authorize(table, authorization)
    live = web.hub.view(table).match
    if body.uid and live is not None and web.match_uids.get(table) == (body.uid, live.match_id):
        return _answer(web, table)  # the same start sent again (a retry): already done
    await web.submit(table, to_request(body, token.label))
    if body.uid:
        web.match_uids[table] = (body.uid, web.hub.view(table).match_id)
    return _answer(web, table)


@router.post("/api/tables/{table}/actions", response_model=ActionOut)
async def act(
    table: str, body: Annotated[RefereeActionBody, Body()], web: Web, authorization: Authorization = None
) -> ActionOut:
    """One referee action: `kind` and that kind's fields (each kind is its own schema)."""
    web.require_table(table)
    token = web.authorize(table, authorization)
    await web.submit(table, to_request(body, token.label))
    return _answer(web, table)
