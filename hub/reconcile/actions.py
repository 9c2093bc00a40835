"""Every referee action, defined once: one typed model per kind, discriminated on `kind`.

Each model carries its schema (the REST API takes `RefereeActionBody`, so the OpenAPI document lists each action
with its fields; the control socket and the store take the same kinds and fields), its bilingual check
(`check`: the values a person can get wrong, normalised for the store), its category (a shot amendment, an input
of the rules engine, or match control) and how it applies: `amend` a shot's evidence (hub/reconcile/amendments.py),
the `engine_input` it becomes, or what it does to the session (`control`). `hub.reconcile.referee.parse` checks an
action and builds its model; the session dispatches on the category. docs/web-api.md and docs/reconciliation.md
describe them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field

from hub.names import clean_name
from hub.reconcile import checks as c
from hub.reconcile.action_types import (
    Args,
    Ball,
    BaseAction,
    Category,
    ColourName,
    Controls,
    EngineAction,
    MatchControl,
    Seat,
    colour_of,
)
from hub.reconcile.amendments import (
    AddBallAction,
    ConfirmAction,
    DeclareAction,
    FactAction,
    FoulAction,
    IdentifyAction,
    JumpedAction,
    RemoveAction,
    WithdrawAction,
)
from shared_rules.model import Choose, Concede, Input, Interference, Lag, RefereeDecision
from shared_rules.outcome import NeedKind

__all__ = ["ACTION_MODELS", "Action", "NewMatchAction", "RefereeActionBody", "action_for_need",
           "fields_of", "kinds_of", "to_request"]


class LagAction(EngineAction):
    """The lag's winner (general 11)."""
    kind: Literal["lag"]
    winner: Seat
    answers: ClassVar[tuple[str, ...]] = (NeedKind.LAG,)

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"winner": c.seat(a, "winner")}

    def engine_input(self) -> Input:
        return Lag(self.winner)


class ChooseAction(EngineAction):
    """A player's choice the rules give (penalty ball, Dynamic/Star options)."""
    kind: Literal["choose"]
    player: Seat
    option: Annotated[str, Field(min_length=1, max_length=60)]
    ball: Ball | None = None
    colour: ColourName | None = None
    answers: ClassVar[tuple[str, ...]] = (NeedKind.CHOICE,)

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"player": c.seat(a, "player"), "option": c.text(a, "option", limit=60), "ball": c.ball(a, "ball"),
                "colour": c.colour(a)}

    def engine_input(self) -> Input:
        return Choose(self.player, self.option, self.ball, colour_of(self.colour))


class DecideAction(EngineAction):
    """The referee's decision where the rules call for one."""
    kind: Literal["decide"]
    option: Annotated[str, Field(min_length=1, max_length=60)]
    winner: Seat | None = None
    answers: ClassVar[tuple[str, ...]] = (NeedKind.REFEREE_DECISION,)

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"option": c.text(a, "option", limit=60), "winner": c.seat(a, "winner", required=False)}

    def engine_input(self) -> Input:
        return RefereeDecision(self.option, self.winner)


class InterferenceAction(EngineAction):
    """Outside interference (general 27): restore the position, or re-rack."""
    kind: Literal["interference"]
    restore: bool = True

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"restore": c.flag(a, "restore", True)}

    def engine_input(self) -> Input:
        return Interference(self.restore)


class ConcedeAction(EngineAction):
    """A player concedes."""
    kind: Literal["concede"]
    player: Seat

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"player": c.seat(a, "player")}

    def engine_input(self) -> Input:
        return Concede(self.player)


class OpenShotAction(MatchControl):
    """Open a shot whose strike the cue sensor missed."""
    kind: Literal["open_shot"]

    def control(self, ctl: Controls, at_ms: int) -> None:
        ctl.open_shot(at_ms)


class CloseShotAction(MatchControl):
    """Close the open shot now."""
    kind: Literal["close_shot"]

    def control(self, ctl: Controls, at_ms: int) -> None:
        ctl.close_shot(at_ms)


class UndoAction(MatchControl):
    """Undo the latest step (the scoreboard's `undo` names it)."""
    kind: Literal["undo"]

    def control(self, ctl: Controls, at_ms: int) -> None:
        ctl.undo()


class DismissAlertAction(MatchControl):
    """Hide an alert (its id)."""
    kind: Literal["dismiss_alert"]
    alert: Annotated[str, Field(min_length=1, max_length=120)]

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"alert": c.text(a, "alert", limit=120)}

    def control(self, ctl: Controls, at_ms: int) -> None:
        ctl.dismiss(self.alert)


