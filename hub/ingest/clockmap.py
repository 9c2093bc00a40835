"""Per-device clock offsets: mapping a node's event time onto the hub's clock.

A node stamps each event with its own time `t` (luza_wire.messages.Event). After the hub's `time` command (sent on the node's
birth) the node's clock is the hub's (`synced`), and `t` is used as is. Before that, `t` is the node's uptime in
ms, and the hub estimates `offset = hub time - device time` per (device, boot) as the smallest
`received - t` seen: the transit delay is never negative, so the minimum is the best (least delayed) sample,
and a late, buffered event cannot spoil it (its `received - t` is larger). Telemetry's `up` field gives more
samples. Offsets are kept in the store so an event buffered across a hub restart still maps.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

Key = tuple[str, int]


class ClockMap:
    """Offsets by (device, boot). Thread-safe; `dirty()` returns the offsets changed since the last call."""

    def __init__(self, offsets: Mapping[Key, int] | None = None) -> None:
        self._offsets: dict[Key, int] = dict(offsets or {})
        self._dirty: set[Key] = set()
        self._skew: dict[str, int] = {}
        self._lock = threading.Lock()

    def observe(self, device: str, boot: int, device_ms: int, received_ms: int) -> int:
        """Take one sample of an unsynced clock; returns the offset now in use for (device, boot)."""
        candidate = received_ms - device_ms
        key = (device, boot)
        with self._lock:
            old = self._offsets.get(key)
            if old is None or candidate < old:
                self._offsets[key] = candidate
                self._dirty.add(key)
                return candidate
            return old

    def offset(self, device: str, boot: int) -> int | None:
        with self._lock:
            return self._offsets.get((device, boot))

    def to_hub(self, device: str, boot: int, t: int, synced: bool, received_ms: int) -> int:
        """The event time on the hub clock. An unsynced event is also a sample of its clock."""
        if synced:
            self.observe_synced(device, t, received_ms)
            return t
        return t + self.observe(device, boot, t, received_ms)

    def observe_synced(self, device: str, t: int, received_ms: int) -> None:
        """Track how far a synced node's clock is behind the hub (transit + drift), for the device list."""
        with self._lock:
            lag = received_ms - t
            old = self._skew.get(device)
            self._skew[device] = lag if old is None else min(lag, (old * 7 + lag) // 8)

    def skew(self, device: str) -> int | None:
        """Recent smallest `received - t` of a synced node in ms (negative: its clock runs ahead)."""
        with self._lock:
            return self._skew.get(device)

    def dirty(self) -> dict[Key, int]:
        """Offsets changed and not yet `saved` (kept until the transaction that stores them has committed)."""
        with self._lock:
            return {k: self._offsets[k] for k in self._dirty}

    def saved(self, offsets: Mapping[Key, int]) -> None:
        """These offsets are committed: no longer dirty (unless they changed again meanwhile)."""
        with self._lock:
            for k, v in offsets.items():
                if self._offsets.get(k) == v:
                    self._dirty.discard(k)


def time_command_args(now_ms: int) -> dict[str, int]:
    """The arguments of the `time` command sent on a node's birth (protocol.encode_command('time', hub=...))."""
    return {"hub": now_ms}
