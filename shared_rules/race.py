"""A match of several frames (встреча «до N побед»), played and logged.

Each frame is a full `Match` of the variant (one engine fold); the race only decides how the next frame opens
and who has won (race_standing.py, by the rules of race_rules.py: the break rule, general 11 and A-G4; the
handicap, general A-G5; the time limit, general A-G6). Pure, like the rest of the engine: the same frames give
the same race.

- The engine has no clock: the caller calls the time (`Race.call_time`, general A-G6), and the log keeps the
  frame it was in.
- A frame is conceded with the engine's `Concede`; a match may be abandoned with a reason and then has no
  winner (general A-G4).

`Race` plays a whole match: `play` goes to the frame in play, `next_frame` starts the next one once the frame
in play is over, `abandon` ends it. Its log (`to_log`, format `luza-race`) keeps every frame's inputs; the
openings are re-derived from the rules and the frames before, so a replay gives the same race (`from_log`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .codec import input_from_dict
from .errors import IllegalInputError, MalformedInputError, RulesError
from .match import Match
from .model import Input
from .outcome import Outcome
from .race_rules import RaceRules
from .race_standing import FrameResult, frames_won, next_opening, race_winner, result_of, tally

RACE_FORMAT = "luza-race"
RACE_VERSION = 1


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
