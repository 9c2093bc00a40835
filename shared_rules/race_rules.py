"""The format of a match of several frames (встреча «до N побед»): the race to N frames, its break rule, its
handicap and its time limit, checked with bilingual errors and read from / written to plain JSON.

- Later frames alternate the break (general 11), or the loser or the winner of the previous frame breaks
  (general A-G4).
- A handicap (general A-G5): a points head start or balls on the shelf in every frame (opening.py), or frames
  won before the first break.
- A time limit (general A-G6) and the rule of what follows when it is up: `finish_frame` or `referee`.

What the frames played decide under these rules is race_standing.py; the match itself is race.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from .errors import MalformedInputError
from .opening import BreakRule, HandicapKind
from .outcome import Reason

MAX_RACE = 25  # frames to win: a league's final is a race to 5-7; 25 is far beyond any regulation
TIME_RULES = ("finish_frame", "referee")  # what follows when the time is up (general A-G6)
MAX_TIME_MIN = 600
R_HANDICAP_FRAMES = Reason(
    "general",
    "A-G5",
    "handicap: frames won before the first break",
    "фора: партии, засчитанные до первого разбоя",
    "A-G5",
)


class HandicapJSON(TypedDict):
    """`Handicap.to_dict()`: in a race's JSON (the scoreboard, the engine log, new_match's `race`)."""

    kind: str
    amount: int
    seat: int


class RaceRulesJSON(TypedDict):
    """`RaceRules.to_dict()`: the race's rules as the engine log, the scoreboard and new_match carry them."""

    race_to: int
    break_rule: str
    handicap: HandicapJSON | None
    time_limit_min: int | None
    time_rule: str


@dataclass(frozen=True, slots=True)
class Handicap:
    """What the weaker player (`seat`) is given: points or balls in every frame, or frames (general A-G5)."""

    kind: HandicapKind
    amount: int
    seat: int = 1

    @classmethod
    def parse(cls, text: str) -> Handicap:
        """`points:10`, `balls:2:0`, `frames:1` (KIND:AMOUNT[:SEAT], seat 1 when not given)."""
        parts = text.strip().split(":")
        try:
            kind = HandicapKind(parts[0])
            amount = int(parts[1])
            seat = int(parts[2]) if len(parts) > 2 else 1
        except (ValueError, IndexError):
            raise MalformedInputError(
                f"handicap {text!r}: expected KIND:AMOUNT[:SEAT] with KIND points, "
                "balls or frames (e.g. balls:2:1)",
                f"фора {text!r}: нужно ВИД:СКОЛЬКО[:МЕСТО], ВИД — points, balls или frames (напр. balls:2:1)",
            ) from None
        if len(parts) > 3:
            raise MalformedInputError(f"handicap {text!r}: too many parts", f"фора {text!r}: лишние части")
        return cls.from_dict({"kind": kind.value, "amount": amount, "seat": seat})

    def to_dict(self) -> HandicapJSON:
        return {"kind": self.kind.value, "amount": self.amount, "seat": self.seat}

    @classmethod
    def from_dict(cls, raw: object) -> Handicap:
        if not isinstance(raw, Mapping) or set(raw) - {"kind", "amount", "seat"}:
            raise MalformedInputError(
                "handicap: expected {kind, amount, seat}", "фора: нужно {kind, amount, seat}"
            )
        kind, amount, seat = raw.get("kind"), raw.get("amount"), raw.get("seat", 1)
        if kind not in tuple(HandicapKind):
            raise MalformedInputError(
                f"handicap.kind: expected points, balls or frames, got {kind!r}",
                f"фора: вид points, balls или frames, получено {kind!r}",
            )
        if type(amount) is not int or not 1 <= amount <= 200:
            raise MalformedInputError(
                f"handicap.amount: expected a whole number 1..200, got {amount!r}",
                f"фора: количество — целое 1..200, получено {amount!r}",
            )
        if type(seat) is not int or seat not in (0, 1):
            raise MalformedInputError(
                f"handicap.seat: expected 0 or 1, got {seat!r}",
                f"фора: место игрока 0 или 1, получено {seat!r}",
            )
        return cls(HandicapKind(kind), amount, seat)

    def pair(self, kind: HandicapKind) -> tuple[int, int]:
        """This handicap's amount per seat if it is of `kind`, else (0, 0)."""
        if self.kind is not kind:
            return (0, 0)
        return (self.amount, 0) if self.seat == 0 else (0, self.amount)


