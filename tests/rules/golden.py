"""Golden recorded matches: logs with the scoreboard they must fold to
(python-chess replays golden games too).

`python -m tests.rules.golden --write` records one seeded random match per variant in the list below into
tests/rules/golden/<variant>-<seed>.json. Rewrite only when a rule is meant to change,
and say so in the commit.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from hub.view.engine import engine_summary
from tests.rules.strategies import play_random

FOLDER = Path(__file__).resolve().parent / "golden"
RECORD = [
    ("free", 7),
    ("free", 11),
    ("combined", 7),
    ("combined", 12),
    ("dynamic", 7),
    ("dynamic", 13),
    ("star", 7),
    ("star", 12),
    ("classic", 4),
    ("classic", 11),
    ("hundred", 7),
    ("hundred", 23),
]


def write() -> None:
    FOLDER.mkdir(exist_ok=True)
    for variant, seed in RECORD:
        m = play_random(variant, random.Random(seed))
        body = {"log": m.to_log(), "summary": engine_summary(m)}
        (FOLDER / f"{variant}-{seed}.json").write_text(
            json.dumps(body, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        print(f"{variant}-{seed}: {len(m.history)} inputs, scores {m.state.scores}, winner {m.state.winner}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.rules.golden --write")
    write()
