"""The rating: Elo's formula over every finished match between two registered players, in the order the
matches started, from the same start for everyone, so anyone can recompute it from the
history (docs/statistics.md).

    expected  E_a = 1 / (1 + 10 ** ((R_b - R_a) / 400))
    after     R_a' = R_a + K * (S_a - E_a)        S = 1 a win, 0.5 a draw, 0 a loss; K = 32; everyone starts at 1500

The handicap suggested between two players follows from the same expectation: the stronger one gives the
weaker `round(target * (E - 0.5))` points of a frame to `target` (the variant's target; 71 in Classic), and in
a race to N frames `round(N * (E - 0.5))` frames; nothing below a difference of 25 rating points (E < 0.536).
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

START = 1500.0
K = 32.0
SCALE = 400.0
EVEN_BELOW = 25.0  # a rating difference this small suggests no handicap


@dataclass(frozen=True)
class Game:
    """One rated match: the two players' ids and the first one's score (1, 0.5 or 0)."""

    a: int
    b: int
    score_a: float


def expected(r_a: float, r_b: float) -> float:
    """The share of the points (wins) player a is expected to take against b."""
    return 1.0 / (1.0 + 10.0 ** ((r_b - r_a) / SCALE))


def ratings(games: Iterable[Game]) -> tuple[dict[int, float], dict[int, int]]:
    """({player: rating}, {player: rated matches}) after `games`, played in the order given."""
    r: dict[int, float] = {}
    n: dict[int, int] = {}
    for g in games:
        ra, rb = r.get(g.a, START), r.get(g.b, START)
        ea = expected(ra, rb)
        r[g.a] = ra + K * (g.score_a - ea)
        r[g.b] = rb + K * ((1.0 - g.score_a) - (1.0 - ea))
        n[g.a] = n.get(g.a, 0) + 1
        n[g.b] = n.get(g.b, 0) + 1
    return r, n


def _round(x: float) -> int:
    return int(x + 0.5)  # half up (x >= 0 here): the same on every machine


@dataclass(frozen=True)
class Handicap:
    """What the stronger player gives the other: `to` the weaker (0: a, 1: b; None: even, nothing given),
    `points` of a frame to `target`, `frames` of a race to `race`; `expected` the stronger one's expected
    score (3 decimals)."""

    to: int | None
    points: int
    frames: int
    expected: float
    target: int
    race: int


def handicap(r_a: float, r_b: float, target: int = 71, race: int = 1) -> Handicap:
    """The handicap between a and b for a frame to `target` points and a race to `race` frames."""
    e = expected(max(r_a, r_b), min(r_a, r_b))
    if abs(r_a - r_b) < EVEN_BELOW:
        return Handicap(None, 0, 0, round(e, 3), target, race)
    return Handicap(
        1 if r_a >= r_b else 0,
        _round(target * (e - 0.5)),
        _round(race * (e - 0.5)),
        round(e, 3),
        target,
        race,
    )
