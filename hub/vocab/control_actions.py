"""The referee actions that control the match rather than feed the engine (`control`): open or close a shot,
undo, dismiss an alert, a shot clock extension, the next frame, the time up, the end of the match.
Starting a match has its own module (hub/vocab/new_match.py); hub/vocab/actions.py gathers every kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar, Literal

from pydantic import Field

from hub.vocab import checks as c
from hub.vocab.action_types import Args, Controls, MatchControl, Seat


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


class ExtensionAction(MatchControl):
    """An extension of the shot clock for the shot being timed (hub/reconcile/shotclock.py): the player to play
    (or `player`) uses one of the extensions the match gives per frame."""  # noqa: E501

    kind: Literal["extension"]
    player: Seat | None = None

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"player": c.seat(a, "player", required=False)}

    def control(self, ctl: Controls, at_ms: int) -> None:
        ctl.extend(at_ms, self.player)


class NextFrameAction(MatchControl):
    """Start the next frame of a race once the frame in play is over (general 11, A-G4). The frame left behind
    ends here (its open shot closes, as the winning pot may still be in it); the service opens the next one."""  # noqa: E501

    kind: Literal["next_frame"]

    def control(self, ctl: Controls, at_ms: int) -> None:
        ctl.end(at_ms, "next_frame")


class TimeUpAction(MatchControl):
    """The match time is up (general A-G6): the hub sends it itself when the time limit runs out (uid
    `time-up-<match>`), the referee may send it earlier. The service records it with the race (it is routed,
    never an input of the frame's session); what follows is the race's time rule."""

    kind: Literal["time_up"]
    routed: ClassVar[bool] = True

    def control(self, ctl: Controls, at_ms: int) -> None:
        raise c.RefereeInputError("time_up is handled by the service", "time_up обрабатывает сервис", "kind")


class EndMatchAction(MatchControl):
    """End the match (its final board stays as `last_match`); before a race has a winner it is abandoned, and the
    reason goes on the scoresheet (general A-G4)."""  # noqa: E501

    kind: Literal["end_match"]
    reason: Annotated[str, Field(max_length=200)] = ""

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"reason": c.text(a, "reason", required=False)}

    def control(self, ctl: Controls, at_ms: int) -> None:
        ctl.end(at_ms)
