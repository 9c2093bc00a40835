"""The hub-level inputs a match is made of, as the store keeps them (append-only), and their JSON codec.

Two kinds: `SensorInput` (an accepted sensor event with its time on the hub clock) and `RefereeAction`
(anything the referee enters). `hub.reconcile.table.TableSession` folds them into the rules engine.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypedDict, overload

from hub.errors import MALFORMED
from hub.vocab.action_types import Args
from hub.vocab.actions import Action
from hub.vocab.checks import RefereeInputError
from hub.vocab.referee import parse, validate
from luza_wire import protocol
from luza_wire.messages import Event

__all__ = [
    "RecordError",
    "RefereeAction",
    "RefereeRecord",
    "SensorInput",
    "SensorRecord",
    "effect_key",
    "input_from_record",
    "input_key",
    "input_to_record",
    "parse_referee_action",
]


@dataclass(frozen=True, slots=True)
class SensorInput:
    """An accepted sensor event. `event.key` = (device, boot, seq) is its identity."""

    event: Event  # parsed and valid
    role: str  # "pocket" | "cue" (from the table config's device registry)
    seat: int | None  # for a cue node: the seat it is paired with (0/1); None for pockets
    at_ms: int  # event time on the hub's timeline: what orders it (its uptime + `offset`, or its clock's `t`)
    received_ms: int  # hub receive time
    # hub ms - uptime ms the hub placed it with (hub/ingest/clockmap.py); None: by `t`
    offset: int | None = None
    # "device/boot/seq": its id as evidence and as a key
    item: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        e = self.event
        object.__setattr__(self, "item", f"{e.device}/{e.boot}/{e.seq}")


@dataclass(frozen=True)
class RefereeAction:
    """Any referee input. `args` are checked and normalised when it is made (plain JSON values, as stored);
    `action` is the typed model of its kind (hub.vocab.actions), built from them. Raises RefereeInputError.

    `uid`, if the panel sends one, makes a retried request idempotent: a session ignores a second action
    with the same uid.
    """

    kind: str
    args: Mapping[str, object] = field(default_factory=dict)
    at_ms: int = 0
    uid: str | None = None
    action: Action = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        action, args = parse(self.kind, self.args)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "action", action)

    @property
    def by(self) -> str | None:
        """Who entered it (the panel's token label), if known."""
        by = self.args.get("by")
        return by if isinstance(by, str) else None


class RecordError(ValueError):
    """A stored record that cannot be read back as an input (names the field)."""


def parse_referee_action(d: Mapping[str, object], at_ms: int) -> RefereeAction:
    """A panel request `{"kind": ..., "args": {...}, "uid": ...}` -> RefereeAction. Raises RefereeInputError.

    The arguments may also be given inline (`{"kind": "foul", "foul": "miss"}`).
    """
    if not isinstance(d, Mapping):
        raise RefereeInputError(
            "the action must be a JSON object", "действие должно быть объектом JSON", None, MALFORMED
        )
    kind = d.get("kind")
    raw = d.get("args")
    if raw is None:
        raw = {k: v for k, v in d.items() if k not in ("kind", "uid", "at_ms")}
    if not isinstance(raw, Mapping):
        raise RefereeInputError("args: must be an object", "args: нужен объект", "args", MALFORMED)
    uid = d.get("uid")
    if uid is not None and (not isinstance(uid, str) or not 1 <= len(uid) <= 80):
        raise RefereeInputError(
            "uid: must be a text of 1..80 characters",
            "uid: нужен текст от 1 до 80 символов",
            "uid",
            MALFORMED,
        )
    if not isinstance(kind, str):
        validate(kind, raw)  # refuses it, naming what was sent
    return RefereeAction(str(kind), raw, int(at_ms), uid)


def input_key(inp: SensorInput | RefereeAction) -> object:
    """The identity used to ignore an input given twice:
    "device/boot/seq", or the action's ("r", uid) (or None)."""
    if isinstance(inp, SensorInput):
        return inp.item
    return ("r", inp.uid) if inp.uid else None


def effect_key(d: Mapping[str, object]) -> str | None:
    """What a panel request does, whatever its uid: its kind and checked fields (not who entered it), as one
    text. Two requests with the same effect key would do the same thing twice (two "add ball into pocket 3"
    for the current shot). None for a request that is malformed (the worker refuses it with its reason) or
    starts a match (its own route keeps its uid)."""
    try:
        a = parse_referee_action(d, 0)
    except RefereeInputError:
        return None
    if a.kind == "new_match":
        return None
    return json.dumps([a.kind, {k: v for k, v in a.args.items() if k != "by"}], sort_keys=True)


class SensorRecord(TypedDict):
    """A sensor event as the input log stores it (the `record` column's JSON, read by `input_from_record`)."""

    type: Literal["sensor"]
    kind: str
    device: str
    boot: int
    seq: int
    t: int
    synced: bool
    fields: dict[str, object]  # the event's kind-specific fields (luza_wire.messages.Event): plain JSON
    role: str
    seat: int | None
    at_ms: int
    received_ms: int
    up: NotRequired[int]  # the node's uptime, and the offset the hub placed it with: at_ms = up + off
    off: NotRequired[int]  # (schema v8)
    suspect: NotRequired[str]  # why its time is impossible (hub.ingest.timecheck), added when it is stored


class RefereeRecord(TypedDict):
    """A referee action as the input log stores it."""

    type: Literal["referee"]
    kind: str
    args: Args
    at_ms: int
    uid: NotRequired[str]


@overload
def input_to_record(inp: SensorInput) -> SensorRecord: ...
@overload
def input_to_record(inp: RefereeAction) -> RefereeRecord: ...
def input_to_record(inp: SensorInput | RefereeAction) -> SensorRecord | RefereeRecord:
    """A JSON-able dict for the store."""
    if isinstance(inp, SensorInput):
        e = inp.event
        out = SensorRecord(
            type="sensor",
            kind=e.kind,
            device=e.device,
            boot=e.boot,
            seq=e.seq,
            t=e.t,
            synced=e.synced,
            fields=dict(e.fields),
            role=inp.role,
            seat=inp.seat,
            at_ms=inp.at_ms,
            received_ms=inp.received_ms,
        )
        if e.up is not None:
            out["up"] = e.up
        if inp.offset is not None:
            out["off"] = inp.offset
        return out
    rec = RefereeRecord(type="referee", kind=inp.kind, args=dict(inp.args), at_ms=inp.at_ms)
    if inp.uid:
        rec["uid"] = inp.uid
    return rec


def _need(d: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in d or not isinstance(d[name], kind) or (isinstance(d[name], bool) and kind is int):
        raise RecordError(f"record field {name!r} is missing or not {kind}: {d.get(name)!r}")
    return d[name]


def input_from_record(d: Mapping[str, Any]) -> SensorInput | RefereeAction:
    """The inverse of `input_to_record`. Raises RecordError (a referee action's args are checked again)."""
    if not isinstance(d, Mapping):
        raise RecordError("a record must be an object")
    kind = d.get("type")
    if kind == "referee":
        try:
            return parse_referee_action(
                {"kind": d.get("kind"), "args": _need(d, "args", Mapping), "uid": d.get("uid")},
                _need(d, "at_ms", int),
            )
        except RefereeInputError as exc:
            raise RecordError(f"stored referee action is not valid: {exc.en}") from exc
    if kind != "sensor":
        raise RecordError(f"record type {kind!r} is neither 'sensor' nor 'referee'")
    ev_kind = _need(d, "kind", str)
    if ev_kind not in protocol.EVENT_KINDS:
        raise RecordError(f"unknown event kind {ev_kind!r}")
    role = _need(d, "role", str)
    if role not in protocol.ROLES:
        raise RecordError(f"unknown role {role!r}")
    seat = d.get("seat")
    if seat not in (None, 0, 1) or isinstance(seat, bool):
        raise RecordError(f"seat must be 0, 1 or null, got {seat!r}")
    event = Event(
        protocol.shared_id(ev_kind),
        protocol.shared_id(_need(d, "device", str)),
        _need(d, "boot", int),
        _need(d, "seq", int),
        _need(d, "t", int),
        bool(d.get("synced", True)),
        dict(_need(d, "fields", Mapping)),
        _optional(d, "up"),
    )
    return SensorInput(
        event, role, seat, _need(d, "at_ms", int), _need(d, "received_ms", int), _optional(d, "off")
    )


def _optional(d: Mapping[str, Any], name: str) -> int | None:
    """An int field stored from schema v8 on (None in older records)."""
    v = d.get(name)
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool):
        raise RecordError(f"record field {name!r} is not an integer: {v!r}")
    return v
