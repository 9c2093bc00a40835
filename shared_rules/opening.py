"""How one frame of a match opens: who breaks and the handicap (фора) the weaker player starts with.

A frame on its own opens with the lag (general 11). In a race of several frames (race.py) the lag winner
breaks the first frame and later frames follow the match's break rule: they alternate (general 11), or the
loser or the winner of the previous frame breaks (general A-G4, a tournament's regulation). A handicap
(general A-G5) is a points head start, or balls put on a player's shelf before the break; they count as that
player's from the start, each with the reason cited. A frames head start is the
race's, not a frame's (race.py).

`Opening` is part of a frame's log (`Match.to_log()["opening"]`, left out when it is the plain lag), so a
frame replays to the same state. `Variant.start` applies it (`open_frame`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .draft import Draft
from .errors import MalformedInputError
from .outcome import Reason
from .state import LAG, PLAY


class BreakRule(StrEnum):
    """Who breaks the frames after the first of a race (the first is always the lag's, general 11)."""

    ALTERNATE = "alternate"  # general 11: later frames alternate (the default)
    LOSER = "loser"  # general A-G4: the loser of the previous frame breaks
    WINNER = "winner"  # general A-G4: the winner of the previous frame breaks


class HandicapKind(StrEnum):
    """What a handicap gives (general A-G5)."""

    POINTS = "points"  # a points head start in every frame
    BALLS = "balls"  # balls on the shelf at the start of every frame
    FRAMES = "frames"  # frames won before the first break (the race's, race.py)


def _r(paragraph: str, en: str, ru: str, ambiguity: str | None = None) -> Reason:
    return Reason("general", paragraph, en, ru, ambiguity)


R_ALTERNATE = _r(
    "11",
    "a later frame: the break alternates, this player breaks from hand from the house",
    "следующая партия: разбивают по очереди, разбивает этот игрок с руки из дома",
)
R_LOSER_BREAKS = _r(
    "A-G4",
    "the match's rule: the loser of the previous frame breaks",
    "правило встречи: разбивает проигравший предыдущую партию",
    "A-G4",
)
R_WINNER_BREAKS = _r(
    "A-G4",
    "the match's rule: the winner of the previous frame breaks",
    "правило встречи: разбивает выигравший предыдущую партию",
    "A-G4",
)
R_HANDICAP_BALL = _r(
    "A-G5",
    "handicap: this ball starts on the player's shelf and counts for them",
    "фора: шар с начала партии на полке игрока и засчитан ему",
    "A-G5",
)
R_HANDICAP_POINTS = _r("A-G5", "handicap: a points head start", "фора: очки вперёд", "A-G5")

BREAK_REASONS: dict[BreakRule, Reason] = {
    BreakRule.ALTERNATE: R_ALTERNATE,
    BreakRule.LOSER: R_LOSER_BREAKS,
    BreakRule.WINNER: R_WINNER_BREAKS,
}


@dataclass(frozen=True, slots=True)
class Opening:
    """A frame's start: `breaker` None is the lag (general 11); `rule` is why `breaker` breaks; `points` and
    `balls` are each seat's handicap (general A-G5)."""

    breaker: int | None = None
    rule: BreakRule = BreakRule.ALTERNATE
    points: tuple[int, int] = (0, 0)
    balls: tuple[int, int] = (0, 0)

    @property
    def plain(self) -> bool:
        """The ordinary start: a lag, no handicap."""
        return self == PLAIN

    def to_dict(self) -> dict[str, Any]:
        return {
            "breaker": self.breaker,
            "rule": self.rule.value,
            "points": list(self.points),
            "balls": list(self.balls),
        }

    @classmethod
    def from_dict(cls, raw: object) -> Opening:
        """Read `to_dict()` output; MalformedInputError naming the field if it is bad."""
        if not isinstance(raw, Mapping):
            raise MalformedInputError("opening: expected an object", "opening: нужен объект")
        unknown = set(raw) - {"breaker", "rule", "points", "balls"}
        if unknown:
            raise MalformedInputError(
                f"opening: unknown field(s) {sorted(unknown)}", f"opening: неизвестные поля {sorted(unknown)}"
            )
        breaker = raw.get("breaker")
        if breaker is not None and (type(breaker) is not int or breaker not in (0, 1)):
            raise MalformedInputError(
                f"opening.breaker: expected 0, 1 or null, got {breaker!r}",
                f"opening.breaker: нужно 0, 1 или null, получено {breaker!r}",
            )
        rule = raw.get("rule", BreakRule.ALTERNATE.value)
        if rule not in tuple(BreakRule):
            raise MalformedInputError(
                f"opening.rule: expected one of {[r.value for r in BreakRule]}, got {rule!r}",
                f"opening.rule: нужно одно из {[r.value for r in BreakRule]}, получено {rule!r}",
            )
        return cls(
            breaker,
            BreakRule(rule),
            _pair(raw.get("points", [0, 0]), "points"),
            _pair(raw.get("balls", [0, 0]), "balls"),
        )


PLAIN = Opening()


def _pair(raw: object, field: str) -> tuple[int, int]:
    if (
        not isinstance(raw, list | tuple)
        or len(raw) != 2
        or not all(type(x) is int and 0 <= x <= 200 for x in raw)
    ):
        raise MalformedInputError(
            f"opening.{field}: expected two whole numbers 0..200, got {raw!r}",
            f"opening.{field}: нужны два целых числа 0..200, получено {raw!r}",
        )
    return (raw[0], raw[1])


def check_opening(opening: Opening, handicaps: frozenset[HandicapKind], variant: str, target: int) -> None:
    """Refuse a handicap the variant cannot give, or one that would decide the frame before the break."""
    for kind, pair in ((HandicapKind.POINTS, opening.points), (HandicapKind.BALLS, opening.balls)):
        if any(pair) and kind not in handicaps:
            allowed = ", ".join(sorted(handicaps)) or "none"
            raise MalformedInputError(
                f"handicap: {variant} cannot give a {kind.value} handicap "
                f"(it gives: {allowed}; general A-G5)",
                f"фора: в разновидности {variant} нельзя дать фору «{kind.value}» "
                f"(можно: {allowed}; п. A-G5)",
            )
    for seat in (0, 1):
        if opening.points[seat] + opening.balls[seat] >= target:
            raise MalformedInputError(
                f"handicap: seat {seat} would start at or above the target {target} (general A-G5)",
                f"фора: игрок {seat} начал бы партию с целью {target} или больше (п. A-G5)",
            )


def open_frame(
    d: Draft, opening: Opening, pick: Callable[[Draft, int], tuple[int, ...]], value: Callable[[int], int]
) -> None:
    """Apply `opening` to the draft of a fresh frame: the handicap balls (`pick(d, n)` names them, `value` is
    what each scores), the points head start, then the breaker (or the lag, left as it is)."""
    for seat in (0, 1):
        for ball in pick(d, opening.balls[seat]):
            d.take_from_table(ball)
            d.to_shelf(seat, ball, R_HANDICAP_BALL, value(ball))
        if opening.points[seat]:
            d.add_score(seat, opening.points[seat], R_HANDICAP_POINTS)
    if opening.breaker is None:
        d.mode = LAG
        return
    d.mode = PLAY
    d.breaker = opening.breaker
    d.is_break = True
    d.pass_turn(opening.breaker, BREAK_REASONS[opening.rule])
