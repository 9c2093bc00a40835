"""Over-the-air updates on the web: the nodes' downloads, the releases, and the club view's update button.

- `GET /ota/{device}/{release}/manifest` and `GET /ota/{device}/{release}/f/{path}`: for the node itself, with
  its credential in `X-Luza-Auth` (hub.ota.keys); the manifest is signed for that node. Not in the OpenAPI
  document: nothing but a node calls them.
- `GET /api/ota`: the releases this hub keeps and the one it would push.
- `POST /api/devices/{device}/ota`: push a release (or the hub's own firmware) to one node, with the referee
  token of its table, like the identify button; refused while a match is in play on that table.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Request, status
from fastapi.responses import FileResponse, Response

from hub.ota.release import ReleaseError
from hub.ota.service import OtaView
from hub.web.context import Web
from hub.web.errors import ApiError
from hub.web.schemas import ERRORS, OtaIn, OtaOut

router = APIRouter(tags=["updates"])

DENIED = ApiError(
    403,
    "forbidden",
    "not this node's download (unknown node or release, or a wrong credential)",
    "это не загрузка этого узла (неизвестный узел или выпуск, или неверные данные доступа)",
)


@router.get("/ota/{device}/{release}/manifest", include_in_schema=False)
def node_manifest(
    device: str, release: str, request: Request, web: Web, x_luza_auth: Annotated[str | None, Header()] = None
) -> Response:
    body = web.hub.ota.manifest(device, release, request.url.path, x_luza_auth)
    if body is None:
        raise DENIED
    return Response(body, media_type="text/plain")


@router.get("/ota/{device}/{release}/f/{name:path}", include_in_schema=False)
def node_file(
    device: str,
    release: str,
    name: str,
    request: Request,
    web: Web,
    x_luza_auth: Annotated[str | None, Header()] = None,
) -> FileResponse:
    path = web.hub.ota.file(device, release, name, request.url.path, x_luza_auth)
    if path is None or not path.is_file():
        raise DENIED
    web.hub.ota.stats["served"] += 1
    return FileResponse(path, media_type="application/octet-stream")


# response_model: the schema /openapi.json has always given (a JSON object; docs/web-api.md has its fields)
@router.get("/api/ota", response_model=dict[str, object])
def releases(web: Web) -> OtaView:
    """The releases this hub keeps (firmware and config changes) and the firmware it would push."""
    return web.hub.ota.view()


@router.post(
    "/api/devices/{device}/ota",
    response_model=OtaOut,
    status_code=status.HTTP_202_ACCEPTED,
    responses={s: ERRORS[s] for s in (400, 401, 404, 409, 422, 503)},
)
def push(
    device: str,
    body: OtaIn,
    web: Web,
    authorization: Annotated[
        str | None,
        Header(description="Bearer <token>: the club's (POST /api/club/token) or the device's table's"),
    ] = None,
) -> OtaOut:
    """Update one node: the release named, or the hub's own firmware. It downloads it from this hub, checks it,
    and restarts into it; it keeps it only after it has reached the hub again (docs/firmware.md, Updates)."""  # noqa: E501
    dev = web.hub.config.device(device)
    if dev is None:
        known = [d.id for t in web.hub.config.tables for d in t.devices]
        raise ApiError(
            404,
            "unknown_device",
            f"no device {device!r} in luza.toml; devices: {', '.join(known)}",
            f"устройства {device!r} нет в luza.toml; устройства: {', '.join(known)}",
            "device",
        )
    web.authorize_device(dev.table, authorization)  # as identify: the club's token or the table's
    try:
        (result,) = web.hub.ota.push([device], body.release)
    except ReleaseError as exc:
        raise ApiError(404, "no_release", exc.en, exc.ru, "release") from None
    if not result.ok:
        code = 409 if result.code in ("match_in_play", "offline", "busy") else 503
        raise ApiError(code, result.code, result.en, result.ru)
    return OtaOut(ok=True, device=device, release=result.release, en=result.en, ru=result.ru)
