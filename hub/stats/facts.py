"""The facts of one match for the statistics, read from its export document (hub/export/model.py): the shots
the rules engine judged from the stored evidence, never a number typed in. Pure: the same document gives the
same facts, so they can be cached per match (hub/stats/compute.py) and made again at any time.

Per seat: points, shots, visits, balls pocketed for oneself, the best series, shot times, fouls by paragraph,
the break of every frame, the pockets used; each frame's result and the match's (a race of frames: its
winner). docs/statistics.md defines each one; `VERSION` changes whenever a definition does
(the cache then makes every match's facts again).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

# pydantic (the cache's check, hub/stats/compute.py) reads TypedDicts only from typing_extensions' on 3.11
from typing_extensions import TypedDict

from hub.config import ShotTiming
from hub.stats.evidence import Action, Export, Outcome, Pocketed, Shot, read

VERSION = 2  # 2: a match is a race of frames (a break per frame; visits and shot times within one)

# The export document is read through hub/stats/evidence.py (checked, the parts the statistics need); the
# facts made from it are JSON (cached in `match_facts.facts`, schema v10): the TypedDicts below.


class RunFacts(TypedDict):
    """A series (a visit with at least one ball): its balls, its points, the strike of its first shot."""

    balls: int
    points: int
    at_ms: int


class SeatFacts(TypedDict):
    """What one seat did in one match (docs/statistics.md, "The figures of a match")."""

    points: int
    shots: int
    potting_shots: int
    balls: int
    visits: int
    run: RunFacts | None
    timed: int
    time_ms: int
    longest_ms: int | None
    fouls: dict[str, int]  # paragraph cited -> count
    pockets: dict[str, int]  # pocket "1".."6" -> balls credited through it
    breaks: dict[str, int]  # count, pot, foul, none, balls (the keys a seat had)


class FrameResult(TypedDict):
    """How a frame (or the match, a race) ended or stands: over, its winner's seat, a draw."""

    over: bool
    winner: int | None
    draw: bool


class FrameFacts(FrameResult):
    """One frame's result and its final scores (seat 0's, seat 1's)."""

    scores: list[int]


class MatchFacts(TypedDict):
    """The facts of one match: what hub/stats/figures.py adds up, and what the cache keeps."""

    version: int
    match: int
    variant: str
    started_ms: int
    ended_ms: int | None
    complete: bool  # False: events never reached the hub, the result is not verified
    frames: list[FrameFacts]
    result: FrameResult  # the match's: a race's winner
    seats: list[SeatFacts]  # seat 0's, seat 1's


@dataclass
class Seat:
    """What one seat did in one match, added up shot by shot (its JSON: `as_dict`)."""

    points: int = 0
    shots: int = 0
    potting_shots: int = 0  # shots that put at least one ball on the shooter's own shelf
    balls: int = 0  # balls the shooter pocketed that the engine credited to the shooter
    visits: int = 0  # turns at the table: consecutive shots by the same player
    run: RunFacts | None = None  # the best series
    timed: int = 0  # shots with a shot time (a sensor strike after a previous shot)
    time_ms: int = 0  # their total
    longest_ms: int | None = None
    fouls: Counter[str] = field(default_factory=Counter)  # paragraph cited -> count
    pockets: Counter[str] = field(default_factory=Counter)  # pocket "1".."6" -> balls credited through it
    breaks: Counter[str] = field(default_factory=Counter)  # count, pot, foul, none, balls

    def as_dict(self) -> SeatFacts:
        return {
            "points": self.points,
            "shots": self.shots,
            "potting_shots": self.potting_shots,
            "balls": self.balls,
            "visits": self.visits,
            "run": self.run,
            "timed": self.timed,
            "time_ms": self.time_ms,
            "longest_ms": self.longest_ms,
            "fouls": dict(sorted(self.fouls.items())),
            "pockets": dict(sorted(self.pockets.items())),
            "breaks": dict(sorted(self.breaks.items())),
        }


def counted(shot: Shot) -> bool:
    """A shot the engine judged and kept (not provisional, not refused, with a shooter)."""
    return (
        shot.status == "ok"
        and not shot.provisional
        and shot.engine_index is not None
        and shot.shooter in (0, 1)
    )


def roll_ms(doc: Export) -> int:
    """How long after a shot's last strike or ball the hub takes the balls to have stopped (the match's own
    settle settings, else the default)."""
    settle = doc.settings.settle if doc.settings else None
    value = settle.roll_ms if settle else None
    return ShotTiming().roll_ms if value is None else int(value)


def credited(shot: Shot) -> list[Pocketed]:
    """The shot's pocketed balls that went to the shooter's own shelf (matched to the engine's to_shelf
    effects by number, in order; a ball nobody numbered — Free names no ball
    — takes a to_shelf no numbered ball took)."""
    owed = Counter(e.ball for e in shot.effects if e.kind == "to_shelf" and e.player == shot.shooter)
    numbered = [b for b in shot.balls if b.ball is not None]
    mine = []
    for b in numbered:
        if owed[b.ball] > 0:
            owed[b.ball] -= 1
            mine.append(b)
    left = sum(n for ball, n in owed.items() if ball not in {x.ball for x in numbered})
    unnamed = [b for b in shot.balls if b.ball is None][:left]
    return [b for b in shot.balls if any(b is x for x in (*mine, *unnamed))]


