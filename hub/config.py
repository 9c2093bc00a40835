"""The hub's configuration, as luza.toml holds it: club, tables and their devices, broker, store, settle
times.

Frozen dataclasses, read and checked from the file by hub.configfile (`load(path)`). A bad file is a
`ConfigError` whose message names the key (as a path: `tables[1].pockets`) and says what to write instead,
e.g. `tables[1].pockets: device 'p-foot' lists pocket 7; pockets are 1-6`. The reference with an example is
docs/hub.md; hub/example.toml is a working example.

Also the shape of a node's own settings, its config.json (`NodeSettings`): the keys are firmware/config.py's
DEFAULTS (its `validate` is the check), written by `luza provision`, read by `luza firmware flash` and the
virtual nodes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

SYNCHRONOUS = ("full", "normal")


class ConfigError(ValueError):
    """A bad luza.toml: `key` is the path of the offending key, the message says the fix."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}" if key else message)
        self.key = key


@dataclass(frozen=True)
class ShotTiming:
    """The time rules of reconciliation, in ms on the hub clock: luza.toml's [settle] section."""

    hanging_ball_ms: int = 5000  # general §23: a ball that falls 5 s or more after the shot ended is put back
    double_strike_ms: int = 50  # two strikes this close are one stroke seen twice (an alert)
    min_shot_ms: int = 2000  # a strike sooner than this after the previous strike: §14.2 candidate
    pocket_settle_ms: int = 1000  # ... or sooner than this after the previous shot's last pocket event
    roll_ms: int = 12000  # balls are assumed to have stopped this long after the last strike or pocket event
    min_colour_conf: float = 0.6  # a colour reading below this confidence is treated as unknown


@dataclass(frozen=True)
class DeviceConfig:
    """One node on a table: a pocket node covering `pockets`, or a cue node paired with player `seat`."""

    id: str
    table: str
    role: str  # "pocket" | "cue"
    pockets: tuple[int, ...] = ()
    seat: int | None = None


@dataclass(frozen=True)
class TableConfig:
    id: str
    name: str
    devices: tuple[DeviceConfig, ...] = ()

    def device(self, device_id: str) -> DeviceConfig | None:
        for d in self.devices:
            if d.id == device_id:
                return d
        return None


@dataclass(frozen=True)
class BrokerConfig:
    host: str = "127.0.0.1"
    port: int = 1883
    username: str | None = None
    password: str | None = None
    client_id: str = "luza-hub"
    keepalive_s: int = 30
    session_expiry_s: int = 7 * 24 * 3600  # how long the broker keeps our queued events while we are away
    reconnect_min_s: int = 1
    reconnect_max_s: int = 30
    # The login of the hub's second connection, which reads telemetry alone, so a node's telemetry flood never
    # queues ahead of events (docs/security.md). None: one connection reads everything (an open broker, old
    # installations); the same user as `username` works on a broker that does not force client id = user name.
    tele_username: str | None = None
    tele_password: str | None = None

    @property
    def url(self) -> str:
        return f"mqtt://{self.host}:{self.port}"

    @property
    def tele_client_id(self) -> str:
        """The telemetry connection's client id (a locked broker replaces it with `tele_username`)."""
        return f"{self.client_id}-tele"


@dataclass(frozen=True)
class StoreConfig:
    path: str = "luza.db"
    synchronous: str = "full"  # "full": fsync every commit (durable over a power cut); "normal": WAL default
    group_commit_ms: float = 0.0  # extra wait for more inputs before a commit; 0: commit what has queued up
    max_batch: int = 500


@dataclass(frozen=True)
class IngestConfig:
    late_window_s: int = 3600  # events from an old boot older than this are rejected as stale
    serial: tuple[str, ...] = ()  # pyserial URLs (/dev/ttyUSB0, loop://, ...)
    serial_baud: int = 115200


