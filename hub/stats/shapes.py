"""The JSON shapes of the statistics as they leave the hub: a player's figures, a head-to-head record, a match
left out and why (docs/statistics.md, docs/web-api.md). `GET /api/stats`, `GET /api/players/{id}` and
`luza stats --json` return them, the pages /players and /player read them (dashboard/js), and the tests
index them as dicts: so they are `TypedDict`s, built in hub/stats/figures.py and nowhere else.

The keys are declared in the order the JSON has them: the web routes serialise through these types (FastAPI's
response model), which writes a TypedDict's keys in the order declared here.
"""

from __future__ import annotations

from typing import Literal

# pydantic (FastAPI's response models) reads TypedDicts only from typing_extensions' on Python < 3.12
from typing_extensions import TypedDict

Outcome = Literal["won", "lost", "drawn", "unfinished"]


class MatchCounts(TypedDict):
    """Matches played, and how each ended for the player."""

    played: int
    won: int
    lost: int
    drawn: int
    unfinished: int


class FrameCounts(TypedDict):
    """Frames played, won, lost (a frame of an abandoned race may be neither)."""

    played: int
    won: int
    lost: int


# "for" is a Python keyword: the functional form is the only way to name the key
Points = TypedDict("Points", {"for": int, "against": int})


class BestRun(TypedDict):
    """The best series of all: the visit with the most balls (then points), when it began, and its match.
    `at_ms` comes first, as it always did when the facts came from the cache (sorted JSON): the order the
    pages and the CLI have shown since the cache (a fresh fold once gave balls, points, at_ms instead)."""

    at_ms: int
    balls: int
    points: int
    match: int


class ShotTime(TypedDict):
    """Shots timed, their average (rounded to the ms) and the longest; None when no shot was timed."""

    count: int
    average_ms: int | None
    longest_ms: int | None


class BreakCounts(TypedDict):
    """Each frame's first shot: how many, how they went (a pot, a foul, nothing), the balls pocketed."""

    count: int
    pot: int
    foul: int
    none: int
    balls: int


class Opponent(TypedDict):
    """Who sat opposite: a registered player's id and name, or a guest's name as typed (id None)."""

    id: int | None
    name: str


class RecentMatch(TypedDict):
    """One of a player's last matches, as the player page lists them (each opens its match page)."""

    match: int
    started_ms: int
    variant: str
    seat: int
    opponent: Opponent
    scores: list[int]  # [the player's, the opponent's]
    result: Outcome


class PlayerFigures(TypedDict):
    """Every figure of one registered player (docs/statistics.md, "A player's figures")."""

    id: int
    name: str
    name_en: str
    nickname: str
    club: str
    photo: bool
    rating: float
    rated: int
    matches: MatchCounts
    frames: FrameCounts
    points: Points
    shots: int
    visits: int
    balls: int
    potting_shots: int
    balls_per_visit: float | None
    pot_rate: float | None
    best_run: BestRun | None
    shot_time: ShotTime
    fouls: dict[str, int]  # the paragraph cited ("classic 5.5") -> count, sorted by paragraph
    breaks: BreakCounts
    pockets: dict[str, int]  # pocket "1".."6" -> balls, all six
    last_ms: int | None
    recent: list[RecentMatch]  # the most recent first


class RatedOpponent(TypedDict):
    """The opponent of a head-to-head record."""

    id: int
    name: str
    name_en: str
    rating: float


class SuggestedHandicap(TypedDict):
    """hub/stats/rating.py's handicap seen from the player: who is given it ("me", "opponent", None: even)."""

    to: Literal["me", "opponent"] | None
    points: int
    frames: int
    expected: float
    target: int
    race: int


class HeadToHead(TypedDict):
    """A player's record against one registered opponent, with the handicap the ratings suggest."""

    opponent: RatedOpponent
    matches: int
    won: int
    lost: int
    drawn: int
    points_for: int
    points_against: int
    last_ms: int
    handicap: SuggestedHandicap


class LeftOut(TypedDict):
    """A match the figures leave out, and why, in both languages."""

    match: int
    reason: Literal["incomplete", "unreadable"]
    en: str
    ru: str
