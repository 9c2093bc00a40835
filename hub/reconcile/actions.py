"""Every referee action, defined once: one typed model per kind, discriminated on `kind`.

The REST API takes `RefereeActionBody` (so the OpenAPI document lists each action with its fields), the control
socket and `hub.reconcile.referee.validate` take the same kinds and fields: `validate` refuses a kind or a field that is not
here, then checks each value with its bilingual message. docs/web-api.md and docs/reconciliation.md describe them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Seat = Annotated[int, Field(ge=0, le=1, description="player seat 0 or 1")]
Ball = Annotated[int, Field(ge=0, le=15, description="ball number 0..15 (0 = the special ball)")]
PocketNo = Annotated[int, Field(ge=1, le=6, description="1, 2 head corners; 3, 4 middle; 5, 6 foot corners")]
ColourName = Literal["ivory", "yellow", "blue", "black", "green", "red"]
ShotTarget = Literal["current", "next"]
ShotNumber = Annotated[int, Field(ge=1, le=100_000, description="a shot already played, by its number")]
Text = Annotated[str, Field(min_length=1, max_length=200)]
ItemId = Annotated[str, Field(min_length=1, max_length=80, description="an evidence item id (shot.pocketed[].item)")]
FACT_NAMES = ("cue_ball", "cue_colour", "first_contact", "first_contact_colour", "cushions", "centre_crossing",
              "break_balls_to_cushion", "as_called", "carom_on_ten", "rokambol_on_ten", "touched_ten", "snookered",
              "ten_off_spot", "centre_spot_taken")


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid")
    uid: Annotated[str | None, Field(min_length=1, max_length=80,
                                     description="makes a retry harmless: the same uid is applied once")] = None


class Call(BaseModel):
    """One call (заказ): a ball into a pocket; `kind` cue_ball = свояк (the cue ball into the pocket)."""

    model_config = ConfigDict(extra="forbid")
    ball: Ball | None = None
    pocket: PocketNo
    kind: Literal["object", "cue_ball"] = "object"
    method: Annotated[str, Field(max_length=200)] = ""


class LagAction(_Action):
    """The lag's winner (general 11)."""
    kind: Literal["lag"]
    winner: Seat


class DeclareAction(_Action):
    """A call for the next (or current) shot: `ball`+`pocket`, or `calls` (at most two; [] clears)."""
    kind: Literal["declare"]
    ball: Ball | None = None
    pocket: PocketNo | None = None
    method: Annotated[str | None, Field(max_length=200)] = None
    calls: Annotated[list[Call] | None, Field(max_length=2)] = None
    shot: ShotTarget = "next"


class IdentifyAction(_Action):
    """Name a pocketed ball (number, colour, or directly struck)."""
    kind: Literal["identify"]
    item: ItemId
    ball: Ball | None = None
    colour: ColourName | None = None
    direct: bool | None = None


class AddBallAction(_Action):
    """A ball the sensors missed."""
    kind: Literal["add_ball"]
    pocket: PocketNo
    ball: Ball | None = None
    colour: ColourName | None = None
    direct: bool | None = None
    shot: ShotTarget = "current"
    shot_number: ShotNumber | None = None


class JumpedAction(_Action):
    """A ball that jumped off the table."""
    kind: Literal["jumped"]
    ball: Ball | None = None
    colour: ColourName | None = None
    shot: ShotTarget = "current"
    shot_number: ShotNumber | None = None


class RemoveAction(_Action):
    """Take a sensed ball or strike out of the match (a false detection)."""
    kind: Literal["remove"]
    item: ItemId


class FoulAction(_Action):
    """A foul only the referee sees (code such as `miss`, or its paragraph such as `5.3`); `on`=false withdraws it."""
    kind: Literal["foul"]
    foul: Annotated[str, Field(min_length=1, max_length=40)]
    on: bool = True
    offender: Seat | None = None
    shot: ShotTarget = "current"
    shot_number: ShotNumber | None = None


