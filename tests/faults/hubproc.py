"""The hub in a child process that a test can SIGKILL, on the virtual table's clock.

    proc = HubProcess(toml, table.vt)      # starts `python -m tests.faults.hubproc ...`, waits until
    connected proc.kill()                            # SIGKILL: no goodbye, nothing flushed
    proc = HubProcess(toml, table.vt)      # the next hub rebuilds from the log
    proc = HubProcess(toml, table.vt, clock_ms=-15_000)   # ... with its clock 15 s behind (a Pi without RTC)
    proc.stop()                            # SIGTERM: the hub stops as `luza serve` does

The child runs the same `Hub` that `luza serve` runs (store, one-hub-per-database lock, MQTT ingest with its
persistent session, worker), with one difference: its clock is the virtual table's (`VirtualTime.hub_ms`, the
same monotonic origin and speed), so a minute of play takes seconds and the hub's time agrees with the nodes'
— unless `clock_ms` sets it that far off (a hub booted without a real-time clock, or with a wrong NTP answer).
`luza serve` itself is killed in tests/hub/service/test_faults.py on real time.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from hub.virtual.node import VirtualTime

ROOT = Path(__file__).resolve().parents[2]


class HubProcess:
    """A child hub; `lines` collects its log (stderr)."""

    def __init__(self, toml: Path, vt: VirtualTime, timeout: float = 30.0, clock_ms: int = 0) -> None:
        self.lines: list[str] = []
        self._ready = threading.Event()
        self.refused = False
        args = [
            sys.executable,
            "-m",
            "tests.faults.hubproc",
            str(toml),
            repr(vt.ms()),
            repr(time.monotonic()),
            repr(vt.speed),
            str(int(clock_ms)),
        ]
        self.proc = subprocess.Popen(
            args,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        threading.Thread(target=self._read, daemon=True).start()
        if not self._ready.wait(timeout) or (self.proc.poll() is not None and not self.refused):
            self.kill()
            raise AssertionError("the hub process did not start:\n" + "".join(self.lines[-30:]))

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)
            if line.startswith("HUB READY"):
                self._ready.set()
            elif line.startswith("HUB REFUSED"):
                self.refused = True
                self._ready.set()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
        return int(self.proc.returncode)


def main(argv: list[str]) -> int:
    import logging

    from hub import configfile
    from hub.service.hub import Hub

    toml, vt_ms, vt_mono, speed = argv[0], float(argv[1]), float(argv[2]), float(argv[3])
    off = int(argv[4]) if len(argv) > 4 else 0
    vt = VirtualTime(speed=speed, start_ms=vt_ms + (time.monotonic() - vt_mono) * 1000.0 * speed + off)
    logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(levelname)s %(name)s: %(message)s")
    done = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: done.set())
    from hub.errors import InUse

    try:
        hub = Hub(configfile.load(toml), clock=vt.hub_ms).start(connect_timeout=10)
    except InUse as exc:  # a second hub on the same database: refused, as `luza serve` refuses it (exit 3)
        print(f"HUB REFUSED {exc}", flush=True)
        return 3
    print("HUB READY", os.getpid(), flush=True)
    done.wait()
    hub.stop()
    print("HUB STOPPED", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
