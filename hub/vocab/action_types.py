"""The parts every referee action shares: value types, the referee's facts,
the three categories and their bases.

An action is one typed model (pydantic) per kind: its fields are its schema, `check` gives bilingual messages
for what a person can get wrong, and its category's method says how it applies. The kinds are in
`hub.vocab.amendments` (shot amendments) and `hub.vocab.actions` (engine inputs, match control, the registry).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Annotated, Any, ClassVar, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from hub.vocab.evidence import ShotEvidence
from shared_rules.model import Colour, Input
from shared_rules.profile import Profile
from shared_rules.state import State
from shared_rules.variant import Variant

# A referee action's arguments, checked and normalised to plain JSON values: what the input log stores (its
# record's `args`) and what the action's model is built from. Each kind has its own fields, built by its own
# `check` and typed by its model (hub.vocab.actions, hub.vocab.amendments): the values here are any of them.
Args = dict[str, Any]
Seat = Annotated[int, Field(ge=0, le=1, description="player seat 0 or 1")]
Ball = Annotated[int, Field(ge=0, le=15, description="ball number 0..15 (0 = the special ball)")]
PocketNo = Annotated[int, Field(ge=1, le=6, description="1, 2 head corners; 3, 4 middle; 5, 6 foot corners")]
ColourName = Literal["ivory", "yellow", "blue", "black", "green", "red"]
ShotTarget = Literal["current", "next"]
ShotNumber = Annotated[int, Field(ge=1, le=100_000, description="a shot already played, by its number")]
Text = Annotated[str, Field(min_length=1, max_length=200)]
ItemId = Annotated[
    str, Field(min_length=1, max_length=80, description="an evidence item id (shot.pocketed[].item)")
]
# The type of a referee fact's value, as the panel asks for it.
FactType = Literal["ball", "colour", "count", "bool", "flag"]
# Facts about a shot that only the referee sees, with the type of their value (ShotReport field names).
FACTS: dict[str, FactType] = {
    "cue_ball": "ball",
    "cue_colour": "colour",
    "first_contact": "ball",
    "first_contact_colour": "colour",
    "cushions": "count",
    "centre_crossing": "bool",
    "break_balls_to_cushion": "count",
    "as_called": "bool",
    "carom_on_ten": "flag",
    "rokambol_on_ten": "flag",
    "touched_ten": "flag",
    "snookered": "flag",
    "ten_off_spot": "flag",
    "centre_spot_taken": "flag",
}
FACT_NAMES = tuple(FACTS)


class Category(StrEnum):
    """What an action is to the session."""

    SHOT = "shot amendment"  # changes one shot's evidence (the shot is judged again)
    ENGINE = "engine input"  # becomes an input of the rules engine of its own
    MATCH = "match control"  # opens, closes, undoes, dismisses, ends; new_match is routed by the service


class Controls(Protocol):
    """What a match-control action may do to a session's fold (hub.reconcile.fold.Fold)."""

    def open_shot(self, at_ms: int) -> None: ...
    def close_shot(self, at_ms: int) -> None: ...
    def undo(self) -> None: ...
    def dismiss(self, alert: str) -> None: ...
    def end(self, at_ms: int, by: str = "end_match") -> None: ...
    def extend(self, at_ms: int, player: int | None) -> None: ...


def colour_of(x: str | None) -> Colour | None:
    return Colour(x) if x is not None else None


def fresh_id(shot: ShotEvidence, base: str) -> str:
    """An item id for evidence the referee adds to a shot."""
    ids, n, item = shot.items(), 1, base
    while item in ids:
        n += 1
        item = f"{base}-{n}"
    return item


class BaseAction(BaseModel):
    """What every action model has."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    category: ClassVar[Category]
    answers: ClassVar[tuple[str, ...]] = ()  # the kinds of the engine's needs (questions) this action answers
    uid: Annotated[
        str | None,
        Field(
            min_length=1, max_length=80, description="makes a retry harmless: the same uid is applied once"
        ),
    ] = None

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        """The arguments checked with bilingual messages and normalised to plain JSON values (as stored)."""
        return {}


class ShotAmendment(BaseAction):
    """Changes the evidence of one shot: the open one, the next, a shot by its number, or the shot of an item."""  # noqa: E501

    category: ClassVar[Category] = Category.SHOT

    def item_named(self) -> str | None:
        """The evidence item the action is about (its shot is the one amended), if it names one."""
        return None

    def shot_wanted(self) -> int | str:
        """A shot already played by its number, or "current" / "next"."""
        n = getattr(self, "shot_number", None)
        return n if n is not None else str(getattr(self, "shot", "current"))

    def refusal_in(self, variant: str, profile: Profile) -> tuple[str, str] | None:
        """Why this amendment has no place in `variant` (its profile says what its shots have), or None."""
        return None

    def refusal_from(self, rules: Variant, state: State) -> tuple[str, str] | None:
        """Why this amendment cannot go to a shot played from `state` (the engine would refuse the shot), or
        None. Asked when the referee taps it (the shot it goes to is known and the position before it is), so
        a tap the rules refuse is refused then, never accepted and then holding the table."""
        return None

    def refusal_on(self, shot: ShotEvidence) -> tuple[str, str] | None:
        """Why this amendment does not fit the shot it is for
        (asked before `amend`, which then cannot fail)."""
        return None

    def amend(self, shot: ShotEvidence, at_ms: int) -> None:
        raise NotImplementedError


class EngineAction(BaseAction):
    """Becomes an input of the rules engine of its own (and ends the open shot)."""

    category: ClassVar[Category] = Category.ENGINE

    def engine_input(self) -> Input:
        raise NotImplementedError


class MatchControl(BaseAction):
    """Acts on the session: opens, closes or undoes a step, hides an alert, ends the match."""

    category: ClassVar[Category] = Category.MATCH
    routed: ClassVar[bool] = False  # handled by the service, never by a session

    def control(self, ctl: Controls, at_ms: int) -> None:
        raise NotImplementedError
