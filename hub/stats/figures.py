"""Each registered player's figures and every head-to-head record, added up from the facts of each match
(hub/stats/facts.py) in the order the matches started. Pure: the same matches and facts give the same figures,
to the last digit (ratios are rounded here, once). docs/statistics.md defines every figure.

A seat counts for a player when the match names the player's id (chosen from the registry at the start, or
moved there by a merge); a name typed in counts for nobody. A match is left out, and listed with why, when its
evidence is incomplete (events that never reached the hub): its result is not verified.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hub.stats import rating
from hub.store.players import MatchPlayers, PlayerRow

RECENT = 10  # matches listed on a player's page


@dataclass
class Tally:
    """A player's running totals."""

    matches: Counter[str] = field(default_factory=Counter)  # played, won, lost, drawn, unfinished
    frames: Counter[str] = field(default_factory=Counter)  # played, won, lost
    # points_for, points_against, shots, visits, balls, ...
    sums: Counter[str] = field(default_factory=Counter)
    fouls: Counter[str] = field(default_factory=Counter)
    breaks: Counter[str] = field(default_factory=Counter)
    pockets: Counter[str] = field(default_factory=Counter)
    best_run: dict[str, Any] | None = None
    longest_ms: int | None = None
    recent: list[dict[str, Any]] = field(default_factory=list)
    last_ms: int | None = None


@dataclass(frozen=True)
class Figures:
    """Everything the statistics say: per player id, per pair (a < b), the matches left out."""

    players: dict[int, dict[str, Any]]
    pairs: dict[tuple[int, int], dict[str, Any]]
    left_out: list[dict[str, Any]]
    counted: int


def _outcome(frame: Mapping[str, Any], seat: int) -> str:
    if frame.get("draw"):
        return "drawn"
    if not frame.get("over") or frame.get("winner") not in (0, 1):
        return "unfinished"
    return "won" if frame["winner"] == seat else "lost"


def _match_outcome(f: Mapping[str, Any], seat: int) -> str:
    """The match's result for `seat`: the race's (facts v2), else its one frame's."""
    frames = f.get("frames") or []
    result = f.get("result") or (frames[-1] if frames else None)
    return "unfinished" if result is None else _outcome(result, seat)


def _add_seat(t: Tally, m: MatchPlayers, f: Mapping[str, Any], seat: int, opponent: dict[str, Any]) -> None:
    s, o = f["seats"][seat], f["seats"][1 - seat]
    frames = f.get("frames") or []
    result = _match_outcome(f, seat)
    t.matches["played"] += 1
    t.matches[result] += 1
    for fr in frames:
        t.frames["played"] += 1
        won = _outcome(fr, seat)
        if won in ("won", "lost"):
            t.frames[won] += 1
    t.sums.update(
        {
            "points_for": s["points"],
            "points_against": o["points"],
            "shots": s["shots"],
            "visits": s["visits"],
            "balls": s["balls"],
            "potting_shots": s["potting_shots"],
            "timed": s["timed"],
            "time_ms": s["time_ms"],
        }
    )
    t.fouls.update(s["fouls"])
    t.breaks.update(s["breaks"])
    t.pockets.update(s["pockets"])
    if s["longest_ms"] is not None:
        t.longest_ms = s["longest_ms"] if t.longest_ms is None else max(t.longest_ms, s["longest_ms"])
    run = s.get("run")
    if run and (
        t.best_run is None or (run["balls"], run["points"]) > (t.best_run["balls"], t.best_run["points"])
    ):
        t.best_run = {**run, "match": m.id}
    t.last_ms = m.started_ms
    t.recent.append(
        {
            "match": m.id,
            "started_ms": m.started_ms,
            "variant": m.variant,
            "seat": seat,
            "opponent": opponent,
            "scores": [s["points"], o["points"]],
            "result": result,
        }
    )


def _ratio(a: int, b: int, digits: int) -> float | None:
    return round(a / b, digits) if b else None


def _public(p: PlayerRow, t: Tally, r: float, rated: int) -> dict[str, Any]:
    sums = t.sums
    return {
        "id": p.id,
        "name": p.name,
        "name_en": p.name_en,
        "nickname": p.nickname,
        "club": p.club,
        "photo": p.photo is not None,
        "rating": round(r, 1),
        "rated": rated,
        "matches": {k: t.matches[k] for k in ("played", "won", "lost", "drawn", "unfinished")},
        "frames": {k: t.frames[k] for k in ("played", "won", "lost")},
        "points": {"for": sums["points_for"], "against": sums["points_against"]},
        "shots": sums["shots"],
        "visits": sums["visits"],
        "balls": sums["balls"],
        "potting_shots": sums["potting_shots"],
        "balls_per_visit": _ratio(sums["balls"], sums["visits"], 2),
        "pot_rate": _ratio(sums["potting_shots"], sums["shots"], 3),
        "best_run": t.best_run,
        "shot_time": {
            "count": sums["timed"],
            "average_ms": None if not sums["timed"] else int(sums["time_ms"] / sums["timed"] + 0.5),
            "longest_ms": t.longest_ms,
        },
        "fouls": dict(sorted(t.fouls.items())),
        "breaks": {k: t.breaks[k] for k in ("count", "pot", "foul", "none", "balls")},
        "pockets": {str(k): t.pockets[str(k)] for k in range(1, 7)},
        "last_ms": t.last_ms,
        "recent": list(reversed(t.recent[-RECENT:])),
    }


