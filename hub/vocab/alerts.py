"""The alerts of the whole hub and of a table's stored evidence, one model per kind (the `kind` tells them
apart): a full or failing disk, the clock behind the stored timeline, a damaged store, a match set aside, and
conflicting, impossibly dated or missing events.

Each is built, typed, where the fact is found: `disk_full_alert` here (for hub.service.commit),
hub.ingest.timebase, hub.store.integrity, hub.service.matches, hub.store.conflicts, hub.ingest.timecheck and
hub.store.gaps. They live in the vocabulary (layer 1, docs/hub.md "Layout") so that every producer, from the
store up, and the read model may import them; the hub carries the models, and they become JSON once, where
they leave it: the table's `alerts` (hub.view.table) and /healthz (hub.web.context).

The models have no docstrings on purpose: a model's docstring would become its description in
docs/table-view.schema.json, whose content is versioned (hub.view.schema).
"""

from __future__ import annotations

import sqlite3
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

Severity = Literal["info", "warning", "error"]  # error: scoring is held
Event = list[str | int]  # [device, boot, seq] (impossible_time adds its reason code)
Hole = list[str | int]  # [device, boot, first seq, last seq]


class _HubAlert(BaseModel):
    # frozen and closed, as every part of the read model (hub.view.base.View)
    model_config = ConfigDict(frozen=True, extra="forbid")

    severity: Severity
    en: str
    ru: str


class DiskAlert(_HubAlert):
    kind: Literal["disk_full", "disk_error"]
    scope: Literal["hub"] = "hub"


class ClockBehind(_HubAlert):
    kind: Literal["clock_behind"]
    scope: Literal["hub"] = "hub"
    behind_ms: int


class StoreChecked(_HubAlert):
    kind: Literal["store_repaired", "store_damaged"]
    scope: Literal["hub"] = "hub"
    action: str
    kept: str | None  # the damaged file, kept beside the rebuilt database
    set_aside: list[int]  # matches that cannot be read
    problems: list[str]


class MatchSetAside(_HubAlert):
    kind: Literal["match_quarantined"]
    match_id: int
    cursor: int | None  # the damaged row (None: the match row itself)
    reason: str


class ConflictingEvents(_HubAlert):
    kind: Literal["conflicting_event"]
    match_id: int
    count: int
    devices: list[str]
    keys: list[Event]


class ImpossibleTimes(_HubAlert):
    kind: Literal["impossible_time"]
    match_id: int
    count: int
    devices: list[str]
    keys: list[Event]


class MissingEvents(_HubAlert):
    kind: Literal["missing_events"]
    match_id: int
    count: int
    devices: list[str]
    ranges: list[Hole]
    final: list[Hole]  # the holes no node can fill any more


HubWide = DiskAlert | ClockBehind  # the whole hub's own state, in every table's alerts and in /healthz
# what a live match's own log shows (hub.service.evidence)
EvidenceAlert = ConflictingEvents | ImpossibleTimes | MissingEvents
HubAlert = Annotated[
    DiskAlert
    | ClockBehind
    | StoreChecked
    | MatchSetAside
    | ConflictingEvents
    | ImpossibleTimes
    | MissingEvents,
    Field(discriminator="kind"),
]
HUB_ALERTS: TypeAdapter[list[HubAlert]] = TypeAdapter(list[HubAlert])  # alerts read back from their JSON


def disk_full_alert(exc: sqlite3.Error) -> DiskAlert | None:
    """The hub alert for a commit refused because the disk (or the database's size limit) is full, or because
    the disk refused a write (an I/O error: a file-size limit, a failing SD card), else None."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF == sqlite3.SQLITE_IOERR:
        return DiskAlert(
            kind="disk_error",
            severity="error",
            en=f"the hub cannot write its database ({exc}): scoring is paused and nothing is lost; check "
            "the disk (free space, the SD card) and it resumes by itself",
            ru=f"хаб не может записать базу ({exc}): счёт приостановлен, ничего не потеряно; проверьте "
            "диск (свободное место, SD-карту) — счёт продолжится сам",
        )
    if code != sqlite3.SQLITE_FULL and "full" not in str(exc).lower():
        return None
    return DiskAlert(
        kind="disk_full",
        severity="error",
        en="the hub's disk is full: scoring is paused and nothing is lost; free some space and it resumes "
        "by itself",
        ru="диск хаба заполнен: счёт приостановлен, ничего не потеряно; освободите место "
        "— счёт продолжится сам",
    )
