"""The device registry: what the hub knows of each node — online/offline, last seen, firmware, battery, RSSI,
outbox depth, its health counters (luza_wire.telemetry.TELE_COUNTERS, with the report before, for
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
from dataclasses import asdict, dataclass, field
from typing import Required, TypedDict, cast

from hub.config import Config
from hub.ingest.health import Health, NodeCounters
from hub.store.devices import DEVICE_FIELDS, DeviceRow
from hub.vocab.notices import Alert
from luza_wire.telemetry import TELE_COUNTERS

UNKNOWN = ""  # the registry key for rejections that name no device (bad topic)
# unconfigured device ids tracked one by one; a flood of made-up ids is counted under UNKNOWN
MAX_STRANGERS = 256
# the stored fields a restart takes back as they were (the table and role come from the config first, the
# update's status is JSON text)
_RESTORED = tuple(k for k in DEVICE_FIELDS if k not in ("table_id", "role", "ota"))


class OtaStatus(TypedDict, total=False):
    """A node's over-the-air update as its status says (luza_wire/ota.py `check_status`: only the keys it
    sent; docs/wire.md)."""

    st: Required[str]  # luza_wire.ota.OTA_STATES: fetch | staged | trial | ok | rolled_back | refused
    r: str  # the release id
    to: str  # the version it goes to
    err: str  # why it was refused or rolled back
    n: int  # files fetched so far
    of: int  # files in the release


# Telemetry's health counters by name (luza_wire.telemetry.TELE_COUNTERS): counts since boot. Floats too: the
# wire checks a counter's range, not that it is whole.
Counters = dict[str, float]


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
    counters: Counters = field(default_factory=dict)  # the latest telemetry's health counters
    counters_before: Counters = field(default_factory=dict)  # the report before (same boot), for rates
    # its update's progress or result, as its status said (luza_wire/ota.py)
    ota: OtaStatus | None = None

    @property
    def online(self) -> bool:
        return self.state == "online"


class DeviceSnapshot(TypedDict):
    """A device as `Registry.snapshot()` gives it: its fields (the dicts copied) and `online`; the JSON of
    `luza devices --json`, and what hub.view.devices turns into a screen's `DeviceView`."""

    id: str
    table_id: str | None
    role: str | None
    state: str
    boot: int | None
    fw: str
    ip: str
    error: str | None
    last_seen_ms: int | None
    battery: float | None
    rssi: float | None
    outbox: int | None
    dropped: int | None
    uptime_ms: int | None
    heap: int | None
    rejected: dict[str, int]
    counters: Counters
    counters_before: Counters
    ota: OtaStatus | None
    online: bool


def _snapshot(d: Device) -> DeviceSnapshot:
    """`dataclasses.asdict` without its deep copy (the values are numbers, strings and flat dicts of them)."""
    return DeviceSnapshot(
        id=d.id,
        table_id=d.table_id,
        role=d.role,
        state=d.state,
        boot=d.boot,
        fw=d.fw,
        ip=d.ip,
        error=d.error,
        last_seen_ms=d.last_seen_ms,
        battery=d.battery,
        rssi=d.rssi,
        outbox=d.outbox,
        dropped=d.dropped,
        uptime_ms=d.uptime_ms,
        heap=d.heap,
        rejected=dict(d.rejected),
        counters=dict(d.counters),
        counters_before=dict(d.counters_before),
        ota=None if d.ota is None else d.ota.copy(),
        online=d.online,
    )


def _row(d: Device) -> DeviceRow:
    """The store's `devices` row of a device: DEVICE_FIELDS, the update's status as JSON text."""
    return DeviceRow(
        table_id=d.table_id,
        role=d.role,
        state=d.state,
        boot=d.boot,
        fw=d.fw,
        ip=d.ip,
        error=d.error,
        last_seen_ms=d.last_seen_ms,
        battery=d.battery,
        rssi=d.rssi,
        outbox=d.outbox,
        dropped=d.dropped,
        uptime_ms=d.uptime_ms,
        heap=d.heap,
        ota=json.dumps(d.ota) if d.ota else None,
    )


def _ota(stored: object) -> OtaStatus | None:
    """A stored `ota` column (JSON text) back as the object, or None."""
    try:
        got = json.loads(stored) if isinstance(stored, str) else None
    except ValueError:
        return None
    # the hub wrote it (`_row`) from a status luza_wire.ota.check_status had passed
    return cast(OtaStatus, got) if isinstance(got, dict) else None


class Registry:
    def __init__(
        self,
        config: Config,
        stored: Mapping[str, DeviceRow] | None = None,
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
            as_stored: Mapping[str, object] = row
            for k in _RESTORED:
                if as_stored.get(k) is not None:
                    setattr(dev, k, as_stored[k])
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
        ota: OtaStatus | None = None,
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

    def on_tele(self, device: str, boot: int, fields: Mapping[str, float], now_ms: int) -> None:
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

    def row(self, device: str) -> DeviceRow:
        """The store's `devices` row for this device."""
        with self._lock:
            return _row(self._get(device))

    def snapshot(self, table_id: str | None = None) -> list[DeviceSnapshot]:
        """Every device (or those of `table_id`) with `online`, configured ones first.
        Cheap: a table's state carries its devices and is made after every input
        (a dict's fields copied one level)."""
        with self._lock:
            devs = [d for d in self._devices.values() if table_id is None or d.table_id == table_id]
            devs.sort(key=lambda d: (d.table_id is None, d.table_id or "", d.id))
            return [_snapshot(d) for d in devs]
