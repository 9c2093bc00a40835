"""The shot clock (issue 22, item 3): how long a player took over a shot, from the sensors alone.

The clock starts when the previous shot has settled (`ShotEvidence.settled_at`: the hub's own judgement of
when the balls can have stopped, the one the §14.2 early-start check uses) and stops at the cue strike that
opens the next shot (or the referee's `open_shot`). Everything comes from the inputs' `at_ms` (hub time),
folded in time order, so a replay, an export and `luza verify` give the same shot times; the screens count
down from the table view's `match.shot_clock` (`ShotClockView`, hub/view/shotclock.py:
`started_at`/`expires_at`) and the hub's time (`hub_ms`), never from a clock of their own.

The per-match setting (`new_match` `shot_clock`, checked in hub/vocab/new_match.py): off, seconds per shot,
extensions per player per frame (each `extension` the referee taps adds `extension_s`, by default the limit
again). A shot struck after its time is a question for the referee (`shot_clock`): the rules set no penalty
for the time itself; general §26 (slow play) makes it a foul where the tournament's regulation sets a time, so
the referee answers what the regulation says.
A frame is one session: the extensions a player has used are counted per session (a race's next frame is a new
session, so they start again).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from hub.vocab.evidence import ShotEvidence

WARN_MS = 10_000  # the screens warn in the last 10 s


@dataclass(frozen=True, slots=True)
class ShotClock:
    """A match's shot-clock setting (all ms). `limit_ms` 0:
    off (shot times are still measured and exported)."""

    limit_ms: int = 0
    extensions: int = 0  # per player per frame
    extension_ms: int = 0  # what one extension adds (0: the limit again)
    warn_ms: int = WARN_MS

    @property
    def on(self) -> bool:
        return self.limit_ms > 0

    @property
    def extra_ms(self) -> int:
        return self.extension_ms or self.limit_ms

    def allowed(self, extended: int) -> int | None:
        """The time a shot may take with `extended` extensions, or None (the clock is off)."""
        return self.limit_ms + extended * self.extra_ms if self.on else None

    def to_dict(self) -> dict[str, int]:
        """As the match's settings snapshot keeps it (hub.service.snapshot)."""
        return {
            "limit_ms": self.limit_ms,
            "extensions": self.extensions,
            "extension_ms": self.extra_ms,
            "warn_ms": self.warn_ms,
        }

    @classmethod
    def of_request(cls, body: Mapping[str, Any] | None) -> ShotClock:
        """From new_match's checked `shot_clock` ({limit_s, extensions, extension_s}); None or absent: off."""
        if not body:
            return cls()
        limit = int(body.get("limit_s") or 0)
        return cls(
            limit * 1000,
            int(body.get("extensions") or 0) if limit else 0,
            int(body.get("extension_s") or 0) * 1000 if limit else 0,
        )

    @classmethod
    def of_snapshot(cls, settings: Mapping[str, Any] | None) -> ShotClock:
        """From a stored settings snapshot; a match stored before the shot clock has it off."""
        raw = (settings or {}).get("shot_clock")
        if not isinstance(raw, Mapping):
            return cls()
        limit, extensions, extra = (int(raw.get(k) or 0) for k in ("limit_ms", "extensions", "extension_ms"))
        return cls(limit, extensions, extra, int(raw.get("warn_ms") or WARN_MS))


def shot_ms(shot: ShotEvidence) -> int | None:
    """How long the player took over this shot: from the previous shot's settle to this shot's strike (or the
    referee's `open_shot`). None for the first shot (nothing settled before it) and for a shot a ball opened
    (no strike seen: its start is unknown). A strike before the settle (an early start, §14.2) took 0 ms."""
    if shot.clock_from is None or shot.opened_by == "pocket":
        return None
    return max(0, shot.opened_at - shot.clock_from)


def over_time(shot: ShotEvidence) -> bool:
    """The shot was struck after its time (the limit and its extensions) ran out."""
    took = shot_ms(shot)
    return took is not None and shot.allowed_ms is not None and took > shot.allowed_ms


class ShotClockEntry(TypedDict):
    """A shot's clock in an export (docs/match-export.schema.json, `shot_clock`)."""

    allowed_ms: int
    extensions: int
    expired: bool


def clock_of(shot: ShotEvidence, clock: ShotClock) -> ShotClockEntry | None:
    """A shot's clock as exports show it: the time allowed, the extensions in it, whether it ran out."""
    if shot.allowed_ms is None:
        return None
    extended = (shot.allowed_ms - clock.limit_ms) // clock.extra_ms if clock.on else 0
    return {"allowed_ms": shot.allowed_ms, "extensions": extended, "expired": over_time(shot)}
