"""The `Variant` base class: the shot pipeline shared by every variant, with hooks the variants override.

Pipeline of a `ShotReport` (docs/rules/README.md, "How a shot is judged"): check it may be played → place the
ball in hand → resolve the pocketed and jumped balls → collect the fouls (reported + derived: §12, §20, §24.3,
wrong cue ball) → on a foul `on_foul` (one penalty, 29.2), else `on_legal` → `after` (win check, dead ends).
`Choose`, `Lag`, `Interference`, `Concede` and `RefereeDecision` have their own small paths. See
docs/rules-engine.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from . import general as g
from .choices import ChoicesMixin
from .draft import Draft
from .errors import IllegalInputError, MalformedInputError, RulesError
from .held import HeldShotMixin
from .model import (
    Choose,
    Colour,
    Concede,
    Declaration,
    Foul,
    Identify,
    InHand,
    Input,
    Interference,
    Lag,
    RefereeDecision,
    ShotReport,
    Spot,
)
from .outcome import EffectKind, Outcome, Reason
from .profile import Profile, ProfileMixin
from .resolve import ResolveMixin, ShotFacts
from .state import HELD, LAG, PLAY, REFEREE, State

VARIANTS: dict[str, type[Variant]] = {}


def register(cls: type[Variant]) -> type[Variant]:
    """Class decorator: add a variant to `VARIANTS` under its `name`."""
    if not cls.name or cls.name in VARIANTS:
        raise ValueError(f"variant name {cls.name!r} is empty or taken")
    if cls.PROFILE.fixed_cue_ball != (cls.CUE_BALL is not None):
        raise ValueError(f"variant {cls.name!r}: PROFILE.fixed_cue_ball disagrees with CUE_BALL")
    VARIANTS[cls.name] = cls
    return cls


def find_variant(name: str) -> type[Variant]:
    """The variant class called `name`; RulesError naming the known ones if there is none."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(VARIANTS))
        raise RulesError(
            f"unknown variant {name!r}; known: {known}", f"неизвестная разновидность {name!r}; есть: {known}"
        ) from None


