"""`luza firmware build|flash|push`: compile the firmware with mpy-cross,
copy it with mpremote, update over the air.

build: the device's layout, compiled (hub/ota/build.py: every file with mpy-cross, firmware/loader.py as the
root main.py); `--source` keeps the .py files instead (a build that CPython can run too: the virtual devices
of the tests). flash: validates node.json with firmware.config.validate, builds, then runs mpremote to copy
the build and the config (as /config.json) and reset the node. push: asks the running hub, over its control
socket, to update nodes over the air (hub/ota/control.py). See docs/firmware.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TypedDict

from hub.config import NodeSettings
from hub.ota.build import FirmwareError, build

DEFAULT_OUT = Path("build/firmware")


def load_node_config(path: Path) -> NodeSettings:
    """node.json merged over the firmware DEFAULTS (the type holds once `validate` found no problem);
    FirmwareError listing every problem."""
    from firmware import config

    try:
        site = json.loads(path.read_text())
    except FileNotFoundError as exc:
        raise FirmwareError(f"{path}: file not found (pass --config with the node's settings)") from exc
    except ValueError as exc:
        raise FirmwareError(f"{path}: not valid JSON ({exc})") from exc
    if not isinstance(site, dict):
        raise FirmwareError(f"{path}: must hold a JSON object {{...}}")
    merged: NodeSettings = config.merge(config.DEFAULTS, site)
    errors = config.validate(merged)
    if errors:
        raise FirmwareError(f"{path}: {len(errors)} problem(s):\n" + "\n".join("  " + e for e in errors))
    return merged


# Run on the node after the copy: it forgets an over-the-air build it had committed (/ota/state names it), so
# the build just copied over USB is the one that runs (firmware/loader.py runs the committed slot). One line,
# no error when the node never had an update.
FORGET_OTA = (
    "import os; os.remove('/ota/state') if 'ota' in os.listdir('/') and 'state' in os.listdir('/ota') else 0"
)


def flash_commands(port: str, build_dir: Path, config_path: Path, mpremote: str = "mpremote") -> list[str]:
    """The one mpremote command line that copies the build and the config,
    forgets an update, resets the node."""
    return [
        mpremote, "connect", port,
        "fs", "cp", "-r", str(build_dir / "firmware"), str(build_dir / "luza_wire"), ":",
        "+", "fs", "cp", str(build_dir / "main.py"), ":main.py",
        "+", "fs", "cp", str(config_path), ":config.json",
        "+", "exec", FORGET_OTA,
        "+", "reset",
    ]  # fmt: skip


def _cmd_build(args: argparse.Namespace) -> int:
    try:
        build(Path(args.out), source=args.source)
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
                f"serial port {args.port} not found: plug the node in, "
                "then see `ls /dev/ttyUSB* /dev/ttyACM*`"
            )
        if mpremote is None:
            raise FirmwareError("mpremote is not installed: pip install luza[device]")
    out = Path(args.out)
    build(out)
    if not (out / "main.py").is_file():
        raise FirmwareError(
            "the build has no main.py (firmware/loader.py is missing): nothing would start on boot"
        )
    return flash_commands(args.port, out, Path(args.config), mpremote or "mpremote")


CONTROL = "/run/luza/control.sock"  # where the Pi's hub listens (hub/deploy/units.py)


class OtaPush(TypedDict, total=False):
    """The control socket's `ota` request (hub/ota/control.py): one of devices, table or all; a release, or
    a config change."""

    devices: list[str]
    table: str
    all: bool
    release: str
    config: object  # the change file's JSON as read: the hub checks it (firmware/config.py validate)


def _cmd_push(args: argparse.Namespace) -> int:
    """`luza firmware push`: ask the running hub to update nodes over the air (hub.ota.control)."""
    from hub.service.control import request

    req = (
        OtaPush(devices=args.device)
        if args.device
        else OtaPush(table=args.table)
        if args.table
        else OtaPush(all=True)
    )
    if args.release:
        req["release"] = args.release
    if args.config:
        try:
            req["config"] = json.loads(Path(args.config).read_text())
        except (OSError, ValueError) as exc:
            print(
                f"firmware push: {args.config}: {exc} / не удалось прочитать изменение настроек",
                file=sys.stderr,
            )
            return 2
    try:
        answer = request(args.control, {"ota": req}, timeout=args.timeout)
    except (OSError, ValueError) as exc:
        print(
            f"firmware push: no answer from the hub at {args.control}: {exc} / хаб не отвечает "
            "(is `luza serve --control` running? / запущен ли хаб?)",
            file=sys.stderr,
        )
        return 1
    err = answer.get("error")
    if not answer.get("results") and isinstance(err, dict):
        print(f"firmware push: {err.get('en')} / {err.get('ru')}", file=sys.stderr)
        return 2
    for r in answer.get("results", []):
        mark = "sent" if r.get("ok") else "refused"
        print(
            f"{r.get('device')}: {mark}: {r.get('en')} / {r.get('ru')}",
            file=sys.stdout if r.get("ok") else sys.stderr,
        )
    return 0 if answer.get("ok") else 2


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add `luza firmware build|flash|push`."""
    p = subparsers.add_parser("firmware", help="build the node firmware (.mpy) and flash it to an ESP32")
    sub = p.add_subparsers(dest="firmware_command", metavar="ACTION", required=True)
    b = sub.add_parser("build", help="compile every firmware file with mpy-cross")
    b.add_argument("--out", default=str(DEFAULT_OUT), help="build folder (default: build/firmware)")
    b.add_argument("--source", action="store_true", help="keep .py files (no mpy-cross): runs on CPython too")
    b.set_defaults(func=_cmd_build)
    f = sub.add_parser(
        "flash", help="validate node.json, build, copy build + config to the node with mpremote"
    )
    f.add_argument("--port", required=True, help="the node's serial port, e.g. /dev/ttyUSB0")
    f.add_argument(
        "--config", required=True, help="the node's settings (JSON, see firmware/config.py DEFAULTS)"
    )
    f.add_argument("--out", default=str(DEFAULT_OUT), help="build folder (default: build/firmware)")
    f.add_argument(
        "--dry-run", action="store_true", help="validate and build, print the mpremote command only"
    )
    f.set_defaults(func=_cmd_flash)
    u = sub.add_parser(
        "push",
        help="update nodes over the air (between matches; they roll back by themselves)",
        description="Send nodes a new build (the hub's own firmware, or --release) or a config change "
        "(--config) over the air, through the running hub. Refused for a table with a "
        "match in play. Exit 0 if every node took it, 2 if any was refused, 1 if no hub "
        "answers. / Обновить узлы по сети (между партиями).",
    )
    who = u.add_mutually_exclusive_group(required=True)
    who.add_argument("--device", action="append", metavar="ID", help="a node (repeat for more)")
    who.add_argument("--table", metavar="ID", help="every node of a table")
    who.add_argument("--all", action="store_true", help="every node in luza.toml")
    u.add_argument(
        "--release",
        metavar="ID",
        help="a release the hub keeps (GET /api/ota); default: the hub's own firmware, built once",
    )
    u.add_argument(
        "--config",
        metavar="CHANGE.json",
        help='instead of a build: settings to change on the node(s), e.g. {"beam": {"jam_ms": 1500}}',
    )
    u.add_argument(
        "--control", default=CONTROL, metavar="PATH", help=f"the hub's control socket (default {CONTROL})"
    )
    u.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        help="seconds to wait for the hub (a first build takes a while)",
    )
    u.set_defaults(func=_cmd_push)
