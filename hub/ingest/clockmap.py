"""Per-boot clock offsets: placing a node's event on the hub's timeline by the node's own uptime.

A node stamps each event (luza_wire.messages.Event) with its uptime `up` (ms since its boot: a monotonic clock
that no time exchange moves) as well as its clock `t` (the hub's time after a `time` command). The hub never
orders by `t` alone — a node's clock can step (a bad time exchange, a hub restarted with its clock off): it
maps `up` onto its own timeline with an offset it measures itself for that (device, boot), `offset = hub
time - uptime`. Every message that carries an uptime is a sample `received - up`; the transit delay is never
negative, so each sample is an upper bound and the least delayed one is the best: a late, buffered event
cannot spoil it. Crystals drift (an ESP32's and the Pi's, ~50 ppm each), so a sample's bound loosens by
`1/DRIFT_DIV` of the uptime since it was taken, and a newer sample that is tighter by then replaces it: the
estimate follows drift both ways and only moves by a transit's worth at a time.

Within one boot the node's own order stands: an event recorded later (a higher `up`) is never placed before
one recorded earlier, whatever a better sample did to the offset in between (`place`).

Estimates are kept in the store (with the uptime of their sample), so an event buffered across a hub restart
still maps, and a restarted hub can tell how far its own clock moved from the nodes that stayed up
(hub/ingest/timebase.py): estimates loaded from the store are `old` (on the store's timeline) and, while the
hub re-joins that timeline, take no samples from events (`freeze`). Firmware that sends no uptime is placed by
its `t`, as before (`to_hub`).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass

Key = tuple[str, int]
DRIFT_DIV = 10_000  # a sample's bound loosens by 1 ms per 10 s of uptime since it was taken (100 ppm)


@dataclass(slots=True)
class Estimate:
    """One boot's offset: the tightest sample's `received - up`, the uptime it was taken at (None: stored
    before the hub kept it), and whether an earlier start of the hub measured it (on the store's timeline)."""

    offset: int
    up: int | None
    old: bool = False


class ClockMap:
    """Offsets by (device, boot). Thread-safe; `dirty()` returns the estimates
    changed since the last `saved`."""

    def __init__(self, offsets: Mapping[Key, int | tuple[int, int | None]] | None = None) -> None:
        self._est: dict[Key, Estimate] = {}
        for k, v in (offsets or {}).items():
            off, up = v if isinstance(v, tuple) else (v, None)
            self._est[k] = Estimate(off, up, old=True)
        self._dirty: set[Key] = set()
        self._last: dict[Key, tuple[int, int]] = {}  # the latest-recorded event placed per boot: (up, at_ms)
        self._skew: dict[str, int] = {}
        self._frozen = False
        self._lock = threading.Lock()

    # ------------------------------------------------------------ samples

    def observe(self, device: str, boot: int, up: int, received_ms: int) -> int:
        """Take one sample of a boot's clock (`up` read when the message was built);
        returns the offset in use."""
        with self._lock:
            return self._observe((device, boot), up, received_ms)

    def _observe(self, key: Key, up: int, received_ms: int) -> int:
        sample = received_ms - up
        est = self._est.get(key)
        if est is None or _tighter(sample, up, est):
            self._est[key] = Estimate(sample, up)
            self._dirty.add(key)
            return sample
        return est.offset

    def freeze(self, frozen: bool) -> None:
        """While the hub re-joins the store's timeline, estimates from the store take no samples from events
        (their transit is unknown, and the hub's clock may still be off): they map as the store has them."""
        with self._lock:
            self._frozen = frozen

    # ------------------------------------------------------------ placing events

    def place(self, device: str, boot: int, up: int, received_ms: int) -> tuple[int, int]:
        """An event recorded at uptime `up` on the hub's timeline:
        (at_ms, the offset used). It is also a sample."""
        key = (device, boot)
        with self._lock:
            est = self._est.get(key)
            if self._frozen and est is not None and est.old:
                offset = est.offset
            else:
                offset = self._observe(key, up, received_ms)
            at = up + offset
            last = self._last.get(key)
            # the node's own order: never before an event it recorded earlier, or the reverse
            if last is not None:
                if up >= last[0] and at < last[1]:
                    at = last[1]
                elif up < last[0] and at >= last[1]:
                    at = last[1] - 1
            if last is None or up >= last[0]:
                self._last[key] = (up, at)
            return at, offset

    def to_hub(self, device: str, boot: int, t: int, synced: bool, received_ms: int) -> int:
        """An event from firmware that sends no uptime: a synced `t` as is (its clock is all there is); an
        unsynced `t` is the uptime, placed as any."""
        if synced:
            self.observe_synced(device, t, received_ms)
            return t
        return self.place(device, boot, t, received_ms)[0]

    def observe_synced(self, device: str, t: int, received_ms: int) -> None:
        """Track how far a synced node's clock is behind the hub (transit + drift,
        or a step), for the logs."""
        with self._lock:
            lag = received_ms - t
            old = self._skew.get(device)
            self._skew[device] = lag if old is None else min(lag, (old * 7 + lag) // 8)

    def skew(self, device: str) -> int | None:
        """Recent smallest `received - t` of a synced node in ms (negative: its clock runs ahead)."""
        with self._lock:
            return self._skew.get(device)

    # ------------------------------------------------------------ the hub's timeline moved

    def rebase(self, delta: int, old_too: bool = False) -> None:
        """The hub's timeline moved by `delta` ms: estimates measured on it move with it (those from the store
        too if `old_too`: the store's timeline moved as well).
        Events already placed keep their stored times."""
        with self._lock:
            moved = set()
            for key, est in self._est.items():
                if old_too or not est.old:
                    est.offset += delta
                    self._dirty.add(key)
                    moved.add(key)
            self._last = {k: (u, at + delta if k in moved else at) for k, (u, at) in self._last.items()}

    # ------------------------------------------------------------ reading and saving

    def offset(self, device: str, boot: int) -> int | None:
        with self._lock:
            est = self._est.get((device, boot))
            return est.offset if est is not None else None

    def estimate(self, device: str, boot: int) -> Estimate | None:
        with self._lock:
            est = self._est.get((device, boot))
            return Estimate(est.offset, est.up, est.old) if est is not None else None

    def dirty(self) -> dict[Key, tuple[int, int | None]]:
        """Estimates changed and not yet `saved` (kept until the transaction that
        stores them has committed)."""
        with self._lock:
            return {k: (self._est[k].offset, self._est[k].up) for k in self._dirty}

    def saved(self, estimates: Mapping[Key, tuple[int, int | None]]) -> None:
        """These estimates are committed: no longer dirty (unless they changed again meanwhile)."""
        with self._lock:
            for k, v in estimates.items():
                est = self._est.get(k)
                if est is not None and (est.offset, est.up) == v:
                    self._dirty.discard(k)


def _tighter(sample: int, up: int, est: Estimate) -> bool:
    """Is a sample taken at uptime `up` a tighter bound than `est`,
    both loosened by drift to the later uptime?"""
    if est.up is None:  # stored before the hub kept the sample's uptime: the least delayed wins
        return sample < est.offset
    ref = max(up, est.up)
    return sample + (ref - up) // DRIFT_DIV < est.offset + (ref - est.up) // DRIFT_DIV


def time_command_args(now_ms: int) -> dict[str, int]:
    """The arguments of the `time` command sent on a node's birth
    (protocol.encode_command('time', hub=...))."""
    return {"hub": now_ms}
