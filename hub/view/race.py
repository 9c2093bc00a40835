"""`RaceView`: a match's race to N frames as the screens read it (the match view's `race`; docs/web-api.md,
"Scoreboard"): its rules, the frame in play, the frame score, each frame's result, the winner or why it was
abandoned, its time limit (general A-G6). A single frame with no handicap is a race to 1 (the screens then
show nothing new, js/race.js).

`race_view` makes it from the hub's `Frames` (hub/reconcile/frames.py) and the frame in play, whose open shot
counts as played (the frame score moves with the winning pot, not a shot later).
"""

from __future__ import annotations

from typing import Literal

from hub.reconcile.frames import Frames
from hub.reconcile.table import TableSession
from hub.view.base import Text, View

BreakRuleName = Literal["alternate", "loser", "winner"]
HandicapKindName = Literal["points", "balls", "frames"]
TimeRuleName = Literal["finish_frame", "referee"]


class HandicapView(View):
    """What the weaker player (`seat`) is given (general A-G5)."""

    kind: HandicapKindName
    amount: int
    seat: int


class FrameView(View):
    """One frame of the race: its winner (None: drawn or in play), who broke it, its score."""

    number: int
    winner: int | None
    drawn: bool
    conceded: bool
    breaker: int | None
    scores: list[int]
    over: bool


class RaceView(View):
    """The race: first to `race_to` frames wins the match (general A-G4)."""

    race_to: int
    break_rule: BreakRuleName
    handicap: HandicapView | None
    frame: int  # the frame in play (or the last one), from 1
    score: list[int]  # frames won, the head start included
    head_start: list[int]  # frames given before the first break (a frames handicap)
    winner: int | None
    abandoned: str | None  # the referee's reason, once ended before anybody won
    over: bool
    frame_over: bool
    next_breaker: int | None  # who breaks the next frame, once the frame in play is over
    frames: list[FrameView]
    reason: Text | None  # why the match is won, cited
    time_limit_min: int | None  # the match time limit in minutes (general A-G6), None: none
    # when the time is up: finish the frame, then the leader wins; or the referee decides
    time_rule: TimeRuleName
    # hub ms the match time runs out (its start + the limit); the screens count down to it
    deadline_ms: int | None
    time_called: bool  # the time is up («Время!»): a `time_up` action is stored


def race_view(frames: Frames, session: TableSession) -> RaceView:
    """The race of a match whose frame in play is `session`."""
    return RaceView.model_validate(frames.section(session))
