"""The hub's health (GET /healthz) and Prometheus metrics (GET /metrics)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from hub.web.context import Web
from hub.web.metrics import CONTENT_TYPE
from hub.web.schemas import Health

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health, responses={503: {"model": Health}})
def healthz(web: Web) -> JSONResponse:
    """Worker alive, broker connected, queue depth; 503 when the hub cannot work."""
    h = web.health()
    return JSONResponse(h, status_code=200 if h["ok"] else 503)


@router.get("/metrics", response_class=Response, responses={200: {"content": {CONTENT_TYPE: {}}}})
def metrics(web: Web) -> Response:
    """Prometheus text: events in, rejected by code, duplicates, event-to-commit latency, devices, clients."""
    return Response(web.metrics.render(), media_type=CONTENT_TYPE)
