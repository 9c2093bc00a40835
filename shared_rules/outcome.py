"""What the engine says about an input: ordered effects, each with the rule that caused it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum


@dataclass(frozen=True, slots=True)
class Reason:
    """The rule behind a decision: `classic 5.6: foul, −5 to the player, +5 to the opponent`.

    `paragraph` is the variant's own paragraph, or `general 20` for the МКП general rules; `ambiguity` names the
    reading of docs/rules/ (`A-C4`) where the text was unclear.
    """  # noqa: E501

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


@dataclass(frozen=True, slots=True)
class Effect:
    kind: EffectKind
    reason: Reason
    player: int | None = None
    ball: int | None = None
    amount: int | None = None
    spot: str | None = None
    detail: str | None = None


@dataclass(frozen=True, slots=True)
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


class NeedKind(StrEnum):
    """What a need asks for, and what answers it (`answer`). A `str`, so JSON and `kind == "lag"` keep working.

    Blocking kinds are answered by their own input before anything else is played; the others are facts the
    next `ShotReport` carries (`fact` names its field) or an instruction (placement).
    """  # noqa: E501

    LAG = "lag"  # Lag
    CHOICE = "choice"  # Choose
    REFEREE_DECISION = "referee_decision"  # RefereeDecision
    BALL_NUMBER = "ball_number"  # Identify(ball=...): a held shot's ball whose number decides the result
    BALL_COLOUR = "ball_colour"  # Identify(colour=...): a held shot's ball whose colour decides the result
    DECLARATION = "declaration"  # ShotReport.declarations: the call before the shot
    CUE_BALL = "cue_ball"  # ShotReport.cue_ball: which ball is struck with the cue (a ball id)
    CUE_COLOUR = "cue_colour"  # ShotReport.cue_colour: the colour of the ball struck with the cue
    PLACEMENT = "placement"  # an instruction: where the ball in hand may be placed

    @property
    def answer(self) -> str:
        """The input type, or the `ShotReport` field, that answers a need of this kind."""
        return _ANSWERS[self]

    @property
    def fact(self) -> str | None:
        """The `ShotReport` field a non-blocking need asks for (None:
        answered by an input, or an instruction)."""
        a = _ANSWERS[self]
        return a.removeprefix("ShotReport.") if a.startswith("ShotReport.") else None

    @property
    def held(self) -> bool:
        """True for the kinds that hold a shot: a ball of the report is named afterwards (`Identify`)."""
        return self in (NeedKind.BALL_NUMBER, NeedKind.BALL_COLOUR)


_ANSWERS: dict[NeedKind, str] = {
    NeedKind.LAG: "Lag",
    NeedKind.CHOICE: "Choose",
    NeedKind.REFEREE_DECISION: "RefereeDecision",
    NeedKind.BALL_NUMBER: "Identify",
    NeedKind.BALL_COLOUR: "Identify",
    NeedKind.DECLARATION: "ShotReport.declarations",
    NeedKind.CUE_BALL: "ShotReport.cue_ball",
    NeedKind.CUE_COLOUR: "ShotReport.cue_colour",
    NeedKind.PLACEMENT: "",
}


@dataclass(frozen=True, slots=True)
class Need:
    """Something that must be supplied before (or after) the next shot, for the referee panel to prompt.

    `kind` says what is asked and what answers it (`NeedKind.answer`). `options` lists what may be answered
    (choice options, ball ids, colour values); `before_shot` says when. A held shot's need (`BALL_NUMBER`,
    `BALL_COLOUR`) names the reported ball it asks about: `slot` (index into the report's `pocketed`, then
    `jumped`) and its `pocket` (None for a jumped ball).
    """

    kind: NeedKind
    player: int | None
    en: str
    ru: str
    options: tuple[str, ...] = ()
    before_shot: bool = True
    balls: tuple[int, ...] = ()  # for a choice that takes a ball: the balls that may be taken
    # True: must be answered with its own input (Lag, Choose, RefereeDecision, Identify)
    blocking: bool = False
    slot: int | None = None  # a held shot's need: the reported ball it asks about
    pocket: int | None = None  # ... and the pocket that ball went into
