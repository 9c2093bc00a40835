"""The referee actions that become inputs of the rules engine (`engine_input`): the lag, a player's choice,
the referee's decision, outside interference, a concession. hub/vocab/actions.py gathers every kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar, Literal

from pydantic import Field

from hub.vocab import checks as c
from hub.vocab.action_types import Args, Ball, ColourName, EngineAction, Seat, colour_of
from shared_rules.model import Choose, Concede, Input, Interference, Lag, RefereeDecision
from shared_rules.outcome import NeedKind


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
        return {
            "player": c.seat(a, "player"),
            "option": c.text(a, "option", limit=60),
            "ball": c.ball(a, "ball"),
            "colour": c.colour(a),
        }

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
