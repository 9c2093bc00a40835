"""The cue role's node app on the real MicroPython gives the same results as on CPython (cue_scenario.py)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.firmware import cue_scenario, mp

HERE = Path(__file__).parent

EXPECTED = {
    # kind, seq, double, gap given, peak >= 7 g
    "events": [
        ["strike", 1, False, False, True],
        ["strike", 2, True, True, True],
        ["strike", 3, False, False, True],
        ["strike", 4, False, False, True],
    ],
    "strikes": 4,
    "doubles": 1,
    "knocks": 1,
    "slept": True,
    "downs": 1,
    "tele": [4, 1, 1, 3.9, True],  # strikes, doubles, knocks, battery volts, slept
}


def test_cue_scenario_on_cpython(tmp_path: Path) -> None:
    assert asyncio.run(cue_scenario.scenario(str(tmp_path))) == EXPECTED


@pytest.mark.micropython
def test_cue_scenario_identical_under_real_micropython() -> None:
    mp.require()
    code = "import json, cue_scenario\nr = await cue_scenario.scenario('/n')\nprint(json.dumps(r))"
    extra = {
        "cue_scenario.py": (HERE / "cue_scenario.py").read_text(),
        "node_scenario.py": (HERE / "node_scenario.py").read_text(),
    }
    got = mp.run_json(code, mp.FIRMWARE, extra=extra, async_=True)
    assert got == json.loads(json.dumps(EXPECTED))
