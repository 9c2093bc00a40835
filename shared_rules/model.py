"""The vocabulary of the rules engine: table, balls, fouls, and the inputs a match is made of.

Everything here is a frozen value. A match is the ordered list of its inputs (`Input`); the engine folds
the rules over that list. The hub builds `ShotReport`s from sensor evidence and referee taps; the engine
never sees a sensor.

Conventions
- Players are seats 0 and 1 (the names live in the match).
- Ball ids are ints. Ball 0 is always the special ball: the coloured (yellow) ball in Free, Combined,
  Dynamic, Classic and 100 points; the ivory joker in Star. Numbered balls keep their numbers
  (Classic 1..15, 100 points 5..15). In Free, Combined and Dynamic the ivory balls are 1..15 (numbers do not
  matter). In Star balls 1..15 are named by their Classic rack position (docs/rules/star.md A-S1) and carry
  a colour.
- A ball may be reported without its id (`ball=None`) where identity does not matter (an ivory ball in
  Free) or is given by colour (Star); the engine then picks one that fits, deterministically.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum


class Pocket(IntEnum):
    """Pockets numbered from the head (house) end toward the foot (docs/rules/glossary.md)."""

    HEAD_LEFT = 1
    HEAD_RIGHT = 2
    MIDDLE_LEFT = 3
    MIDDLE_RIGHT = 4
    FOOT_LEFT = 5
    FOOT_RIGHT = 6


class Colour(Enum):
    """Colour classes a pocket's colour sensor can tell apart (docs/rules/sensing.md)."""

    IVORY = "ivory"
    YELLOW = "yellow"
    BLUE = "blue"
    BLACK = "black"
    GREEN = "green"
    RED = "red"


class Spot(Enum):
    """Named places a ball can be put back on (docs/rules/glossary.md; general §25, 100 points §2)."""

    FOOT = "foot_spot"
    CENTRE = "centre_spot"
    HEAD = "head_spot"
    SPOTTING_LINE = "spotting_line"  # §25: next free place from the foot spot toward the foot rail
    # §25: spotting line full: on the long axis from the foot spot toward the centre
    TOWARD_CENTRE = "toward_centre"
    FOOT_RAIL = "foot_rail"  # 100 points §2/§4: next to the foot rail behind the pyramid
    HOUSE = "house"  # in hand from the house (§21)
    ANYWHERE = "anywhere"  # in hand anywhere


class InHand(Enum):
    NONE = "none"
    HOUSE = "house"
    ANYWHERE = "anywhere"


class Foul(Enum):
    """The general fouls of МКП §29.1 (codes 1..12) and the variant-specific ones.

    The value is the paragraph the foul is defined in, so a reason can cite it.
    """

    MISS = "5.3"  # 29.1(1) the cue ball touched no object ball
    BAD_BREAK = "12.1"  # 29.1(2) the break did not meet its requirement
    EARLY_START = "14.2"  # 29.1(3) shot started before the previous one ended
    BAD_CUE_STRIKE = "15"  # 29.1(4) not struck with the tip / wrong ball struck with the cue
    BOTH_FEET_OFF = "16"  # 29.1(5)
    TOUCH = "17"  # 29.1(6) forbidden touching of a ball
    DOUBLE_HIT = "18"  # 29.1(7)
    PUSH = "19"  # 29.1(8) push or press shot (19.1, 19.2)
    NOT_COMPLETED = "20"  # 29.1(9) shot not correctly completed (cushions / crossing)
    JUMPED = "24.3"  # 29.1(10) cue ball or object ball jumped off the table
    SLOW_PLAY = "26"  # 29.1(11)
    INTERFERENCE = "28"  # 29.1(12) interfering with the opponent (the non-shooter's foul)
    PLACEMENT = "21.2"  # touching a ball while placing the cue ball in hand
    OUTSIDE_HOUSE = "21.3"  # struck from hand although placed on the home line or outside the house
    HOUSE_BALL_STRUCK = "21.4"  # from hand, an object ball in the house struck directly
    WRONG_OWN_BALL = "star 4.3"  # Star: hit / used a ball that is not the player's own playing ball
    TEN_TOUCHED = "100 12"  # 100 points: the cue ball touched #10 while numbered balls remain
    CUE_BALL_POCKETED = "classic 5.5"  # Classic: the cue ball went into a pocket (jumped is 24.3)


