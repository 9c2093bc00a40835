"""`luza demo`: the appliance on one machine with no hardware: a private locked-down broker, a virtual table,
the hub and the web app (wall board, referee panel, club view, overlay) playing match after match until Ctrl-C
or SIGTERM, which both finish the shot in play, stop everything the demo started
(its broker last) and exit 0."""

from __future__ import annotations

import argparse
import contextlib
import logging
import signal
import sys
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the demo itself is imported late: `luza --help` stays light
    from shared_rules.race_rules import HandicapJSON, RaceRulesJSON


def demo_variants() -> tuple[str, ...]:
    """Every variant the rules engine registers, in its order: the demo plays any of them."""
    from shared_rules import VARIANTS  # late import: `luza --help` stays light

    return tuple(VARIANTS)


def variants(text: str) -> list[str]:
    """'all', one variant, or a comma-separated list -> the variants to cycle through."""
    known = demo_variants()
    names = list(known) if text == "all" else [v.strip() for v in text.split(",") if v.strip()]
    bad = [v for v in names if v not in known]
    if bad or not names:
        raise argparse.ArgumentTypeError(
            f"unknown variant {', '.join(bad) or text!r}: choose from "
            f"{', '.join(known)} or all / неизвестный вариант"
        )
    return names


def handicap(text: str) -> HandicapJSON:
    """`--handicap KIND:N[:SEAT]` -> the race's handicap (checked by the rules engine)."""
    from shared_rules.errors import RulesError
    from shared_rules.race_rules import Handicap

    try:
        return Handicap.parse(text).to_dict()
    except RulesError as exc:
        raise argparse.ArgumentTypeError(f"{exc.en} / {exc.ru}") from None


def race_of(args: argparse.Namespace) -> RaceRulesJSON | None:
    """The race each demo match is (None: a single frame with no handicap, as before races)."""
    from shared_rules.errors import RulesError
    from shared_rules.race_rules import RaceRules

    raw = {
        "race_to": getattr(args, "race", 1),
        "break_rule": getattr(args, "break_rule", "alternate"),
        "handicap": getattr(args, "handicap", None),
    }
    if getattr(args, "time_limit", None):
        raw["time_limit_min"] = args.time_limit
        raw["time_rule"] = getattr(args, "time_rule", "finish_frame")
    try:
        rules = RaceRules.from_dict(raw)
    except RulesError as exc:
        raise SystemExit(f"luza demo: {exc.en} / {exc.ru}") from None
    return None if rules.plain else rules.to_dict()


def shot_clock(text: str) -> dict[str, int]:
    """`--shot-clock SECONDS[:EXTENSIONS]` -> the match's shot clock
    (checked by the hub, hub/vocab/new_match.py)."""
    parts = text.split(":")
    try:
        limit, extensions = int(parts[0]), int(parts[1]) if len(parts) > 1 else 1
    except (ValueError, IndexError):
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected SECONDS[:EXTENSIONS], e.g. 45:1 / нужно СЕКУНД[:ПРОДЛЕНИЙ], напр. 45:1"
        ) from None
    if len(parts) > 2 or not 5 <= limit <= 600 or not 0 <= extensions <= 10:
        raise argparse.ArgumentTypeError(
            f"{text!r}: seconds 5..600, extensions 0..10 / секунд 5..600, продлений 0..10"
        )
    return {"limit_s": limit, "extensions": extensions}


