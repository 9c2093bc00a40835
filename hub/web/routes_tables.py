"""Reading tables (open on the club network): the list, one table's state, the variants, the panel QR code."""

from __future__ import annotations

import io

import segno
from fastapi import APIRouter, Request
from fastapi.responses import Response

from hub.view.table import TableView
from hub.web.context import Web, WebContext
from hub.web.schemas import ERRORS, TableOut, VariantOut
from hub.web.variants import variants

router = APIRouter(tags=["tables"], responses={404: ERRORS[404]})


@router.get("/api/tables", response_model=list[TableOut])
def list_tables(web: Web) -> list[TableOut]:
    """Every table with its state envelope."""
    return [TableOut(id=t.id, name=t.name, state=web.envelope(t.id)) for t in web.hub.config.tables]


@router.get("/api/tables/{table}/state", response_model=TableView)
def table_state(table: str, web: Web) -> TableView:
    """One table's state envelope (docs/web-api.md)."""
    web.require_table(table)
    return web.envelope(table)


@router.get("/api/variants", response_model=list[VariantOut])
def list_variants() -> list[VariantOut]:
    """The variants a match can be started with, and their labelled options."""
    return variants()


def panel_url(request: Request, web: WebContext, table: str, lang: str | None) -> str:
    base = web.settings.public_url or str(request.base_url)
    url = f"{base.rstrip('/')}/referee/{table}"
    return f"{url}?lang={lang}" if lang else url


@router.get(
    "/api/tables/{table}/qr.svg", response_class=Response, responses={200: {"content": {"image/svg+xml": {}}}}
)
def panel_qr(table: str, request: Request, web: Web, lang: str | None = None) -> Response:
    """A QR code (SVG) of the table's referee panel URL, for the board's idle screen."""
    web.require_table(table)
    if lang not in (None, "ru", "en"):
        lang = None
    qr = segno.make(panel_url(request, web, table, lang), error="m")
    buf = io.BytesIO()
    qr.save(buf, kind="svg", scale=8, border=2, dark="#111111", light="#ffffff", xmldecl=False)
    return Response(buf.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})
