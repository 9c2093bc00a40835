"""A variant's profile: what the hub must know to turn sensor evidence into its shot reports and questions.

The hub never compares a variant's name; it reads the variant's `PROFILE` (and a few hooks on `Variant`:
`ball_of_colour`, `unnamed_candidates`, `colour_options`, `ball_value`, `ball_label`, `board_facts`,
`scoring_balls`). A new variant declares its profile and the hub plays it unchanged (docs/rules-engine.md,
"How to add a variant").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .model import Foul
from .outcome import NeedKind, Reason


class BallIdentity(StrEnum):
    """How a pocketed ball is told apart (docs/rules/sensing.md)."""

    NUMBER = "number"  # the balls look alike: the referee names each ball's number (Classic, 100 points)
    COLOUR = "colour"  # the colour class decides (Star): a colour sensor, or the referee, gives it
    NONE = "none"  # which ball fell does not matter beyond what its colour says (Free, Combined, Dynamic)

    @property
    def need(self) -> NeedKind | None:
        """The need a shot is held with when a ball of its report lacks this identity."""
        if self is BallIdentity.NUMBER:
            return NeedKind.BALL_NUMBER
        if self is BallIdentity.COLOUR:
            return NeedKind.BALL_COLOUR
        return None


class Fact(StrEnum):
    """The optional facts of a `ShotReport` (its field names) that a variant's shots may need from the referee."""  # noqa: E501

    CUE_BALL = "cue_ball"
    CUE_COLOUR = "cue_colour"
    DECLARATIONS = "declarations"
    FIRST_CONTACT = "first_contact"
    FIRST_CONTACT_COLOUR = "first_contact_colour"
    CUSHIONS = "cushions"
    CENTRE_CROSSING = "centre_crossing"
    BREAK_BALLS_TO_CUSHION = "break_balls_to_cushion"
    DIRECT = "direct"  # PocketedBall.direct
    AS_CALLED = "as_called"
    CAROM_ON_TEN = "carom_on_ten"
    ROKAMBOL_ON_TEN = "rokambol_on_ten"
    TOUCHED_TEN = "touched_ten"
    TEN_OFF_SPOT = "ten_off_spot"
    CENTRE_SPOT_TAKEN = "centre_spot_taken"
    SNOOKERED = "snookered"


# Every variant may need these: §20 (cushions, crossing), §12 (the break), §5.3 (first contact).
GENERAL_FACTS: frozenset[Fact] = frozenset(
    {Fact.CUSHIONS, Fact.CENTRE_CROSSING, Fact.BREAK_BALLS_TO_CUSHION, Fact.FIRST_CONTACT}
)


# The fouls a referee may call in every variant (МКП §29.1 and the cue ball in hand, general 21), in the order
# a panel lists them; a variant adds its own (`Profile.fouls`). EARLY_START, DOUBLE_HIT, JUMPED and
# INTERFERENCE reach the engine otherwise (the cue sensor, the jumped action, the interference input).
GENERAL_FOULS: tuple[Foul, ...] = (
    Foul.MISS,
    Foul.BAD_BREAK,
    Foul.BAD_CUE_STRIKE,
    Foul.TOUCH,
    Foul.PUSH,
    Foul.NOT_COMPLETED,
    Foul.PLACEMENT,
    Foul.OUTSIDE_HOUSE,
    Foul.HOUSE_BALL_STRUCK,
    Foul.BOTH_FEET_OFF,
    Foul.SLOW_PLAY,
)
# Facts a referee does not set one by one: calls come with `declare`, a ball's directness with the ball.
_NOT_REFEREE_FACTS = frozenset({Fact.DECLARATIONS, Fact.DIRECT})


@dataclass(frozen=True)
class Profile:
    """What the hub must know about a variant, declared once on the variant (`Variant.PROFILE`)."""

    identity: BallIdentity = BallIdentity.NONE
    # one ball (`Variant.CUE_BALL`) is always the cue ball; False: any ball may be
    fixed_cue_ball: bool = True
    calls: bool = False  # shots carry calls (declarations) made before the shot
    facts: frozenset[Fact] = GENERAL_FACTS  # the facts its shots may need
    fouls: tuple[Foul, ...] = GENERAL_FOULS  # the fouls its referee may call, in a panel's order
    identity_rule: Reason | None = None  # cited when a ball's identity decides the result
    call_mismatch_rule: Reason | None = None  # cited when a ball falls into a pocket that was not called
    # cited when the (fixed) cue ball is seen going into a pocket
    cue_ball_pocketed_rule: Reason | None = None

    @property
    def referee_facts(self) -> tuple[Fact, ...]:
        """The facts a referee sets one by one on a shot, in the order of `Fact` (what a panel offers)."""
        return tuple(f for f in Fact if f in self.facts and f not in _NOT_REFEREE_FACTS)

    def cite(self, rule: Reason | None) -> str:
        """`classic 5.4` for a rule, "" for none."""
        return rule.cite() if rule is not None else ""


__all__ = ["GENERAL_FACTS", "GENERAL_FOULS", "BallIdentity", "Fact", "Profile"]
