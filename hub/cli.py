"""`luza`: the command line of the appliance. Each subcommand lives in its own module under hub.commands."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from collections.abc import Sequence

# One line per real subcommand; a module has `register(subparsers)` which adds its parser and sets `func`.
COMMAND_MODULES: tuple[str, ...] = (
    "hub.commands.serve",
    "hub.commands.replay",
    "hub.commands.devices",
    "hub.commands.firmware",
    "hub.commands.demo",
    "hub.commands.referee",
    "hub.commands.matches",
    "hub.commands.export",
    "hub.commands.verify",
    "hub.commands.key",
    "hub.commands.backup",
    "hub.commands.provision",
    "hub.commands.calibrate",
    "hub.commands.rotate",
    "hub.commands.pin",
    "hub.commands.players",
    "hub.commands.stats",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="luza",
        description="Luza: referee appliance for Russian billiards (pyramid). "
        "/ Судейский комплекс для пирамиды.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 0
    try:
        return int(func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # one line, never a traceback (hub.errors); LUZA_DEBUG=1 shows the trace
        from hub.errors import describe

        if os.environ.get("LUZA_DEBUG"):
            traceback.print_exc()
        line, code = describe(exc, getattr(args, "db", None))
        print(f"luza {args.command}: {line}", file=sys.stderr)
        return code


if __name__ == "__main__":
    sys.exit(main())
