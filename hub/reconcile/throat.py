"""What a pocket node's beams could not settle, as shot evidence: balls that came back out, and flags.

A node sends `out` when something passed upwards through both beams and left the pocket (firmware/pocket.py):
a ball that bounced back out of a full net — or one a hand lifted out. Only the first is a ball to un-count,
so an `out` un-counts the latest ball seen going into that pocket within `BOUNCE_OUT_MS` before it (and not
already un-counted); an `out` with no such ball is someone emptying the net and changes nothing.

A `flag` names its reason (luza_wire.protocol.FLAG_REASONS). `two` is about the ball just counted in that
pocket (the beams saw something longer than one ball and shorter than two): the referee is asked "one ball or
two?" and "two" adds a second ball. The others become alerts that say what to check (`edges`, `single`,
`boot`: did a ball go in? add it by hand if so; `full`: empty the net; `noise`, `dead`:
a sensor problem to fix).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

BOUNCE_OUT_MS = 3000  # a ball bouncing back out of the net leaves within this of going in
TWO_ANSWERS = ("one", "two")


class _Seen(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def pocket(self) -> int: ...
    @property
    def at_ms(self) -> int: ...


def latest_ball(
    seen: Iterable[_Seen], pocket: int, at_ms: int, window_ms: int, taken: set[str]
) -> str | None:
    """The id of the latest ball into `pocket` at most `window_ms` before `at_ms` that is not in `taken`."""
    best: _Seen | None = None
    for p in seen:
        near = int(p.pocket) == pocket and p.id not in taken and 0 <= at_ms - p.at_ms <= window_ms
        if near and (best is None or p.at_ms >= best.at_ms):
            best = p
    return best.id if best is not None else None