class NewMatchAction(MatchControl):
    """Start a match (REST: POST /api/tables/{table}/match)."""
    kind: Literal["new_match"]
    variant: Annotated[str, Field(min_length=1, max_length=20)]
    players: Annotated[list[Annotated[str, Field(min_length=1, max_length=60)]], Field(min_length=2, max_length=2)]
    options: dict[str, bool | int | str] = Field(default_factory=dict)
    cues: Annotated[dict[str, Seat], Field(max_length=8)] = Field(default_factory=dict)
    player_ids: Annotated[list[Annotated[int, Field(ge=1)] | None], Field(min_length=2, max_length=2)] | None = Field(
        None, description="the players' registry ids (GET /api/players), null for a name typed in")
    routed: ClassVar[bool] = True

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        players = a.get("players")
        if isinstance(players, list | tuple):  # bidirectional controls would show a name reversed (hub.names)
            players = [clean_name(p) if isinstance(p, str) else p for p in players]
        if (not isinstance(players, list | tuple) or len(players) != 2
                or not all(isinstance(p, str) and p.strip() and len(p) <= 60 for p in players)):
            raise c.err("players", "must be two player names (1..60 characters each)",
                        "нужны два имени игроков (от 1 до 60 символов)")
        options = a.get("options", {})
        if not isinstance(options, Mapping):
            raise c.err("options", "must be an object of variant parameters, e.g. {\"target\": 71}",
                        "нужен объект параметров партии, напр. {\"target\": 71}")
        cues = a.get("cues") or {}
        if (not isinstance(cues, Mapping) or len(cues) > 8
                or not all(isinstance(d, str) and c.is_int(s) and s in (0, 1) for d, s in cues.items())):
            raise c.err("cues", "must pair cue nodes with seats, e.g. {\"cue-a\": 0, \"cue-b\": 1}",
                        "нужны пары датчик кия — место игрока, напр. {\"cue-a\": 0, \"cue-b\": 1}")
        out = {"variant": c.text(a, "variant", limit=20), "players": list(players), "options": dict(options)}
        if cues:
            out["cues"] = dict(cues)
        ids = a.get("player_ids")
        if ids is not None:
            if (not isinstance(ids, list | tuple) or len(ids) != 2
                    or not all(i is None or (c.is_int(i) and i >= 1) for i in ids)):
                raise c.err("player_ids", "must be two registry ids (whole numbers from 1) or null, e.g. [3, null]",
                            "нужны два номера игроков из реестра (целые от 1) или null, напр. [3, null]")
            if ids[0] is not None and ids[0] == ids[1]:
                raise c.err("player_ids", "a player cannot play against themself",
                            "игрок не может играть сам с собой")
            if any(i is not None for i in ids):
                out["player_ids"] = list(ids)
        return out

    def control(self, ctl: Controls, at_ms: int) -> None:
        raise c.RefereeInputError("new_match is handled by the service: end this match, then start one",
                                  "новую партию начинает сервис: завершите эту партию и начните новую", "kind")


class EndMatchAction(MatchControl):
    """End the match (its final board stays as `last_match`)."""
    kind: Literal["end_match"]
    reason: Annotated[str, Field(max_length=200)] = ""

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"reason": c.text(a, "reason", required=False)}

    def control(self, ctl: Controls, at_ms: int) -> None:
        ctl.end(at_ms)


Action = (LagAction | DeclareAction | IdentifyAction | AddBallAction | JumpedAction | RemoveAction | FoulAction
          | FactAction | ConfirmAction | WithdrawAction | ChooseAction | OpenShotAction | CloseShotAction | UndoAction
          | InterferenceAction | ConcedeAction | DecideAction | DismissAlertAction | NewMatchAction | EndMatchAction)
"""Any referee action, typed."""

ACTION_MODELS: dict[str, type[BaseAction]] = {
    m.model_fields["kind"].annotation.__args__[0]: m  # type: ignore[union-attr]
    for m in (LagAction, DeclareAction, IdentifyAction, AddBallAction, JumpedAction, RemoveAction, FoulAction,
              FactAction, ConfirmAction, WithdrawAction, ChooseAction, OpenShotAction, CloseShotAction, UndoAction,
              InterferenceAction, ConcedeAction, DecideAction, DismissAlertAction, NewMatchAction, EndMatchAction)
}
"""kind -> its model, in the order the panel documents them."""

RefereeActionBody = Annotated[
    LagAction | DeclareAction | IdentifyAction | AddBallAction | JumpedAction | RemoveAction | FoulAction
    | FactAction | ConfirmAction | WithdrawAction | ChooseAction | OpenShotAction | CloseShotAction | UndoAction
    | InterferenceAction | ConcedeAction | DecideAction | DismissAlertAction | EndMatchAction,
    Field(discriminator="kind"),
]
"""Every action `POST /api/tables/{table}/actions` takes (new_match has its own route)."""


def fields_of(kind: str) -> tuple[str, ...]:
    """The argument names an action of `kind` may carry (not `kind` or `uid`)."""
    return tuple(n for n in ACTION_MODELS[kind].model_fields if n not in ("kind", "uid"))


def kinds_of(category: Category) -> tuple[str, ...]:
    """The action kinds of one category."""
    return tuple(k for k, m in ACTION_MODELS.items() if m.category is category)


def action_for_need(need: str) -> str | None:
    """The action kind that answers the engine's need of this kind (a question names it)."""
    return next((k for k, m in ACTION_MODELS.items() if need in m.answers), None)


def to_request(action: BaseModel, by: str | None = None) -> dict[str, Any]:
    """A parsed model -> the dict `Hub.submit` takes (unset optional fields left out; `by` records who)."""
    d = action.model_dump(exclude_none=True)
    if by:
        d["by"] = by
    return d
