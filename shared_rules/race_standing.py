"""Where a race stands after its frames: each frame's result, the frame score, the winner, who breaks the next
frame and how it opens, and the race section of a scoreboard. Pure functions of the rules (race_rules.py) and
the frames' results.

- The first frame opens with the lag (general 11). Later frames follow the break rule (general 11, A-G4);
  after a drawn frame, or one that ended before anybody broke, the break alternates from the last frame that
  had a breaker.
- The first to `race_to` frames wins the match; a drawn frame (Free A-F1) counts for nobody (general A-G4);
  frames given as a handicap count from the start (general A-G5).
- Once the time is called, by the rule `finish_frame` the leader in frames wins when the frame in play is over
  (a tied score plays on, frame by frame); by the rule `referee` nothing follows by itself (general A-G6).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .match import Match
from .model import Concede, Lag
from .opening import PLAIN, BreakRule, HandicapKind, Opening
from .outcome import Reason
from .race_rules import RaceRules

R_RACE_WON = Reason(
    "general",
    "A-G4",
    "first to the race's number of frames wins the match",
    "встречу выигрывает первым выигравший назначенное число партий",
    "A-G4",
)
R_TIME_LEADER = Reason(
    "general",
    "A-G6",
    "time limit: the leader in frames wins once the frame in play is over",
    "лимит времени: по окончании текущей партии побеждает ведущий по партиям",
    "A-G6",
)


@dataclass(frozen=True, slots=True)
class FrameResult:
    """How a frame ended: its winner (None: drawn, or not over), who broke it, whether it was conceded."""

    winner: int | None
    drawn: bool
    breaker: int | None
    conceded: bool
    scores: tuple[int, int]

    @property
    def over(self) -> bool:
        return self.winner is not None or self.drawn


def result_of(frame: Match) -> FrameResult:
    """A frame's result from its engine match. The breaker is the opening's, or the first lag's winner."""
    s = frame.state
    breaker = frame.opening.breaker
    if breaker is None:
        breaker = next((i.winner for i in frame.history if isinstance(i, Lag)), None)
    conceded = s.over and bool(frame.history) and isinstance(frame.history[-1], Concede)
    return FrameResult(s.winner, s.draw, breaker, conceded, s.scores)


def frames_won(rules: RaceRules, results: Sequence[FrameResult]) -> tuple[int, int]:
    """The frame score: the frames head start plus the frames won (a drawn frame counts for nobody, A-G4)."""
    won = list(rules.head_start())
    for r in results:
        if r.winner is not None:
            won[r.winner] += 1
    return (won[0], won[1])


def race_winner(
    rules: RaceRules, results: Sequence[FrameResult], time_called: int | None = None
) -> int | None:
    """The seat that has won `race_to` frames, if one has (general A-G4); `results` are the frames over. With
    the time called in frame `time_called` (from 1) and the rule finish_frame, once that frame is over the
    leader in frames wins; a tied score waits for the next frame over (general A-G6)."""
    score = frames_won(rules, results)
    won = next((p for p in (0, 1) if score[p] >= rules.race_to), None)
    if won is not None or time_called is None or rules.time_rule != "finish_frame":
        return won
    if len(results) < time_called or score[0] == score[1]:
        return None
    return 0 if score[0] > score[1] else 1


def next_breaker(rules: RaceRules, results: Sequence[FrameResult]) -> int | None:
    """Who breaks the next frame: None (the lag) for the first; then by the break rule (general 11, A-G4)."""
    last = next((r for r in reversed(results) if r.breaker is not None), None)
    if last is None or last.breaker is None:
        return None  # nobody has broken yet: the lag decides (general 11)
    prev = results[-1]
    if rules.break_rule is BreakRule.LOSER and prev.winner is not None:
        return 1 - prev.winner
    if rules.break_rule is BreakRule.WINNER and prev.winner is not None:
        return prev.winner
    return 1 - last.breaker


def next_opening(rules: RaceRules, results: Sequence[FrameResult]) -> Opening:
    """How the next frame opens: its breaker and the per-frame handicap (opening.py)."""
    h = rules.handicap
    points = h.pair(HandicapKind.POINTS) if h else (0, 0)
    balls = h.pair(HandicapKind.BALLS) if h else (0, 0)
    breaker = next_breaker(rules, results)
    rule = rules.break_rule
    if (
        breaker is not None
        and rule is not BreakRule.ALTERNATE
        and (not results or results[-1].winner is None)
    ):
        rule = BreakRule.ALTERNATE  # a drawn frame: the break alternates (A-G4)
    return replace(PLAIN, breaker=breaker, rule=rule, points=points, balls=balls)


def tally(
    rules: RaceRules,
    results: Sequence[FrameResult],
    abandoned: str | None = None,
    time_called: int | None = None,
) -> dict[str, Any]:
    """The race section of a scoreboard (JSON-able) from every frame's result, the one in play last: the frame
    score, each frame, the winner, whether the time is up (docs/web-api.md)."""
    done = [r for r in results if r.over]
    winner = race_winner(rules, done, time_called) if abandoned is None else None
    current = results[-1] if results else None
    frame_over = current is not None and current.over
    return {
        **rules.to_dict(),
        "frame": len(results),
        "score": list(frames_won(rules, done)),
        "head_start": list(rules.head_start()),
        "winner": winner,
        "abandoned": abandoned,
        "over": winner is not None or abandoned is not None,
        "frame_over": frame_over,
        "next_breaker": next_breaker(rules, results)
        if frame_over and winner is None and abandoned is None
        else None,
        "frames": [
            {
                "number": i + 1,
                "winner": r.winner,
                "drawn": r.drawn,
                "conceded": r.conceded,
                "breaker": r.breaker,
                "scores": list(r.scores),
                "over": r.over,
            }
            for i, r in enumerate(results)
        ],
        "time_called": time_called is not None,
        "reason": _reason(rules, winner, frames_won(rules, done)),
    }


def _reason(rules: RaceRules, winner: int | None, score: tuple[int, int]) -> dict[str, str] | None:
    if winner is None:
        return None
    why = R_RACE_WON if score[winner] >= rules.race_to else R_TIME_LEADER  # won outright, or on time (A-G6)
    return {"en": why.text("en"), "ru": why.text("ru")}