def gained(shot: Shot) -> int:
    """Points the shot gave its shooter (the positive score effects for the shooter)."""
    return sum(
        e.amount or 0
        for e in shot.effects
        if e.kind == "score" and e.player == shot.shooter and (e.amount or 0) > 0
    )


def settled_at(shot: Shot, roll: int) -> int | None:
    """When the hub takes the balls of `shot` to have stopped: its strike or last ball, plus `roll`."""
    times = [t for t in (shot.opened_ms, *(b.at_ms for b in shot.balls)) if t is not None]
    if shot.strike is not None and shot.strike.at_ms is not None:
        times.append(shot.strike.at_ms)
    return max(times) + roll if times else None


def _shot_time(seat: Seat, shot: Shot, prev: Shot | None, roll: int) -> None:
    strike = shot.strike
    if prev is None or strike is None or strike.source != "sensor" or strike.at_ms is None:
        return
    since = settled_at(prev, roll)
    if since is None:
        return
    ms = max(0, strike.at_ms - since)  # struck before the balls were taken to have stopped: no time at all
    seat.timed += 1
    seat.time_ms += ms
    seat.longest_ms = ms if seat.longest_ms is None else max(seat.longest_ms, ms)


def _visit_end(seat: Seat, balls: int, points: int, at_ms: int | None) -> None:
    seat.visits += 1
    best = seat.run
    if balls > 0 and (best is None or (balls, points) > (best["balls"], best["points"])):
        seat.run = {"balls": balls, "points": points, "at_ms": at_ms or 0}


def _break(seat: Seat, shot: Shot, balls: int) -> None:
    fouled = any(f.player == shot.shooter for f in shot.fouls)
    seat.breaks["count"] += 1
    seat.breaks["foul" if fouled else "pot" if balls else "none"] += 1
    seat.breaks["balls"] += balls


def _seats(doc: Export) -> list[Seat]:
    seats = [Seat(), Seat()]
    roll = roll_ms(doc)
    prev: Shot | None = None
    visit: tuple[int, int, int, int | None] | None = None  # (seat, balls, points, started)
    frame: int | None = None
    kept = [s for s in doc.shots if counted(s)]
    for shot in kept:
        # a new frame: a new break; no visit or shot time runs across frames
        if shot.frame != frame:
            frame, prev = shot.frame, None
            if visit is not None:
                _visit_end(seats[visit[0]], *visit[1:])
                visit = None
        who = int(shot.shooter or 0)  # 0 or 1: counted
        seat = seats[who]
        mine = credited(shot)
        seat.shots += 1
        seat.balls += len(mine)
        seat.potting_shots += 1 if mine else 0
        seat.pockets.update(str(b.pocket) for b in mine)
        if prev is None:
            _break(seat, shot, len(mine))
        _shot_time(seat, shot, prev, roll)
        if visit is not None and visit[0] != who:
            _visit_end(seats[visit[0]], *visit[1:])
            visit = None
        start = visit[3] if visit else (shot.strike.at_ms if shot.strike else None) or shot.opened_ms
        visit = (
            who,
            (visit[1] if visit else 0) + len(mine),
            (visit[2] if visit else 0) + gained(shot),
            start,
        )
        prev = shot
    if visit is not None:
        _visit_end(seats[visit[0]], *visit[1:])
    judged: list[Shot | Action] = [*kept, *(a for a in doc.actions if a.status == "ok")]
    for item in judged:
        for f in item.fouls:
            if f.player in (0, 1):
                seats[int(f.player or 0)].fouls[str(f.cite)] += 1
    return seats


def _frame(result: Outcome) -> FrameFacts:
    """How one frame ended (or stands): over, winner, draw, the scores."""
    scores = result.scores or (0, 0)
    winner = result.winner if result.over else None
    return {
        "over": result.over,
        "winner": winner if winner in (0, 1) else None,
        "draw": result.draw,
        "scores": list(scores[:2]),
    }


def match_facts(document: Mapping[str, object]) -> MatchFacts:
    """The facts of the match an export document describes (JSON-able; docs/statistics.md); ExportError if
    the document is not as documented (hub/stats/evidence.py). Each frame's result from its section (a file
    from before races: the match's one result); a seat's points are the sum of its frames' final scores; the
    match's result is the race's."""
    doc = read(document)
    result = doc.result or Outcome()
    evidence = doc.verification.evidence if doc.verification else None
    seats = _seats(doc)
    outcome = _frame(result)  # the match's: a race's winner (its scores are the frames')
    sections = [f.result or Outcome() for f in doc.frames]
    frames = [_frame(r) for r in sections or (result,)]
    for i in (0, 1):
        seats[i].points = sum(f["scores"][i] for f in frames)
    return {
        "version": VERSION,
        "match": doc.match.id,
        "variant": doc.match.variant,
        "started_ms": doc.match.started_ms,
        "ended_ms": doc.match.ended_ms,
        "complete": evidence is None or evidence.complete is not False,
        "frames": frames,
        "result": {"over": outcome["over"], "winner": outcome["winner"], "draw": outcome["draw"]},
        "seats": [s.as_dict() for s in seats],
    }
