"""The frames of a live match: a race to N frames (shared_rules/race.py) on the hub.

Each frame is a `TableSession` of its own (one engine fold); a match keeps the frames it has finished, the
rules of its race (from its `new_match` action's `race`) and, if it was ended before anybody won it, the
reason it was abandoned. The log stays one list of inputs per match: a `next_frame` referee action is the
frame boundary (it ends the frame in play, closing its open shot, and the inputs stored after it are the next
frame's), so a replay splits the log at those rows and folds each frame.
`section` is the match view's `race` (hub/view/race.py, docs/web-api.md):
the frame score, each frame's result and breaker.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict, cast

from hub.reconcile.table import TableSession
from shared_rules.opening import Opening
from shared_rules.race_rules import RaceRules
from shared_rules.race_standing import FrameResult, next_opening, race_winner, result_of, tally

__all__ = ["FrameTally", "Frames", "HandicapJSON", "RaceReason", "RaceSection", "rules_of"]


class HandicapJSON(TypedDict):
    """shared_rules.race.Handicap.to_dict(): what the weaker player (`seat`) is given (general A-G5)."""

    kind: str  # points | balls | frames
    amount: int
    seat: int


class FrameTally(TypedDict):
    """One frame of the race section: its winner (None: drawn or in play), who broke it, its score."""

    number: int
    winner: int | None
    drawn: bool
    conceded: bool
    breaker: int | None
    scores: list[int]
    over: bool


class RaceReason(TypedDict):
    en: str
    ru: str


class RaceSection(TypedDict):
    """`section`: shared_rules.race.tally's JSON with the deadline. The match view's `race`
    (hub.view.race.RaceView validates it) and the export's `race` (docs/match-export.schema.json)."""

    race_to: int
    break_rule: str  # alternate | loser | winner
    handicap: HandicapJSON | None
    time_limit_min: int | None
    time_rule: str  # finish_frame | referee
    frame: int
    score: list[int]
    head_start: list[int]
    winner: int | None
    abandoned: str | None
    over: bool
    frame_over: bool
    next_breaker: int | None
    frames: list[FrameTally]
    time_called: bool
    reason: RaceReason | None  # why the match is won, cited
    deadline_ms: int | None


def rules_of(args: Mapping[str, Any] | None) -> RaceRules:
    """The race a stored `new_match` action's arguments ask for (a single frame when they name none)."""
    raw = args.get("race") if isinstance(args, Mapping) else None
    return RaceRules.from_dict(raw)


@dataclass
class Frames:
    """A match's race: its rules, the frames already finished (their sessions, kept for the board and exports)
    and, once ended early, why it was abandoned."""

    rules: RaceRules = field(default_factory=RaceRules)
    done: list[TableSession] = field(default_factory=list)
    abandoned: str | None = None
    time_called: int | None = None  # the frame (from 1) in which the match time was up (general A-G6)
    started_ms: int | None = None  # hub ms the match started: its time limit counts from here

    @property
    def deadline_ms(self) -> int | None:
        """Hub ms the match time runs out (general A-G6); None without a time limit."""
        limit = self.rules.time_limit_min
        return None if limit is None or self.started_ms is None else self.started_ms + limit * 60_000

    def winner(self, results: list[FrameResult]) -> int | None:
        """The race's winner from these frames' results
        (those not over are left out), the time called counted."""
        return race_winner(self.rules, [r for r in results if r.over], self.time_called)

    def results(self, current: TableSession | None) -> list[FrameResult]:
        """Each frame's result as committed (the frame in play last, if given)."""
        sessions = [*self.done, current] if current is not None else self.done
        return [result_of(s.match) for s in sessions]

    def shown(self, current: TableSession) -> list[FrameResult]:
        """Each frame's result as the screens show it: the frame in play with its open shot played (the
        provisional scoreboard), so the frame score moves with the winning pot, not a shot later."""
        now = result_of(current.match)
        prov = current.provisional()
        if not now.over and prov is not None and prov.error is None and prov.state is not None:
            p = prov.state
            now = FrameResult(p.winner, bool(p.draw), now.breaker, False, (p.scores[0], p.scores[1]))
        return [*self.results(None), now]

    def opening(self, current: TableSession | None = None) -> Opening:
        """How the next frame opens (its breaker by the break rule, the handicap), after `current`."""
        return next_opening(self.rules, self.results(current))

    def decided(self, current: TableSession) -> bool:
        """The race has a winner (the frame in play included, as committed)."""
        return self.winner(self.results(current)) is not None

    def shown_decided(self, current: TableSession) -> bool:
        """The race has a winner as the screens show it (the open shot played)."""
        return self.winner(self.shown(current)) is not None

    def refusal(self, current: TableSession) -> tuple[str, str] | None:
        """Why the next frame cannot start now (en, ru), or None. The frame in play must be over, counting the
        open shot as the next_frame action will close it
        (the winning pot may still be in it), and the race not won."""
        shown = self.shown(current)
        n = len(shown)
        if not shown[-1].over:
            return (
                f"frame {n} is still in play; finish or concede it first",
                f"партия {n} ещё идёт; доиграйте или сдайте её",
            )
        if self.winner(shown) is not None:
            return (
                "the match is won: there is no next frame (end the match)",
                "встреча выиграна: следующей партии нет (завершите встречу)",
            )
        return None

    def advance(self, current: TableSession, make: Callable[[Opening], TableSession]) -> TableSession | None:
        """After a next_frame action was folded into `current`: the next frame's session (`make(opening)`),
        with `current` kept as done; None if `current` is not over or the race is won
        (the action then only ended it)."""
        if not current.match.state.over or self.decided(current):
            return None
        nxt = make(self.opening(current))
        self.done.append(current)
        return nxt

    def section(self, current: TableSession) -> RaceSection:
        """The match view's `race` (hub.view.race.RaceView):
        the frame score and every frame (the one in play last)."""
        # shared_rules returns its JSON as a plain dict (the rules engine has no hub types): RaceSection is
        # its shape, key for key (tests/export golden files and RaceView check it)
        return cast(
            RaceSection,
            {
                **tally(self.rules, self.shown(current), self.abandoned, self.time_called),
                "deadline_ms": self.deadline_ms,
            },
        )

    def time_refusal(self, current: TableSession) -> tuple[str, str] | None:
        """Why the match time cannot be called now (en, ru), or None (general A-G6)."""
        if self.rules.time_limit_min is None:
            return ("this match has no time limit", "у этой встречи нет лимита времени")
        if self.time_called is not None:
            return ("the time is already up", "время уже вышло")
        if self.abandoned is not None or self.decided(current):
            return ("the match is over", "встреча окончена")
        return None

    def call_time(self, current: TableSession) -> None:
        """The match time is up in the frame in play (`current`, general A-G6)."""
        self.time_called = len(self.done) + 1

    def abandon_if_undecided(self, current: TableSession, reason: str) -> None:
        """Ending a race that has no winner yet abandons it, with the referee's reason (general A-G4)."""
        if not self.decided(current):
            self.abandoned = reason.strip() or "ended by the referee / завершена судьёй"
