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
from dataclasses import dataclass, field, replace

from hub.stats import rating
from hub.stats.facts import FrameResult, MatchFacts
from hub.stats.shapes import (
    BestRun,
    HeadToHead,
    LeftOut,
    Opponent,
    Outcome,
    PlayerFigures,
    RecentMatch,
    SuggestedHandicap,
)
from hub.store.players import MatchPlayers, PlayerRow

RECENT = 10  # matches listed on a player's page


@dataclass
class Tally:
    """A player's running totals (mutable: added to match by match, then read once by `_public`)."""

    matches: Counter[str] = field(default_factory=Counter)  # played, won, lost, drawn, unfinished
    frames: Counter[str] = field(default_factory=Counter)  # played, won, lost
    # points_for, points_against, shots, visits, balls, ...
    sums: Counter[str] = field(default_factory=Counter)
    fouls: Counter[str] = field(default_factory=Counter)
    breaks: Counter[str] = field(default_factory=Counter)
    pockets: Counter[str] = field(default_factory=Counter)
    best_run: BestRun | None = None
    longest_ms: int | None = None
    recent: list[RecentMatch] = field(default_factory=list)
    last_ms: int | None = None


@dataclass(frozen=True)
class Pair:
    """Two registered players' record against each other (a < b by id): matches, the wins of each, draws,
    unfinished, the points of each, when they last met."""

    a: int
    b: int
    matches: int = 0
    a_won: int = 0
    b_won: int = 0
    drawn: int = 0
    unfinished: int = 0
    a_points: int = 0
    b_points: int = 0
    last_ms: int = 0


@dataclass(frozen=True)
class Figures:
    """Everything the statistics say: per player id, per pair (a < b), the matches left out."""

    players: dict[int, PlayerFigures]
    pairs: dict[tuple[int, int], Pair]
    left_out: list[LeftOut]
    counted: int


def _outcome(frame: FrameResult, seat: int) -> Outcome:
    if frame["draw"]:
        return "drawn"
    if not frame["over"] or frame["winner"] not in (0, 1):
        return "unfinished"
    return "won" if frame["winner"] == seat else "lost"


def _match_outcome(f: MatchFacts, seat: int) -> Outcome:
    """The match's result for `seat`: the race's (facts v2)."""
    return _outcome(f["result"], seat)


def _add_seat(t: Tally, m: MatchPlayers, f: MatchFacts, seat: int, opponent: Opponent) -> None:
    s, o = f["seats"][seat], f["seats"][1 - seat]
    frames = f["frames"]
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
    run = s["run"]
    if run and (
        t.best_run is None or (run["balls"], run["points"]) > (t.best_run["balls"], t.best_run["points"])
    ):
        t.best_run = {"at_ms": run["at_ms"], "balls": run["balls"], "points": run["points"], "match": m.id}
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


def _public(p: PlayerRow, t: Tally, r: float, rated: int) -> PlayerFigures:
    sums, m, fr, br = t.sums, t.matches, t.frames, t.breaks
    return {
        "id": p.id,
        "name": p.name,
        "name_en": p.name_en,
        "nickname": p.nickname,
        "club": p.club,
        "photo": p.photo is not None,
        "rating": round(r, 1),
        "rated": rated,
        "matches": {
            "played": m["played"],
            "won": m["won"],
            "lost": m["lost"],
            "drawn": m["drawn"],
            "unfinished": m["unfinished"],
        },
        "frames": {"played": fr["played"], "won": fr["won"], "lost": fr["lost"]},
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
        "breaks": {
            "count": br["count"],
            "pot": br["pot"],
            "foul": br["foul"],
            "none": br["none"],
            "balls": br["balls"],
        },
        "pockets": {str(k): t.pockets[str(k)] for k in range(1, 7)},
        "last_ms": t.last_ms,
        "recent": list(reversed(t.recent[-RECENT:])),
    }


