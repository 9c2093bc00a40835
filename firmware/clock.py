"""Node time: a non-wrapping uptime clock and its offset to the hub's clock (the `cmd` "time" exchange).

Runs on MicroPython and CPython. Events are recorded on the uptime clock (`uptime()`, ms since this clock was
made); once the hub has sent `{"c": "time", "hub": <unix ms>}` the offset hub - uptime is known and every
event, including those buffered before the sync, is published with its true hub time. An event that is
published before any sync keeps its uptime stamp and carries `u: 1` (see
`protocol.encode_event(synced=False)`); the hub places it with the (device, boot) it belongs to.

`ticks_ms` wraps (on an ESP32 every 2**30 ms, about 12.4 days), so the uptime is accumulated from
`ticks_diff` steps; it only has to be read at least once every ~6 days, which the telemetry loop does.
"""

import asyncio

from firmware.compat import ticks_diff, ticks_ms
from luza_wire import node_events


class Clock:
    """Uptime (ms) from a ticks source, and hub time once synced.

    `ticks` is a function returning wrapping ms ticks (default `time.ticks_ms`); `speed` > 1 makes
    `sleep_ms` shorter in wall time, for a virtual clock whose ticks run faster than real time.
    """

    def __init__(self, ticks=None, speed=1):
        self._ticks = ticks or ticks_ms
        self._last = self._ticks()
        self._up = 0
        self.speed = speed
        self.offset = None  # hub ms minus uptime ms; None until the first time exchange
        self.syncs = 0
        self.last_adjust = 0  # ms the offset moved at the last sync (clock drift or a hub clock step)

    def uptime(self):
        """Monotonic ms since this clock started; never wraps."""
        now = self._ticks()
        step = ticks_diff(now, self._last)
        if step > 0:
            self._up += step
            self._last = now
        return self._up

    @property
    def synced(self):
        return self.offset is not None

    def sync(self, hub_ms, up=None):
        """Take the hub's time `hub_ms` (Unix ms) as true now (or at uptime `up`).
        Returns the adjustment in ms.

        The latest exchange wins: the hub is the authority, and its message crosses the LAN in milliseconds.
        """
        if up is None:
            up = self.uptime()
        offset = int(hub_ms) - up
        self.last_adjust = 0 if self.offset is None else offset - self.offset
        self.offset = offset
        self.syncs += 1
        return self.last_adjust

    def stamp(self, up):
        """(t, synced) for an instant recorded at uptime `up`: hub ms if synced, else the uptime itself."""
        if self.offset is None:
            return up, False
        return up + self.offset, True

    def now(self):
        """(t, synced) for now."""
        return self.stamp(self.uptime())

    def restamp(self, payload, boot):
        """An `evt` payload with its time moved onto the hub clock, if it was recorded unsynced in this boot
        (`node_events.restamp_event`). Payloads from earlier boots keep their uptime stamp: that boot's offset
        is not known here."""
        return node_events.restamp_event(payload, boot, self.offset)

    async def sleep_ms(self, ms):
        """Sleep `ms` of this clock's time (a fast virtual clock still sleeps >= 1 ms
        of wall time: no spinning)."""
        wall = ms / self.speed / 1000
        if self.speed > 1 and wall < 0.001:
            wall = 0.001
        await asyncio.sleep(wall)
