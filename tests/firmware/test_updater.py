"""The node's update job (firmware/updater.py, firmware/http.py) and the loader (firmware/loader.py) against a
fake hub behind a fake non-blocking socket: identical on CPython and the real MicroPython. CPython runs the
scenario in a process of its own whose sys.path starts at a copy of the device's files, as the device's does,
because the loader swaps the firmware package under its own feet."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILES = 3  # files in the scenario's release (updater_scenario.FILES)
SRC = (Path(__file__).parent / "updater_scenario.py").read_text()
RUN = (
    "import asyncio, json, sys\nsys.path.insert(0, {root!r})\nimport updater_scenario\n"
    "from firmware.loader import run\nprint(json.dumps(asyncio.run(updater_scenario.main({root!r}, run))))\n"
)


@pytest.fixture(scope="module")
def cpython(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("device")
    shutil.copytree(ROOT / "firmware", root / "firmware", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "luza_wire", root / "luza_wire", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "updater_scenario.py").write_text(SRC)
    proc = subprocess.run(
        [sys.executable, "-c", RUN.format(root=str(root))],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_refusals_leave_the_running_build_and_a_good_release_is_staged_swapped_and_kept(
    cpython: dict[str, Any],
) -> None:
    u = cpython["updates"]
    assert u["bad"] == {"st": "refused", "r": "0.2.0-bad", "to": "0.2.0", "err": "hash firmware/node.py"}
    assert u["cut"] == {"st": "refused", "r": "0.2.0-cut", "to": "0.2.0", "err": "http"}
    assert u["missing"] == {"st": "refused", "r": "0.9.9-zz", "to": "", "err": "http 404"}
    assert u["good"] == {"st": "staged", "r": "0.2.0-aa", "to": "0.2.0"}
    assert u["said"][:2] == ["fetch", "refused"] and u["said"][-1] == "staged" and u["auth_failures"] == 0
    assert u["staged_file"] == "VERSION = '0.2.0'\n"
    assert u["swap_other"] is False and u["swap"] == [True, True]
    assert u["trial"] == ["/ota/a", True, {"st": "trial", "r": "0.2.0-aa", "to": "0.2.0"}]
    assert u["kept"] == [{"st": "ok", "r": "0.2.0-aa", "to": "0.2.0"}, "/ota/a", False]
    assert u["second"]["st"] == "staged"
    assert u["selftest"] == [
        {"st": "rolled_back", "r": "0.2.0-aa", "to": "0.2.0", "err": "selftest role"},
        True,
        "/ota/a",
    ]


def test_a_second_fetch_while_one_is_under_way_is_ignored_and_the_download_goes_on(
    cpython: dict[str, Any],
) -> None:
    r = cpython["repeats"]
    # flash still says a download is under way
    assert r["during"] == [True, {"r": "0.2.0-aa", "to": ""}, "fetch"]
    assert r["after"] == {"st": "staged", "r": "0.2.0-aa", "to": "0.2.0"}
    assert r["again"] == r["after"]  # the staged release is not fetched again
    assert r["requests"] == 1 + FILES and r["ignored"] == 3 and r["said"] == []
    assert r["lines"] == [
        "ota: 0.2.0-aa ignored: the download of 0.2.0-aa is under way",
        "ota: 0.2.0-bb ignored: the download of 0.2.0-aa is under way",
        "ota: 0.2.0-aa ignored: already staged, waiting for the hub's go",
    ]


def test_a_config_change_is_validated_merged_tried_and_kept(cpython: dict[str, Any]) -> None:
    c = cpython["config"]
    assert c["bad"]["st"] == "refused" and c["bad"]["err"].startswith("config tele_s:")
    assert c["good"] == {"st": "staged", "r": "cfg-1", "to": "config"} and c["staged"] == [5, "p3"]
    assert c["kept"] == ["", "/ota/config.json", "ok", 5, True]


def test_loader_runs_a_trial_from_its_slot_and_rolls_back_what_was_not_confirmed(
    cpython: dict[str, Any],
) -> None:
    first, trial, rolled, report, crash, after, report2 = cpython["loader"]
    root = first["start"][0][: -len("/config.json")]
    assert first == {"start": [root + "/config.json", "0.1.0"], "reset": True}
    assert trial == {
        "start": [root + "/config.json", "9.9.9"],
        "arm": 120000,
        "reset": True,
        "timer": "reset",
    }
    assert rolled["start"][1] == "0.1.0" and "arm" not in rolled
    assert report == {"st": "rolled_back", "r": "9.9.9-x", "to": "9.9.9", "err": "unconfirmed"}
    assert crash["start"][1] == "9.9.9" and crash["reset"] is True
    assert after["start"][1] == "0.1.0"
    assert report2["err"] == "crash ValueError: bad build"


@pytest.mark.micropython
def test_same_results_under_real_micropython(micropython: Any, cpython: dict[str, Any]) -> None:
    code = (
        "import json, updater_scenario\nfrom firmware.loader import run\n"
        "r = await updater_scenario.main('', run)\nprint(json.dumps(r))"
    )
    got = micropython.run_json(code, micropython.FIRMWARE, extra={"updater_scenario.py": SRC}, async_=True)
    want = json.loads(json.dumps(cpython))
    root = want["loader"][0]["start"][0][: -len("/config.json")]
    assert got == json.loads(json.dumps(want).replace(root, ""))