def _pair(pair: Pair, seat_a: int, f: MatchFacts, started_ms: int) -> Pair:
    """`pair` with one more match, in which `a` sat in `seat_a`."""
    result = _match_outcome(f, seat_a)
    return replace(
        pair,
        matches=pair.matches + 1,
        a_won=pair.a_won + (result == "won"),
        b_won=pair.b_won + (result == "lost"),
        drawn=pair.drawn + (result == "drawn"),
        unfinished=pair.unfinished + (result == "unfinished"),
        a_points=pair.a_points + f["seats"][seat_a]["points"],
        b_points=pair.b_points + f["seats"][1 - seat_a]["points"],
        last_ms=started_ms,
    )


def _game(ids: tuple[int, int], f: MatchFacts) -> rating.Game | None:
    result = _match_outcome(f, 0)
    score = {"won": 1.0, "lost": 0.0, "drawn": 0.5}.get(result)
    return None if score is None else rating.Game(ids[0], ids[1], score)


def figures(
    matches: Sequence[tuple[MatchPlayers, MatchFacts]],
    players: Sequence[PlayerRow],
    merges: Mapping[int, int],
) -> Figures:
    """The figures of every registered (not merged) player from `matches` (each with its facts), in the order
    they started; `merges` maps a merged id to the id it stands for now."""
    known = {p.id: p for p in players if p.merged_into is None}
    tallies = {pid: Tally() for pid in known}
    pairs: dict[tuple[int, int], Pair] = {}
    games: list[rating.Game] = []
    left_out: list[LeftOut] = []
    counted = 0
    for m, f in sorted(matches, key=lambda x: (x[0].started_ms, x[0].id)):
        if not f["complete"]:
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
                opponent: Opponent = {
                    "id": other if other in known else None,
                    "name": known[other].name if other in known else m.names[1 - seat],
                }
                _add_seat(tallies[pid], m, f, seat, opponent)
        one, two = ids
        if one in known and two in known and one is not None and two is not None and one != two:
            a, b = sorted((one, two))
            pairs[a, b] = _pair(pairs.get((a, b), Pair(a, b)), 0 if one == a else 1, f, m.started_ms)
            game = _game((one, two), f)
            if game is not None:
                games.append(game)
    r, rated = rating.ratings(games)
    out = {
        pid: _public(known[pid], t, r.get(pid, rating.START), rated.get(pid, 0)) for pid, t in tallies.items()
    }
    return Figures(out, pairs, left_out, counted)


def leaderboard(fig: Figures) -> list[PlayerFigures]:
    """Every player, the highest rating first (then more matches, then the name, then the id)."""
    return sorted(
        fig.players.values(), key=lambda p: (-p["rating"], -p["matches"]["played"], p["name"], p["id"])
    )


def _suggested(h: rating.Handicap) -> SuggestedHandicap:
    """rating.handicap(me, them) seen from me: whom the handicap goes to."""
    return {
        "to": None if h.to is None else ("me" if h.to == 0 else "opponent"),
        "points": h.points,
        "frames": h.frames,
        "expected": h.expected,
        "target": h.target,
        "race": h.race,
    }


def head_to_head(fig: Figures, player: int, target: int = 71) -> list[HeadToHead]:
    """A player's record against each registered opponent, with the handicap the ratings suggest (a frame to
    `target` points), the most recent opponent first."""
    out: list[HeadToHead] = []
    me = fig.players[player]
    for (a, b), rec in fig.pairs.items():
        if player not in (a, b):
            continue
        mine_a = player == a
        other = fig.players[b if mine_a else a]
        out.append(
            {
                "opponent": {
                    "id": other["id"],
                    "name": other["name"],
                    "name_en": other["name_en"],
                    "rating": other["rating"],
                },
                "matches": rec.matches,
                "won": rec.a_won if mine_a else rec.b_won,
                "lost": rec.b_won if mine_a else rec.a_won,
                "drawn": rec.drawn,
                "points_for": rec.a_points if mine_a else rec.b_points,
                "points_against": rec.b_points if mine_a else rec.a_points,
                "last_ms": rec.last_ms,
                "handicap": _suggested(rating.handicap(me["rating"], other["rating"], target)),
            }
        )
    return sorted(out, key=lambda x: (-x["last_ms"], x["opponent"]["id"]))
