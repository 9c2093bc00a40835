"""«Звездная пирамида» (Star pyramid): docs/rules/star.md, readings A-S1..A-S8.

Sixteen balls: ball 0 is the ivory joker (the cue ball for the break), balls 1..15 are named by their Classic
rack position and carry an Olympic colour (3.1, A-S1). Each player pockets eight playing balls in a fixed
colour order (4.1): blue, yellow, black, green, red, then blue, yellow, black for whoever completes the five
first and red, green, black for the other (A-S8). The joker stands in for any playing ball
while it is in play (A-S5).
A player's score is how far along their sequence they are, which is also what lies on their shelf.

Any ball may be the cue ball (2.2); the restriction is 4.3: a cue ball that is not one of your own playing
balls must first hit one of your own playing balls (A-S2: the balls of your next colour, plus the joker). On a
foul the opponent takes their next playing ball off the table and plays on,
or gives the shot back (5.1, A-S6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from . import general as g
from . import star_view as view
from .choices import chosen_ball
from .draft import Draft
from .errors import IllegalInputError, MalformedInputError
from .model import Choose, Colour, Declaration, Foul, InHand, Interference, ShotReport, Spot
from .opening import HandicapKind
from .outcome import EffectKind, Need, Reason
from .profile import GENERAL_FACTS, BallIdentity, Fact, Profile
from .registry import register
from .resolve import ShotFacts
from .star_text import (
    R_BREAK_BLUE,
    R_BREAK_OTHER,
    R_CONCEDE,
    R_COUNT,
    R_FIRST_FIVE,
    R_GIVE_BACK,
    R_GOAL,
    R_IDENTIFY,
    R_JOKER_COUNT,
    R_JOKER_GONE,
    R_JOKER_SPOTTED,
    R_NOTHING,
    R_OTHER,
    R_OTHER_PASSES,
    R_PENALTY,
    R_PENALTY_TAKEN,
    R_RERACK_BALL,
    R_SERIES,
    R_SNOOKERED,
    R_SPOTTING,
    R_WRONG_OWN_BALL,
    RU_COLOUR,
)
from .star_view import (
    COLOURS,
    FIRST5,
    FIVE,
    GIVE_BACK,
    JOKER,
    PANEL_ORDER,
    PENALTY,
    RACK,
    SEQUENCE_LENGTH,
    TAKE,
    sequence_colour,
)
from .state import LAG, OVER, PLAY, Pending, State
from .variant import Variant

B, Y, K, G, R, IVORY = Colour.BLUE, Colour.YELLOW, Colour.BLACK, Colour.GREEN, Colour.RED, Colour.IVORY

# The FOUL effect cites general.FOUL_REASONS; this foul is Star's own, so its reason is Star's text.
g.FOUL_REASONS[Foul.WRONG_OWN_BALL] = R_WRONG_OWN_BALL


def _colour_arg(value: object, field: str) -> Colour | None:
    if value is None or type(value) is Colour:
        return value  # type: ignore[return-value]
    raise MalformedInputError(f"{field}: {value!r} is not a colour", f"{field}: {value!r} — не цвет")


def _none_of(colour: Colour, field: str) -> IllegalInputError:
    return IllegalInputError(
        f"{field}: there is no {colour.value} ball on the table",
        f"{field}: на столе нет такого шара ({RU_COLOUR[colour]})",
    )


@register
class Star(Variant):
    """Star pyramid. Ball 0 is the ivory joker; balls 1..15 carry the Olympic colours of `COLOURS`."""

    name = "star"
    title_en = "Star pyramid"
    title_ru = "Звездная пирамида"
    CUE_BALL = None  # star 2.2: no fixed cue ball
    PROFILE = Profile(
        identity=BallIdentity.COLOUR,
        fixed_cue_ball=False,
        facts=GENERAL_FACTS | {Fact.CUE_BALL, Fact.CUE_COLOUR, Fact.FIRST_CONTACT_COLOUR, Fact.SNOOKERED},
        # 4.3: the wrong own ball; no cue ball in hand from the house, so no house fouls (general 21)
        fouls=(
            Foul.MISS,
            Foul.WRONG_OWN_BALL,
            Foul.BAD_BREAK,
            Foul.BAD_CUE_STRIKE,
            Foul.TOUCH,
            Foul.PUSH,
            Foul.NOT_COMPLETED,
            Foul.BOTH_FEET_OFF,
            Foul.SLOW_PLAY,
        ),
        identity_rule=R_IDENTIFY,
    )
    PARAGRAPHS: ClassVar[dict[str, str]] = {
        "1": "goal: the first to pocket eight balls by the rules",
        "2.1": "16 balls: three each of blue, yellow, black, green, "
        "red and one ivory (break cue ball, joker)",
        "2.2": "no fixed cue ball; object balls and cue balls off balls may be pocketed as 4.3 allows",
        "3.1": "rack by Classic positions with their colours, "
        "the five colours in the base; ivory in the house",
        "4.1": "the colour sequence B,Y,K,G,R then B,Y,K (first to five) or R,G,K; the joker replaces any",
        "4.2": "break from the house with the ivory ball (general 11, 12)",
        "4.2.1": "ivory pocketed on the break = the breaker's blue; playing balls count; "
        "others spotted, turn kept",
        "4.3": "a cue ball that is not an own playing ball must hit an own playing ball; foul otherwise",
        "4.3.1": "other balls pocketed off a playing ball are spotted, turn kept; "
        "a pocketed joker is not spotted",
        "4.4": "on a correct shot the shooter's pocketed playing balls count; other balls are spotted",
        "4.5": "a snookered playing ball: general 20 is suspended, any contact is enough",
        "5.1": "penalty: the opponent takes their next playing ball and plays on, or gives the shot back",
        "6.1": "incorrectly pocketed and jumped balls are spotted per general 25",
        "A-S1": "the numbers are Classic rack positions; the colour is what matters",
        "A-S2": "own playing balls: the balls of the next colour in the sequence, plus the joker",
        "A-S3": "several playing balls on one shot count as far as they fit the sequence in some order",
        "A-S4": "only other balls pocketed: the turn is kept (option star_other_ball_keeps_turn)",
        "A-S5": "the joker counts as the next playing ball; pocketed on a foul it stays off (option)",
        "A-S6": "the penalty ball: one of the colour needed next, or the joker",
        "A-S7": "snookered is the referee's judgement before the shot (ShotReport.snookered)",
        "A-S8": "the order of the last three is fixed by who completes the five first",
    }
    # the score is a place in the colour sequence (1): frames only
    HANDICAPS: ClassVar[frozenset[HandicapKind]] = frozenset()
    OPTIONS: ClassVar[dict[str, object]] = {
        **Variant.OPTIONS,
        "star_other_ball_keeps_turn": True,  # A-S4 (docs/rules/README.md, options)
        "star_foul_joker_off_table": True,  # A-S5 ⚙: a joker pocketed on a foul leaves the game
    }
    R_GOAL = R_GOAL
    R_CONCEDE = R_CONCEDE
    R_SPOTTING = R_SPOTTING

    def __init__(self, options: Mapping[str, object] | None = None) -> None:
        super().__init__(options)
        self.other_keeps_turn = bool(self.options["star_other_ball_keeps_turn"])
        self.foul_joker_off = bool(self.options["star_foul_joker_off_table"])

    def check_options(self) -> None:
        super().check_options()
        target = self.options["target"]
        if isinstance(target, int) and target > SEQUENCE_LENGTH:
            raise MalformedInputError(
                f"option 'target' is at most {SEQUENCE_LENGTH} in star (1: eight balls), got {target}",
                f"параметр 'target' в звездной пирамиде не больше {SEQUENCE_LENGTH} (п.1), получено {target}",
            )

    def initial_state(self) -> State:
        """3.1: the pyramid with ball 4 (blue) at the apex on the foot spot; the ivory ball in the house."""
        return super().initial_state()._replace(placed=((RACK[0][0], Spot.FOOT.value),))

    def colour_of(self, ball: int) -> Colour:
        return COLOURS[ball]

    @staticmethod
    def _need(d: Draft, player: int) -> Colour | None:
        n = d.scores[player]
        if n < 5:
            return FIVE[n]
        return sequence_colour(player, n, d.get(FIRST5))

    # -- naming the balls by colour -----------------------------------------------------------------------

    def check_shot(self, state: State, s: ShotReport) -> None:
        super().check_shot(state, s)
        self.check_calls(state, s.declarations)

    def check_calls(self, state: State, calls: Sequence[Declaration]) -> None:
        """4.3: no calls in Star."""
        if calls:
            raise IllegalInputError(
                "star 4.3: no calls are made in Star pyramid; remove the declaration",
                "star 4.3: в звездной пирамиде заказ не объявляется; уберите заказ",
            )

    def struck_ball(self, state: State, s: ShotReport, f: ShotFacts) -> None:
        """2.2: any ball may be the cue ball, given by id (`cue_ball`) or by colour (`cue_colour`).

        On the break, and from hand, it is the ball in hand (the ivory ball, 4.2); another one is general 15.
        """
        cue, colour = s.cue_ball, _colour_arg(s.cue_colour, "cue_colour")
        if cue is not None and (type(cue) is not int or (cue not in state.on_table and cue != state.hand)):
            raise IllegalInputError(
                f"cue_ball: ball {cue!r} is not on the table", f"cue_ball: шара {cue!r} нет на столе"
            )
        if cue is not None and colour is not None and COLOURS[cue] is not colour:
            raise IllegalInputError(
                f"cue_ball: ball {cue} is {COLOURS[cue].value}, not {colour.value}",
                f"cue_ball: шар {cue} — {RU_COLOUR[COLOURS[cue]]}, а не {RU_COLOUR[colour]}",
            )
        if state.hand is not None:
            f.cue = state.hand
            f.wrong_ball = (cue is not None and cue != state.hand) or (
                colour is not None and colour is not COLOURS[state.hand]
            )
            return
        if cue is None and colour is not None:
            cue = next((b for b in state.on_table if COLOURS[b] is colour), None)
            if cue is None:
                raise _none_of(colour, "cue_colour")
        f.cue = cue

    def pick_ball(
        self, d: Draft, ball: int | None, colour: Colour | None, cue: int | None, taken: list[int], field: str
    ) -> int:
        """A ball reported by colour is the lowest-numbered ball of that colour on the table (A-S1)."""
        if colour is not None and type(colour) is not Colour:
            raise MalformedInputError(
                f"{field}.colour: {colour!r} is not a colour", f"{field}.colour: {colour!r} — не цвет"
            )
        if ball is None and colour is None:
            raise IllegalInputError(
                f"{field}: give the ball's colour: star counts balls by colour (4.1, A-S1)",
                f"{field}: укажите цвет шара: в звездной пирамиде шары засчитываются по цвету (4.1)",
            )
        if ball is not None:
            return super().pick_ball(d, ball, colour, cue, taken, field)
        best: int | None = None  # the lowest fitting ball that is not the cue ball; else the cue ball
        for b in d.on_table:
            if COLOURS[b] is colour and b != cue and (best is None or b < best) and b not in taken:
                best = b
        if best is None:
            if cue is None or COLOURS[cue] is not colour or cue in taken or cue not in d.on_table:
                raise _none_of(colour, field)  # type: ignore[arg-type]
            best = cue
        return best

    def _first_contact_colour(self, d: Draft, s: ShotReport, f: ShotFacts) -> Colour | None:
        if s.first_contact is None and s.first_contact_colour is None:
            return None
        colour = _colour_arg(s.first_contact_colour, "first_contact_colour")
        if s.first_contact is not None:  # checked by `resolve`: an object ball that was on the table
            known = COLOURS[s.first_contact]
            if colour is not None and colour is not known:
                raise IllegalInputError(
                    f"first_contact: ball {s.first_contact} is {known.value}, not {colour.value}",
                    f"first_contact: шар {s.first_contact} — {RU_COLOUR[known]}, а не {RU_COLOUR[colour]}",
                )
            return known
        if colour is not None:
            at_stroke = (*d.on_table, *f.pocketed, *f.jumped)
            if not any(COLOURS[b] is colour and b != f.cue for b in at_stroke):
                raise _none_of(colour, "first_contact_colour")
        return colour

    # -- the shot -----------------------------------------------------------------------------------------

    def variant_fouls(self, d: Draft, s: ShotReport, f: ShotFacts, found: set[Foul]) -> None:
        """4.3 (A-S2): with a cue ball that is not an own playing ball,
        the first ball hit must be one; 4.5."""
        fc = self._first_contact_colour(d, s, f)
        if f.was_break:
            return  # 4.2: the break is struck with the ivory ball, which is everybody's joker
        need = self._need(d, s.shooter)
        cue_own = f.cue is None or f.cue == JOKER or COLOURS[f.cue] is need
        fc_own = fc is None or fc is IVORY or fc is need
        if not cue_own and not fc_own:
            found.add(Foul.WRONG_OWN_BALL)
        if s.snookered and fc_own and Foul.NOT_COMPLETED in found:
            found.discard(Foul.NOT_COMPLETED)
            d.emit(EffectKind.NOTE, R_SNOOKERED, player=s.shooter)

    def credit(self, d: Draft, player: int, ball: int, reason: Reason) -> None:
        """One more playing ball for `player` (on their shelf, +1); A-S8: the tails are fixed at five."""
        d.to_shelf(player, ball, reason)
        if d.scores[player] == 5 and FIRST5 not in d.extra:
            d.set_extra(FIRST5, player)
            d.emit(EffectKind.NOTE, R_FIRST_FIVE, player=player)

    def count(self, d: Draft, player: int, balls: Sequence[int], joker_first: bool) -> list[int]:
        """4.4 / A-S3: count the pocketed balls that continue `player`'s sequence; return the others.

        Exact colours are used first and the joker fills the first gap, which counts the most balls; on the
        break the ivory ball counts first (4.2.1: it is the breaker's blue).
        """
        rest = list(balls)
        if joker_first and JOKER in rest:
            need = self._need(d, player)
            if need is not None:
                rest.remove(JOKER)
                self.credit(d, player, JOKER, R_BREAK_BLUE if need is B else R_JOKER_COUNT[need])
        while rest and d.scores[player] < self.target:  # 1: the frame ends at the target (8 = the sequence)
            need = self._need(d, player)
            if need is None:
                break
            pick = min((b for b in rest if COLOURS[b] is need), default=None)
            if pick is not None:
                reason = R_COUNT[need]
            elif JOKER in rest:
                pick, reason = JOKER, R_JOKER_COUNT[need]
            else:
                break
            rest.remove(pick)
            self.credit(d, player, pick, reason)
        return rest

    def on_legal(self, d: Draft, s: ShotReport, f: ShotFacts) -> None:
        p = s.shooter
        before = d.scores[p]
        others = self.count(d, p, f.pocketed, f.was_break) if f.pocketed else []
        if others:
            self.put_back(d, others, R_BREAK_OTHER if f.was_break else R_OTHER)
        if d.scores[p] > before:
            d.keep_turn(R_SERIES)
        elif others and self.other_keeps_turn:
            d.keep_turn(R_BREAK_OTHER if f.was_break else R_OTHER)
        else:
            d.pass_turn(1 - p, R_OTHER_PASSES if others else R_NOTHING)

    def put_back(self, d: Draft, balls: Sequence[int], reason: Reason, joker_off: bool = True) -> None:
        """Balls that do not count go back (6.1 → general 25), except a pocketed joker (4.3.1, A-S5)."""
        spotted = []
        for b in balls:
            if b == JOKER and joker_off:
                d.off_table.append(JOKER)
                d.emit(EffectKind.OFF_TABLE, R_JOKER_GONE, ball=JOKER)
            else:
                d.emit(EffectKind.NOTE, reason, ball=b)
                spotted.append(b)
        if spotted:
            self.spot(d, spotted)

    def on_foul(self, d: Draft, s: ShotReport, f: ShotFacts, fouls: list[Foul], offender: int) -> None:
        # general 22.3 / star 6.1: nothing counts; the joker stays off
        # (4.3.1, A-S5 ⚙); 5.1: the opponent's choice.
        self.put_back(d, f.pocketed, g.R_INCORRECT, self.foul_joker_off)
        if JOKER in f.pocketed and not self.foul_joker_off:
            d.emit(EffectKind.NOTE, R_JOKER_SPOTTED, ball=JOKER)
        if f.jumped:
            self.spot(d, f.jumped)
        opponent = 1 - offender
        pool = self.penalty_balls(d, opponent)
        d.pending = Pending(opponent, PENALTY, (TAKE, GIVE_BACK) if pool else (GIVE_BACK,), pool, "5.1")
        d.emit(EffectKind.CHOICE, R_PENALTY, player=opponent, detail=PENALTY)
        d.pass_turn(opponent, g.R_FOUL_TURN)

    def penalty_balls(self, d: Draft, player: int) -> tuple[int, ...]:
        """A-S6: the balls `player` may take: those of their next colour on the table, and the joker."""
        need = self._need(d, player)
        return (
            tuple(sorted(b for b in d.on_table if b == JOKER or COLOURS[b] is need))
            if need is not None
            else ()
        )

    # -- the 5.1 choice, the re-rack ----------------------------------------------------------------------

    def on_choice(self, d: Draft, c: Choose, p: Pending) -> None:
        if c.option == GIVE_BACK:
            d.pass_turn(1 - c.player, R_GIVE_BACK)
            return
        # A-S6: a ball of the needed colour (the lowest unless named), or the joker
        ball = chosen_ball(c, p, self.colour_of, self.SPECIAL)
        d.take_from_table(ball)
        self.credit(d, c.player, ball, R_PENALTY_TAKEN)
        d.keep_turn(R_PENALTY_TAKEN)
        d.placed = [x for x in d.placed if x[0] in d.on_table]

    def interference(self, state: State, inp: Interference) -> Draft:
        """General 27 re-rack: the joker goes to the house; if it is out of play, the lowest ball (A-G3)."""
        if inp.restore or state.hand is not None or JOKER in state.on_table or not state.on_table:
            # (an empty table with the game on cannot happen: at most 8 + 7 balls are on the shelves)
            return g.interference(state, inp, JOKER)
        ball = min(state.on_table)
        d = g.interference(state, inp, ball)
        d.emit(EffectKind.NOTE, R_RERACK_BALL, ball=ball)
        return d

    # -- needs, and what the screens and the hub read (star_view.py) -----------------------------------------

    def next_colour(self, state: State, player: int) -> Colour | None:
        """The colour `player` must pocket next (4.1); the joker may stand in for it."""
        return view.next_colour(state, player)

    def needs(self, state: State) -> tuple[Need, ...]:
        """5.1: the penalty choice names the colour needed next; otherwise the base's needs."""
        p = state.pending
        if p is None or p.kind != PENALTY or state.mode != PLAY:
            return super().needs(state)
        return (view.penalty_need(state, p),)

    def shot_needs(self, state: State) -> tuple[Need, ...]:
        """Before a shot from the position: which ball is struck (its colour), 4.3 and A-S2."""
        if state.is_break or state.in_hand is not InHand.NONE or state.mode in (LAG, OVER):
            return super().shot_needs(state)
        return (view.cue_colour_need(state),)

    def ball_label(self, ball: int) -> str:
        return "J" if ball == JOKER else str(ball)

    def colour_options(self, state: State) -> tuple[str, ...]:
        return tuple(c.value for c in PANEL_ORDER)

    def board_facts(self, state: State) -> dict[str, Any] | None:
        """4.1, A-S8: the colour each player needs next,
        both sequences as far as known, who completed five."""
        return view.board_facts(state)

    def scoring_balls(self, state: State, player: int) -> tuple[int, ...]:
        """4.4, A-S2: the balls of the colour `player` needs next, and the joker."""
        return view.scoring_balls(state, player)