def register(sub: Any) -> None:
    p = sub.add_parser(
        "demo",
        help="run the whole appliance with a virtual table (no hardware, no broker to start)",
        description="A private Mosquitto, virtual pocket and cue nodes running the real firmware "
        "logic, the hub, the rules engine and the web app: open the printed URLs for "
        "the wall board and the referee panel. / Демонстрация: виртуальный стол, хаб, "
        "правила и веб-табло; откройте напечатанные адреса.",
    )
    p.add_argument(
        "--variant",
        default="all",
        type=variants,
        help="variant, comma-separated variants, or all (default: all, one after another); in Classic "
        "and 100 points the scripted referee calls ball and pocket before each shot",
    )
    p.add_argument(
        "--port", type=int, default=8000, help="web port on --host (default 8000; 0: any free port)"
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to serve on (default 127.0.0.1; 0.0.0.0 to let a "
        "tablet on the same network open the panel)",
    )
    p.add_argument(
        "--matches", type=int, default=0, help="stop after this many matches (default 0: until Ctrl-C)"
    )
    p.add_argument(
        "--speed", type=float, help="virtual time per wall time (default 2 on the web, 4 in the terminal)"
    )
    p.add_argument("--seed", type=int, help="seed of the scripted players (default: random)")
    p.add_argument("--workdir", help="keep the broker, store and node files here (default: a temp folder)")
    p.add_argument(
        "--race",
        type=int,
        default=1,
        metavar="N",
        help="each match is a race to N frames (default 1: one frame) / встреча до N побед",
    )
    p.add_argument(
        "--break-rule",
        default="alternate",
        choices=("alternate", "loser", "winner"),
        help="who breaks the frames after the first: alternate (general 11, the default), the loser or "
        "the winner of the previous frame (general A-G4)",
    )
    p.add_argument(
        "--handicap",
        type=handicap,
        metavar="KIND:N[:SEAT]",
        help="handicap (general A-G5): points:N or balls:N in every frame, or frames:N, for seat 0 or 1 "
        "(default 1), e.g. balls:2 / фора, напр. balls:2:1",
    )
    p.add_argument(
        "--time-limit",
        type=int,
        metavar="MINUTES",
        help="the match's time limit (general A-G6), counted down on the screens / "
        "лимит времени встречи, мин",
    )
    p.add_argument(
        "--time-rule",
        default="finish_frame",
        choices=("finish_frame", "referee"),
        help="when the time is up: finish the frame in play, then the leader in frames wins (the "
        "default), or the referee decides (general A-G6)",
    )
    p.add_argument(
        "--shot-clock",
        type=shot_clock,
        metavar="SECONDS[:EXTENSIONS]",
        help="run the shot clock from the sensors: seconds per shot and extensions per player per frame "
        "(default 1), e.g. 45:1 / часы на удар, напр. 45:1",
    )
    p.add_argument(
        "--terminal",
        action="store_true",
        help="no web app: play one match of the first variant and print the scoreboard",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
    )
    chosen = args.variant if isinstance(args.variant, list) else variants(args.variant)
    if getattr(args, "terminal", True):
        return _terminal(args, chosen[0])
    return _web(args, chosen)


def _terminal(args: argparse.Namespace, variant: str) -> int:
    from hub.demo.terminal import run_demo  # late import: `luza --help` stays light

    stop = threading.Event()
    try:
        with _stopping(stop):
            result = run_demo(
                variant,
                args.speed or 4.0,
                args.seed,
                args.workdir,
                stop=stop,
                race=race_of(args),
                shot_clock=getattr(args, "shot_clock", None),
            )
    except RuntimeError as exc:  # e.g. Mosquitto missing: say what to do, no stack trace
        print(f"luza demo: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("luza demo: stopped / остановлено", file=sys.stderr)
        return 130
    if stop.is_set() and not result.over:
        print("luza demo: stopped / остановлено", file=sys.stderr)
        return 0
    if not result.over:
        print(
            f"luza demo: {result.problem or f'the match did not finish in {result.shots} shots'} / "
            "партия не доиграна",
            file=sys.stderr,
        )
        return 1
    if result.frames is not None and race_of(args) is not None:
        print(f"frames / партии {result.frames[0]}:{result.frames[1]}, won by seat {result.winner}")
    print(f"match over after {result.shots} shots / партия окончена после {result.shots} ударов")
    return 0


@contextlib.contextmanager
def _stopping(stop: threading.Event) -> Iterator[None]:
    """Ctrl-C (SIGINT) and SIGTERM (a service manager, `kill`) alike: the first sets `stop` (the demo finishes
    the shot in play and shuts down in order: virtual table, web server, hub, then its broker), a second one
    stops at once (KeyboardInterrupt: the same shutdown, without waiting for the shot)."""

    def on_signal(signum: int, frame: object) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        print("luza demo: stopping after this shot... / останавливаюсь...", file=sys.stderr)
        stop.set()

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _web(args: argparse.Namespace, chosen: list[str]) -> int:
    from hub.demo.web import run_web_demo

    stop = threading.Event()
    try:
        with _stopping(stop):
            result = run_web_demo(
                chosen,
                args.speed or 2.0,
                args.seed,
                args.workdir,
                args.host,
                args.port,
                args.matches,
                stop=stop,
                race=race_of(args),
                shot_clock=getattr(args, "shot_clock", None),
            )
    except RuntimeError as exc:  # Mosquitto missing, the port taken: one line that says what to do
        hint = f" (try --port {args.port + 1})" if "listen" in str(exc) else ""
        print(f"luza demo: {exc}{hint}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("luza demo: stopped / остановлено", file=sys.stderr)
        return 130
    for variant, winner, scores, shots in result.matches:
        print(f"{variant}: {scores[0]}:{scores[1]}, won by seat {winner} after {shots} shots")
    if result.problem:
        print(f"luza demo: {result.problem} / партия не доиграна", file=sys.stderr)
        return 1
    return 0
