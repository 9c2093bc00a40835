"""`luza firmware push` over the hub's control socket (hub.service.control): one request line

    {"ota": {"devices": ["p3"] | "table": "t1" | "all": true, "release": "<id>"?, "config": {...}?}}

answered with {"ok": <every node took it>, "results": [{"device", "ok", "code", "en", "ru", "release"}, ...]}
or, for a request that names no nodes or a release the hub does not have, the control socket's refusal
{"ok": false, "error": {"code", "en", "ru", "field"}, "results": []} (hub/errors.py's one error body).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, Protocol, TypedDict

from hub.config import Config
from hub.errors import ErrorBody
from hub.ota.release import ReleaseError
from hub.ota.service import Ota, PushedView
from luza_wire import ota as wire_ota


class OtaAnswer(TypedDict):
    """The control socket's answer to an update push (the module's docstring)."""

    ok: bool
    error: NotRequired[dict[str, str | None]]  # hub.errors.ErrorBody.as_json, when the request is refused
    results: list[PushedView]


class OtaHub(Protocol):
    """What the answer needs of the hub (hub.service.hub.Hub): its config and its update service."""

    @property
    def config(self) -> Config: ...

    @property
    def ota(self) -> Ota: ...


def _refused(en: str, ru: str, code: str = "malformed") -> OtaAnswer:
    return {"ok": False, "error": ErrorBody(code, en, ru).as_json(), "results": []}


def targets(config: Config, req: Mapping[str, object]) -> list[str] | str:
    """The node ids a request names, or an English error. `req` is the request's JSON as received, checked
    here field by field."""
    chosen = [k for k in ("devices", "table", "all") if req.get(k)]
    if len(chosen) != 1:
        return "name the nodes: one of devices, table or all"
    if req.get("all") is True:
        return [d.id for t in config.tables for d in t.devices]
    if "table" in chosen:
        name = req["table"]
        t = config.table(name) if isinstance(name, str) else None
        if t is None:
            return f"no table {name!r} in luza.toml"
        return [d.id for d in t.devices] or f"table {t.id} has no nodes"
    devices = req["devices"]
    if not isinstance(devices, list) or not all(isinstance(d, str) for d in devices):
        return "devices: a list of node ids"
    return [str(d) for d in devices]


def answer(hub: OtaHub, req: object) -> OtaAnswer:
    """Push the update `req` asks for; the answer (the module's docstring)."""
    if not isinstance(req, dict):
        return _refused(
            'ota: must be an object {"devices"|"table"|"all", "release"?, "config"?}',
            'ota: нужен объект {"devices"|"table"|"all", "release"?, "config"?}',
        )
    nodes = targets(hub.config, req)
    if isinstance(nodes, str):
        return _refused(nodes, "укажите узлы: devices, table или all (" + nodes + ")")
    rid, change = req.get("release"), req.get("config")
    if rid is not None and not wire_ota.valid_release(rid):
        return _refused(f"release {rid!r} is not a release id", f"{rid!r} — не номер выпуска")
    if change is not None and not isinstance(change, dict):
        return _refused(
            "config: the settings to change, as a JSON object", "config: изменения настроек — объект JSON"
        )
    try:
        results = hub.ota.push(nodes, rid, change)
    except ReleaseError as exc:
        return _refused(exc.en, exc.ru, "no_release")
    return {"ok": bool(results) and all(r.ok for r in results), "results": [r.view() for r in results]}
