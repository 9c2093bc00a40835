"""What the engine says about an input: ordered effects, each with the rule that caused it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True)
class Reason:
    """The rule behind a decision: `classic 5.6: foul, −5 to the player, +5 to the opponent`.

    `paragraph` is the variant's own paragraph, or `general 20` for the МКП general rules; `ambiguity` names the
    digest's reading (`A-C4`) where the text was unclear.
    """

    variant: str
    paragraph: str
    en: str
    ru: str
    ambiguity: str | None = None

    def cite(self) -> str:
        return f"{self.variant} {self.paragraph}"

    def __str__(self) -> str:
        tail = f" [{self.ambiguity}]" if self.ambiguity else ""
        return f"{self.cite()}: {self.en}{tail}"

    def text(self, lang: str = "en") -> str:
        body = self.ru if lang == "ru" else self.en
        return f"{self.cite()}: {body}"


class EffectKind(Enum):
    FOUL = "foul"  # a foul was called (detail = foul code)
    SCORE = "score"  # player's score changes by amount
    TO_SHELF = "to_shelf"  # ball goes to player's shelf
    TO_TABLE = "to_table"  # ball comes back to the table at spot
    OFF_TABLE = "off_table"  # ball leaves play for nobody (Star joker on a foul)
    SPOT = "spot"  # ball is spotted at spot (placement instruction for the referee)
    TURN_KEPT = "turn_kept"
    TURN_PASSED = "turn_passed"
    IN_HAND = "in_hand"  # player has the cue ball in hand (detail = house/anywhere)
    MODE = "mode"  # mode change (detail = new mode)
    CHOICE = "choice"  # a choice is now pending for player (detail = what)
    DEBT = "debt"  # 100 points: a penalty owed with an empty shelf
    RACK = "rack"  # re-rack (outside interference), detail says how
    NOTE = "note"  # audit entry with no state change (restored positions)
    WON = "won"
    DRAWN = "drawn"


@dataclass(frozen=True)
class Effect:
    kind: EffectKind
    reason: Reason
    player: int | None = None
    ball: int | None = None
    amount: int | None = None
    spot: str | None = None
    detail: str | None = None


@dataclass(frozen=True)
class Outcome:
    """The ordered effects of one input."""

    effects: tuple[Effect, ...] = ()

    @property
    def reasons(self) -> tuple[Reason, ...]:
        return tuple(e.reason for e in self.effects)

    def explain(self, lang: str = "en") -> list[str]:
        return [e.reason.text(lang) for e in self.effects]

    def of_kind(self, kind: EffectKind) -> tuple[Effect, ...]:
        return tuple(e for e in self.effects if e.kind is kind)


@dataclass(frozen=True)
class Need:
    """Something that must be supplied before (or after) the next shot, for the referee panel to prompt.

    kind: `lag`, `declaration`, `choice`, `ball_number`, `cue_ball`, `referee_decision`.
    `options` lists what may be answered (choice options, ball ids); `before_shot` says when.
    """

    kind: str
    player: int | None
    en: str
    ru: str
    options: tuple[str, ...] = ()
    before_shot: bool = True
    balls: tuple[int, ...] = ()  # for a choice that takes a ball: the balls that may be taken
    blocking: bool = False  # True: must be answered with its own input (Lag, Choose, RefereeDecision) first
