"""The detector loop keeps turning while the broker stalls and while the Wi-Fi is gone (gap_scenario.py), with
the device's MQTT client, on CPython and the real MicroPython. The wall-clock gaps are printed: on a quiet
machine they are a few ms; the assertion only proves no turn waited for the
network (its deadlines are 1 s)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.firmware import gap_scenario, mp

HERE = Path(__file__).parent
NO_WAIT_MS = 800  # below the client's 1 s deadlines (a turn that waited for the broker), above preemption


def check(r: dict) -> None:
    print("loop gap ms:", json.dumps({"broker_stall": r["stall_ms"], "wifi_outage": r["wifi_ms"]}))
    assert r["seqs"] == [1, 2, 3] and r["downs"] == 2 and r["connects"], r
    assert r["stall_turns"] and r["wifi_turns"], r  # the loop turned all along
    assert r["stall_ms"] < NO_WAIT_MS and r["wifi_ms"] < NO_WAIT_MS, r


def test_loop_gap_on_cpython(tmp_path: Path) -> None:
    check(asyncio.run(gap_scenario.scenario(str(tmp_path))))


@pytest.mark.micropython
def test_loop_gap_under_real_micropython() -> None:
    mp.require()
    extra = {
        "gap_scenario.py": (HERE / "gap_scenario.py").read_text(),
        "node_scenario.py": (HERE / "node_scenario.py").read_text(),
    }
    code = "import json, gap_scenario\nr = await gap_scenario.scenario('/n')\nprint(json.dumps(r))"
    check(mp.run_json(code, mp.FIRMWARE, extra=extra, async_=True))  # type: ignore[arg-type]
