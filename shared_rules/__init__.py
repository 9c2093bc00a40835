"""Luza's pure rules engine for Russian pyramid, the match-log format and the wire protocol.

Imports nothing of the project and does no I/O. `Match.new(name, players, options)` starts a match of a
registered variant; see docs/rules-engine.md. A variant module registers itself with `@register` when it is
imported: add one import line below for each.
"""

# The package's public API (`__all__`, docs/rules-engine.md "Using it"): the one place that passes on names
# defined in its modules. Inside the package, and for anything not listed here,
# import from the defining module.
from .errors import IllegalInputError, MalformedInputError, RulesError
from .match import Match
from .model import (
    Choose,
    Colour,
    Concede,
    Declaration,
    DeclarationKind,
    Foul,
    Identify,
    InHand,
    Input,
    Interference,
    JumpedBall,
    Lag,
    Pocket,
    PocketedBall,
    RefereeDecision,
    ShotReport,
    Spot,
)
from .opening import BreakRule, HandicapKind, Opening
from .outcome import Effect, EffectKind, Need, NeedKind, Outcome, Reason
from .profile import BallIdentity, Fact, Profile
from .race import Race
from .race_rules import Handicap, RaceRules
from .registry import VARIANTS, find_variant, register
from .state import Held, Mode, State
from .variant import Variant

# Variants: one import each registers it.
from . import free  # noqa: F401  isort: skip
from . import combined  # noqa: F401  isort: skip
from . import dynamic  # noqa: F401  isort: skip
from . import star  # noqa: F401  isort: skip
from . import hundred  # noqa: F401  isort: skip
from . import classic  # noqa: F401  isort: skip

__all__ = [
    "VARIANTS",
    "BallIdentity",
    "BreakRule",
    "Choose",
    "Colour",
    "Concede",
    "Declaration",
    "DeclarationKind",
    "Effect",
    "EffectKind",
    "Fact",
    "Foul",
    "Handicap",
    "HandicapKind",
    "Held",
    "Identify",
    "IllegalInputError",
    "InHand",
    "Input",
    "Interference",
    "JumpedBall",
    "Lag",
    "MalformedInputError",
    "Match",
    "Mode",
    "Need",
    "NeedKind",
    "Opening",
    "Outcome",
    "Pocket",
    "PocketedBall",
    "Profile",
    "Race",
    "RaceRules",
    "Reason",
    "RefereeDecision",
    "RulesError",
    "ShotReport",
    "Spot",
    "State",
    "Variant",
    "find_variant",
    "register",
]
