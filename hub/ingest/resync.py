"""When to send a node the hub's time again: on birth, and then at most every `interval_s` while it talks.

The node takes the latest `time` command as the truth (firmware/clock.py), so a periodic one bounds how far
its crystal can drift from the hub (an ESP32's is good to about 50 ppm: 30 ms in 10 min). The hub does not run
a timer per node: a re-sync rides on the node's own traffic (events, telemetry every few seconds), judged on a
monotonic clock so a step of the hub's wall clock neither floods nor starves the nodes. A node this hub has
never sent the time to (the hub restarted, or reconnected to the broker, while the node stayed up) is due at
its first message.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

RESYNC_S = 600.0


class Resync:
    """Per device, the monotonic time of the last `time` command sent."""

    def __init__(self, interval_s: float = RESYNC_S, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.interval_s, self.monotonic = interval_s, monotonic
        self._last: dict[str, float] = {}

    def sent(self, device: str) -> None:
        """A `time` command went to this device now."""
        self._last[device] = self.monotonic()

    def due(self, devices: Iterable[str]) -> list[str]:
        """Of these devices (heard from just now), the ones to send the time again; they count as sent."""
        now = self.monotonic()
        out = [d for d in sorted(devices) if d not in self._last or now - self._last[d] >= self.interval_s]
        for d in out:
            self._last[d] = now
        return out
