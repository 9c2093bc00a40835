"""Choices, referee decisions and needs: the half of `Variant` that is not the shot pipeline.

`ChoicesMixin` is mixed into `Variant` (variant.py); variants override its hooks (`takeable`, `on_choice`,
`choice_reason`, `decision_options`, `decision_text`, `on_decision`, `shot_needs`).
"""

from __future__ import annotations

from typing import ClassVar

from . import general as g
from .draft import Draft
from .errors import IllegalInputError
from .model import Choose, Colour, Concede, InHand, RefereeDecision
from .outcome import EffectKind, Need, NeedKind, Reason
from .state import HELD, LAG, OVER, REFEREE, ChoiceKind, Pending, State

_CHOICE_TEXT: dict[ChoiceKind, tuple[str, str]] = {
    ChoiceKind.PENALTY_BALL: ("take a penalty ball from the table onto your shelf", "снимите штрафной шар со стола на свою полку"),
    ChoiceKind.CUE_BALL_BALL: (
        "the cue ball was pocketed: take an object ball from the table onto your shelf",
        "биток забит: снимите прицельный шар со стола на свою полку",
    ),
    ChoiceKind.PENALTY_OPTION: (
        "foul: take a ball from the table and play on, or take a penalty shot in hand anywhere",
        "штраф: снимите шар со стола и продолжайте, или штрафной удар с руки с любого места",
    ),
}

_TAKEN: dict[tuple[str, str], Reason] = {}


