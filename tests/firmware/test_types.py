"""Type check of firmware/ against the MicroPython ESP32 stubs (mypy), and proof that it catches errors."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STUBS = ROOT / ".stubs"
CONFIG = ROOT / "tests" / "firmware" / "mypy-firmware.ini"


def mypy(root: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    if not (STUBS / "machine.pyi").is_file():
        pytest.skip("ESP32 stubs missing: scripts/setup --dev installs micropython-esp32-stubs into .stubs/")
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(CONFIG), "--cache-dir", str(cache), "firmware"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        env={"MYPYPATH": str(STUBS), "PATH": "/usr/bin:/bin"},
    )


def test_firmware_type_checks_against_esp32_stubs(tmp_path):
    result = mypy(ROOT, tmp_path / "cache")
    assert result.returncode == 0, result.stdout + result.stderr


def test_planted_errors_are_caught(tmp_path):
    work = tmp_path / "repo"
    shutil.copytree(ROOT / "firmware", work / "firmware", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "luza_wire", work / "luza_wire", ignore=shutil.ignore_patterns("__pycache__"))
    with open(work / "firmware" / "pocket.py", "a") as f:
        f.write("\n\ndef _planted(b):\n    return ticks_diff(b)  # one argument short\n")
    with open(work / "firmware" / "drivers" / "beams.py", "a") as f:
        f.write("\n\ndef _planted():\n    Pin(4).no_such_method()  # not in the ESP32 stubs\n")
    result = mypy(work, tmp_path / "cache")
    assert result.returncode == 1
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 2, result.stdout
    assert errors[1].startswith("firmware/pocket.py:") and "ticks_diff" in errors[1], result.stdout
    assert (
        "firmware/drivers/beams.py" in result.stdout
        and '"Pin" has no attribute "no_such_method"' in result.stdout
    )
