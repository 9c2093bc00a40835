"""The match view's `shot_clock` (`ShotClockView`, hub/view/match.py): the match's shot-clock setting, the
shot being timed and the last shot's time, as the board, the overlay and the referee panel count it down
(dashboard/js/shotclock.js). Everything in it comes from the session's log (hub/reconcile/shotclock.py); a
screen counts down `expires_at` - now, now = the envelope's `hub_ms` + the local
time since the envelope came."""

from __future__ import annotations

from hub.reconcile.shotclock import over_time, shot_ms
from hub.reconcile.table import TableSession
from hub.view.match import ShotClockLast, ShotClockView


def shot_clock_view(s: TableSession, to_play: int | None, over: bool) -> ShotClockView:
    """The session's shot clock for the position shown (`to_play`, `over`: the match view's own fields)."""
    clock = s.clock
    shots = s.assembler.shots  # the list itself: a long match's view costs no copy
    running = bool(shots) and not s.ended and not over
    started = shots[-1].settled_at(s.timing) if running else None
    pending = s.extensions_pending()
    allowed = clock.allowed(pending)
    last = next((x for x in reversed(shots) if shot_ms(x) is not None), None)
    return ShotClockView(
        on=clock.on,
        limit_ms=clock.limit_ms if clock.on else None,
        warn_ms=clock.warn_ms,
        extension_ms=clock.extra_ms if clock.on else None,
        extensions=clock.extensions,
        extensions_left=[max(0, clock.extensions - n) for n in s.extensions_used()],
        running=running,
        shot=len(shots) + 1 if running else None,
        player=to_play if running else None,
        started_at=started,
        extended=pending,
        expires_at=started + allowed if started is not None and allowed is not None else None,
        last=None
        if last is None
        else ShotClockLast(
            shot=last.number, shot_ms=shot_ms(last), allowed_ms=last.allowed_ms, expired=over_time(last)
        ),
    )
