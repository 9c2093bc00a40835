"""The player registry and the statistics (docs/statistics.md):

- GET  /api/players?q=&limit=       search in either alphabet ("ivan" finds "Иван Петров"); no q: every player
- POST /api/players                 register a player (a referee's token of any table, or the club's)
- POST /api/players/merge           merge a duplicate into a player (the club's token): its matches move
- GET  /api/players/{id}            the player, the photo, every figure, head to head with the handicap suggested
- GET  /api/stats                   the leaderboard: every player's figures, the matches left out and why
- GET  /api/stats.csv               the leaderboard as CSV

Reading is open on the club network like the history; the figures are recomputed from the stored matches on
each request (hub/stats/compute.py: folded once per match, then cached), on the request's own thread.
"""  # noqa: E501

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from typing import Annotated

from fastapi import APIRouter, Header, status
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

# pydantic (the response models) reads TypedDicts only from typing_extensions' on Python < 3.12
from typing_extensions import TypedDict

from hub.errors import UNAVAILABLE
from hub.export.days import local_zone
from hub.stats import csvfile, registry
from hub.stats.compute import compute
from hub.stats.figures import Figures, head_to_head, leaderboard
from hub.stats.registry import PlayerError, PlayerPublic
from hub.stats.shapes import HeadToHead, LeftOut, PlayerFigures
from hub.store.players import Players
from hub.web.auth import CLUB
from hub.web.context import Web, WebContext
from hub.web.errors import ApiError
from hub.web.schemas import ERRORS

router = APIRouter(tags=["players"], responses={s: ERRORS[s] for s in (400, 401, 404, 409, 503)})
Authorization = Annotated[
    str | None, Header(description="Bearer <token>: a table's referee token or the club's")
]
MAX_LIMIT = 100
log = logging.getLogger("luza.web")


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[
        str, Field(min_length=1, max_length=60, description="as the player writes it, either alphabet")
    ]
    name_en: Annotated[
        str | None, Field(max_length=60, description="Latin spelling (default: romanised)")
    ] = None
    nickname: Annotated[str, Field(max_length=60)] = ""
    club: Annotated[str, Field(max_length=60)] = ""
    photo: Annotated[
        str | None, Field(max_length=registry.MAX_PHOTO, description="data:image/png|jpeg|webp;base64,...")
    ] = None


class MergeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    duplicate: Annotated[int, Field(ge=1, description="the duplicate's id")]
    into: Annotated[int, Field(ge=1, description="the player it is merged into")]


# The bodies below are the routes' response models: FastAPI writes a TypedDict's keys in the order declared,
# which is the order these bodies always had (dashboard/js/players.js and player.js read them).


class PlayerList(TypedDict):
    """GET /api/players: the players found."""

    players: list[PlayerPublic]


class Merged(TypedDict):
    """POST /api/players/merge: how many matches moved, and the player they moved to."""

    ok: bool
    moved_matches: int
    player: PlayerPublic


class PlayerPage(PlayerPublic):
    """GET /api/players/{id}: the player (with the photo), every figure, head to head. An old id of a merged
    duplicate: the player without photo_url, `figures` None, no head to head (the page follows
    merged_into)."""

    figures: PlayerFigures | None
    head_to_head: list[HeadToHead]


class Leaderboard(TypedDict):
    """GET /api/stats: every player's figures, highest rating first; the matches counted and left out."""

    players: list[PlayerFigures]
    counted: int
    left_out: list[LeftOut]


def _db(web: WebContext) -> str:
    return str(web.hub.config.store.path)


def _unauthorized(who: str) -> ApiError:
    if who == "club":
        return ApiError(
            401,
            "unauthorized",
            "merging players is for the club: sign in with the club PIN",
            "объединять игроков может клуб: войдите с PIN клуба",
            "authorization",
            {"WWW-Authenticate": "Bearer"},
        )
    return ApiError(
        401,
        "unauthorized",
        "adding a player needs a referee's token (the panel's PIN) or the club's",
        "чтобы добавить игрока, нужен токен судьи (PIN панели) или клуба",
        "authorization",
        {"WWW-Authenticate": "Bearer"},
    )


