"""Star pyramid: the colours and the sequence (3.1, 4.1, A-S1, A-S8), and what the panel and the screens are
shown (the needs before a shot and after a foul, the scoreboard section, the balls that would score): the
helpers `Star` (star.py) calls.
"""

from __future__ import annotations

from typing import Any

from .model import Colour
from .outcome import Need, NeedKind
from .star_text import R_PENALTY, RU_COLOUR
from .state import ChoiceKind, Key, Pending, State

B, Y, K, G, R, IVORY = Colour.BLUE, Colour.YELLOW, Colour.BLACK, Colour.GREEN, Colour.RED, Colour.IVORY
JOKER = 0

# 3.1 / A-S1: the colour of each ball, by its Classic rack number (4, 2, 10 blue; 6, 1, 13 yellow; 15, 9, 12
# black; 5, 14, 11 green; 7, 8, 3 red). Indexed by ball id.
COLOURS: tuple[Colour, ...] = (IVORY, Y, B, R, B, G, Y, R, R, K, B, G, K, Y, G, K)
# The Classic rack pattern, apex (foot spot) first: the base row holds the five Olympic colours (3.1).
RACK: tuple[tuple[int, ...], ...] = ((4,), (5, 6), (7, 15, 8), (9, 14, 13, 10), (2, 1, 12, 11, 3))
FIVE = (B, Y, K, G, R)  # 4.1: everybody's first five
TAIL_FIRST = (B, Y, K)  # 4.1: the player who completed the five first
TAIL_OTHER = (R, G, K)  # 4.1: the other player
SEQUENCE_LENGTH = 8
# extra state: the seat that completed the five first (A-S8); unset before
FIRST5: Key[int] = Key("star_first5")
PENALTY = ChoiceKind.STAR_PENALTY  # the kind of the 5.1 choice
TAKE, GIVE_BACK = "take_ball", "give_back"

PANEL_ORDER = (IVORY, B, Y, K, G, R)  # the order colours are offered in (the sequence's)


def sequence_colour(player: int, count: int, first5: object) -> Colour | None:
    """4.1: the colour `player` needs after `count` playing balls (None once all eight are in)."""
    if count < 5:
        return FIVE[count]
    if count >= SEQUENCE_LENGTH:
        return None
    return (TAIL_FIRST if first5 == player else TAIL_OTHER)[count - 5]


def sequence(player: int, first5: object) -> tuple[Colour, ...]:
    """The eight colours of `player`'s sequence as far as it is known (A-S8:
    the tail once somebody has five)."""
    if first5 is None:
        return FIVE
    return FIVE + (TAIL_FIRST if first5 == player else TAIL_OTHER)


def next_colour(state: State, player: int) -> Colour | None:
    """The colour `player` must pocket next (4.1); the joker may stand in for it."""
    return sequence_colour(player, state.scores[player], state.get(FIRST5))


# -- needs --------------------------------------------------------------------------------------------------


def penalty_need(state: State, p: Pending) -> Need:
    """5.1: the opponent's choice after a foul, naming the colour they need next (A-S6)."""
    colour = next_colour(state, p.player)
    want_en = f"your next playing ball ({colour.value} or the joker)" if colour else "your next playing ball"
    want_ru = f"свой игровой шар ({RU_COLOUR[colour]} или «джокер»)" if colour else "свой игровой шар"
    en = R_PENALTY.text("en") + f": take {want_en} and play on (take_ball), or give the shot back (give_back)"
    ru = R_PENALTY.text("ru") + f": снять {want_ru} и продолжить (take_ball) или передать удар (give_back)"
    return Need(NeedKind.CHOICE, p.player, en, ru, options=p.options, balls=p.balls, blocking=True)


def cue_colour_need(state: State) -> Need:
    """Before a shot from the position: which ball is struck (its colour), 4.3 and A-S2."""
    colour = next_colour(state, state.to_play)
    present = {COLOURS[b] for b in state.on_table}
    options = tuple(c.value for c in PANEL_ORDER if c in present)
    joker = JOKER in state.on_table
    name_en = (colour.value if colour else "-") + (" or the joker" if joker else "")
    name_ru = (RU_COLOUR[colour] if colour else "-") + (" или «джокер»" if joker else "")
    en = (
        f"star 4.3: the colour of the ball struck with the cue (cue_colour). Own playing balls: {name_en}; "
        "any other cue ball must first hit one of them (first_contact_colour)"
    )
    ru = (
        f"star 4.3: цвет шара, по которому бьют кием (cue_colour). Свои игровые шары: {name_ru}; "
        "другим битком сначала нужно попасть в свой игровой шар (first_contact_colour)"
    )
    return Need(NeedKind.CUE_COLOUR, state.to_play, en, ru, options=options)


# -- what the screens and the hub read (`Star.board_facts`, `scoring_balls`) ---------------------------------


def board_facts(state: State) -> dict[str, Any] | None:
    """4.1, A-S8: the colour each player needs next, both sequences as far as known, who completed five."""
    first5 = state.get(FIRST5)
    nxt = [next_colour(state, p) for p in (0, 1)]
    return {
        "next": [c.value if c else None for c in nxt],
        "sequences": [[c.value for c in sequence(p, first5)] for p in (0, 1)],
        "done": list(state.scores),
        "first_to_five": first5,
    }


def scoring_balls(state: State, player: int) -> tuple[int, ...]:
    """4.4, A-S2: the balls of the colour `player` needs next, and the joker."""
    need = next_colour(state, player)
    return tuple(b for b in state.on_table if b == JOKER or (need is not None and COLOURS[b] is need))