@dataclass(frozen=True)
class OtaConfig:
    """Over-the-air updates of the nodes ([ota]; docs/install.md "Updating nodes")."""

    dir: str | None = None  # where releases are kept (default: the folder "ota" beside the database)
    keys: str | None = (
        None  # the nodes' update keys (default: ota-keys.json beside luza.toml, if it is there)
    )
    host: str | None = (
        None  # the hub's address as nodes reach its HTTP (default: the broker host each node uses)
    )


@dataclass(frozen=True)
class Config:
    club: str = "Luza"
    club_ru: str = "Луза"
    tables: tuple[TableConfig, ...] = ()
    broker: BrokerConfig = field(default_factory=BrokerConfig)
    store: StoreConfig = field(default_factory=StoreConfig)
    ingest: IngestConfig = field(default_factory=IngestConfig)
    settle: Mapping[str, float] = field(
        default_factory=dict
    )  # ShotTiming fields by name (ms or s, as it says)
    ota: OtaConfig = field(default_factory=OtaConfig)

    def table(self, table_id: str) -> TableConfig | None:
        for t in self.tables:
            if t.id == table_id:
                return t
        return None

    def device(self, device_id: str) -> DeviceConfig | None:
        for t in self.tables:
            d = t.device(device_id)
            if d is not None:
                return d
        return None


def replace(cfg: Config, **changes: Any) -> Config:
    """A copy with some fields changed (tests, CLI overrides)."""
    return dataclasses.replace(cfg, **changes)


def settle_fields() -> tuple[str, ...]:
    """The names the [settle] section accepts: the fields of ShotTiming."""
    return tuple(f.name for f in dataclasses.fields(ShotTiming))


# ---------------------------------------------------------------- a node's config.json
# TypedDicts: the file is JSON that the firmware merges over its DEFAULTS (firmware/config.py, plain dicts on
# MicroPython), so every key may be left out; tests/hub/base/test_node_settings.py keeps the keys the same.


class NodeWifi(TypedDict, total=False):
    ssid: str
    password: str
    hostname: str


class NodeBroker(TypedDict, total=False):
    host: str
    port: int
    user: str
    password: str
    keepalive: int
    tls: bool


class NodeSerial(TypedDict, total=False):
    enabled: bool
    baud: int


class NodePocket(TypedDict):
    """One pocket a pocket node serves: its number and its beams' GPIOs (firmware/pins.py SLOTS)."""

    pocket: int
    upper: int
    lower: int
    colour: NotRequired[bool]  # it has a TCS34725 colour sensor


class NodeBeam(TypedDict, total=False):
    active_low: bool
    debounce_ms: float
    jam_ms: float
    ring: int
    poll_ms: float
    spacing_mm: float


class NodeColour(TypedDict, total=False):
    sda: int
    scl: int
    freq: int
    gain: int
    atime_ms: float
    min_conf: float
    calibration: dict[str, dict[str, list[float]]]  # pocket -> colour -> [r, g, brightness, spread]


class NodeCue(TypedDict, total=False):
    sensor: str
    sda: int
    scl: int
    int_pin: int
    odr_hz: int
    range_g: int
    strike_g: float
    release_g: float
    max_contact_ms: float
    double_min_ms: float
    double_max_ms: float
    refractory_ms: float
    sleep_after_s: float
    battery_pin: int
    battery_divider: float


class NodeOutbox(TypedDict, total=False):
    max: int
    flash: bool


class NodeSettings(TypedDict, total=False):
    """A node's config.json (firmware/config.py DEFAULTS has every key, with its meaning)."""

    role: str  # "pocket" | "cue"
    table: str
    device: str
    wifi: NodeWifi
    broker: NodeBroker
    serial: NodeSerial
    pockets: list[NodePocket]
    beam: NodeBeam
    colour: NodeColour
    cue: NodeCue
    tele_s: float
    time_sync_s: float
    outbox: NodeOutbox
