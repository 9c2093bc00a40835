"""Where a demo keeps its broker, store and node files (`--workdir`, or a temp folder removed at the end), and
the hub clock that goes on forward from what a store there kept (a demo resumed on the same --workdir)."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from hub.store import files
from hub.virtual.table import VirtualTable


def demo_clock(table: VirtualTable, db: Path) -> Callable[[], int]:
    """The hub's clock: the virtual table's, moved past the latest time a store kept from an earlier run (the
    same --workdir), so a match resumed after a restart goes on forward in time, as on a real hub's clock."""
    last = files.latest_ms(db)  # the hub's timeline at its last commit, or its latest stored time
    offset = max(0, last + 1000 - table.vt.hub_ms())

    def clock() -> int:
        return table.vt.hub_ms() + offset

    return clock


@contextlib.contextmanager
def workspace(path: str | None) -> Iterator[Path]:
    if path:
        p = Path(path)
        p.mkdir(parents=True, exist_ok=True)
        yield p
        return
    tmp = Path(tempfile.mkdtemp(prefix="luza-demo-"))
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
