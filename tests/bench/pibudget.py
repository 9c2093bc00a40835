"""Run the hub under a Raspberry Pi-class CPU budget: a quarter of one core (`--pi-budget` in the hub and
board benches, docs/performance.md).

A Pi 4 core is several times slower than this machine's, and the hub shares the Pi with Mosquitto and the
kiosk's Chromium, so a quarter of one of these cores is a fair stand-in. Three ways, the first that works:

1. cgroup v2 (`cpu.max` = "25000 100000", a quarter of each period: `--pi-period-ms` sets the period) in a
   child group of the unified hierarchy;
2. cgroup v1 (`cpu.cfs_quota_us` = 25000 of `cpu.cfs_period_us` = 100000) under the `cpu` controller;
3. no writable cgroup: the process is pinned with `sched_setaffinity` to one core beside a CPU-burning process
   pinned to the same core (half a core, then, not a quarter: said in the label).

The process's children (none today) would follow it into the group. The group is removed on exit.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
from collections.abc import Iterator
from pathlib import Path

PERIOD_US = 100_000
SHARE = 0.25  # of one core
_V2_ROOTS = (Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup"))
_V1_ROOT = Path("/sys/fs/cgroup/cpu")


def _v2_group(name: str, period_us: int) -> Path | None:
    for root in _V2_ROOTS:
        if not (root / "cgroup.procs").exists() or not (root / "cgroup.subtree_control").exists():
            continue
        try:
            if "cpu" not in (root / "cgroup.subtree_control").read_text().split():
                (root / "cgroup.subtree_control").write_text("+cpu")
            group = root / name
            group.mkdir(exist_ok=True)
            (group / "cpu.max").write_text(f"{int(period_us * SHARE)} {period_us}")
            return group
        except OSError:
            continue
    return None


def _v1_group(name: str, period_us: int) -> Path | None:
    if not (_V1_ROOT / "cpu.cfs_quota_us").exists():
        return None
    try:
        group = _V1_ROOT / name
        group.mkdir(exist_ok=True)
        (group / "cpu.cfs_period_us").write_text(str(period_us))
        (group / "cpu.cfs_quota_us").write_text(str(int(period_us * SHARE)))
        return group
    except OSError:
        return None


def _burn(core: int, stop: mp.synchronize.Event) -> None:
    os.sched_setaffinity(0, {core})
    while not stop.is_set():
        sum(range(10_000))


@contextlib.contextmanager
def pi_budget(pid: int, period_ms: float = PERIOD_US / 1000) -> Iterator[str]:
    """Hold process `pid` to a quarter of one core while the block runs; yields a label saying how. The
    quota is a quarter of each `period_ms`: with the kernel's default 100 ms the hub may run 25 ms and then
    wait up to 75 ms, a stall no Pi has; a shorter period spreads the same quarter finer (more nearly a
    slower CPU)."""
    name = f"luza-pi-budget-{os.getpid()}"
    period_us = int(period_ms * 1000)
    group = _v2_group(name, period_us) or _v1_group(name, period_us)
    if group is not None:
        (group / "cgroup.procs").write_text(str(pid))
        try:
            yield f"cgroup quota {SHARE:g} of one core per {period_us / 1000:g} ms ({group})"
        finally:
            parent = group.parent / "cgroup.procs"
            with contextlib.suppress(OSError):
                for line in (group / "cgroup.procs").read_text().split():
                    parent.write_text(line)  # back to the parent group before the group can go
            with contextlib.suppress(OSError):
                group.rmdir()
        return
    core = max(os.sched_getaffinity(0))
    os.sched_setaffinity(pid, {core})
    stop = mp.Event()
    burner = mp.Process(target=_burn, args=(core, stop), daemon=True)
    burner.start()
    try:
        yield f"pinned to core {core} beside a CPU burner (no writable cgroup: about half a core)"
    finally:
        stop.set()
        burner.join(5)
