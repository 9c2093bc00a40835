"""The dashboard's pages (static HTML from dashboard/; the JS reads the table from the path) and its files."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from hub.web.context import Web, WebContext
from hub.web.errors import ApiError

router = APIRouter(include_in_schema=False)


def _page(web: WebContext, name: str) -> FileResponse:
    path: Path = web.settings.dashboard / name
    if not path.is_file():
        raise ApiError(
            404,
            "not_found",
            f"the page {name} is not installed (dashboard/)",
            f"страница {name} не установлена (dashboard/)",
        )
    return FileResponse(path, media_type="text/html; charset=utf-8", headers={"Cache-Control": "no-cache"})


@router.get("/")
def club_page(web: Web) -> FileResponse:
    return _page(web, "club.html")


@router.get("/board/{table}")
def board_page(table: str, web: Web) -> FileResponse:
    return _page(web, "board.html")


@router.get("/referee/{table}")
def referee_page(table: str, web: Web) -> FileResponse:
    return _page(web, "referee.html")


@router.get("/overlay/{table}")
def overlay_page(table: str, web: Web) -> FileResponse:
    return _page(web, "overlay.html")


@router.get("/matches")
def matches_page(web: Web) -> FileResponse:
    return _page(web, "matches.html")


@router.get("/match")
def match_page(web: Web) -> FileResponse:
    """One match of the history: `/match?id=N`."""
    return _page(web, "match.html")


@router.get("/players")
def players_page(web: Web) -> FileResponse:
    """The leaderboard of the registered players."""
    return _page(web, "players.html")


@router.get("/player")
def player_page(web: Web) -> FileResponse:
    """One player: `/player?id=N`."""
    return _page(web, "player.html")


def mount_static(app: FastAPI, dashboard: Path) -> None:
    """/static/... -> dashboard/... (js, css, fonts); nothing outside that directory is served."""
    app.mount("/static", StaticFiles(directory=dashboard, check_dir=False), name="static")
