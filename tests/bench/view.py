"""The typed read model's cost: `python -m tests.bench.view [--rounds 40]` (prints, never asserts).

Every variant's busiest scenes (tests/dashboard/scenes.py: 12 live tables and two more on a real Hub, no
broker) are made into a table's state again and again, as the hub does after each commit that touches a table:
the view built from the session, the registry and the alerts (`Router.table_state`,
hub.view.build.table_view), then stamped and written as JSON once (`Hub._change`). Per state: the best round's
mean, and p50/p99 of single states.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from hub.service.hub import Hub
from tests.dashboard.scenes import Clock, Scenes, scene_config, table_ids


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=40)
    args = ap.parse_args()
    clock = Clock()
    hub = Hub(scene_config(Path(tempfile.mkdtemp()) / "luza.db"), clock=clock, mqtt=False).start()
    try:
        Scenes(hub, clock).play_all()
        hub.wait_idle(10)
        router = hub._router
        assert router is not None
        tables = [t for t in table_ids() if t in router.matches.live]
        singles: list[float] = []
        best = float("inf")
        for _ in range(args.rounds):
            start = time.perf_counter()
            for t in tables:
                t0 = time.perf_counter()
                hub._states.stamp(t, router.table_state(t))
                singles.append((time.perf_counter() - t0) * 1e3)
            best = min(best, (time.perf_counter() - start) * 1e3 / len(tables))
        singles.sort()
        size = sum(len(str(hub.state(t))) for t in tables) / len(tables)
        print(f"{len(tables)} live tables x {args.rounds} rounds, a state ~{size / 1000:.1f} K characters")
        print(
            f"one table's state (view + JSON): best round {best:.3f} ms per state, "
            f"p50 {singles[len(singles) // 2]:.3f} ms, p99 {singles[int(len(singles) * 0.99)]:.3f} ms"
        )
    finally:
        hub.stop()


if __name__ == "__main__":
    main()