class Variant(HeldShotMixin, ChoicesMixin, ResolveMixin, ProfileMixin):
    """Base of every variant. One instance per match, holding that match's options.

    The shot pipeline is here; choices, referee decisions and needs are in `ChoicesMixin` (choices.py); a shot
    held for a missing fact in `HeldShotMixin` (held.py); what the hub reads in `PROFILE` and `ProfileMixin`.
    """

    name: ClassVar[str] = ""
    title_en: ClassVar[str] = ""
    title_ru: ClassVar[str] = ""
    # Its paragraphs and reading ids (docs/rules/<name>.md) that it implements: each needs a citing test.
    PARAGRAPHS: ClassVar[dict[str, str]] = {}
    BALLS: ClassVar[tuple[int, ...]] = tuple(range(16))
    CUE_BALL: ClassVar[int | None] = 0  # the only ball that may be struck with the cue; None = any (Free, Star)
    SPECIAL: ClassVar[int] = 0  # the coloured ball: in the house at the start (general 8.2)
    JUMP_IS_FOUL: ClassVar[bool] = True  # general 24.3 (100 points overrides)
    PROFILE: ClassVar[Profile] = Profile()  # what the hub must know (profile.py)
    OPTIONS: ClassVar[dict[str, object]] = {
        "target": 8,
        "break_min_balls_to_cushion": 2,
        "incorrect_break_rebreak": False,
        "require_correct_completion": True,
    }
    # The variant's own reasons the base pipeline cites; variants replace them with their paragraphs.
    R_GOAL: ClassVar[Reason] = Reason("general", "29.1", "target reached", "цель достигнута")
    R_CONCEDE: ClassVar[Reason] = Reason("general", "29.1", "conceded: the opponent wins", "сдался: победа соперника")
    R_SPOTTING: ClassVar[Reason] = g.R_SPOT

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        merged = dict(self.OPTIONS)
        for key, value in (options or {}).items():
            if key not in merged:
                known = ", ".join(sorted(merged))
                raise MalformedInputError(
                    f"option {key!r} is not an option of {self.name}; known: {known}",
                    f"у разновидности {self.name} нет параметра {key!r}; есть: {known}",
                )
            default = merged[key]
            if type(value) is not type(default):
                raise MalformedInputError(
                    f"option {key!r} must be {type(default).__name__}, got {value!r}",
                    f"параметр {key!r} должен быть {type(default).__name__}, получено {value!r}",
                )
            merged[key] = value
        self.options: dict[str, object] = merged
        self.check_options()
        self.target = int(merged["target"])  # type: ignore[call-overload]
        self.require_completion = bool(merged["require_correct_completion"])
        self.break_min = int(merged["break_min_balls_to_cushion"])  # type: ignore[call-overload]
        self.rebreak = bool(merged["incorrect_break_rebreak"])

    def check_options(self) -> None:
        """Hook: validate option values (types are already checked)."""
        target = self.options["target"]
        if not isinstance(target, int) or target < 1:
            raise MalformedInputError(
                f"option 'target' must be a positive integer, got {target!r}",
                f"параметр 'target' должен быть положительным целым, получено {target!r}",
            )

    # -- the start --------------------------------------------------------------------------------------

    def initial_state(self) -> State:
        """General 8.1/8.2: the pyramid on the table, the coloured ball in hand in the house, the lag due."""
        table = tuple(b for b in self.BALLS if b != self.SPECIAL)
        return State(
            self.name,
            table,
            ((), ()),
            (0, 0),
            hand=self.SPECIAL,
            in_hand=InHand.HOUSE,
            is_break=True,
            mode=LAG,
            placed=((min(table), Spot.FOOT.value),) if table else (),
        )

    def colour_of(self, ball: int) -> Colour:
        """Hook: the colour class of a ball (what a pocket's colour sensor reports)."""
        return g.colour_default(ball)

    # -- dispatch ---------------------------------------------------------------------------------------

    def apply(self, state: State, inp: Input) -> tuple[State, Outcome]:
        """Fold one input. Raises a RulesError (and changes nothing) on bad input."""
        t = type(inp)
        if state.over:
            raise IllegalInputError("the match is over", "партия окончена")
        if state.mode == HELD and t is not Identify and t is not Concede:
            raise IllegalInputError(
                "a shot is held: name the ball it asks about first (Identify; see needs)",
                "удар ожидает: сначала назовите шар (см. needs)",
            )
        if t is ShotReport:
            d = self.shot(state, inp)  # type: ignore[arg-type]
        elif t is Choose:
            d = self.choose(state, inp)  # type: ignore[arg-type]
        elif t is Lag:
            d = self.lag(state, inp)  # type: ignore[arg-type]
        elif t is Interference:
            d = self.interference(state, inp)  # type: ignore[arg-type]
        elif t is Concede:
            d = self.concede(state, inp)  # type: ignore[arg-type]
        elif t is RefereeDecision:
            d = self.decide(state, inp)  # type: ignore[arg-type]
        elif t is Identify:
            d = self.supply(state, inp)  # type: ignore[arg-type]
        else:
            raise MalformedInputError(f"not an input: {inp!r}", f"это не ввод: {inp!r}")
        return d.freeze(), Outcome(tuple(d.effects))

    def lag(self, state: State, inp: Lag) -> Draft:
        """Hook: the lag (general 11). Default: its winner breaks from hand from the house."""
        return g.lag(state, inp)

    def interference(self, state: State, inp: Interference) -> Draft:
        """Hook: outside interference (general 27): restore, or re-rack with a new lag."""
        return g.interference(state, inp, self.SPECIAL)

    # -- shots ------------------------------------------------------------------------------------------

    def check_shot(self, state: State, s: ShotReport) -> None:
        """Raise if no shot may be played now or the report is not for the player to play."""
        if state.mode == LAG:
            raise IllegalInputError("enter the lag first (general 11)", "сначала проведите розыгрыш (п.11)")
        if state.mode == REFEREE:
            raise IllegalInputError(
                "the referee must decide first (see needs)", "сначала нужно решение судьи"
            )
        if state.pending is not None:
            p = state.pending
            raise IllegalInputError(
                f"player {p.player} must first choose ({p.kind})", f"игрок {p.player} должен сначала выбрать ({p.kind})"
            )
        g.check_player(s.shooter, "ShotReport.shooter")
        if s.shooter != state.to_play:
            raise IllegalInputError(
                f"it is player {state.to_play}'s shot, not player {s.shooter}'s (general 28: a shot out of turn "
                "is reported as the non-shooter's interference foul)",
                f"удар игрока {state.to_play}, а не {s.shooter} (п.28)",
            )
        if s.offender is not None:
            g.check_player(s.offender, "ShotReport.offender")

    def check_calls(self, state: State, calls: Sequence[Declaration]) -> None:
        """Hook: raise if these calls cannot be made before a shot played from `state` (`check_shot` calls it
        with the report's declarations; the hub calls it when the referee makes the call, so a call the rules
        would refuse is refused then, not when the shot is judged). Default: a variant without calls ignores them."""

    def shot(self, state: State, s: ShotReport) -> Draft:
        """Fold a ShotReport through the pipeline (module docstring), or hold it for a missing fact (held.py)."""
        self.check_shot(state, s)
        if s.pocketed or s.jumped:
            s, slot = self.complete(state, s)
            if slot is not None:
                return self.hold(state, s, slot)
        return self.fold_shot(state, s)

    def fold_shot(self, state: State, s: ShotReport) -> Draft:
        """The pipeline proper, on a checked report; returns the draft."""
        f = ShotFacts(state)
        self.struck_ball(state, s, f)
        d = Draft(state)
        d.placed = []  # the balls move: earlier spot placements are history
        if d.hand is not None:
            d.on_table.append(d.hand)
            d.hand = None
        d.in_hand = InHand.NONE
        d.hand_rule = ""
        d.is_break = False
        self.resolve(d, s, f)
        fouls = self.fouls(d, s, f)
        d.shots += 1
        d.run += 1
        if fouls:
            offender = s.offender if s.offender is not None else s.shooter
            g.call_fouls(d, fouls, offender)
            self.on_foul(d, s, f, fouls, offender)
            if Foul.PLACEMENT in fouls and f.from_hand is not InHand.NONE:
                g.placement_foul(d, f.from_hand, f.cue if f.cue is not None else self.SPECIAL, offender)
                d.is_break = f.was_break
            elif f.was_break and Foul.BAD_BREAK in fouls and self.rebreak:
                self.rebreak_after_foul(d, offender)
            if d.pending is not None and d.pending.balls:
                # the two rules above may move the cue ball into hand after the penalty was offered
                d.pending = d.pending._replace(balls=tuple(b for b in d.pending.balls if b in d.on_table))
        else:
            if f.was_break:
                d.emit(EffectKind.NOTE, g.R_BREAK_OK)
            self.on_legal(d, s, f)
        self.after(d)
        return d

    def struck_ball(self, state: State, s: ShotReport, f: ShotFacts) -> None:
        """Hook: which ball was struck with the cue (general 15). Sets f.cue and f.wrong_ball."""
        cue = s.cue_ball
        if cue is not None and (type(cue) is not int or (cue not in state.on_table and cue != state.hand)):
            raise IllegalInputError(f"cue_ball: ball {cue!r} is not on the table", f"cue_ball: шара {cue!r} нет на столе")
        designated = self.SPECIAL if state.is_break or state.hand is not None else self.CUE_BALL
        if designated is None:
            f.cue = cue
        else:
            f.cue = designated
            f.wrong_ball = cue is not None and cue != designated

    def fouls(self, d: Draft, s: ShotReport, f: ShotFacts) -> list[Foul]:
        """The shot's fouls: the reported ones plus those the facts prove (general 12, 15, 20, 24.3)."""
        found = set(s.fouls)
        for x in found:
            if type(x) is not Foul:
                raise MalformedInputError(f"fouls: {x!r} is not a foul code", f"fouls: {x!r} — нет такого нарушения")
        if f.wrong_ball:
            found.add(Foul.BAD_CUE_STRIKE)
        if f.jumped and self.JUMP_IS_FOUL:
            found.add(Foul.JUMPED)
        if f.was_break:
            objects = sum(1 for b in f.pocketed if b != f.cue)
            if not g.break_is_correct(s, objects, self.break_min):
                found.add(Foul.BAD_BREAK)
        elif self.require_completion and not g.correctly_completed(s, bool(f.pocketed)):
            found.add(Foul.NOT_COMPLETED)
        self.variant_fouls(d, s, f, found)
        if not found:
            return []
        return sorted(found, key=g.FOUL_ORDER.__getitem__)

    def variant_fouls(self, d: Draft, s: ShotReport, f: ShotFacts, found: set[Foul]) -> None:
        """Hook: add (or remove) fouls the variant's own rules make."""

    def on_legal(self, d: Draft, s: ShotReport, f: ShotFacts) -> None:
        """Hook: a shot without a foul. Default: every pocketed ball scores 1 (general 22.1/22.2); series rule."""
        for b in f.pocketed:
            d.to_shelf(s.shooter, b, g.R_POTTED)
        if f.pocketed:
            d.keep_turn(g.R_POTTED)
        else:
            d.pass_turn(1 - s.shooter, g.R_FOUL_TURN)

    def on_foul(self, d: Draft, s: ShotReport, f: ShotFacts, fouls: list[Foul], offender: int) -> None:
        """Hook: one penalty (29.2). Default: spot what fell or jumped (22.3, 25), the opponent plays on (10)."""
        self.spot_incorrect(d, f.pocketed)
        self.spot(d, f.jumped)
        d.pass_turn(1 - offender, g.R_FOUL_TURN)

    def spot(self, d: Draft, balls: Sequence[int]) -> None:
        """Hook: put balls (already off the table) back. Default: general 25 citing `R_SPOTTING`."""
        g.spot_balls(d, balls, self.R_SPOTTING)

    def spot_incorrect(self, d: Draft, balls: Sequence[int]) -> None:
        """General 22.3/22.4: balls pocketed on a foul do not count and are spotted (`spot`)."""
        g.incorrectly_pocketed(d, balls)
        self.spot(d, balls)

    def rebreak_after_foul(self, d: Draft, offender: int) -> None:
        """General 12.1 with `incorrect_break_rebreak`: rack again; the opponent breaks from the house."""
        if self.SPECIAL in d.on_table:
            d.on_table.remove(self.SPECIAL)
            d.hand = self.SPECIAL
        if d.hand is not None:
            d.to_hand(d.hand, InHand.HOUSE, 1 - offender, g.R_REBREAK)
        d.emit(EffectKind.RACK, g.R_REBREAK, amount=len(d.on_table))
        d.is_break = True

    def after(self, d: Draft) -> None:
        """Hook: after every input that changed the position: the win check."""
        for p in (d.to_play, 1 - d.to_play):
            if d.scores[p] >= self.target:
                d.win(p, self.R_GOAL)
                return


__all__ = ["PLAY", "VARIANTS", "ShotFacts", "Variant", "find_variant", "register"]
