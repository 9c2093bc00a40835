"""The parts of a match's export document (hub/export/model.py, docs/match-export.schema.json) that the
statistics read, checked as they are read: `read(doc)` turns the document into frozen models, or raises
ExportError (the match is then left out as unreadable, hub/stats/compute.py) rather than a stack trace.

Everything else in the document (inputs, the engine's log, reasons, names) is ignored. Every field read has
a default where a document from an older hub lacks it (no frames, no settings, no evidence), so such a file
still gives facts.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, ValidationError

from hub.export.model import ExportError


class _Read(BaseModel):
    """A part of the export: the fields named here, the rest ignored."""

    model_config = ConfigDict(frozen=True, extra="ignore")


class Effect(_Read):
    """One of the engine's effects of a shot: to_shelf (a ball to a player's shelf), score, ..."""

    kind: str = ""
    player: int | None = None
    ball: int | None = None
    amount: int | None = None


class Foul(_Read):
    """A foul the engine charged, and the paragraph it cites."""

    player: int | None = None
    cite: str | None = None


class Pocketed(_Read):
    """A ball seen falling: its number if known (Free names none), the pocket 1..6, when."""

    ball: int | None = None
    pocket: int | None = None
    at_ms: int | None = None


class Strike(_Read):
    """The cue strike that opened a shot: a sensor's, or the referee's."""

    source: str | None = None
    at_ms: int | None = None


class Shot(_Read):
    """One shot as the engine judged it."""

    status: str | None = None
    provisional: bool = False
    engine_index: int | None = None
    shooter: int | None = None
    frame: int = 1
    opened_ms: int | None = None
    strike: Strike | None = None
    balls: tuple[Pocketed, ...] = ()
    effects: tuple[Effect, ...] = ()
    fouls: tuple[Foul, ...] = ()


class Action(_Read):
    """A referee's action as the engine judged it (only its fouls count)."""

    status: str | None = None
    fouls: tuple[Foul, ...] = ()


class Outcome(_Read):
    """A frame's result, or the match's (a race's)."""

    over: bool = False
    winner: int | None = None
    draw: bool = False
    scores: tuple[int, ...] | None = None  # seat 0's, seat 1's


class FrameSection(_Read):
    result: Outcome | None = None


class MatchHeader(_Read):
    id: int
    variant: str
    started_ms: int
    ended_ms: int | None = None


class Evidence(_Read):
    complete: bool | None = None  # False: events never reached the hub


class Verification(_Read):
    evidence: Evidence | None = None


class Settle(_Read):
    roll_ms: int | float | None = None  # the hub's settle time the match was played with


class Settings(_Read):
    settle: Settle | None = None


class Export(_Read):
    """What the statistics read of one match's export document."""

    match: MatchHeader
    settings: Settings | None = None
    shots: tuple[Shot, ...] = ()
    actions: tuple[Action, ...] = ()
    result: Outcome | None = None
    frames: tuple[FrameSection, ...] = ()
    verification: Verification | None = None


def read(doc: Mapping[str, object]) -> Export:
    """The parts of `doc` the statistics read; ExportError naming the first field not as documented."""
    try:
        return Export.model_validate(doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise ExportError(
            f"the match's export cannot be read for the statistics: {where}: {first['msg']}",
            f"экспорт партии не читается для статистики: {where}: {first['msg']}",
        ) from None
