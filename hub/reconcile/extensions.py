"""The shot clock's extensions granted in a frame (`extension`, hub/reconcile/shotclock.py): each for the shot
being timed (the next to open) and one seat, at most the match's number per player per frame; and the time a
shot may take with those granted for it. Every grant is recorded on the input's `Mark`
(hub/reconcile/trail.py), so the fold can take it back.
"""

from __future__ import annotations

from hub.reconcile.shotclock import ShotClock
from hub.reconcile.trail import Affected, Mark
from hub.vocab.checks import RefereeInputError


class Extensions:
    """The extensions granted so far in one frame, by the frame's shot clock."""

    def __init__(self, clock: ShotClock) -> None:
        self.clock = clock
        self.granted: list[tuple[int, int]] = []  # (the shot it is for, the seat) per `extension` granted

    def allowed(self, shot: int) -> int | None:
        """The time shot number `shot` may take (None: the clock is off)."""
        return self.clock.allowed(sum(1 for n, _ in self.granted if n == shot))

    def grant(self, shot: int, seat: int | None, running: bool, mark: Mark) -> None:
        """One extension for shot number `shot` and `seat` (None: who is to play is not known); refused when
        the clock is off, not `running`, or the seat has none left in this frame."""
        clock = self.clock
        if not clock.on:
            raise RefereeInputError("the shot clock is off in this match", "в этой партии нет часов на удар")
        if not running:
            raise RefereeInputError(
                "the shot clock is not running (it starts after the first shot has settled)",
                "часы на удар не идут (они запускаются, когда остановятся шары после первого удара)",
            )
        if seat is None:
            raise RefereeInputError(
                "who is to play is not known yet: name the player (0 or 1)",
                "пока неизвестно, чья очередь: укажите игрока (0 или 1)",
                "player",
            )
        if sum(1 for _, s in self.granted if s == seat) >= clock.extensions:
            raise RefereeInputError(
                f"player {seat + 1} has no extension left in this frame ({clock.extensions} per frame)",
                f"у игрока {seat + 1} не осталось продлений в этой партии ({clock.extensions} на партию)",
                "player",
            )
        self.granted.append((shot, seat))
        mark.on_undo(self._take_back)

    def _take_back(self, aff: Affected) -> None:
        self.granted.pop()