class ChoicesMixin:
    """Choices (`Choose`), referee decisions (`RefereeDecision`), `Concede`, and `needs()`."""

    name: ClassVar[str]
    CUE_BALL: ClassVar[int | None]
    SPECIAL: ClassVar[int]
    R_CONCEDE: ClassVar[Reason]

    def colour_of(self, ball: int) -> Colour:
        raise NotImplementedError

    def after(self, d: Draft) -> None:
        raise NotImplementedError

    def held_need(self, state: State) -> Need:
        raise NotImplementedError

    # -- choices and decisions --------------------------------------------------------------------------

    def offer(self, d: Draft, player: int, kind: ChoiceKind, options: tuple[str, ...], reason: Reason, balls: bool = True) -> None:
        """Give `player` a choice (answered with `Choose`); `balls`: the balls they may take, if any."""
        pool = tuple(sorted(b for b in d.on_table if self.takeable(b))) if balls else ()
        d.pending = Pending(player, kind, options, pool, reason.paragraph)
        d.emit(EffectKind.CHOICE, reason, player=player, detail=kind)

    def takeable(self, ball: int) -> bool:
        """Hook: may this ball be taken off the table by a choice? Default: any but a fixed cue ball."""
        return ball != self.CUE_BALL

    def choose(self, state: State, c: Choose) -> Draft:
        """Fold a `Choose`: it must answer the pending choice, by its player, with an offered option."""
        p = state.pending
        if p is None:
            raise IllegalInputError("there is no choice to make now", "сейчас нечего выбирать")
        g.check_player(c.player, "Choose.player")
        if c.player != p.player:
            raise IllegalInputError(f"it is player {p.player}'s choice", f"выбирает игрок {p.player}")
        if c.option not in p.options:
            raise IllegalInputError(
                f"option {c.option!r} is not offered; offered: {', '.join(p.options)}",
                f"вариант {c.option!r} не предлагается; есть: {', '.join(p.options)}",
            )
        d = Draft(state)
        d.pending = None
        self.on_choice(d, c, p)
        self.after(d)
        return d

    def chosen_ball(self, c: Choose, p: Pending) -> int:
        """The ball a `take_ball` choice takes: as given (checked), or the lowest allowed when not named."""
        if c.ball is None:
            if not p.balls:
                raise IllegalInputError("there is no ball to take", "нет шара, который можно снять")
            pool = [b for b in p.balls if c.colour is None or self.colour_of(b) is c.colour]
            if not pool:
                raise IllegalInputError("no ball of that colour may be taken", "нельзя снять шар этого цвета")
            plain = [b for b in pool if b != self.SPECIAL]
            return min(plain or pool)
        if type(c.ball) is not int or c.ball not in p.balls:
            raise IllegalInputError(
                f"ball {c.ball!r} may not be taken; allowed: {', '.join(map(str, p.balls))}",
                f"шар {c.ball!r} снять нельзя; можно: {', '.join(map(str, p.balls))}",
            )
        return c.ball

    def on_choice(self, d: Draft, c: Choose, p: Pending) -> None:
        """Hook: apply a choice. Default: `take_ball` moves the ball to the chooser's shelf for 1 point."""
        ball = self.chosen_ball(c, p)
        d.take_from_table(ball)
        d.to_shelf(c.player, ball, self.choice_reason(p))

    def choice_reason(self, p: Pending) -> Reason:
        """Hook: the reason to cite for carrying out a choice."""
        key = (self.name, p.paragraph)
        r = _TAKEN.get(key)
        if r is None:  # one constant per paragraph: effects are cached by their reason's identity
            r = _TAKEN[key] = Reason(self.name, p.paragraph, "ball taken onto the shelf", "шар снят на полку")
        return r

    def decide(self, state: State, r: RefereeDecision) -> Draft:
        """Fold a `RefereeDecision` (only in mode REFEREE, with an offered option)."""
        if state.mode != REFEREE:
            raise IllegalInputError("no referee decision is due", "решение судьи сейчас не требуется")
        options = self.decision_options(state)
        if r.option not in options:
            raise IllegalInputError(
                f"decision {r.option!r} is not offered; offered: {', '.join(options)}",
                f"решение {r.option!r} не предлагается; есть: {', '.join(options)}",
            )
        d = Draft(state)
        self.on_decision(d, r)
        return d

    def decision_options(self, state: State) -> tuple[str, ...]:
        """Hook: the decisions offered in mode REFEREE."""
        return ()

    def on_decision(self, d: Draft, r: RefereeDecision) -> None:
        """Hook: apply a referee decision."""
        raise IllegalInputError("this variant has no referee decisions")

    def concede(self, state: State, c: Concede) -> Draft:
        """Fold a `Concede`: the other player wins."""
        g.check_player(c.player, "Concede.player")
        d = Draft(state)
        d.win(1 - c.player, self.R_CONCEDE)
        return d

    # -- needs ------------------------------------------------------------------------------------------

    def needs(self, state: State) -> tuple[Need, ...]:
        """What the referee panel must ask before (or with) the next shot. `blocking` ones come first."""
        if state.mode == OVER or state.over:
            return ()
        if state.mode == LAG:
            return (
                Need(
                    NeedKind.LAG, None, "Lag for the break: who won? (general 11)", "Розыгрыш: кто выиграл? (п.11)",
                    options=("0", "1"), blocking=True,
                ),
            )
        if state.mode == HELD:
            return (self.held_need(state),)
        if state.mode == REFEREE:
            en, ru = self.decision_text(state)
            return (Need(NeedKind.REFEREE_DECISION, None, en, ru, options=self.decision_options(state), blocking=True),)
        if state.pending is not None:
            p = state.pending
            en, ru = _CHOICE_TEXT.get(p.kind, (p.kind, p.kind))
            cite = f" ({self.name} {p.paragraph})"
            return (Need(NeedKind.CHOICE, p.player, en + cite, ru + cite, options=p.options, balls=p.balls, blocking=True),)
        return self.shot_needs(state)

    def decision_text(self, state: State) -> tuple[str, str]:
        """Hook: the prompt (en, ru) for the referee decision due in `state`."""
        return ("The referee must decide", "Требуется решение судьи")

    def shot_needs(self, state: State) -> tuple[Need, ...]:
        """Hook: facts the next ShotReport should carry (not blocking). Default: the placement from hand."""
        if state.in_hand is InHand.HOUSE:
            return (Need(NeedKind.PLACEMENT, state.to_play, g.R_HAND_HOUSE.text("en") + "; " + g.R_TEMP_HOUSE.text("en"),
                         g.R_HAND_HOUSE.text("ru") + "; " + g.R_TEMP_HOUSE.text("ru")),)
        if state.in_hand is InHand.ANYWHERE:
            return (Need(NeedKind.PLACEMENT, state.to_play, "Cue ball in hand: place it anywhere on the table",
                         "Биток с руки: установите в любом месте стола"),)
        return ()

