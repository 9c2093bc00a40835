"""The alerts of the whole hub and of a table's stored evidence, one model per kind (the `kind` tells them
apart): a full or failing disk, the clock behind the stored timeline, a damaged store, a match set aside, and
conflicting, impossibly dated or missing events. They are built where the fact is found (hub.errors,
hub.ingest.timebase, hub.store.integrity, hub.service.router, hub.store.conflicts, hub.ingest.timecheck,
hub.store.gaps) and typed here, as the table's `alerts` and /healthz carry them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from hub.view.base import View
from hub.view.shot import Severity

Event = list[str | int]  # [device, boot, seq] (impossible_time adds its reason code)
Hole = list[str | int]  # [device, boot, first seq, last seq]


class _HubAlert(View):
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


HubAlertView = Annotated[
    DiskAlert
    | ClockBehind
    | StoreChecked
    | MatchSetAside
    | ConflictingEvents
    | ImpossibleTimes
    | MissingEvents,
    Field(discriminator="kind"),
]
HUB_ALERTS: TypeAdapter[list[HubAlertView]] = TypeAdapter(list[HubAlertView])
