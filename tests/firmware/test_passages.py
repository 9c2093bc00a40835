"""The detector over random physical passages (issue 19, item 3; tests/firmware/passages.py): each run's count is
right, or a flag says the referee must look. The full survey (10,000 passages, `python -m tests.firmware.passages`)
is in docs/firmware.md; here a seeded 400 run in the suite.

Where the detector still gives a silent miscount, it is in two places the survey names (balls bouncing back up
from a springy net together, and two or three balls touching on the way down): this test holds the line at the
count measured when it was written (it fails if the detector gets worse) and requires none at all where the
detector's rules already promise it — a dead or stuck receiver, a flickering lamp, a node rebooting mid-passage,
a single ball on an empty net."""

from __future__ import annotations

import random

import pytest

from tests.firmware import passages as ps

SEED, RUNS = 7, 400
SILENT_NOW = 9  # measured on 2026-12-05 (seed 7, 400 runs); issue 19 asks for 0


def test_random_passages_are_counted_right_or_flagged() -> None:
    rng = random.Random(SEED)
    silent: list[str] = []
    promised: list[str] = []
    for _ in range(RUNS):
        p = ps.draw(rng)
        outcome, truth, count, flags = ps.judge(p)
        if outcome != "silent":
            continue
        line = f"truth {truth}, counted {count}, flags {flags}: {p.describe()}"
        silent.append(line)
        kw = dict(p.kw)
        faulty = {"dead", "stuck", "flicker"} & set(kw) or p.boot_ms is not None
        alone = len(p.balls) == 1 and "floor" not in kw
        if faulty or alone:
            promised.append(line)
    assert not promised, "silent miscounts where the detector promises none:\n" + "\n".join(promised)
    assert len(silent) <= SILENT_NOW, f"{len(silent)} silent miscounts (was {SILENT_NOW}):\n" + "\n".join(silent)


def test_the_judge_tells_the_three_outcomes_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """The judge is not blind: one ball counted is `right`; a detector that reports nothing is `silent`, and
    with a flag `flagged`."""
    p = ps.Passage((ps.th.Fall(100, 2.0),), (("end_ms", 1500.0),), None, None)
    assert ps.judge(p)[:3] == ("right", 1, 1)
    counters = {"dropped": 0}
    monkeypatch.setattr(ps.fw_runner, "run_pocket", lambda vec: {"det": [], "counters": counters})
    assert ps.judge(p)[:3] == ("silent", 1, 0)
    monkeypatch.setattr(ps.fw_runner, "run_pocket",
                        lambda vec: {"det": [["flag", 1, 0, 5, 1]], "counters": counters})
    assert ps.judge(p)[0] == "flagged"