def _figures(web: WebContext) -> Figures:
    try:
        fig, _ = compute(_db(web))
    except sqlite3.Error as exc:
        raise ApiError(
            503, UNAVAILABLE, f"the match database cannot be read: {exc}", f"база партий недоступна: {exc}"
        ) from None
    return fig


def _id(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ApiError(
            400,
            "malformed",
            f"player: expected a whole number, got {value!r}",
            f"player: нужно целое число, получено {value!r}",
            "player",
        ) from None


@router.get("/api/players", summary="Search the player registry (either alphabet)")
def search(web: Web, q: str = "", limit: int = 20) -> PlayerList:
    reg = Players(_db(web))
    n = max(1, min(MAX_LIMIT, limit))
    rows = reg.search(q, n) if q.strip() else reg.all()[:n]
    return {"players": [registry.public(p) for p in rows]}


@router.post("/api/players", summary="Register a player", status_code=status.HTTP_201_CREATED)
def add(body: PlayerIn, web: Web, authorization: Authorization = None) -> PlayerPublic:
    if web.bearer(authorization, CLUB) is None and not any(
        web.bearer(authorization, t) for t in web.table_ids()
    ):
        raise _unauthorized("referee")
    try:
        row = registry.add(_db(web), body.model_dump(), int(time.time() * 1000))
    except PlayerError as exc:
        log.info("player not added: %s", exc.en)
        raise ApiError.of(exc) from None
    log.info("player %d added: %s", row.id, row.name)
    return registry.public(row)


@router.post("/api/players/merge", summary="Merge a duplicate into a player (the club's)")
def merge(body: MergeIn, web: Web, authorization: Authorization = None) -> Merged:
    if web.bearer(authorization, CLUB) is None:
        raise _unauthorized("club")
    try:
        moved = registry.merge(_db(web), body.duplicate, body.into, int(time.time() * 1000))
    except PlayerError as exc:
        log.info("players not merged: %s", exc.en)
        raise ApiError.of(exc) from None
    log.info("player %d merged into %d: %d match(es) moved", body.duplicate, body.into, moved)
    row = Players(_db(web)).get(body.into)
    assert row is not None
    return {"ok": True, "moved_matches": moved, "player": registry.public(row)}


@router.get("/api/players/{player}", summary="A player: details, every figure, head to head")
def player(player: str, web: Web) -> PlayerPage:
    pid = _id(player)
    row = Players(_db(web)).get(pid)
    if row is None:
        raise ApiError.of(registry.not_found(pid))
    if row.merged_into is not None:  # an old id: the page follows it to the player it became
        return {**registry.public(row), "figures": None, "head_to_head": []}
    fig = _figures(web)
    return {
        **registry.public(row, photo=True),
        "figures": fig.players.get(pid),
        "head_to_head": head_to_head(fig, pid) if pid in fig.players else [],
    }


@router.get("/api/stats", summary="The leaderboard: every player's figures")
def stats(web: Web) -> Leaderboard:
    fig = _figures(web)
    return {"players": leaderboard(fig), "counted": fig.counted, "left_out": fig.left_out}


@router.get("/api/stats.csv", summary="The leaderboard as CSV")
def stats_csv(web: Web) -> Response:
    data = csvfile.render(leaderboard(_figures(web)), local_zone())
    return Response(
        data,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="luza-players.csv"'},
    )


def warm_up(web: WebContext) -> threading.Thread:
    """Fold, on a thread of its own, the ended matches whose facts are not cached yet (after an upgrade, a
    restored backup), so the first look at the leaderboard does not wait for them."""

    def run() -> None:
        try:
            _, done = compute(_db(web))
            if done.folded:
                log.info("statistics: the facts of %d match(es) made and cached", done.folded)
        except Exception:  # a damaged database is reported where it is read; the hub goes on
            log.warning("statistics: the cache could not be filled now", exc_info=True)

    thread = threading.Thread(target=run, name="luza stats warm-up", daemon=True)
    thread.start()
    return thread
