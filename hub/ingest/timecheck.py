"""Impossible event times: stored, flagged with a reason code, never folded into play.

An event is dated impossibly when, on the hub clock, it is

- `future`: later than the hub's time of receipt plus `FAR_FUTURE_MS` (a stamp from 2255), or, within one
  boot of a node, ahead of that node's last trusted event by more than the hub's own clock advanced since,
  plus `STEP_TOLERANCE_MS` (a node clock stepped forward mid-boot: its events stay flagged until it is
  re-synced); a node's first event of a boot is held against the latest trusted event of any node the same
  way (a clock that jumped before its node reported anything: tests/faults/test_clock_jump.py);
- `before_match`: earlier than the start of the match it would count in, minus `BEFORE_MATCH_TOLERANCE_MS`
  (a node clock stepped back, a stamp from 1970).

Such an event is still stored (the log is the truth: its record carries `"suspect": <code>`), counted
(`suspect_time` in the stats) and logged, but the live session never sees it, nor does a rebuild, an export
or `luza replay` (which lists it). The table shows one `impossible_time` alert naming the node, the keys and
the reasons until a new match starts.

Current firmware stamps each event with its uptime, and the hub places it by that (hub/ingest/clockmap.py): a
node clock that steps never reaches these checks. What is left for them: an event of a boot dated before the
match (a ball dropped while racking), a nonsensical uptime,
and firmware without the uptime stamp, placed by its clock.

The absolute bound is generous on purpose (a node's synced clock is the hub's, so anything far ahead is
wrong, but tests of other parts date their matches in 2027 against the real clock); the per-node step check
is what catches a clock that jumps. A hub restart forgets the last trusted events: the first event the hub
receives after it is judged by the absolute bounds only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.store.database import Store
from hub.store.suspects import flagged
from hub.vocab.alerts import ImpossibleTimes
from hub.vocab.inputs import SensorInput

FAR_FUTURE_MS = 90 * 86_400_000
STEP_TOLERANCE_MS = 1_800_000
BEFORE_MATCH_TOLERANCE_MS = 60_000
SHOWN = 5

REASONS = {
    "future": ("dated later than the hub's clock allows", "датировано позже, чем допускают часы хаба"),
    "before_match": ("dated before the match started", "датировано раньше начала партии"),
}


class TimeCheck:
    """Judges event times; remembers each (device, boot)'s last trusted event as (at_ms, received_ms), and the
    latest trusted event of any node (what a node's first event of a boot is judged against)."""

    def __init__(self) -> None:
        self._last: dict[tuple[str, int], tuple[int, int]] = {}
        self._latest: tuple[int, int] | None = None

    def verdict(self, inp: SensorInput, match_started_ms: int | None) -> str | None:
        """The reason code if this event's time is impossible, else None (it may become the last trusted)."""
        key = (inp.event.device, inp.event.boot)
        last = self._last.get(key)
        if inp.at_ms > inp.received_ms + FAR_FUTURE_MS:
            return "future"
        ref = last if last is not None else self._latest  # a first event: against the other nodes' clocks
        if ref is not None and inp.at_ms - ref[0] > max(0, inp.received_ms - ref[1]) + STEP_TOLERANCE_MS:
            return "future"
        if match_started_ms is not None and inp.at_ms < match_started_ms - BEFORE_MATCH_TOLERANCE_MS:
            return "before_match"
        if last is None or inp.at_ms > last[0]:
            self._last[key] = (inp.at_ms, inp.received_ms)
        if self._latest is None or inp.at_ms > self._latest[0]:
            self._latest = (inp.at_ms, inp.received_ms)
        return None


def suspect_of(record: Mapping[str, Any]) -> str | None:
    """The reason code a stored record was flagged with (None: a normal input)."""
    code = record.get("suspect")
    return code if isinstance(code, str) else None


def alert(store: Store, match_id: int) -> ImpossibleTimes | None:
    """The table alert for a match's events with impossible times (None when it has none)."""
    rows = [(f.device, f.boot, f.seq, f.code) for f in flagged(store, match_id)]
    if not rows:
        return None
    shown = rows[:SHOWN]
    more = ", ..." if len(rows) > SHOWN else ""
    en = ", ".join(f"{d} boot {b} seq {s} ({REASONS.get(c, (c, c))[0]})" for d, b, s, c in shown) + more
    ru = ", ".join(f"{d} загрузка {b} № {s} ({REASONS.get(c, (c, c))[1]})" for d, b, s, c in shown) + more
    return ImpossibleTimes(
        kind="impossible_time",
        match_id=match_id,
        severity="warning",
        count=len(rows),
        devices=sorted({r[0] for r in rows}),
        keys=[[d, b, s, c] for d, b, s, c in shown],
        en=f"{len(rows)} event(s) with an impossible time were stored but not counted: {en}; check the "
        "node's clock and score by hand if a ball is missing",
        ru=f"{len(rows)} событ. с невозможным временем сохранено, но не учтено: {ru}; проверьте часы "
        "датчика и при необходимости поправьте счёт вручную",
    )
