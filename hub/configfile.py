"""Reading luza.toml: the TOML file checked key by key into the hub's configuration (hub.config).

`load(path)` reads and validates the file; `parse(raw)` an already-read document. Every error is a
`hub.config.ConfigError` naming the key and the fix; `load` adds the line of the file where the key is
written.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from hub.config import (
    SYNCHRONOUS,
    BrokerConfig,
    Config,
    ConfigError,
    DeviceConfig,
    IngestConfig,
    OtaConfig,
    StoreConfig,
    TableConfig,
    settle_fields,
)
from luza_wire import frame

# ---------------------------------------------------------------- small typed readers


def _section(raw: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = raw.get(key, {})
    if not isinstance(value, Mapping):
        raise ConfigError(key, f"must be a table ([{key}]), got {type(value).__name__}")
    return value


def _known(section: Mapping[str, Any], where: str, allowed: tuple[str, ...]) -> None:
    for k in section:
        if k not in allowed:
            raise ConfigError(
                f"{where}.{k}" if where else k, f"unknown key; the keys here are {', '.join(allowed)}"
            )


def _str(section: Mapping[str, Any], key: str, where: str, default: str | None) -> str | None:
    value = section.get(key, default)
    if value is not None and not isinstance(value, str):
        raise ConfigError(f"{where}.{key}", f'must be a string in quotes, e.g. {key} = "…"')
    return value


def _int(section: Mapping[str, Any], key: str, where: str, default: int, lo: int, hi: int) -> int:
    value = section.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ConfigError(f"{where}.{key}", f"must be a whole number {lo}..{hi}, got {value!r}")
    return value


def _num(section: Mapping[str, Any], key: str, where: str, default: float, lo: float, hi: float) -> float:
    value = section.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
        raise ConfigError(f"{where}.{key}", f"must be a number {lo}..{hi}, got {value!r}")
    return float(value)


def _id(value: object, key: str, what: str) -> str:
    if not frame.valid_id(value):
        raise ConfigError(key, f"{what} {value!r} is not an id: use 1-32 of a-z, 0-9 and '-', e.g. \"t1\"")
    assert isinstance(value, str)
    return value


# ---------------------------------------------------------------- sections


def _broker(raw: Mapping[str, Any]) -> BrokerConfig:
    s = _section(raw, "broker")
    _known(
        s,
        "broker",
        (
            "url",
            "username",
            "password",
            "client_id",
            "keepalive_s",
            "session_expiry_s",
            "reconnect_min_s",
            "reconnect_max_s",
            "tele_username",
            "tele_password",
        ),
    )
    url = _str(s, "url", "broker", "mqtt://127.0.0.1:1883") or ""
    parts = urlsplit(url)
    if parts.scheme != "mqtt" or not parts.hostname:
        raise ConfigError("broker.url", f'{url!r} is not a broker URL; write e.g. "mqtt://127.0.0.1:1883"')
    try:
        port = parts.port or 1883
    except ValueError:
        raise ConfigError(
            "broker.url", f'{url!r} has a bad port; write e.g. "mqtt://127.0.0.1:1883"'
        ) from None
    client_id = _str(s, "client_id", "broker", "luza-hub") or ""
    if not 1 <= len(client_id) <= 23:
        raise ConfigError("broker.client_id", "must be 1-23 characters (MQTT's portable limit)")
    lo = _int(s, "reconnect_min_s", "broker", 1, 1, 600)
    hi = _int(s, "reconnect_max_s", "broker", 30, 1, 3600)
    if hi < lo:
        raise ConfigError("broker.reconnect_max_s", f"must be at least reconnect_min_s ({lo})")
    tele_user, tele_pw = _str(s, "tele_username", "broker", None), _str(s, "tele_password", "broker", None)
    if tele_user == "" or (tele_pw is not None and tele_user is None):
        raise ConfigError(
            "broker.tele_username",
            "name the telemetry connection's broker user, e.g. "
            'tele_username = "luza-hub-tele" (or remove tele_password)',
        )
    return BrokerConfig(
        host=parts.hostname,
        port=port,
        username=_str(s, "username", "broker", parts.username),
        password=_str(s, "password", "broker", parts.password),
        client_id=client_id,
        keepalive_s=_int(s, "keepalive_s", "broker", 30, 5, 3600),
        session_expiry_s=_int(s, "session_expiry_s", "broker", 7 * 24 * 3600, 60, 0xFFFFFFFF),
        reconnect_min_s=lo,
        reconnect_max_s=hi,
        tele_username=tele_user,
        tele_password=tele_pw,
    )


def _store(raw: Mapping[str, Any], base: Path) -> StoreConfig:
    s = _section(raw, "store")
    _known(s, "store", ("path", "synchronous", "group_commit_ms", "max_batch"))
    path = _str(s, "path", "store", "luza.db") or ""
    if not path:
        raise ConfigError("store.path", 'must name the database file, e.g. path = "luza.db"')
    if path != ":memory:" and not Path(path).is_absolute():
        path = str(base / path)  # relative to the config file, so the service does not depend on its cwd
    sync = _str(s, "synchronous", "store", "full") or ""
    if sync not in SYNCHRONOUS:
        raise ConfigError(
            "store.synchronous", f'{sync!r} is not one of "full" (durable over power cuts) or "normal"'
        )
    return StoreConfig(
        path=path,
        synchronous=sync,
        group_commit_ms=_num(s, "group_commit_ms", "store", 0.0, 0, 1000),
        max_batch=_int(s, "max_batch", "store", 500, 1, 100000),
    )


def _ingest(raw: Mapping[str, Any]) -> IngestConfig:
    s = _section(raw, "ingest")
    _known(s, "ingest", ("late_window_s", "serial", "serial_baud"))
    serial = s.get("serial", [])
    if isinstance(serial, str):
        serial = [serial]
    if not isinstance(serial, list) or not all(isinstance(x, str) and x for x in serial):
        raise ConfigError("ingest.serial", 'must be a list of serial ports, e.g. serial = ["/dev/ttyUSB0"]')
    return IngestConfig(
        late_window_s=_int(s, "late_window_s", "ingest", 3600, 60, 30 * 24 * 3600),
        serial=tuple(serial),
        serial_baud=_int(s, "serial_baud", "ingest", 115200, 300, 4000000),
    )


def _pockets(table_id: str, where: str, raw: object, taken: dict[int, str]) -> list[DeviceConfig]:
    if not isinstance(raw, Mapping):
        raise ConfigError(
            where, "must map each pocket node to its pockets, e.g. pockets = { p-head = [1, 2] }"
        )
    out = []
    for dev, pockets in raw.items():
        _id(dev, where, "device")
        if isinstance(pockets, int) and not isinstance(pockets, bool):
            pockets = [pockets]
        if not isinstance(pockets, list) or not pockets:
            raise ConfigError(where, f"device {dev!r} must list its pockets, e.g. {dev} = [1, 2]")
        for p in pockets:
            if isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= 6:
                raise ConfigError(where, f"device {dev!r} lists pocket {p!r}; pockets are 1-6")
            if p in taken:
                raise ConfigError(
                    where, f"pocket {p} is listed by both {taken[p]!r} and {dev!r}; give it to one"
                )
            taken[p] = dev
        out.append(DeviceConfig(dev, table_id, "pocket", pockets=tuple(pockets)))
    return out


def _cues(table_id: str, where: str, raw: object) -> list[DeviceConfig]:
    if not isinstance(raw, Mapping):
        raise ConfigError(
            where, "must map each cue node to its player seat, e.g. cues = { cue-a = 0, cue-b = 1 }"
        )
    out = []
    seats: dict[int, str] = {}
    for dev, seat in raw.items():
        _id(dev, where, "device")
        if isinstance(seat, bool) or seat not in (0, 1):
            raise ConfigError(where, f"device {dev!r} has seat {seat!r}; seats are 0 (first player) and 1")
        if seat in seats:
            raise ConfigError(
                where, f"seat {seat} has two cue nodes ({seats[seat]!r} and {dev!r}); give each seat one"
            )
        seats[seat] = dev
        out.append(DeviceConfig(dev, table_id, "cue", seat=seat))
    return out


def _tables(raw: Mapping[str, Any]) -> tuple[TableConfig, ...]:
    items = raw.get("tables", [])
    if not isinstance(items, list):
        raise ConfigError("tables", "must be an array of tables: write each as [[tables]]")
    tables: list[TableConfig] = []
    owner: dict[str, str] = {}
    for i, t in enumerate(items):
        where = f"tables[{i}]"
        if not isinstance(t, Mapping):
            raise ConfigError(where, "must be a table: write it as [[tables]]")
        _known(t, where, ("id", "name", "pockets", "cues"))
        if "id" not in t:
            raise ConfigError(f"{where}.id", 'is missing; give the table an id, e.g. id = "t1"')
        tid = _id(t["id"], f"{where}.id", "table id")
        if any(x.id == tid for x in tables):
            raise ConfigError(f"{where}.id", f"table id {tid!r} is used twice; ids must be unique")
        name = _str(t, "name", where, tid) or tid
        devices = _pockets(tid, f"{where}.pockets", t.get("pockets", {}), {})
        devices += _cues(tid, f"{where}.cues", t.get("cues", {}))
        for d in devices:
            if d.id in owner:
                key = f"{where}.{'pockets' if d.role == 'pocket' else 'cues'}"
                raise ConfigError(
                    key,
                    f"device {d.id!r} is already on table {owner[d.id]!r}; a node serves one "
                    f"table (and one role)",
                )
            owner[d.id] = tid
        tables.append(TableConfig(tid, name, tuple(devices)))
    return tuple(tables)


def _settle(raw: Mapping[str, Any]) -> dict[str, float]:
    s = _section(raw, "settle")
    allowed = settle_fields()
    out: dict[str, float] = {}
    for k, v in s.items():
        if k not in allowed:
            raise ConfigError(f"settle.{k}", f"unknown settle time; the ones there are: {', '.join(allowed)}")
        if isinstance(v, bool) or not isinstance(v, int | float) or v < 0:
            raise ConfigError(f"settle.{k}", f"must be a number of at least 0, got {v!r}")
        out[k] = v
    return out


def _ota(raw: Mapping[str, Any], base: Path, store: StoreConfig) -> OtaConfig:
    s = _section(raw, "ota")
    _known(s, "ota", ("dir", "keys", "host"))
    where = {k: _str(s, k, "ota", None) for k in ("dir", "keys", "host")}
    folder = where["dir"] or (str(Path(store.path).parent / "ota") if store.path != ":memory:" else None)
    keys = where["keys"] or ("ota-keys.json" if (base / "ota-keys.json").is_file() else None)
    return OtaConfig(
        dir=str(base / folder) if folder else None,
        keys=str(base / keys) if keys else None,
        host=where["host"],
    )


def parse(raw: Mapping[str, Any], base: Path = Path(".")) -> Config:
    """Validate an already-read TOML document."""
    _known(raw, "", ("club", "tables", "broker", "store", "ingest", "settle", "ota"))
    club = _section(raw, "club")
    _known(club, "club", ("name", "name_ru"))
    name = _str(club, "name", "club", "Luza") or "Luza"
    tables, broker = (
        _tables(raw),
        _broker(raw),
    )  # checked in this order: the first error named is the first key
    store = _store(raw, base)
    return Config(
        club=name,
        club_ru=_str(club, "name_ru", "club", name) or name,
        tables=tables,
        broker=broker,
        store=store,
        ingest=_ingest(raw),
        settle=_settle(raw),
        ota=_ota(raw, base, store),
    )


def load(path: str | Path) -> Config:
    """Read and validate luza.toml; raises ConfigError (a ValueError) naming the key and the fix."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ConfigError("", f"cannot read config {str(p)!r}: {exc.strerror}; check the path") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ConfigError(
            "", f"{p}, line {line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); save the file as UTF-8"
        ) from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("", f"{p}: not valid TOML ({exc}); fix the syntax at that line") from None
    except RecursionError:
        raise ConfigError("", f"{p}: values nested too deeply") from None
    try:
        return parse(raw, p.resolve().parent)
    except ConfigError as exc:
        at = key_line(text, exc.key)
        if at is None:
            raise
        raise ConfigError(exc.key, f"{str(exc)[len(exc.key) + 2 :]} ({p}, line {at})") from None


def key_line(text: str, key: str) -> int | None:
    """The line of luza.toml where `key` (a path such as `tables[1].pockets`) is written, or its section's."""
    parts = [k for k in key.replace("]", "").replace("[", ".").split(".") if k]
    if not parts:
        return None
    section: list[str] = []
    counts: dict[str, int] = {}
    best: int | None = None
    for n, line in enumerate(text.splitlines(), 1):
        s = line.split("#", 1)[0].strip()
        if s.startswith("[["):
            name = s.strip("[] ")
            counts[name] = counts.get(name, -1) + 1
            section = [name, str(counts[name])]
        elif s.startswith("["):
            section = s.strip("[] ").split(".")
        else:
            name = s.partition("=")[0].strip().strip('"')
            if "=" in s and [*section, name] == parts[: len(section) + 1]:
                return n
            if section and section == parts[: len(section)] and best is None:
                best = n
            continue
        if section == parts[: len(section)] and best is None:
            best = n
    return best
