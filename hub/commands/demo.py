"""`luza demo`: the appliance on one machine with no hardware (private broker, virtual table, hub)."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

DEMO_VARIANTS = ("free", "combined", "dynamic", "classic", "hundred", "star")


def register(sub: Any) -> None:
    p = sub.add_parser("demo", help="run the whole appliance with a virtual table (no hardware, no broker to start)",
                       description="A private Mosquitto, virtual pocket and cue nodes running the real firmware "
                                   "logic, the hub and the rules engine play a match; the scoreboard is printed. / "
                                   "Демонстрация: виртуальный стол, хаб и правила играют партию.")
    p.add_argument("--variant", default="free",
                   choices=DEMO_VARIANTS,
                   help="game variant (default: free); in Classic and 100 points a scripted referee calls ball "
                        "and pocket before each shot and names the balls, in Star the players pot their colours")
    p.add_argument("--speed", type=float, default=4.0, help="virtual time per wall time (default 4: a brisk match)")
    p.add_argument("--seed", type=int, help="seed of the scripted players (default: random)")
    p.add_argument("--workdir", help="keep the broker, store and node files here (default: a temp folder)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    from hub.demo import run_demo  # late import: `luza --help` stays light

    try:
        result = run_demo(args.variant, args.speed, args.seed, args.workdir)
    except RuntimeError as exc:  # e.g. Mosquitto missing: say what to do, no stack trace
        print(f"luza demo: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("luza demo: stopped / остановлено", file=sys.stderr)
        return 130
    if not result.over:
        print(f"luza demo: {result.problem or f'the match did not finish in {result.shots} shots'} / "
              "партия не доиграна", file=sys.stderr)
        return 1
    print(f"match over after {result.shots} shots / партия окончена после {result.shots} ударов")
    return 0
