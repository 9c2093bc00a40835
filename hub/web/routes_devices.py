"""Devices: the list (open) and node commands (the club's token, or a referee token of the device's table)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, status

from hub.view.table import DeviceView
from hub.web.context import Web
from hub.web.errors import ApiError
from hub.web.schemas import ERRORS, CommandIn, CommandOut

router = APIRouter(tags=["devices"])


@router.get("/api/devices", response_model=list[DeviceView])
def list_devices(web: Web) -> list[DeviceView]:
    """Every node the hub knows (configured ones first), as the club view shows them."""
    return web.devices()


@router.post(
    "/api/devices/{device}/commands",
    response_model=CommandOut,
    status_code=status.HTTP_202_ACCEPTED,
    responses={s: ERRORS[s] for s in (400, 401, 404, 422, 503)},
)
def command(
    device: str,
    body: CommandIn,
    web: Web,
    authorization: Annotated[
        str | None,
        Header(description="Bearer <token>: the club's (POST /api/club/token) or the device's table's"),
    ] = None,
) -> CommandOut:
    """Send a node a command: `identify` (blink for `seconds`) or `calibrate` (a pocket's colour sensor)."""
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
    web.authorize_device(dev.table, authorization)
    if body.name == "identify":
        args: dict[str, float | str] = {"s": body.seconds}  # the command's arguments (luza_wire.protocol)
    else:
        if (
            dev.role != "pocket"
            or body.pocket is None
            or body.pocket not in dev.pockets
            or body.colour is None
        ):
            raise ApiError(
                400,
                "malformed",
                f"calibrate needs `pocket` (one of this node's pockets: {list(dev.pockets)}) and `colour`",
                f"для калибровки нужны `pocket` (луза этого узла: {list(dev.pockets)}) и `colour`",
                "pocket",
            )
        args = {"p": body.pocket, "col": body.colour}
    if not web.hub.command(device, body.name, **args):
        raise ApiError(
            503,
            "unavailable",
            "the hub has no link to the node now (no broker connection)",
            "у хаба сейчас нет связи с узлом (нет подключения к брокеру)",
        )
    return CommandOut(ok=True, device=device, name=body.name)
