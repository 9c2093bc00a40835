"""The export document's parts as types: one `TypedDict` per object of docs/match-export.schema.json
(format `luza-match-export`, version 2; docs/exports.md), for what hub/export/model.py, folding.py and
pieces.py write to the file. The parts made elsewhere are typed where they are made: the race section
(hub/reconcile/frames.py `RaceSection`), a shot's clock (hub/reconcile/shotclock.py `ShotClockEntry`) and
the settings snapshot (hub/service/snapshot.py `SettingsSnapshot`, copied into the file as stored).

A TypedDict is the JSON itself (a plain dict at run time), so the file's bytes and key order stay what the
builders' literals give; the types let mypy check every builder and every reader of a document we made.
A document read back from a file is not one of these until it is checked: hub/export/verify.py reads files as
`Mapping[str, object]`. Readers in other packages (hub/stats) import them from here, or `ExportDoc` from
hub.export.
"""

# no `from __future__ import annotations`: TypedDict reads NotRequired off evaluated annotations, so that
# __required_keys__/__optional_keys__ are right at run time (tests/export/test_document_types.py reads them)
from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict

from hub.reconcile.frames import RaceSection
from hub.reconcile.shotclock import ShotClockEntry
from hub.service.snapshot import SettingsSnapshot

__all__ = [
    "ActionEntry",
    "BallEntry",
    "CallEntry",
    "Corrects",
    "Derived",
    "EffectEntry",
    "Evidence",
    "ExportDoc",
    "FoulEntry",
    "FrameResultEntry",
    "FrameSection",
    "Generator",
    "InputEntry",
    "JumpedEntry",
    "MatchHeader",
    "MatchResult",
    "MissingRange",
    "ReasonEntry",
    "RefereeOrigin",
    "SensorOrigin",
    "ShotEntry",
    "Signature",
    "StoredInput",
    "StrikeEntry",
    "TableRef",
    "Text",
    "Verification",
]


class Text(TypedDict):
    """A sentence in both languages (schema `$defs/text2n` when not null)."""

    en: str
    ru: str


# ---------------------------------------------------------------- the header and the settings snapshot


class TableRef(TypedDict):
    id: str
    name: str


class MatchHeader(TypedDict):
    """`match`: the stored header of the match (hub/export/model.py `_load`)."""

    id: int
    table: TableRef
    club: Text | None
    variant: str
    players: list[str]
    # the players' registry ids (hub/store/players.py); only when the match names a registered player
    player_ids: NotRequired[list[int | None]]
    options: dict[str, object]  # the variant's options as stored; each variant reads its own (shared_rules)
    status: str  # live | ended
    started_ms: int
    ended_ms: int | None


# ---------------------------------------------------------------- inputs


class StoredInput(TypedDict):
    """One stored input of the match, as the store (or a file's `inputs[]`) gives it: what an export is
    built from (model.Source.inputs)."""

    cursor: int
    source: str
    at_ms: int
    received_ms: int
    # the stored record (hub/vocab/inputs.py input_to_record): one shape per input kind, kept verbatim and
    # read by input_from_record, which refuses a bad one
    record: Mapping[str, object]


class SensorOrigin(TypedDict):
    """Where a sensor input came from. The fields are copied from the stored record as they are (a record
    the hub refused as unreadable keeps what it had), hence `object`."""

    type: Literal["sensor"]
    event: object
    device: object
    boot: object
    seq: object
    role: object
    seat: object
    via: str


class RefereeOrigin(TypedDict):
    type: Literal["referee"]
    action: object  # the record's `kind` as stored (None if it has none)
    entered_by: str


class Corrects(TypedDict):
    """The shot (and the item of it) a referee amendment corrects."""

    item: str | None
    shot: int | None


class InputEntry(StoredInput):
    """`inputs[]`: a stored input with its provenance and what became of it."""

    origin: SensorOrigin | RefereeOrigin
    corrects: Corrects | None
    applied: bool
    refused: Text | None
    frame: int


# ---------------------------------------------------------------- shots and actions


class ReasonEntry(TypedDict):
    cite: str
    en: str
    ru: str
    ambiguity: str | None


class EffectEntry(TypedDict):
    kind: str  # shared_rules.outcome.EffectKind's value
    player: int | None
    ball: int | None
    amount: int | None
    spot: str | None
    detail: str | None
    cite: str


class FoulEntry(TypedDict):
    code: str
    player: int | None
    cite: str
    en: str
    ru: str


