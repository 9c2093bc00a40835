"""`luza replay <db> --match N`: re-derive a match from its stored log and verify it
against the stored state."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hub.reconcile.frames import RaceSection


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="re-derive a match from its log and verify it",
        description="Re-derive a match from the stored log and compare it with the state the hub "
        "last committed. / Пересчитать партию по журналу и сверить.",
    )
    p.add_argument("db", help="the hub's SQLite database")
    p.add_argument("--match", type=int, required=True, metavar="N", help="match id")
    p.add_argument(
        "--config",
        help="luza.toml, for its [settle] times if the match has no stored settings "
        "(matches started before schema v2; default: the built-in times)",
    )
    p.add_argument("--json", action="store_true", help="print the re-derived scoreboard as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hub import config as cfgmod
    from hub import configfile
    from hub.service.rebuild import replay_match, stored_differences
    from hub.store import gaps
    from hub.store.database import Store

    settle: dict[str, float] = {}
    try:
        if args.config:
            settle = dict(configfile.load(args.config).settle)
        store = Store(args.db, readonly=True)
    except (cfgmod.ConfigError, FileNotFoundError, OSError) as exc:
        print(f"luza replay: {exc}", file=sys.stderr)
        return 2
    match = store.match(args.match)
    if match is None:
        ids = [m.id for m in store.matches()]
        print(f"luza replay: no match {args.match} in {args.db} (matches: {ids or 'none'})", file=sys.stderr)
        return 2
    result = replay_match(store, match, settle)
    state = result.scoreboard()
    print(
        f"match {match.id} on table {match.table_id}: {match.variant}, {match.players[0]} v "
        f"{match.players[1]}, {match.status}; {result.inputs} inputs replayed"
    )
    _print_race(state["race"])
    for cursor, why in result.refused:
        print(f"  input {cursor} not applied: {why}")
    for cursor, code in result.suspect:
        print(f"  input {cursor} stored but not folded into play: impossible time ({code})")
    holes, gone = gaps.of_match(store, match.id), gaps.gone(store)
    for gap in holes:
        final = " (final: the node no longer has them)" if gaps.is_final(gap, gone) else ""
        print(f"  missing: {gaps.describe(gap)} never reached the hub{final}")
    if args.json:
        print(json.dumps(state, ensure_ascii=False, indent=2))
    if match.last_state is None:
        print("no stored state to verify against (the match has no committed input yet)")
        return 0
    diffs = stored_differences(match.last_state, state)
    if diffs:
        print(f"MISMATCH: the re-derived state differs from the stored one in {len(diffs)} place(s):")
        for d in diffs[:50]:
            print(f"  {d}")
        return 1
    if holes:
        n = sum(last - first + 1 for _, _, first, last in holes)
        print(
            f"INCOMPLETE: the re-derived state equals the stored state, but {n} event(s) of the match never "
            "reached the hub (listed above): the evidence is incomplete, not verified"
        )
        return 1
    print("verified: the re-derived state equals the stored state")
    return 0


def _print_race(race: RaceSection) -> None:
    """The frame score and each frame of a race (nothing for a single frame with no handicap)."""
    limit = race.get("time_limit_min")
    if race["race_to"] == 1 and race["handicap"] is None and not limit:
        return
    print(
        f"  race to {race['race_to']} ({race['break_rule']} breaks): frames "
        f"{race['score'][0]}:{race['score'][1]}"
        + (f", time limit {limit} min ({race['time_rule']})" if limit else "")  # general A-G6
        + (", time up" if race.get("time_called") else "")
        + (f", abandoned: {race['abandoned']}" if race["abandoned"] is not None else "")
        + (f", won by seat {race['winner']}" if race["winner"] is not None else "")
    )
    for f in race["frames"]:
        end = (
            "drawn"
            if f["drawn"]
            else (f"won by seat {f['winner']}" if f["winner"] is not None else "in play")
        )
        print(
            f"  frame {f['number']}: {f['scores'][0]}:{f['scores'][1]}, {end}"
            + (" (conceded)" if f["conceded"] else "")
            + f", broken by seat {f['breaker']}"
        )
