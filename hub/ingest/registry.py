"""The device registry: what the hub knows of each node — online/offline, last seen, firmware, battery, RSSI,
outbox depth, its health counters (luza_wire.protocol.TELE_COUNTERS, with the report before, for
hub/ingest/health.py's alerts) and how many of its payloads were rejected, by reason.

Fed by the worker thread from `status` (birth and Last Will), `tele` and accepted events; read by any thread
(`snapshot()`), so it takes a lock. `row(device)` is what the store keeps in its `devices` table.

Telemetry may come on a connection of its own (hub.ingest.mqtt), so it can overtake a node's birth or trail
its Last Will: a birth is judged on what the node's status and events said, never on telemetry, and a report
received before a goodbye does not bring the node back online.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from hub.config import Config
from hub.ingest.health import Health, NodeCounters
from hub.vocab.notices import Alert
from luza_wire.protocol import TELE_COUNTERS

UNKNOWN = ""  # the registry key for rejections that name no device (bad topic)
# unconfigured device ids tracked one by one; a flood of made-up ids is counted under UNKNOWN
MAX_STRANGERS = 256


@dataclass
class Device:
    id: str
    table_id: str | None = None  # None: not in the config
    role: str | None = None
    state: str = "unknown"  # online | lost | offline | error | unknown
    boot: int | None = None
    fw: str = ""
    ip: str = ""
    error: str | None = None
    last_seen_ms: int | None = None
    battery: float | None = None
    rssi: float | None = None
    outbox: int | None = None
    dropped: int | None = None
    uptime_ms: int | None = None
    heap: int | None = None
    rejected: dict[str, int] = field(default_factory=dict)
    counters: dict[str, Any] = field(default_factory=dict)  # the latest telemetry's health counters
    counters_before: dict[str, Any] = field(default_factory=dict)  # the report before (same boot), for rates
    # its update's progress or result, as its status said (luza_wire/ota.py)
    ota: dict[str, Any] | None = None

    @property
    def online(self) -> bool:
        return self.state == "online"


_FIELDS = tuple(f.name for f in fields(Device))


def _as_dict(d: Device) -> dict[str, Any]:
    """`dataclasses.asdict` without its deep copy (the values are numbers, strings and flat dicts of them)."""
    out: dict[str, Any] = {}
    for name in _FIELDS:
        v = getattr(d, name)
        out[name] = dict(v) if isinstance(v, dict) else v
    out["online"] = d.online
    return out


def _ota(stored: object) -> dict[str, Any] | None:
    """A stored `ota` column (JSON text) back as the object, or None."""
    try:
        got = json.loads(stored) if isinstance(stored, str) else None
    except ValueError:
        return None
    return got if isinstance(got, dict) else None


class Registry:
    def __init__(
        self,
        config: Config,
        stored: Mapping[str, Mapping[str, Any]] | None = None,
        rejected: Mapping[str, Mapping[str, int]] | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._devices: dict[str, Device] = {}
        self._pockets: dict[str, list[tuple[str, tuple[int, ...]]]] = {}  # table -> [(pocket node, pockets)]
        self._health = Health()
        # device -> (state, boot) as its status and events said (not telemetry),
        # and the hub's ms of its last status
        self._said: dict[str, tuple[str, int | None, int]] = {}
        for t in config.tables:
            for d in t.devices:
                self._devices[d.id] = Device(d.id, t.id, d.role)
                if d.role == "pocket":
                    self._pockets.setdefault(t.id, []).append((d.id, tuple(d.pockets)))
        for dev_id, row in (stored or {}).items():
            dev = self._devices.setdefault(dev_id, Device(dev_id))
            if dev.table_id is None:  # not in this config (or no config): as last stored
                dev.table_id, dev.role = row.get("table_id"), row.get("role")
            for k in (
                "state",
                "boot",
                "fw",
                "ip",
                "error",
                "last_seen_ms",
                "battery",
                "rssi",
                "outbox",
                "dropped",
                "uptime_ms",
                "heap",
            ):
                if row.get(k) is not None:
                    setattr(dev, k, row[k])
            self._said[dev_id] = (dev.state, dev.boot, 0)  # times of an earlier run are not compared
            dev.ota = _ota(row.get("ota"))
        for dev_id, counts in (rejected or {}).items():
            if dev_id not in self._devices and self._strangers() >= MAX_STRANGERS:
                dev_id = UNKNOWN
            dev = self._get(dev_id)
            for code, n in counts.items():
                dev.rejected[code] = dev.rejected.get(code, 0) + n

    def _get(self, device: str) -> Device:
        dev = self._devices.get(device)
        if dev is None:
            dev = self._devices[device] = Device(device)
        return dev

    def on_status(
        self,
        device: str,
        state: str,
        boot: int | None,
        fw: str,
        ip: str,
        error: str | None,
        now_ms: int,
        ota: dict[str, Any] | None = None,
    ) -> bool:
        """A status message; True if it is a birth (online with a new boot, or back online): time to sync."""
        with self._lock:
            dev = self._get(device)
            said_state, said_boot, _ = self._said.get(device, ("unknown", None, 0))
            birth = state == "online" and (said_state != "online" or boot != said_boot)
            self._said[device] = (state, boot if boot is not None else said_boot, now_ms)
            dev.state = state
            if state in ("online", "error"):  # the Last Will and the goodbye say nothing of an update
                dev.ota = ota
            if boot is not None:
                dev.boot = boot
            if state == "online":
                dev.fw, dev.ip, dev.error = fw or dev.fw, ip or dev.ip, None
            elif error:
                dev.error = error
            dev.last_seen_ms = now_ms
            return birth

    def on_tele(self, device: str, boot: int, fields: Mapping[str, Any], now_ms: int) -> None:
        with self._lock:
            dev = self._get(device)
            same_boot = dev.boot == boot
            if dev.boot is None or boot > dev.boot:
                dev.boot = boot
            counters = {k: fields[k] for k in TELE_COUNTERS if k in fields}
            if counters:
                dev.counters_before = dev.counters if same_boot else {}
                dev.counters = counters
            for wire_name, attr in (
                ("bat", "battery"),
                ("rssi", "rssi"),
                ("ob", "outbox"),
                ("drop", "dropped"),
                ("up", "uptime_ms"),
                ("heap", "heap"),
            ):
                if wire_name in fields:
                    setattr(dev, attr, fields[wire_name])
            dev.last_seen_ms = now_ms
            said_at = self._said.get(device, ("unknown", None, 0))[2]
            if dev.state in ("unknown", "lost", "offline") and now_ms >= said_at:
                dev.state = "online"  # telemetry means it is up, even if we missed its birth

    def on_event(self, device: str, boot: int, now_ms: int) -> None:
        with self._lock:
            dev = self._get(device)
            if dev.boot is None or boot > dev.boot:
                dev.boot = boot
            state, said_boot, said_at = self._said.get(device, ("unknown", None, 0))
            if said_boot is None or boot > said_boot:
                self._said[device] = (state, boot, said_at)
            dev.last_seen_ms = now_ms

    def health(self, table_id: str) -> list[Alert]:
        """Sensor-health alerts of a table's pocket nodes (hub/ingest/health.py);
        call once per telemetry report."""
        with self._lock:
            nodes = [
                NodeCounters(
                    d, pockets, dict(self._devices[d].counters), dict(self._devices[d].counters_before)
                )
                for d, pockets in self._pockets.get(table_id, [])
                if self._devices[d].counters
            ]
            return self._health.table_alerts(table_id, nodes)

    def current_boot(self, device: str) -> int | None:
        with self._lock:
            dev = self._devices.get(device)
            return dev.boot if dev else None

    def _strangers(self) -> int:
        return sum(1 for d in self._devices.values() if d.table_id is None)

    def on_rejected(self, device: str | None, code: str) -> bool:
        """Count a rejection; True the first time this device has this kind (log it once)."""
        with self._lock:
            if device and device not in self._devices and self._strangers() >= MAX_STRANGERS:
                device = UNKNOWN
            dev = self._get(device or UNKNOWN)
            n = dev.rejected.get(code, 0)
            dev.rejected[code] = n + 1
            return n == 0

    def get(self, device: str) -> Device | None:
        with self._lock:
            dev = self._devices.get(device)
            return Device(**{**asdict(dev), "rejected": dict(dev.rejected)}) if dev else None

    def row(self, device: str) -> dict[str, Any]:
        """The store's `devices` row for this device."""
        with self._lock:
            d = _as_dict(self._get(device))
        for key in ("rejected", "id", "online"):
            d.pop(key)
        d["ota"] = json.dumps(d["ota"]) if d["ota"] else None
        return d

    def snapshot(self, table_id: str | None = None) -> list[dict[str, Any]]:
        """Every device (or those of `table_id`) as a JSON-able dict with `online`, configured ones first.
        Cheap: a table's state carries its devices and is made after every input
        (a dict's fields copied one level)."""
        with self._lock:
            devs = [d for d in self._devices.values() if table_id is None or d.table_id == table_id]
            devs.sort(key=lambda d: (d.table_id is None, d.table_id or "", d.id))
            return [_as_dict(d) for d in devs]