def _pair(
    pairs: dict[tuple[int, int], dict[str, Any]], ids: tuple[int, int], f: Mapping[str, Any], started_ms: int
) -> None:
    a, b = sorted(ids)
    seat_a = ids.index(a)
    rec = pairs.setdefault(
        (a, b),
        {
            "a": a,
            "b": b,
            "matches": 0,
            "a_won": 0,
            "b_won": 0,
            "drawn": 0,
            "unfinished": 0,
            "a_points": 0,
            "b_points": 0,
            "last_ms": 0,
        },
    )
    result = _match_outcome(f, seat_a)
    rec["matches"] += 1
    rec[{"won": "a_won", "lost": "b_won", "drawn": "drawn", "unfinished": "unfinished"}[result]] += 1
    rec["a_points"] += f["seats"][seat_a]["points"]
    rec["b_points"] += f["seats"][1 - seat_a]["points"]
    rec["last_ms"] = started_ms


def _game(ids: tuple[int, int], f: Mapping[str, Any]) -> rating.Game | None:
    result = _match_outcome(f, 0)
    score = {"won": 1.0, "lost": 0.0, "drawn": 0.5}.get(result)
    return None if score is None else rating.Game(ids[0], ids[1], score)


def figures(
    matches: Sequence[tuple[MatchPlayers, Mapping[str, Any]]],
    players: Sequence[PlayerRow],
    merges: Mapping[int, int],
) -> Figures:
    """The figures of every registered (not merged) player from `matches` (each with its facts), in the order
    they started; `merges` maps a merged id to the id it stands for now."""
    known = {p.id: p for p in players if p.merged_into is None}
    tallies = {pid: Tally() for pid in known}
    pairs: dict[tuple[int, int], dict[str, Any]] = {}
    games: list[rating.Game] = []
    left_out: list[dict[str, Any]] = []
    counted = 0
    for m, f in sorted(matches, key=lambda x: (x[0].started_ms, x[0].id)):
        if not f.get("complete", True):
            left_out.append(
                {
                    "match": m.id,
                    "reason": "incomplete",
                    "en": "evidence incomplete: events never reached the hub",
                    "ru": "доказательства неполные: события не дошли до хаба",
                }
            )
            continue
        counted += 1
        ids = tuple(None if i is None else merges.get(i, i) for i in m.ids)
        for seat in (0, 1):
            pid, other = ids[seat], ids[1 - seat]
            if pid in tallies:
                opponent = {
                    "id": other if other in known else None,
                    "name": known[other].name if other in known else m.names[1 - seat],
                }
                _add_seat(tallies[pid], m, f, seat, opponent)
        if ids[0] in known and ids[1] in known and ids[0] != ids[1]:
            pair = (int(ids[0]), int(ids[1]))  # type: ignore[arg-type]
            _pair(pairs, pair, f, m.started_ms)
            game = _game(pair, f)
            if game is not None:
                games.append(game)
    r, rated = rating.ratings(games)
    out = {
        pid: _public(known[pid], t, r.get(pid, rating.START), rated.get(pid, 0)) for pid, t in tallies.items()
    }
    return Figures(out, pairs, left_out, counted)


def leaderboard(fig: Figures) -> list[dict[str, Any]]:
    """Every player, the highest rating first (then more matches, then the name, then the id)."""
    return sorted(
        fig.players.values(), key=lambda p: (-p["rating"], -p["matches"]["played"], p["name"], p["id"])
    )


def head_to_head(fig: Figures, player: int, target: int = 71) -> list[dict[str, Any]]:
    """A player's record against each registered opponent, with the handicap the ratings suggest (a frame to
    `target` points), the most recent opponent first."""
    out = []
    me = fig.players[player]
    for (a, b), rec in fig.pairs.items():
        if player not in (a, b):
            continue
        mine = "a" if player == a else "b"
        theirs = "b" if mine == "a" else "a"
        other = fig.players[b if mine == "a" else a]
        h = rating.handicap(me["rating"], other["rating"], target)
        out.append(
            {
                "opponent": {
                    "id": other["id"],
                    "name": other["name"],
                    "name_en": other["name_en"],
                    "rating": other["rating"],
                },
                "matches": rec["matches"],
                "won": rec[f"{mine}_won"],
                "lost": rec[f"{theirs}_won"],
                "drawn": rec["drawn"],
                "points_for": rec[f"{mine}_points"],
                "points_against": rec[f"{theirs}_points"],
                "last_ms": rec["last_ms"],
                "handicap": {**h, "to": None if h["to"] is None else ("me" if h["to"] == 0 else "opponent")},
            }
        )
    return sorted(out, key=lambda x: (-x["last_ms"], x["opponent"]["id"]))
