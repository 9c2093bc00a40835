"""The `Variant` base class: the shot pipeline shared by every variant, with hooks the variants override.

Pipeline of a `ShotReport` (docs/rules/README.md, "How a shot is judged"): check it may be played → place the
ball in hand → resolve the pocketed and jumped balls → collect the fouls (reported + derived: §12, §20, §24.3,
wrong cue ball) → on a foul `on_foul` (one penalty, 29.2), else `on_legal` → `after` (win check, dead ends).
`Choose`, `Lag`, `Interference`, `Concede` and `RefereeDecision` have their own small paths. See
docs/rules-engine.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from . import general as g
from .choices import (
    choice_need,
    choose,
    chosen_ball,
    concede,
    decide,
    lag_need,
    placement_needs,
    taken_reason,
)
from .codec import merge_options
from .draft import Draft
from .errors import IllegalInputError, MalformedInputError
from .held import R_HELD, held_need, hold, identified, only_ball_of, possible_answers, stand_in, unnamed_slot
from .model import (
    Choose,
    Colour,
    Concede,
    Declaration,
    Foul,
    Identify,
    Input,
    Interference,
    Lag,
    RefereeDecision,
    ShotReport,
)
from .opening import PLAIN, HandicapKind, Opening, check_opening, open_frame
from .outcome import EffectKind, Need, NeedKind, Outcome, Reason
from .pipeline import after_penalty, begin_shot, proven_fouls, reported_fouls
from .profile import BallIdentity, Profile
from .resolve import ShotFacts, fitting_ball, resolve
from .state import HELD, LAG, OVER, REFEREE, ChoiceKind, Pending, State


class Variant:
    """Base of every variant. One instance per match, holding that match's options.

    Every hook a variant may override is a method here: the shot pipeline, choices and referee decisions, the
    needs, a shot held for a missing fact, and what the hub reads beside `PROFILE`. The general rules they
    apply are plain functions: general.py (the pyramid's general paragraphs), resolve.py (naming the balls of
    a report), pipeline.py (the pipeline's fixed steps), held.py (holding a shot), choices.py (folding
    choices, decisions and concessions; needs' texts).
    """

    name: ClassVar[str] = ""
    title_en: ClassVar[str] = ""
    title_ru: ClassVar[str] = ""
    # Its paragraphs and reading ids (docs/rules/<name>.md) that it implements: each needs a citing test.
    PARAGRAPHS: ClassVar[dict[str, str]] = {}
    BALLS: ClassVar[tuple[int, ...]] = tuple(range(16))
    # the only ball that may be struck with the cue; None = any (Free, Star)
    CUE_BALL: ClassVar[int | None] = 0
    SPECIAL: ClassVar[int] = 0  # the coloured ball: in the house at the start (general 8.2)
    JUMP_IS_FOUL: ClassVar[bool] = True  # general 24.3 (100 points overrides)
    PROFILE: ClassVar[Profile] = Profile()  # what the hub must know (profile.py)
    # The handicaps a frame of this variant can open with (general A-G5, opening.py): balls on a shelf only
    # where every object ball scores 1 and any may be racked away;
    # a points head start where a score is a count.
    HANDICAPS: ClassVar[frozenset[HandicapKind]] = frozenset({HandicapKind.POINTS, HandicapKind.BALLS})
    OPTIONS: ClassVar[dict[str, object]] = {
        "target": 8,
        "break_min_balls_to_cushion": 2,
        "incorrect_break_rebreak": False,
        "require_correct_completion": True,
    }
    # The variant's own reasons the base pipeline cites; variants replace them with their paragraphs.
    R_GOAL: ClassVar[Reason] = Reason("general", "29.1", "target reached", "цель достигнута")
    R_CONCEDE: ClassVar[Reason] = Reason(
        "general", "29.1", "conceded: the opponent wins", "сдался: победа соперника"
    )
    R_SPOTTING: ClassVar[Reason] = g.R_SPOT

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        self.options = merged = merge_options(self.name, self.OPTIONS, options)
        self.check_options()
        self.target = int(merged["target"])  # type: ignore[call-overload]
        self.require_completion = bool(merged["require_correct_completion"])
        self.break_min = int(merged["break_min_balls_to_cushion"])  # type: ignore[call-overload]
        self.rebreak = bool(merged["incorrect_break_rebreak"])
        # how the match's frame opened (start): a replayed frame gives the handicap again
        self.opening = PLAIN

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
        return g.initial_state(self.name, self.BALLS, self.SPECIAL)

    def start(self, opening: Opening = PLAIN) -> tuple[State, Outcome]:
        """The frame's first state and what its opening did (opening.py): the lag due (general 11), or the
        breaker the match's break rule names (general 11, A-G4), after the handicap (general A-G5)."""
        state = self.initial_state()
        self.opening = opening
        if opening.plain:
            return state, Outcome()
        check_opening(opening, self.HANDICAPS, self.name, self.target)
        d = Draft(state)
        open_frame(d, opening, self.handicap_balls, self.ball_value)
        return d.freeze(), Outcome(tuple(d.effects))

    def handicap_balls(self, d: Draft, n: int) -> tuple[int, ...]:
        """Hook: the `n` object balls a balls handicap puts on a shelf (general A-G5). Default: the
        highest-numbered object balls, from the pyramid's back row
        (the rest keeps its pattern from the apex, general 8.2)."""
        objects = sorted((b for b in d.on_table if b not in (self.CUE_BALL, self.SPECIAL)), reverse=True)
        return tuple(objects[:n])

    def colour_of(self, ball: int) -> Colour:
        """Hook: the colour class of a ball (what a pocket's colour sensor reports)."""
        return g.colour_default(ball)

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
            d = choose(state, inp, self.on_choice, self.after)  # type: ignore[arg-type]
        elif t is Lag:
            d = self.lag(state, inp)  # type: ignore[arg-type]
        elif t is Interference:
            d = self.interference(state, inp)  # type: ignore[arg-type]
        elif t is Concede:
            d = concede(state, inp, self.R_CONCEDE)  # type: ignore[arg-type]
        elif t is RefereeDecision:
            d = decide(state, inp, self.decision_options, self.on_decision)  # type: ignore[arg-type]
        elif t is Identify:  # the held shot, played from where it was played, with the named ball (held.py)
            d = self.shot(*identified(state, inp, self.held_options, self.name))  # type: ignore[arg-type]
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

    # Hook: raise if no shot may be played now or the report is not for the player to play (general 11, 28).
    check_shot = staticmethod(g.check_turn)  # (bound as is: no frame of its own on the fold's hot path)

    def check_calls(self, state: State, calls: Sequence[Declaration]) -> None:
        """Hook: raise if these calls cannot be made before a shot played from `state` (`check_shot` calls it
        with the report's declarations; the hub calls it when the referee makes the call, so a call the rules
        would refuse is refused then, not when the shot is judged). Default:
        a variant without calls ignores them."""

    def shot(self, state: State, s: ShotReport) -> Draft:
        """Fold a ShotReport through the pipeline (module docstring),
        or hold it for a missing fact (held.py)."""
        self.check_shot(state, s)
        if s.pocketed or s.jumped:
            s, slot = self.complete(state, s)
            if slot is not None:  # held for that ball (held.py); the rest of the report must be acceptable:
                self.fold_shot(state, stand_in(state, s, self.unnamed_candidates))  # raises, nothing is held
                return hold(state, s, slot, self.PROFILE)
        return self.fold_shot(state, s)

    def fold_shot(self, state: State, s: ShotReport) -> Draft:
        """The pipeline proper, on a checked report; returns the draft."""
        f = ShotFacts(state)
        self.struck_ball(state, s, f)
        d = begin_shot(state)
        resolve(d, s, f, self.pick_ball)
        fouls = self.fouls(d, s, f)
        d.shots += 1
        d.run += 1
        if fouls:
            offender = s.offender if s.offender is not None else s.shooter
            g.call_fouls(d, fouls, offender)
            self.on_foul(d, s, f, fouls, offender)
            after_penalty(d, f, fouls, offender, self.SPECIAL, self.rebreak)
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
            raise IllegalInputError(
                f"cue_ball: ball {cue!r} is not on the table", f"cue_ball: шара {cue!r} нет на столе"
            )
        designated = self.SPECIAL if state.is_break or state.hand is not None else self.CUE_BALL
        if designated is None:
            f.cue = cue
        else:
            f.cue = designated
            f.wrong_ball = cue is not None and cue != designated

    def pick_ball(
        self, d: Draft, ball: int | None, colour: Colour | None, cue: int | None, taken: list[int], field: str
    ) -> int:
        """The reported ball, checked; or, if not named,
        the lowest fitting object ball (then the cue ball)."""
        return fitting_ball(d, ball, colour, cue, taken, field, self.colour_of, self.SPECIAL)

    def fouls(self, d: Draft, s: ShotReport, f: ShotFacts) -> list[Foul]:
        """The shot's fouls: the reported ones plus those the facts prove (general 12, 15, 20, 24.3)."""
        found = reported_fouls(s) | proven_fouls(
            s, f, self.JUMP_IS_FOUL, self.break_min, self.require_completion
        )
        self.variant_fouls(d, s, f, found)
        if not found:
            return []
        return sorted(found, key=g.FOUL_ORDER.__getitem__)

    def variant_fouls(self, d: Draft, s: ShotReport, f: ShotFacts, found: set[Foul]) -> None:
        """Hook: add (or remove) fouls the variant's own rules make."""

    @classmethod
    def foul_reason(cls, foul: Foul) -> Reason:
        """Hook: the rule this variant's FOUL effect cites for `foul` (its words name the foul on every
        screen). Default: the general paragraph (general.FOUL_REASONS,
        with a variant's own foul as that variant words it)."""
        return g.FOUL_REASONS[foul]

    def on_legal(self, d: Draft, s: ShotReport, f: ShotFacts) -> None:
        """Hook: a shot without a foul. Default: every pocketed ball scores 1
        (general 22.1/22.2); series rule."""
        for b in f.pocketed:
            d.to_shelf(s.shooter, b, g.R_POTTED)
        if f.pocketed:
            d.keep_turn(g.R_POTTED)
        else:
            d.pass_turn(1 - s.shooter, g.R_FOUL_TURN)

    def on_foul(self, d: Draft, s: ShotReport, f: ShotFacts, fouls: list[Foul], offender: int) -> None:
        """Hook: one penalty (29.2). Default: spot what fell or jumped (22.3, 25),
        the opponent plays on (10)."""
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

    def after(self, d: Draft) -> None:
        """Hook: after every input that changed the position: the win check."""
        for p in (d.to_play, 1 - d.to_play):
            if d.scores[p] >= self.target:
                d.win(p, self.R_GOAL)
                return

    # -- choices and referee decisions (choices.py) ------------------------------------------------------

    def offer(
        self,
        d: Draft,
        player: int,
        kind: ChoiceKind,
        options: tuple[str, ...],
        reason: Reason,
        balls: bool = True,
    ) -> None:
        """Give `player` a choice (answered with `Choose`); `balls`: the balls they may take, if any."""
        pool = tuple(sorted(b for b in d.on_table if self.takeable(b))) if balls else ()
        d.pending = Pending(player, kind, options, pool, reason.paragraph)
        d.emit(EffectKind.CHOICE, reason, player=player, detail=kind)

    def takeable(self, ball: int) -> bool:
        """Hook: may this ball be taken off the table by a choice? Default: any but a fixed cue ball."""
        return ball != self.CUE_BALL

    def on_choice(self, d: Draft, c: Choose, p: Pending) -> None:
        """Hook: apply a choice. Default: `take_ball` moves the ball to the chooser's shelf for 1 point."""
        ball = chosen_ball(c, p, self.colour_of, self.SPECIAL)
        d.take_from_table(ball)
        d.to_shelf(c.player, ball, self.choice_reason(p))

    def choice_reason(self, p: Pending) -> Reason:
        """Hook: the reason to cite for carrying out a choice."""
        return taken_reason(self.name, p.paragraph)

    def decision_options(self, state: State) -> tuple[str, ...]:
        """Hook: the decisions offered in mode REFEREE."""
        return ()

    def decision_text(self, state: State) -> tuple[str, str]:
        """Hook: the prompt (en, ru) for the referee decision due in `state`."""
        return ("The referee must decide", "Требуется решение судьи")

    def on_decision(self, d: Draft, r: RefereeDecision) -> None:
        """Hook: apply a referee decision."""
        raise IllegalInputError("this variant has no referee decisions")

    # -- needs ------------------------------------------------------------------------------------------

    def needs(self, state: State) -> tuple[Need, ...]:
        """What the referee panel must ask before (or with) the next shot. `blocking` ones come first."""
        if state.mode == OVER or state.over:
            return ()
        if state.mode == LAG:
            return (lag_need(),)
        if state.mode == HELD:
            assert state.held is not None
            return (held_need(state.held, self.PROFILE.identity_rule or R_HELD, self.held_options(state)),)
        if state.mode == REFEREE:
            en, ru = self.decision_text(state)
            options = self.decision_options(state)
            return (Need(NeedKind.REFEREE_DECISION, None, en, ru, options=options, blocking=True),)
        if state.pending is not None:
            return (choice_need(state.pending, self.name),)
        return self.shot_needs(state)

    def shot_needs(self, state: State) -> tuple[Need, ...]:
        """Hook: facts the next ShotReport should carry (not blocking). Default: the placement from hand."""
        return placement_needs(state)

    # -- a missing fact (held.py) ----------------------------------------------------------------------------

    def complete(self, state: State, s: ShotReport) -> tuple[ShotReport, int | None]:
        """Hook: the report with every certain identity filled in, and the slot of the first reported ball
        whose identity decides the result but is not given (None: nothing is missing). Default, by the
        profile: a ball with no number (NUMBER) or no colour (COLOUR) that no colour names alone."""
        identity = self.PROFILE.identity
        if identity is BallIdentity.NONE:
            return s, None
        return s, unnamed_slot(identity, s, self.ball_of_colour)

    def ball_of_colour(self, colour: Colour | None) -> int | None:
        """The one ball of the variant with this colour class,
        if only one has it (the yellow, Star's joker)."""
        return only_ball_of(self.BALLS, self.colour_of, colour)

    def unnamed_candidates(self, state: State, colour: Colour | None = None) -> tuple[int, ...]:
        """Hook: the balls a ball reported without its number may be (on the table at the stroke, fitting its
        colour). The hub offers them when it asks for a number."""
        table = (*state.on_table, state.hand) if state.hand is not None else state.on_table
        return tuple(sorted(b for b in table if colour is None or self.colour_of(b) is colour))

    def colour_options(self, state: State) -> tuple[str, ...]:
        """The colour classes of the variant's balls (what a colour question offers), in `Colour` order."""
        present = {self.colour_of(b) for b in self.BALLS}
        return tuple(c.value for c in Colour if c in present)

    def held_options(self, state: State) -> tuple[str, ...]:
        """What may answer the held need: ball numbers not named elsewhere in the report, or colours."""
        return possible_answers(state, self.colour_of, self.unnamed_candidates, self.colour_options)

    # -- what a screen or the hub's scripted players read: no rule is decided here ---------------------------

    def ball_value(self, ball: int) -> int:
        """Hook: what the ball is worth on a shelf. Default: 1, the special (coloured) ball 0 (it is the cue
        ball in most variants; Free counts it 1 through its own rules,
        which the scoreboard shows as the score)."""
        return 0 if ball == self.SPECIAL else 1

    def ball_label(self, ball: int) -> str:
        """Hook: the label a screen draws on the ball ("●" for the special ball, else its number)."""
        return "●" if ball == self.SPECIAL else str(ball)

    def board_facts(self, state: State) -> dict[str, Any] | None:
        """Hook: the variant's own facts for the screens
        (the scoreboard's section named after the variant)."""
        return None

    def scoring_balls(self, state: State, player: int) -> tuple[int, ...]:
        """Hook: the object balls on the table that would score for `player` if pocketed now (for a scripted
        player or a hint). Default: every ball on the table but a fixed cue ball."""
        return tuple(b for b in state.on_table if b != self.CUE_BALL)