class DeclarationKind(Enum):
    OBJECT = "object"  # an object ball into a pocket
    CUE_BALL = "cue_ball"  # the cue ball off a ball into a pocket («свояк»)


@dataclass(frozen=True, slots=True)
class Declaration:
    """A call made before the shot (Classic 5.2, 100 points §4-§6). Two declarations = a double call."""

    ball: int  # 0 for the cue ball
    pocket: Pocket
    kind: DeclarationKind = DeclarationKind.OBJECT
    method: str = ""  # 100 points: free text «how» (A-100-10); the referee judges `as_called`


@dataclass(frozen=True, slots=True)
class PocketedBall:
    """A ball that went into a pocket and stayed there (a rim-out is not reported, §22.5)."""

    pocket: Pocket
    ball: int | None = None  # None: identity unknown or irrelevant (see module docstring)
    colour: Colour | None = None  # from the pocket's colour sensor, if fitted
    direct: bool | None = None  # 100 points: directly-struck («прямо-летящий»); None = not known


@dataclass(frozen=True, slots=True)
class JumpedBall:
    """A ball that left the table (§24)."""

    ball: int | None = None
    colour: Colour | None = None


@dataclass(frozen=True, slots=True)
class ShotReport:
    """Everything known about one shot, from the sensors and the referee.

    `None` means "not reported": the engine then assumes the most ordinary reading (no foul) and, where the
    variant needs the fact, `Match.needs()` asks for it.
    """

    shooter: int
    # the ball struck with the cue; None = the variant's cue ball (Free/Star: ask)
    cue_ball: int | None = None
    cue_colour: Colour | None = None  # Star: colour of the struck ball when its id is not known
    declarations: tuple[Declaration, ...] = ()
    pocketed: tuple[PocketedBall, ...] = ()
    jumped: tuple[JumpedBall, ...] = ()
    first_contact: int | None = None  # first object ball the cue ball touched; None = not known
    first_contact_colour: Colour | None = None  # Star
    cushions: int | None = None  # §20: cushion contacts after the cue ball met an object ball
    centre_crossing: bool | None = None  # §20: a ball crossed the centre line («перекат»)
    break_balls_to_cushion: int | None = None  # §12: object balls that reached a cushion on the break
    as_called: bool | None = None  # 100 points: referee's verdict that the call was made as declared
    carom_on_ten: bool = False  # 100 points §11: three-cushion carom onto #10, called and made
    rokambol_on_ten: bool = False  # 100 points §11: three-cushion rokambol onto #10, called and made
    touched_ten: bool = False  # 100 points §12: the cue ball touched #10
    # 100 points §14: #10 was knocked off the centre spot and lies elsewhere on the table
    ten_off_spot: bool = False
    centre_spot_taken: bool = False  # 100 points §14: after the shot another ball lies on the centre spot
    snookered: bool = False  # Star 4.5: the playing ball was snookered (declared before the shot)
    fouls: frozenset[Foul] = field(default_factory=frozenset)  # fouls only a referee sees
    offender: int | None = None  # for §28 interference: the non-shooter; None = the shooter


@dataclass(frozen=True, slots=True)
class Lag:
    """The lag («розыгрыш») result: who breaks (§11)."""

    winner: int


@dataclass(frozen=True, slots=True)
class Choose:
    """A choice the rules give a player: a penalty ball, a ball for a pocketed cue ball, an option.

    `option` names what is chosen (`Match.needs()` lists the options offered); `ball` is the ball taken, if any.
    """  # noqa: E501

    player: int
    option: str
    ball: int | None = None
    colour: Colour | None = None


@dataclass(frozen=True, slots=True)
class Interference:
    """Outside interference (§27): balls restored (no effect but an audit entry), or a re-rack."""

    restore: bool = True


@dataclass(frozen=True, slots=True)
class Concede:
    player: int


@dataclass(frozen=True, slots=True)
class RefereeDecision:
    """A ruling where the rules call for the referee (Free 7:7 dead end, A-F1): `option` as offered."""

    option: str
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class Identify:
    """The answer to a held shot (mode HELD): the number (`BALL_NUMBER`) or colour (`BALL_COLOUR`) of the
    reported ball the need asks about (`Need.slot`). The held shot is then folded as
    if it had carried the fact."""

    ball: int | None = None
    colour: Colour | None = None


Input = ShotReport | Lag | Choose | Interference | Concede | RefereeDecision | Identify
