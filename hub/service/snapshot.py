"""The settings in force for one match, stored with it at `new_match` (matches.settings, schema v2).

A match is re-derived from its log by folding it through a TableSession; how shots are cut depends on the
`[settle]` times, and which sensor means which pocket or seat on the table's device map. Keeping these with
the match means a replay of an old match uses the settings it was played with, not today's luza.toml, and an
export can say exactly what the hub knew: the table's pocket map and cue pairing, the settle times, the rule
options after the variant's defaults, and the versions of the hub and of each node's firmware.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from importlib import metadata
from typing import Any, TypedDict

from hub.config import Config, ShotTiming
from hub.ingest.registry import Registry
from hub.reconcile.shotclock import ShotClock
from shared_rules.registry import find_variant

SNAPSHOT_VERSION = 1

OptionValue = str | int | float | bool | None  # a rule option as stored: JSON's scalars (others as str)


class ClubNames(TypedDict):
    en: str
    ru: str


class TableLayout(TypedDict):
    """The table's device map at the match's start: pocket node -> its pockets, cue node -> its seat."""

    id: str
    name: str
    pockets: dict[str, list[int]]
    cues: dict[str, int | None]


class RulesSettings(TypedDict):
    variant: str
    options: dict[str, OptionValue]  # after the variant's defaults


class HubVersion(TypedDict):
    version: str


class SettingsSnapshot(TypedDict):
    """A match's settings as stored with it (matches.settings, JSON), made by `settings_snapshot`."""

    version: int  # SNAPSHOT_VERSION
    club: ClubNames
    table: TableLayout
    settle: dict[str, int | float]  # ShotTiming's fields by name
    shot_clock: dict[str, int] | None  # ShotClock.to_dict, or None when off
    rules: RulesSettings
    hub: HubVersion
    firmware: dict[str, str | None]  # node -> its firmware version, None if never heard


def hub_version() -> str:
    """The installed luza package's version (the source tree's pyproject version when run uninstalled)."""
    try:
        return metadata.version("luza")
    except metadata.PackageNotFoundError:
        return "unknown"


def settings_snapshot(
    config: Config,
    table_id: str,
    variant: str,
    options: Mapping[str, object],
    timing: ShotTiming,
    registry: Registry | None = None,
    clock: ShotClock | None = None,
) -> SettingsSnapshot:
    """JSON-able settings of a match about to start on `table_id` (the table must be in `config`)."""
    table = config.table(table_id)
    devices = table.devices if table is not None else ()
    firmware: dict[str, str | None] = {}
    for d in devices:
        dev = registry.get(d.id) if registry is not None else None
        firmware[d.id] = (dev.fw or None) if dev is not None else None
    return {
        "version": SNAPSHOT_VERSION,
        "club": {"en": config.club, "ru": config.club_ru},
        "table": {
            "id": table_id,
            "name": table.name if table is not None else table_id,
            "pockets": {d.id: list(d.pockets) for d in devices if d.role == "pocket"},
            "cues": {d.id: d.seat for d in devices if d.role == "cue"},
        },
        "settle": dataclasses.asdict(timing),
        "shot_clock": clock.to_dict() if clock is not None and clock.on else None,
        "rules": {"variant": variant, "options": _jsonable(find_variant(variant)(dict(options)).options)},
        "hub": {"version": hub_version()},
        "firmware": firmware,
    }


def stored_settle(settings: Mapping[str, Any] | None) -> dict[str, float] | None:
    """The settle times a stored snapshot holds, or None (a match from before snapshots)."""
    if not settings or not isinstance(settings.get("settle"), Mapping):
        return None
    names = {f.name for f in dataclasses.fields(ShotTiming)}
    return {k: v for k, v in settings["settle"].items() if k in names and isinstance(v, int | float)}


def _jsonable(options: Mapping[str, object]) -> dict[str, OptionValue]:
    out: dict[str, OptionValue] = {}
    for k, v in options.items():
        out[k] = v if isinstance(v, str | int | float | bool | type(None)) else str(v)
    return out