@dataclass(frozen=True, slots=True)
class RaceRules:
    """The match format: a race to `race_to` frames, the break rule, an optional handicap."""

    race_to: int = 1
    break_rule: BreakRule = BreakRule.ALTERNATE
    handicap: Handicap | None = None
    time_limit_min: int | None = None  # a match time limit (general A-G6), None: none
    time_rule: str = "finish_frame"  # what follows when the time is up: finish_frame or referee (A-G6)

    def __post_init__(self) -> None:
        t = self.time_limit_min
        if t is not None and (type(t) is not int or not 1 <= t <= MAX_TIME_MIN):
            raise MalformedInputError(
                f"time_limit_min: expected a whole number of minutes 1..{MAX_TIME_MIN}, got {t!r}",
                f"time_limit_min: нужно целое число минут 1..{MAX_TIME_MIN}, получено {t!r}",
            )
        if self.time_rule not in TIME_RULES:
            raise MalformedInputError(
                f"time_rule: expected finish_frame or referee, got {self.time_rule!r}",
                f"time_rule: нужно finish_frame или referee, получено {self.time_rule!r}",
            )
        if type(self.race_to) is not int or not 1 <= self.race_to <= MAX_RACE:
            raise MalformedInputError(
                f"race_to: expected a whole number 1..{MAX_RACE}, got {self.race_to!r}",
                f"race_to: нужно целое число 1..{MAX_RACE}, получено {self.race_to!r}",
            )
        h = self.handicap
        if h is not None and h.kind is HandicapKind.FRAMES and h.amount >= self.race_to:
            raise MalformedInputError(
                f"handicap: {h.amount} frame(s) given in a race to {self.race_to} would "
                "decide it before it starts",
                f"фора: {h.amount} парт. вперёд при игре до {self.race_to} побед решает встречу до её начала",
            )

    @property
    def plain(self) -> bool:
        """One frame, no handicap: a match as Luza played it before races."""
        return self == RaceRules()

    def to_dict(self) -> RaceRulesJSON:
        return {
            "race_to": self.race_to,
            "break_rule": self.break_rule.value,
            "handicap": self.handicap.to_dict() if self.handicap else None,
            "time_limit_min": self.time_limit_min,
            "time_rule": self.time_rule,
        }

    @classmethod
    def from_dict(cls, raw: object) -> RaceRules:
        """Read `to_dict()` output (missing fields take their defaults); MalformedInputError if bad."""
        if raw is None:
            return cls()
        if not isinstance(raw, Mapping) or set(raw) - {
            "race_to",
            "break_rule",
            "handicap",
            "time_limit_min",
            "time_rule",
        }:
            raise MalformedInputError(
                "race: expected {race_to, break_rule, handicap, time_limit_min, time_rule}",
                "race: нужно {race_to, break_rule, handicap, time_limit_min, time_rule}",
            )
        rule = raw.get("break_rule", BreakRule.ALTERNATE.value)
        if rule not in tuple(BreakRule):
            raise MalformedInputError(
                f"break_rule: expected alternate, loser or winner, got {rule!r}",
                f"break_rule: нужно alternate, loser или winner, получено {rule!r}",
            )
        h = raw.get("handicap")
        return cls(
            raw.get("race_to", 1),
            BreakRule(rule),
            Handicap.from_dict(h) if h is not None else None,  # type: ignore[arg-type]
            raw.get("time_limit_min"),
            raw.get("time_rule", "finish_frame"),
        )  # type: ignore[arg-type]

    def head_start(self) -> tuple[int, int]:
        """Frames given before the first break (general A-G5)."""
        return self.handicap.pair(HandicapKind.FRAMES) if self.handicap else (0, 0)
