"""The devices of one table as its screens show them (`DeviceView`): the registry's view plus the configured
pockets, the seat a cue node plays for in the current match, a jam the session knows of, and silence (not
heard lately)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.config import Config
from hub.ingest.registry import Registry
from hub.reconcile.table import TableSession
from hub.view.table import DeviceView

# an online node not heard for this long is shown as silent (telemetry comes every few seconds)
SILENT_MS = 60_000


def device_view(
    row: Mapping[str, Any],
    config: Config,
    now_ms: int,
    jams: set[str] | None = None,
    cues: Mapping[str, int] | None = None,
) -> DeviceView:
    """One registry row (`Registry.snapshot()`) for the screens (docs/web-api.md, `<device>`)."""
    dev_id = str(row["id"])
    cfg = config.device(dev_id)
    last = row.get("last_seen_ms")
    seat = (cues or {}).get(dev_id, cfg.seat if cfg else None)
    return DeviceView(
        device=dev_id,
        table=row.get("table_id"),
        role=row.get("role"),
        pockets=list(cfg.pockets) if cfg else [],
        seat=seat,
        state=row.get("state") or "unknown",
        online=bool(row.get("online")),
        last_seen_ms=last,
        fw=row.get("fw") or "",
        battery=row.get("battery"),
        rssi=row.get("rssi"),
        outbox=row.get("outbox"),
        dropped=row.get("dropped"),
        rejected=sum((row.get("rejected") or {}).values()),
        jam=dev_id in (jams or set()),
        ota=row.get("ota"),  # its update's progress or result (luza_wire/ota.py), or None
        silent=bool(row.get("online")) and (last is None or now_ms - int(last) > SILENT_MS),
    )


def table_devices(
    config: Config,
    registry: Registry,
    table_id: str,
    session: TableSession | None,
    cues: Mapping[str, int],
    now_ms: int,
) -> list[DeviceView]:
    """The devices of `table_id`, with the live session's jams and this match's cue pairing."""
    jams = {dev for dev, _pocket in session.jams} if session is not None else set()
    return [device_view(r, config, now_ms, jams, cues) for r in registry.snapshot(table_id)]
