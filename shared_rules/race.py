"""A match of several frames (встреча «до N побед»): a race to N frames, its break rule and handicap.

Each frame is a full `Match` of the variant (one engine fold); the race only decides how the next frame opens
and who has won. Pure, like the rest of the engine: the same frames give the same race.

- The first frame opens with the lag (general 11). Later frames alternate the break (general 11), or the loser
  or the winner of the previous frame breaks (general A-G4); after a drawn frame, or one that ended before
  anybody broke, the break alternates from the last frame that had a breaker.
- A handicap (general A-G5): a points head start or balls on the shelf in every frame (opening.py), or frames
  won before the first break.
- A time limit (general A-G6): once time is called, by the rule `finish_frame` the leader in frames wins when
  the frame in play is over (a tied score plays on, frame by frame); by the rule `referee` nothing follows by
  itself. The engine has no clock: the caller calls the time (`Race.call_time`),
  and the log keeps the frame it was in.
- The first to `race_to` frames wins the match. A frame is conceded with the engine's `Concede`; a match may
  be abandoned with a reason and then has no winner. A drawn frame
  (Free A-F1) counts for nobody (general A-G4).

`Race` plays a whole match: `play` goes to the frame in play, `next_frame` starts the next one once the frame
in play is over, `abandon` ends it. Its log (`to_log`, format `luza-race`) keeps every frame's inputs; the
openings are re-derived from the rules and the frames before, so a replay gives the same race (`from_log`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .codec import input_from_dict
from .errors import IllegalInputError, MalformedInputError, RulesError
from .match import Match
from .model import Concede, Input, Lag
from .opening import PLAIN, BreakRule, HandicapKind, Opening
from .outcome import Outcome, Reason

RACE_FORMAT = "luza-race"
RACE_VERSION = 1
MAX_RACE = 25  # frames to win: a league's final is a race to 5-7; 25 is far beyond any regulation

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
TIME_RULES = ("finish_frame", "referee")  # what follows when the time is up (general A-G6)
MAX_TIME_MIN = 600
R_HANDICAP_FRAMES = Reason(
    "general",
    "A-G5",
    "handicap: frames won before the first break",
    "фора: партии, засчитанные до первого разбоя",
    "A-G5",
)


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

    def to_dict(self) -> dict[str, Any]:
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

    def to_dict(self) -> dict[str, Any]:
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


@dataclass
class Race:
    """A whole match: frames of one variant between two players, by `rules` (module docstring)."""

    variant: str
    players: tuple[str, str]
    options: Mapping[str, object] = field(default_factory=dict)
    rules: RaceRules = field(default_factory=RaceRules)
    frames: list[Match] = field(default_factory=list)
    abandoned: str | None = None
    time_called: int | None = None  # the frame (from 1) in which the time was called (general A-G6)

    def __post_init__(self) -> None:
        if not self.frames:
            self.frames.append(self._new_frame())

    def _new_frame(self) -> Match:
        done = [result_of(f) for f in self.frames]
        return Match.new(self.variant, self.players, self.options, next_opening(self.rules, done))

    @property
    def frame(self) -> Match:
        """The frame in play (or the last one, once the match is over)."""
        return self.frames[-1]

    @property
    def results(self) -> tuple[FrameResult, ...]:
        return tuple(result_of(f) for f in self.frames if f.state.over)

    @property
    def score(self) -> tuple[int, int]:
        return frames_won(self.rules, self.results)

    @property
    def winner(self) -> int | None:
        return None if self.abandoned is not None else race_winner(self.rules, self.results, self.time_called)

    @property
    def over(self) -> bool:
        return self.abandoned is not None or self.winner is not None

    def play(self, inp: Input) -> Outcome:
        """An input of the frame in play; IllegalInputError once the match is over."""
        self._check_open()
        return self.frame.play(inp)

    def undo(self) -> Input:
        """Take back the last input of the frame in play
        (a frame already finished and left stays as it is)."""
        if self.abandoned is not None:
            raise IllegalInputError("the match was abandoned", "встреча прекращена")
        return self.frame.undo()

    def next_frame(self) -> Match:
        """Start the next frame; IllegalInputError unless the frame in play is over and the match is not."""
        self._check_open()
        if not self.frame.state.over:
            raise IllegalInputError(
                f"frame {len(self.frames)} is still in play; finish or concede it first",
                f"партия {len(self.frames)} ещё идёт; доиграйте или сдайте её",
            )
        self.frames.append(self._new_frame())
        return self.frame

    def call_time(self) -> None:
        """The match time is up (general A-G6), in the frame in play; IllegalInputError without a time limit,
        once called already or once the match is over."""
        self._check_open()
        if self.rules.time_limit_min is None:
            raise IllegalInputError("this match has no time limit", "у этой встречи нет лимита времени")
        if self.time_called is not None:
            raise IllegalInputError("the time is already up", "время уже вышло")
        self.time_called = len(self.frames)

    def abandon(self, reason: str) -> None:
        """End the match with no winner (a reason is required: it goes on the scoresheet)."""
        if not isinstance(reason, str) or not reason.strip():
            raise MalformedInputError("abandon: give a reason", "прекращение встречи: укажите причину")
        self._check_open()
        self.abandoned = reason.strip()

    def _check_open(self) -> None:
        if self.abandoned is not None:
            raise IllegalInputError("the match was abandoned", "встреча прекращена")
        if self.winner is not None:
            raise IllegalInputError("the match is over", "встреча окончена")

    def summary(self) -> dict[str, Any]:
        """The race section of a scoreboard (`tally`)."""
        return tally(self.rules, [result_of(f) for f in self.frames], self.abandoned, self.time_called)

    # -- the log -------------------------------------------------------------------------------------------

    def to_log(self) -> dict[str, Any]:
        """Every frame's inputs; the openings follow from the rules and the frames before them."""
        first = self.frames[0].to_log()
        return {
            "format": RACE_FORMAT,
            "version": RACE_VERSION,
            "variant": first["variant"],
            "players": first["players"],
            "options": dict(self.options),
            "race": self.rules.to_dict(),
            "frames": [f.to_log()["inputs"] for f in self.frames],
            "abandoned": self.abandoned,
            "time_called": self.time_called,
        }

    @classmethod
    def from_log(cls, log: object) -> Race:
        """Rebuild a race from `to_log()` output; MalformedInputError naming the place if it is bad."""
        if not isinstance(log, Mapping) or log.get("format") != RACE_FORMAT:
            raise MalformedInputError(
                f"log.format: expected {RACE_FORMAT!r}", f"log.format: нужен {RACE_FORMAT!r}"
            )
        if log.get("version") != RACE_VERSION:
            raise MalformedInputError(
                f"log.version: this engine reads version {RACE_VERSION}",
                f"log.version: поддерживается версия {RACE_VERSION}",
            )
        frames, players, options = log.get("frames"), log.get("players"), log.get("options", {})
        if not isinstance(frames, list) or not frames or not isinstance(players, list) or len(players) != 2:
            raise MalformedInputError(
                "log: expected players and a list of frames", "log: нужны игроки и список партий"
            )
        try:
            race = cls(
                str(log.get("variant")),
                (str(players[0]), str(players[1])),
                dict(options),
                RaceRules.from_dict(log.get("race")),
            )
        except RulesError as e:
            raise MalformedInputError(f"log: {e.en}", f"log: {e.ru}") from None
        called = log.get("time_called")
        if called is not None and (type(called) is not int or not 1 <= called <= len(frames)):
            raise MalformedInputError(
                f"log.time_called: expected a frame number 1..{len(frames)}, got {called!r}",
                f"log.time_called: нужен номер партии 1..{len(frames)}, получено {called!r}",
            )
        for k, inputs in enumerate(frames):
            if k:
                _at(f"log.frames[{k}]", race.next_frame)
            # the time was called in this frame: before its inputs, as only its end counts
            if k + 1 == called:
                _at("log.time_called", race.call_time)
            if not isinstance(inputs, list):
                raise MalformedInputError(f"log.frames[{k}]: expected a list of inputs")
            for i, raw in enumerate(inputs):
                _at(f"log.frames[{k}][{i}]", lambda raw=raw: race.play(input_from_dict(raw)))
        if log.get("abandoned") is not None:
            _at("log.abandoned", lambda: race.abandon(log.get("abandoned")))  # type: ignore[arg-type]
        return race


def _at(place: str, fn: Any) -> Any:
    try:
        return fn()
    except RulesError as e:
        raise MalformedInputError(f"{place}: {e.en}", f"{place}: {e.ru}") from None
