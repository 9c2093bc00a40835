"""systemd's notify protocol for `luza serve`: READY once the hub runs,
then the watchdog fed while it is healthy.

The unit (luza-hub.service) is `Type=notify` with `WatchdogSec=`: systemd restarts the hub if the pings
stop. They stop when the hub's worker thread has died, or has had work waiting without committing anything
for a whole watchdog period (a hung store): exactly the states a restart cures. Without `NOTIFY_SOCKET` (run
by hand, tests) everything here does nothing. No dependency: one datagram per message on a Unix socket.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from typing import Any

log = logging.getLogger("luza.watchdog")


def notify(message: str, env: dict[str, str] | None = None) -> bool:
    """Send one `KEY=value` line to systemd; False if not run by systemd (or the socket is gone)."""
    path = (env if env is not None else os.environ).get("NOTIFY_SOCKET", "")
    if not path:
        return False
    addr = "\0" + path[1:] if path.startswith("@") else path  # '@': the abstract namespace
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
            s.sendto(message.encode(), addr)
    except OSError as exc:
        log.warning("cannot notify systemd at %s: %s", path, exc)
        return False
    return True


def watchdog_interval(env: dict[str, str] | None = None) -> float | None:
    """Half the unit's WatchdogSec (seconds), or None when there is no watchdog for this process."""
    e = env if env is not None else os.environ
    usec, pid = e.get("WATCHDOG_USEC", ""), e.get("WATCHDOG_PID", "")
    if not usec.isdigit() or (pid.isdigit() and int(pid) != os.getpid()):
        return None
    return int(usec) / 2e6


def healthy(hub: Any, last_batches: int) -> tuple[bool, int]:
    """(is the hub healthy, its commit count now): its worker is alive, and it is idle or has committed since
    the last look."""
    worker = getattr(hub, "_worker", None)
    batches = int(hub.stats.get("batches", 0))
    if worker is None or not worker.is_alive():
        return False, batches
    return (batches != last_batches or hub.wait_idle(0.05)), batches


class Watchdog:
    """Tells systemd the hub is ready, then pings it every half watchdog period while `healthy`."""

    def __init__(self, hub: Any, env: dict[str, str] | None = None) -> None:
        self.hub = hub
        self.env = env
        self.interval = watchdog_interval(env)
        self.pings = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Watchdog:
        notify("READY=1", self.env)
        if self.interval:
            self._thread = threading.Thread(target=self._run, name="luza watchdog", daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        assert self.interval is not None
        batches = -1
        while not self._stop.wait(self.interval):
            ok, batches = healthy(self.hub, batches)
            if ok:
                self.pings += notify("WATCHDOG=1", self.env)
            else:
                log.error(
                    "the hub's worker is stuck or dead: not feeding the watchdog, systemd will restart us"
                )

    def stop(self) -> None:
        notify("STOPPING=1", self.env)
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
