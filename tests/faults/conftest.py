"""Fixtures of the fault scenarios: an in-process hub on a virtual table's clock, and the baseline of a script
(the same match, same seed, played through a real Mosquitto without any fault), computed once per session."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.service.hub import Hub
from tests.faults.match import engine_part, engine_score, events_made, prepare, run_table, score
from tests.faults.match import script as make_script
from tests.support.broker import Mosquitto
from tests.support.hubs import hub_starter

Baseline = Callable[..., dict[str, Any]]


def wait_stored(hub: Hub, n: int, timeout: float = 20.0) -> None:
    """Wait until the hub has accepted `n` sensor events and applied everything it received."""
    import time

    deadline = time.monotonic() + timeout
    while hub.stats["accepted"] < n:
        assert time.monotonic() < deadline, f"the hub accepted {hub.stats['accepted']} of {n} events"
        time.sleep(0.02)
    assert hub.wait_idle(timeout)


def play_baseline(workdir: Path, seed: int, shots: int) -> dict[str, Any]:
    """The script of `seed` through a fresh broker and hub, no fault:
    the final score every fault run must match."""
    broker = Mosquitto(workdir / "broker").start()
    try:
        with hub_starter() as start:
            sc = prepare(broker, workdir, seed, start, client_id="luza-hub-baseline")
            steps = make_script(seed, shots)
            run_table(sc.table, steps)
            wait_stored(sc.hub, events_made(sc.table))
            board = sc.hub.state("t1")["match"]
            assert engine_part(board) == engine_score(steps), (  # what the hub saw, to tell a timing cause
                "the faultless run disagrees with the rules engine: "
                f"stats {dict(sc.hub.stats)}, alerts {[a.get('kind') for a in board.get('alerts', [])]}, "
                f"shots {board.get('shot_count')} of {len(steps)}, history {board.get('history')}"
            )
            return json.loads(json.dumps(score(board)))
    finally:
        broker.stop()


@pytest.fixture(scope="session")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Baseline]:
    """`baseline(seed, shots=10)`: the final score of `script(seed,
    shots)` played without a fault (cached)."""
    cache: dict[tuple[int, int], dict[str, Any]] = {}

    def get(seed: int, shots: int = 10) -> dict[str, Any]:
        if (seed, shots) not in cache:
            cache[seed, shots] = play_baseline(tmp_path_factory.mktemp(f"baseline-{seed}"), seed, shots)
        return cache[seed, shots]

    yield get


@pytest.fixture
def hubs() -> Iterator[Callable[..., Hub]]:
    """Start in-process hubs with `hubs(cfg, clock=...)`; each one still running is stopped at the end."""
    with hub_starter() as start:
        yield start