class FactAction(_Action):
    """A fact about a shot that only the referee sees (hub/reconcile/referee.py FACTS gives each one's type)."""
    kind: Literal["fact"]
    name: Literal[FACT_NAMES]  # type: ignore[valid-type]
    value: bool | int | ColourName | None = None
    shot: ShotTarget = "current"
    shot_number: ShotNumber | None = None


class ConfirmAction(_Action):
    """Answer a question (its id) with one of its options."""
    kind: Literal["confirm"]
    question: Annotated[str, Field(min_length=1, max_length=120)]
    answer: Annotated[str, Field(min_length=1, max_length=40)]


class ChooseAction(_Action):
    """A player's choice the rules give (penalty ball, Dynamic/Star options)."""
    kind: Literal["choose"]
    player: Seat
    option: Annotated[str, Field(min_length=1, max_length=60)]
    ball: Ball | None = None
    colour: ColourName | None = None


class DecideAction(_Action):
    """The referee's decision where the rules call for one."""
    kind: Literal["decide"]
    option: Annotated[str, Field(min_length=1, max_length=60)]
    winner: Seat | None = None


class OpenShotAction(_Action):
    """Open a shot whose strike the cue sensor missed."""
    kind: Literal["open_shot"]


class CloseShotAction(_Action):
    """Close the open shot now."""
    kind: Literal["close_shot"]


class UndoAction(_Action):
    """Undo the latest step (the scoreboard's `undo` names it)."""
    kind: Literal["undo"]


class InterferenceAction(_Action):
    """Outside interference (general 27): restore the position, or re-rack."""
    kind: Literal["interference"]
    restore: bool = True


class ConcedeAction(_Action):
    """A player concedes."""
    kind: Literal["concede"]
    player: Seat


class DismissAlertAction(_Action):
    """Hide an alert (its id)."""
    kind: Literal["dismiss_alert"]
    alert: Annotated[str, Field(min_length=1, max_length=120)]


class NewMatchAction(_Action):
    """Start a match (REST: POST /api/tables/{table}/match)."""
    kind: Literal["new_match"]
    variant: Annotated[str, Field(min_length=1, max_length=20)]
    players: Annotated[list[Annotated[str, Field(min_length=1, max_length=60)]], Field(min_length=2, max_length=2)]
    options: dict[str, bool | int | str] = Field(default_factory=dict)
    cues: Annotated[dict[str, Seat], Field(max_length=8)] = Field(default_factory=dict)


class EndMatchAction(_Action):
    """End the match (its final board stays as `last_match`)."""
    kind: Literal["end_match"]
    reason: Annotated[str, Field(max_length=200)] = ""


ACTION_MODELS: dict[str, type[_Action]] = {
    m.model_fields["kind"].annotation.__args__[0]: m  # type: ignore[union-attr]
    for m in (LagAction, DeclareAction, IdentifyAction, AddBallAction, JumpedAction, RemoveAction, FoulAction,
              FactAction, ConfirmAction, ChooseAction, OpenShotAction, CloseShotAction, UndoAction,
              InterferenceAction, ConcedeAction, DecideAction, DismissAlertAction, NewMatchAction, EndMatchAction)
}
"""kind -> its model, in the order the panel documents them."""

RefereeActionBody = Annotated[
    LagAction | DeclareAction | IdentifyAction | AddBallAction | JumpedAction | RemoveAction | FoulAction
    | FactAction | ConfirmAction | ChooseAction | OpenShotAction | CloseShotAction | UndoAction
    | InterferenceAction | ConcedeAction | DecideAction | DismissAlertAction | EndMatchAction,
    Field(discriminator="kind"),
]
"""Every action `POST /api/tables/{table}/actions` takes (new_match has its own route)."""


def fields_of(kind: str) -> tuple[str, ...]:
    """The argument names an action of `kind` may carry (not `kind` or `uid`)."""
    return tuple(n for n in ACTION_MODELS[kind].model_fields if n not in ("kind", "uid"))


def to_request(action: BaseModel, by: str | None = None) -> dict[str, Any]:
    """A parsed model -> the dict `Hub.submit` takes (unset optional fields left out; `by` records who)."""
    d = action.model_dump(exclude_none=True)
    if by:
        d["by"] = by
    return d
