"""`Match`: a match is its list of inputs; the state is the fold of the variant's rules over it.

`play` pushes an input (python-chess's `Board.push`), `undo` pops it, and equals a replay without the last
input (the property tests check that). The match keeps the latest few states, one in every `CHECKPOINT` before
them, and every outcome: the first look at a state it let go (after undos) replays at most `CHECKPOINT - 1`
inputs from the checkpoint and keeps the states it made, so taking back m inputs costs O(m) whatever the
match's length, and a long match keeps a sixteenth of its states (a state is ~250 bytes;
a hub keeps a club's matches live for hours).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .codec import input_from_dict, input_to_dict
from .errors import IllegalInputError, MalformedInputError, RulesError
from .model import Input
from .opening import PLAIN, Opening
from .outcome import Need, Outcome
from .registry import find_variant
from .state import State
from .variant import Variant

LOG_FORMAT = "luza-match"
LOG_VERSION = 1
CHECKPOINT = 16  # one state in this many is kept for good (and the first)
RECENT = 4  # the latest states are kept too: the hub plays the open shot and takes it back on every input


class Match:
    """One match of one variant between two players (seats 0 and 1)."""

    __slots__ = ("_history", "_outcomes", "_states", "opened", "opening", "players", "variant")

    def __init__(self, variant: Variant, players: tuple[str, str], opening: Opening = PLAIN) -> None:
        self.variant = variant
        self.players = players
        self.opening = opening  # who breaks and the handicap (opening.py); PLAIN: a lag, no handicap
        first, self.opened = variant.start(opening)  # `opened`: what the opening did, with its reasons
        self._states: list[State | None] = [first]  # None: let go, replayed when needed
        self._history: list[Input] = []
        self._outcomes: list[Outcome] = []

    @classmethod
    def new(
        cls,
        variant: str,
        players: tuple[str, str] = ("Player 1", "Player 2"),
        options: Mapping[str, object] | None = None,
        opening: Opening = PLAIN,
    ) -> Match:
        """A fresh match of the variant called `variant` (docs/rules/README.md, options, in `options`);
        `opening`: who breaks and the handicap when it is a frame of a race (opening.py)."""
        if not (
            isinstance(players, (tuple, list))
            and len(players) == 2
            and all(isinstance(p, str) for p in players)
        ):
            raise MalformedInputError(
                f"players: expected two names, got {players!r}",
                f"players: нужны два имени, получено {players!r}",
            )
        return cls(find_variant(variant)(options), (players[0], players[1]), opening)

    @property
    def state(self) -> State:
        """The current (frozen) state."""
        state = self._states[-1]
        if state is None:  # undone down to a state let go
            state = self._replay_to_latest()
        return state

    @property
    def history(self) -> tuple[Input, ...]:
        """Every input played, in order."""
        return tuple(self._history)

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        """The outcome of each input in `history`."""
        return tuple(self._outcomes)

    def play(self, inp: Input) -> Outcome:
        """Apply one input. On a RulesError nothing changes."""
        state, outcome = self.variant.apply(self.state, inp)
        self._states.append(state)
        self._history.append(inp)
        self._outcomes.append(outcome)
        self._let_go(len(self._states) - 1 - RECENT)
        return outcome

    def undo(self) -> Input:
        """Take back the last input; IllegalInputError if there is none."""
        if not self._history:
            raise IllegalInputError("nothing to undo", "нечего отменять")
        self._states.pop()
        self._outcomes.pop()
        return self._history.pop()  # the state before it is made again when it is asked for

    def _let_go(self, i: int) -> None:
        """Let go of state `i` and of any kept below it back to the checkpoint (states an undo replayed)."""
        while i > 0 and i % CHECKPOINT and self._states[i] is not None:
            self._states[i] = None
            i -= 1

    def _replay_to_latest(self) -> State:
        """Make the states from the last checkpoint to the latest again
        (the rules are pure: the same states)."""
        j = len(self._states) - 1
        while self._states[j] is None:
            j -= 1
        state = self._states[j]
        assert state is not None
        for k in range(j, len(self._states) - 1):
            state = self._states[k + 1] = self.variant.apply(state, self._history[k])[0]
        return state

    def needs(self) -> tuple[Need, ...]:
        """What must be supplied before or with the next shot (see docs/rules-engine.md)."""
        return self.variant.needs(self.state)

    # -- the log -------------------------------------------------------------------------------------------

    def to_log(self) -> dict[str, Any]:
        """The versioned, JSON-able match log: enough to rebuild this match exactly."""
        log: dict[str, Any] = {
            "format": LOG_FORMAT,
            "version": LOG_VERSION,
            "variant": self.variant.name,
            "players": list(self.players),
            "options": dict(self.variant.options),
            "inputs": [input_to_dict(i) for i in self._history],
        }
        if not self.opening.plain:
            log["opening"] = self.opening.to_dict()
        return log

    @classmethod
    def from_log(cls, log: object) -> Match:
        """Rebuild a match from `to_log()` output; MalformedInputError (naming the place) if it is bad."""
        if not isinstance(log, dict):
            raise MalformedInputError("log: expected an object")
        if log.get("format") != LOG_FORMAT:
            raise MalformedInputError(f"log.format: expected {LOG_FORMAT!r}, got {log.get('format')!r}")
        if log.get("version") != LOG_VERSION:
            raise MalformedInputError(
                f"log.version: unknown version {log.get('version')!r}; "
                f"this engine reads version {LOG_VERSION}",
                f"log.version: неизвестная версия {log.get('version')!r}; поддерживается {LOG_VERSION}",
            )
        players = log.get("players")
        if not isinstance(players, list):
            raise MalformedInputError("log.players: expected a list of two names")
        options = log.get("options", {})
        if not isinstance(options, dict):
            raise MalformedInputError("log.options: expected an object")
        variant = log.get("variant")
        if not isinstance(variant, str):
            raise MalformedInputError("log.variant: expected a variant name")
        try:
            opening = Opening.from_dict(log["opening"]) if "opening" in log else PLAIN
            match = cls.new(variant, tuple(players), options, opening)  # type: ignore[arg-type]
        except RulesError as e:
            raise MalformedInputError(f"log: {e.en}", e.ru) from None
        inputs = log.get("inputs")
        if not isinstance(inputs, list):
            raise MalformedInputError("log.inputs: expected a list")
        for i, raw in enumerate(inputs):
            try:
                match.play(input_from_dict(raw))
            except RulesError as e:
                raise MalformedInputError(f"log.inputs[{i}]: {e.en}", f"log.inputs[{i}]: {e.ru}") from None
        return match
