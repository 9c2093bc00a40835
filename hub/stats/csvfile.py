"""The leaderboard as CSV: one row per registered player, every figure of docs/statistics.md, UTF-8 with a
byte-order mark and formula-safe cells like the match exports (hub/export/csvfile.py)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import UTC, tzinfo

from hub.export import text
from hub.export.csvfile import cell
from hub.stats.shapes import PlayerFigures

COLUMNS = (
    "rank",
    "id",
    "name",
    "name_en",
    "nickname",
    "club",
    "rating",
    "rated_matches",
    "matches",
    "won",
    "lost",
    "drawn",
    "unfinished",
    "frames_won",
    "frames_lost",
    "points_for",
    "points_against",
    "best_run_balls",
    "best_run_points",
    "best_run_date",
    "best_run_match",
    "shots",
    "visits",
    "balls",
    "balls_per_visit",
    "pot_rate",
    "shot_time_avg_s",
    "shot_time_longest_s",
    "timed_shots",
    "fouls",
    "breaks",
    "breaks_pot",
    "breaks_foul",
    "breaks_none",
    "break_balls",
    "pocket_1",
    "pocket_2",
    "pocket_3",
    "pocket_4",
    "pocket_5",
    "pocket_6",
)


def _seconds(ms: int | None) -> str:
    return "" if ms is None else f"{ms / 1000:.1f}"


def row(rank: int, p: PlayerFigures, tz: tzinfo = UTC) -> dict[str, str | int | float]:
    """One player's row: column -> value ("" where there is none yet)."""
    run = p["best_run"]
    m, b, st = p["matches"], p["breaks"], p["shot_time"]
    return {
        "rank": rank,
        "id": p["id"],
        "name": p["name"],
        "name_en": p["name_en"],
        "nickname": p["nickname"],
        "club": p["club"],
        "rating": f"{p['rating']:.1f}",
        "rated_matches": p["rated"],
        "matches": m["played"],
        "won": m["won"],
        "lost": m["lost"],
        "drawn": m["drawn"],
        "unfinished": m["unfinished"],
        "frames_won": p["frames"]["won"],
        "frames_lost": p["frames"]["lost"],
        "points_for": p["points"]["for"],
        "points_against": p["points"]["against"],
        "best_run_balls": run["balls"] if run else "",
        "best_run_points": run["points"] if run else "",
        "best_run_date": text.local(run["at_ms"], tz, "%Y-%m-%d") if run else "",
        "best_run_match": run["match"] if run else "",
        "shots": p["shots"],
        "visits": p["visits"],
        "balls": p["balls"],
        "balls_per_visit": "" if p["balls_per_visit"] is None else p["balls_per_visit"],
        "pot_rate": "" if p["pot_rate"] is None else p["pot_rate"],
        "shot_time_avg_s": _seconds(st["average_ms"]),
        "shot_time_longest_s": _seconds(st["longest_ms"]),
        "timed_shots": st["count"],
        "fouls": "; ".join(f"{k}: {v}" for k, v in p["fouls"].items()),
        "breaks": b["count"],
        "breaks_pot": b["pot"],
        "breaks_foul": b["foul"],
        "breaks_none": b["none"],
        "break_balls": b["balls"],
        **{f"pocket_{k}": v for k, v in p["pockets"].items()},
    }


def render(board: Sequence[PlayerFigures], tz: tzinfo = UTC) -> bytes:
    """The CSV file of a leaderboard (hub.stats.figures.leaderboard)."""
    buf = io.StringIO(newline="")
    w = csv.DictWriter(buf, COLUMNS, lineterminator="\r\n")
    w.writeheader()
    w.writerows({k: cell(v) for k, v in row(i, p, tz).items()} for i, p in enumerate(board, 1))
    return buf.getvalue().encode("utf-8-sig")
