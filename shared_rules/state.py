"""The frozen position of a match: where every ball is, the scores, whose turn, what is owed and pending.

`State` is a `NamedTuple` on purpose: it is immutable like a frozen dataclass but is built several times
faster, and the fold builds one per input (the engine's target is ≥ 50,000 shots/s on one core).

Every ball is in exactly one place:
- on the table (`on_table`; `placed` tells the spot a ball was put on by the last input, if any),
- in hand (`hand`, waiting to be placed for a shot from hand; `in_hand` says from where),
- on a player's shelf (`shelves[player]`, in the order it got there),
- in a pocket but not on a shelf (`pocketed`, e.g. 100 points' #10 waiting for its spot),
- out of the game for nobody (`off_table`, e.g. Star's joker pocketed on a foul).

Variant-specific facts live in `extra`, a sorted tuple of `(key, value)` pairs with hashable values, so
Classic, Star and 100 points can keep their own counters without changing this class.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Generic, NamedTuple, TypeVar, overload

from .model import InHand, ShotReport
from .outcome import NeedKind


class Mode(StrEnum):
    """What the match waits for. A `str`, so `state.mode == "play"` and JSON keep working."""

    LAG = "lag"  # the lag must be entered before the break (general 11)
    PLAY = "play"
    REFEREE = "referee"  # the rules call for a referee decision (Free A-F1): `RefereeDecision`
    HELD = "held"  # a shot is held for a fact its report lacked (`State.held`): `Identify`
    OVER = "over"
    DECIDER = "decider"  # Classic 5.7: the 70:70 decider
    LAST_BALL = "last_ball"  # 100 points §20: the last-ball mode


LAG, PLAY, REFEREE, HELD, OVER = Mode.LAG, Mode.PLAY, Mode.REFEREE, Mode.HELD, Mode.OVER

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Key(str, Generic[T_co]):
    """A typed key of `State.extra`, declared by the variant that owns it: `BONUS: Key[bool] = Key("bonus")`.

    It is a `str` (the stored key and the log stay the same), and `State.get` / `Draft.get` /
    `Draft.set_extra` read and write it with its value type,
    so each variant's extra state is typed (mypy checks its uses)."""

    __slots__ = ()


class ChoiceKind(StrEnum):
    """What a pending choice is for (`Pending.kind`). A `str`, like `Mode`; a new variant adds its own here."""  # noqa: E501

    PENALTY_BALL = "penalty_ball"  # Free 7, Combined 7: take a penalty ball
    CUE_BALL_BALL = "cue_ball_ball"  # Combined/Dynamic 5.2: a ball for the pocketed cue ball
    PENALTY_OPTION = "penalty_option"  # Dynamic 7: a ball and play on, or a penalty shot
    STAR_PENALTY = "star_penalty"  # Star 5.1: take your next playing ball, or give the shot back


class Held(NamedTuple):
    """A shot held for one missing fact (the one protocol for a fact the evidence cannot settle).

    `report` is the shot as reported, with every certain fact filled in; `slot` is the ball asked about (an
    index into `report.pocketed`, then `report.jumped`); `need` is what is asked (`BALL_NUMBER`,
    `BALL_COLOUR`); `mode` is the mode the shot was played in. The answer is an `Identify` input; the shot is
    then folded as if reported with it (and may be held again for the next ball).
    """

    report: ShotReport
    slot: int
    need: NeedKind
    mode: Mode


class Pending(NamedTuple):
    """A choice the rules give a player; it is answered with `Choose` before the next shot."""

    player: int
    kind: ChoiceKind  # what the choice is for
    options: tuple[str, ...]  # the `Choose.option` values accepted
    balls: tuple[int, ...] = ()  # the balls that may be taken with option "take_ball"
    paragraph: str = ""  # the variant paragraph that gives the choice (for the prompt)


class State(NamedTuple):
    """The position after some inputs. Build new ones through `shared_rules.draft.Draft`, never by hand."""

    variant: str
    on_table: tuple[int, ...]  # sorted ball ids
    shelves: tuple[tuple[int, ...], tuple[int, ...]]
    scores: tuple[int, int]
    to_play: int = 0
    hand: int | None = None  # the ball in hand (not on the table), if any
    in_hand: InHand = InHand.NONE
    hand_rule: str = ""  # restriction on the shot from hand, e.g. "objects_only" (Dynamic 5.2)
    is_break: bool = False  # the next shot is a break (general 11, 12)
    mode: Mode = LAG
    pending: Pending | None = None
    debts: tuple[int, int] = (0, 0)  # penalties owed with an empty shelf (100 points §18)
    placed: tuple[tuple[int, str], ...] = ()  # (ball, spot) put on a spot by the last input
    pocketed: tuple[int, ...] = ()  # in a pocket but on no shelf
    off_table: tuple[int, ...] = ()  # out of the game for nobody
    winner: int | None = None
    draw: bool = False
    decision: str | None = None  # why a referee decision is needed (mode REFEREE)
    breaker: int | None = None  # who broke this frame (later frames alternate, general 11)
    visit: int = 0  # visits («подходы») begun so far in the match
    run: int = 0  # shots in the current visit (the series)
    shots: int = 0  # shots played in the match
    frame: int = 1
    extra: tuple[tuple[str, object], ...] = ()
    held: Held | None = None  # the shot held for a missing fact (mode HELD)

    @property
    def over(self) -> bool:
        """True once the match has a winner or is drawn."""
        return self.winner is not None or self.draw

    @overload
    def get(self, key: Key[T]) -> T | None: ...

    @overload
    def get(self, key: str, default: object = None) -> object: ...

    def get(self, key: str, default: object = None) -> object:
        """A variant-specific value from `extra` (typed for a `Key`)."""
        for k, v in self.extra:
            if k == key:
                return v
        return default

    def place_of(self, ball: int) -> str:
        """Where `ball` is: "table", "hand", "shelf0", "shelf1", "pocket", "off", or "" if nowhere (a bug)."""
        if ball in self.on_table:
            return "table"
        if ball == self.hand:
            return "hand"
        for p in (0, 1):
            if ball in self.shelves[p]:
                return f"shelf{p}"
        if ball in self.pocketed:
            return "pocket"
        if ball in self.off_table:
            return "off"
        return ""

    def all_placed_balls(self) -> list[int]:
        """Every ball id in every place, with repeats if the state were broken (for invariant checks)."""
        out = [*self.on_table, *self.shelves[0], *self.shelves[1], *self.pocketed, *self.off_table]
        if self.hand is not None:
            out.append(self.hand)
        return out