class StrikeEntry(TypedDict):
    item: str
    device: str
    at_ms: int
    seat: int | None
    double: bool
    source: Literal["sensor"]


class CallEntry(TypedDict):
    ball: int
    pocket: int
    kind: str  # object | cue_ball


class BallEntry(TypedDict):
    item: str
    pocket: int
    at_ms: int
    source: str  # sensor | referee
    ball: int | None
    ball_source: str | None  # referee | colour | call | rules
    colour: str | None
    seen_colour: str | None
    colour_conf: float | None
    single_beam: NotRequired[str]  # upper | lower: counted on that beam alone (issue 19)


class JumpedEntry(TypedDict):
    item: str
    ball: int | None
    colour: str | None


class ShotEntry(TypedDict):
    """`shots[]`: one shot with its evidence and how the engine judged it."""

    frame: int
    number: int
    status: str  # ok | void | blocked | after_end | pending | provisional
    provisional: bool
    opened_ms: int
    opened_by: str
    closed_ms: int | None
    closed_by: str | None
    shooter: int | None
    shooter_name: str | None
    strike: StrikeEntry | None
    shot_ms: int | None
    shot_clock: ShotClockEntry | None
    call: list[CallEntry]
    balls: list[BallEntry]
    jumped: list[JumpedEntry]
    referee_fouls: list[str]
    error: Text | None
    engine_index: int | None
    effects: list[EffectEntry]
    fouls: list[FoulEntry]
    reasons: list[ReasonEntry]
    score_after: list[int] | None


class ActionEntry(TypedDict):
    """`actions[]`: one referee action that went to the engine (or was refused)."""

    frame: int
    kind: str
    at_ms: int
    args: dict[str, object]  # the action's checked arguments (hub/vocab/referee.py): one shape per kind
    status: str
    input: dict[str, object] | None  # the engine input it played (shared_rules.codec.input_to_dict)
    error: Text | None
    engine_index: int | None
    effects: list[EffectEntry]
    fouls: list[FoulEntry]
    reasons: list[ReasonEntry]
    score_after: list[int] | None


# ---------------------------------------------------------------- frames, result, verification


class FrameResultEntry(TypedDict):
    scores: list[int]
    winner: int | None
    winner_name: str | None
    draw: bool
    over: bool
    conceded: bool
    breaker: int | None
    shots: int


class FrameSection(TypedDict):
    """`frames[]`: one frame's opening, engine log and result."""

    number: int
    opening: Mapping[str, object]  # shared_rules Opening.to_dict() (schema `$defs/opening`)
    engine_log: Mapping[str, object]  # shared_rules Match.to_log() (schema `$defs/frame_log`)
    result: FrameResultEntry


class MatchResult(TypedDict):
    scores: list[int]
    frames: list[int]
    winner: int | None
    winner_name: str | None
    draw: bool
    over: bool
    abandoned: str | None
    status: str  # live | held | ended
    shots: int
    provisional_scores: list[int] | None


class MissingRange(TypedDict):
    device: str
    boot: int
    first: int
    last: int


class Evidence(TypedDict):
    """Whether the hub had every event of the match (hub.store.gaps); en/ru only when it did not."""

    complete: bool
    missing_events: int
    missing: list[MissingRange]
    en: NotRequired[str]
    ru: NotRequired[str]


class Verification(TypedDict):
    replayed_inputs: int
    matches_stored_state: bool | None
    differences: list[str]
    evidence: NotRequired[Evidence]


class Generator(TypedDict):
    name: str
    version: str


class Signature(TypedDict):
    """The hub's Ed25519 signature block (hub/export/signing.py)."""

    alg: str
    key: str
    fingerprint: str
    value: str


class Derived(TypedDict):
    """The parts of a document that follow from the inputs (model.derive), in the file's order."""

    inputs: list[InputEntry]
    race: RaceSection
    engine_log: Mapping[str, object]  # shared_rules Race.to_log(): a `luza-race` log of every frame
    frames: list[FrameSection]
    shots: list[ShotEntry]
    actions: list[ActionEntry]
    result: MatchResult


class ExportDoc(Derived):
    """The whole document (key order: format, version, generator, exported_ms, match, settings, then the
    derived parts, verification, and the signature if signed)."""

    format: str
    version: int
    generator: Generator
    exported_ms: int | None
    match: MatchHeader
    settings: SettingsSnapshot | None
    verification: Verification
    signature: NotRequired[Signature]
