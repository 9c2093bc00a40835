"""Choices, referee decisions and needs: how `Variant` (variant.py) folds `Choose`, `RefereeDecision` and
`Concede`, and the texts of its `needs()`.

The hooks variants override (`takeable`, `on_choice`, `choice_reason`, `decision_options`, `decision_text`,
`on_decision`, `shot_needs`) are on `Variant`; these are the plain functions behind its defaults.
"""

from __future__ import annotations

from collections.abc import Callable

from . import general as g
from .draft import Draft
from .errors import IllegalInputError
from .model import Choose, Colour, Concede, InHand, RefereeDecision
from .outcome import Need, NeedKind, Reason
from .state import REFEREE, ChoiceKind, Pending, State

_CHOICE_TEXT: dict[ChoiceKind, tuple[str, str]] = {
    ChoiceKind.PENALTY_BALL: (
        "take a penalty ball from the table onto your shelf",
        "снимите штрафной шар со стола на свою полку",
    ),
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


def choose(
    state: State,
    c: Choose,
    on_choice: Callable[[Draft, Choose, Pending], None],
    after: Callable[[Draft], None],
) -> Draft:
    """Fold a `Choose`: it must answer the pending choice, by its player, with an offered option; the
    variant's `on_choice` carries it out, then its `after` runs."""
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
    on_choice(d, c, p)
    after(d)
    return d


def chosen_ball(c: Choose, p: Pending, colour_of: Callable[[int], Colour], special: int) -> int:
    """The ball a `take_ball` choice takes: as given (checked), or the lowest allowed when not named."""
    if c.ball is None:
        if not p.balls:
            raise IllegalInputError("there is no ball to take", "нет шара, который можно снять")
        pool = [b for b in p.balls if c.colour is None or colour_of(b) is c.colour]
        if not pool:
            raise IllegalInputError("no ball of that colour may be taken", "нельзя снять шар этого цвета")
        plain = [b for b in pool if b != special]
        return min(plain or pool)
    if type(c.ball) is not int or c.ball not in p.balls:
        raise IllegalInputError(
            f"ball {c.ball!r} may not be taken; allowed: {', '.join(map(str, p.balls))}",
            f"шар {c.ball!r} снять нельзя; можно: {', '.join(map(str, p.balls))}",
        )
    return c.ball


def taken_reason(variant: str, paragraph: str) -> Reason:
    """The reason cited for a ball taken onto the shelf by a choice (`Variant.choice_reason`'s default)."""
    key = (variant, paragraph)
    r = _TAKEN.get(key)
    if r is None:  # one constant per paragraph: effects are cached by their reason's identity
        r = _TAKEN[key] = Reason(variant, paragraph, "ball taken onto the shelf", "шар снят на полку")
    return r


def decide(
    state: State,
    r: RefereeDecision,
    offered: Callable[[State], tuple[str, ...]],
    on_decision: Callable[[Draft, RefereeDecision], None],
) -> Draft:
    """Fold a `RefereeDecision` (only in mode REFEREE, with one of the options `offered`; the variant's
    `decision_options`), carried out by the variant's `on_decision`."""
    if state.mode != REFEREE:
        raise IllegalInputError("no referee decision is due", "решение судьи сейчас не требуется")
    options = offered(state)
    if r.option not in options:
        raise IllegalInputError(
            f"decision {r.option!r} is not offered; offered: {', '.join(options)}",
            f"решение {r.option!r} не предлагается; есть: {', '.join(options)}",
        )
    d = Draft(state)
    on_decision(d, r)
    return d


def concede(state: State, c: Concede, reason: Reason) -> Draft:
    """Fold a `Concede`: the other player wins (`reason`: the variant's `R_CONCEDE`)."""
    g.check_player(c.player, "Concede.player")
    d = Draft(state)
    d.win(1 - c.player, reason)
    return d


def lag_need() -> Need:
    """The lag is due: who won it (general 11)."""
    return Need(
        NeedKind.LAG,
        None,
        "Lag for the break: who won? (general 11)",
        "Розыгрыш: кто выиграл? (п.11)",
        options=("0", "1"),
        blocking=True,
    )


def choice_need(p: Pending, variant: str) -> Need:
    """The blocking need of a pending choice, citing the variant's paragraph."""
    en, ru = _CHOICE_TEXT.get(p.kind, (p.kind, p.kind))
    cite = f" ({variant} {p.paragraph})"
    return Need(
        NeedKind.CHOICE, p.player, en + cite, ru + cite, options=p.options, balls=p.balls, blocking=True
    )


def placement_needs(state: State) -> tuple[Need, ...]:
    """Where the ball in hand goes (the default of `Variant.shot_needs`)."""
    if state.in_hand is InHand.HOUSE:
        return (
            Need(
                NeedKind.PLACEMENT,
                state.to_play,
                g.R_HAND_HOUSE.text("en") + "; " + g.R_TEMP_HOUSE.text("en"),
                g.R_HAND_HOUSE.text("ru") + "; " + g.R_TEMP_HOUSE.text("ru"),
            ),
        )
    if state.in_hand is InHand.ANYWHERE:
        return (
            Need(
                NeedKind.PLACEMENT,
                state.to_play,
                "Cue ball in hand: place it anywhere on the table",
                "Биток с руки: установите в любом месте стола",
            ),
        )
    return ()
