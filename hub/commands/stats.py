"""`luza stats`: the players' statistics, recomputed from the stored matches (docs/statistics.md).

    luza stats [--player ID] [--csv FILE|-] [--json] [--no-cache]

Without --player: the leaderboard (rating, matches, points, best series, pot rate, shot time). With it: that
player's figures and head-to-head records. --csv writes the leaderboard as CSV ('-': standard output)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from typing_extensions import TypedDict

from hub.commands.history_args import add_db, db_path
from hub.errors import refusal_line
from hub.export.model import ExportError
from hub.stats.shapes import HeadToHead, LeftOut, PlayerFigures

if TYPE_CHECKING:  # the statistics' code is imported when the command runs, not for `luza --help`
    from hub.stats.figures import Figures


class PlayerReport(PlayerFigures):
    """`luza stats --player ID --json`: the player's figures and head-to-head records."""

    head_to_head: list[HeadToHead]


class BoardReport(TypedDict):
    """`luza stats --json`: the leaderboard and the matches left out."""

    players: list[PlayerFigures]
    left_out: list[LeftOut]


def register(sub: Any) -> None:
    p = sub.add_parser(
        "stats",
        help="players' statistics and the leaderboard / статистика игроков",
        description="Statistics recomputed from the stored matches. / Статистика из сохранённых партий.",
    )
    add_db(p)
    p.add_argument("--player", type=int, help="one player's figures and head-to-head records")
    p.add_argument("--csv", metavar="FILE", help="write the leaderboard as CSV ('-': standard output)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument(
        "--no-cache", action="store_true", help="fold every match again (the figures are the same)"
    )
    p.set_defaults(func=run)


def _seconds(ms: int | None) -> str:
    return "-" if ms is None else f"{ms / 1000:.1f} s"


def _board_line(rank: int, p: PlayerFigures) -> str:
    m = p["matches"]
    run = p["best_run"]
    rate = "-" if p["pot_rate"] is None else f"{p['pot_rate'] * 100:.0f}%"
    return (
        f"{rank:>3}. {p['rating']:7.1f}  {p['name']} (#{p['id']})  matches {m['played']} "
        f"({m['won']}-{m['lost']}{'-' + str(m['drawn']) if m['drawn'] else ''})  points "
        f"{p['points']['for']}:{p['points']['against']}  best run {run['balls'] if run else 0}  pot {rate}  "
        f"shot {_seconds(p['shot_time']['average_ms'])}"
    )


def _player(fig: Figures, pid: int) -> int:
    from hub.stats.figures import head_to_head

    p = fig.players[pid]
    print(f"{p['name']} / {p['name_en']} (#{pid})  rating {p['rating']:.1f} ({p['rated']} rated)")
    m, b = p["matches"], p["breaks"]
    print(
        f"  matches {m['played']}: won {m['won']}, lost {m['lost']}, drawn {m['drawn']}, unfinished "
        f"{m['unfinished']}; frames won {p['frames']['won']}, lost {p['frames']['lost']}"
    )
    print(f"  points for {p['points']['for']}, against {p['points']['against']}")
    run = p["best_run"]
    print(
        f"  best run: {run['balls']} ball(s), {run['points']} point(s), match {run['match']}"
        if run
        else "  best run: none"
    )
    print(
        f"  shots {p['shots']}, visits {p['visits']}, balls {p['balls']}, balls/visit "
        f"{p['balls_per_visit']}, pot rate {p['pot_rate']}"
    )
    print(
        f"  shot time: average {_seconds(p['shot_time']['average_ms'])}, longest "
        f"{_seconds(p['shot_time']['longest_ms'])} ({p['shot_time']['count']} timed)"
    )
    print(f"  fouls: {', '.join(f'{k} x{v}' for k, v in p['fouls'].items()) or 'none'}")
    print(f"  breaks {b['count']}: pot {b['pot']}, foul {b['foul']}, nothing {b['none']}; balls {b['balls']}")
    print(f"  pockets: {', '.join(f'{k}: {v}' for k, v in p['pockets'].items())}")
    for h in head_to_head(fig, pid):
        hc = h["handicap"]
        give = (
            ""
            if hc["to"] is None
            else (
                f"; suggested handicap {hc['points']} point(s) to "
                f"{'you' if hc['to'] == 'me' else h['opponent']['name']}"
            )
        )
        print(
            f"  v {h['opponent']['name']} (#{h['opponent']['id']}): {h['won']}-{h['lost']}"
            f"{'-' + str(h['drawn']) if h['drawn'] else ''} in {h['matches']}{give}"
        )
    return 0


def run(args: argparse.Namespace) -> int:
    from hub.export.days import local_zone
    from hub.stats import csvfile
    from hub.stats.compute import compute
    from hub.stats.figures import head_to_head, leaderboard

    try:
        fig, done = compute(db_path(args), use_cache=not args.no_cache)
    except ExportError as exc:
        print(f"luza stats: {refusal_line(exc.body)}", file=sys.stderr)
        return 2
    if args.player is not None and args.player not in fig.players:
        print(
            f"luza stats: no player {args.player} in the registry (luza players list) / "
            f"игрока {args.player} нет в реестре",
            file=sys.stderr,
        )
        return 2
    board = leaderboard(fig)
    if args.csv:
        data = csvfile.render(board, local_zone())
        if args.csv == "-":
            sys.stdout.buffer.write(data)
        else:
            with open(args.csv, "wb") as fh:
                fh.write(data)
        return 0
    if args.json:
        body: PlayerReport | BoardReport = (
            {**fig.players[args.player], "head_to_head": head_to_head(fig, args.player)}
            if args.player is not None
            else {"players": board, "left_out": fig.left_out}
        )
        print(json.dumps(body, ensure_ascii=False, indent=1))
        return 0
    if args.player is not None:
        return _player(fig, args.player)
    print(
        f"{len(board)} player(s), {fig.counted} match(es) counted "
        f"({done.folded} folded now, {done.cached} cached)"
    )
    for i, p in enumerate(board, 1):
        print(_board_line(i, p))
    for lo in fig.left_out:
        print(f"  left out: match {lo['match']}: {lo['en']}")
    return 0
