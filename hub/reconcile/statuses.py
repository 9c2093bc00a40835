"""The statuses of reconciliation as enums: a step of a table's timeline, and the table itself. Both are
StrEnums, so they compare equal to, and serialise as, the strings the scoreboard JSON has always carried."""

from __future__ import annotations

from enum import StrEnum


class StepStatus(StrEnum):
    """Where a step of the timeline stands (a StrEnum: it compares and serialises as its value)."""

    PENDING = "pending"  # not fed to the engine yet
    OK = "ok"  # fed and accepted
    BLOCKED = "blocked"  # a shot the engine refused: scoring is held there until the referee corrects it
    REJECTED = "rejected"  # a referee action the engine refused
    VOID = "void"  # a removed strike's shot, or an action on it
    AFTER_END = "after_end"  # struck after the match was decided: not scored


class TableStatus(StrEnum):
    """A live match's table as the screens show it (a StrEnum: it compares and serialises as its value)."""

    LIVE = "live"  # play goes on
    HELD = "held"  # scoring waits for the referee (a refused or unplayable shot, a need, an internal error)
    ENDED = "ended"  # the match is over
