"""One protocol for a fact a shot report lacks: the engine holds the shot with a typed
need, answered by `Identify`.

Where a report leaves a ball unnamed and the variant's profile says its identity decides the result (a number
in Classic and 100 points, a colour in Star), `Variant.complete` fills in what is certain and names the first
ball that is not. The shot is then HELD: nothing changes but mode `held` and `State.held`; `needs()` asks one
blocking `BALL_NUMBER` / `BALL_COLOUR` need (before_shot=False) naming the ball (`slot`, `pocket`).
`Identify(ball=...)` or `Identify(colour=...)` answers it, and the held shot is folded as if it had carried
the fact (it may be held again for the next ball). Undo takes the answer back, and then the shot. A report
that cannot be folded at all is still refused (a `RulesError`), as before.

The hooks (`Variant.complete`, `unnamed_candidates`, `colour_options`) are on `Variant` (variant.py), which
holds a shot in `Variant.shot` and folds the answer in `Variant.apply`;
these are the plain functions they use.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from .draft import Draft
from .errors import IllegalInputError, MalformedInputError
from .model import Colour, Identify, JumpedBall, PocketedBall, ShotReport
from .outcome import EffectKind, Need, NeedKind, Reason
from .profile import BallIdentity, Profile
from .state import HELD, Held, State

R_HELD = Reason(
    "general",
    "22",
    "which ball fell decides the result: the shot is held until the referee names it",
    "от того, какой шар упал, зависит результат: удар ждёт, пока судья его назовёт",
)


def reported(s: ShotReport) -> list[tuple[int | None, Colour | None]]:
    """(ball, colour) of every reported ball: the pocketed ones, then the jumped ones (the `slot` order)."""
    out: list[tuple[int | None, Colour | None]] = []
    for b in (*s.pocketed, *s.jumped):
        if isinstance(b, (PocketedBall, JumpedBall)):
            out.append((b.ball, b.colour))
    return out


def with_ball(s: ShotReport, slot: int, ball: int | None = None, colour: Colour | None = None) -> ShotReport:
    """The report with the ball in `slot` named (`ball`) or coloured (`colour`)."""
    n = len(s.pocketed)
    if slot < n:
        pocketed = list(s.pocketed)
        pb = pocketed[slot]
        pocketed[slot] = dataclasses.replace(
            pb, ball=pb.ball if ball is None else ball, colour=colour or pb.colour
        )
        return dataclasses.replace(s, pocketed=tuple(pocketed))
    jumped = list(s.jumped)
    jb = jumped[slot - n]
    jumped[slot - n] = dataclasses.replace(
        jb, ball=jb.ball if ball is None else ball, colour=colour or jb.colour
    )
    return dataclasses.replace(s, jumped=tuple(jumped))


def unnamed_slot(
    identity: BallIdentity, s: ShotReport, ball_of_colour: Callable[[Colour | None], int | None]
) -> int | None:
    """The slot of the first reported ball whose identity decides the result but is not given (None: nothing
    is missing): by the profile's `identity`, a ball with no number (NUMBER) or no colour (COLOUR) that no
    colour names alone (`ball_of_colour`). The default of `Variant.complete`."""
    if identity is BallIdentity.NONE:
        return None
    for slot, b in enumerate((*s.pocketed, *s.jumped)):  # (the fold's hot path: no list of pairs built)
        ball, colour = getattr(b, "ball", 0), getattr(b, "colour", None)
        if ball is not None:
            continue
        if identity is BallIdentity.COLOUR and colour is None:
            return slot
        if identity is BallIdentity.NUMBER and (colour is None or ball_of_colour(colour) is None):
            return slot
    return None


def only_ball_of(
    balls: tuple[int, ...], colour_of: Callable[[int], Colour], colour: Colour | None
) -> int | None:
    """The one ball of `balls` with this colour class, if only one has it (the yellow, Star's joker)."""
    if colour is None:
        return None
    found = [b for b in balls if colour_of(b) is colour]
    return found[0] if len(found) == 1 else None


Candidates = Callable[[State, Colour | None], tuple[int, ...]]  # `Variant.unnamed_candidates`


def stand_in(state: State, s: ShotReport, candidates: Candidates) -> ShotReport:
    """The report with a fitting ball put in for each unnamed one (only to check the rest of it)."""
    taken = {b for b, _ in reported(s) if b is not None}
    for slot, (ball, colour) in enumerate(reported(s)):
        if ball is None:
            pick = next((b for b in candidates(state, colour) if b not in taken), None)
            if pick is not None:
                taken.add(pick)
                s = with_ball(s, slot, pick)
    return s


def hold(state: State, s: ShotReport, slot: int, profile: Profile) -> Draft:
    """The draft of a held shot: nothing changes but mode HELD and `State.held` (the report, the ball asked
    about, the mode it was played in). `Variant.shot` has checked the rest of the report first."""
    need = profile.identity.need or NeedKind.BALL_NUMBER
    d = Draft(state)
    d.held = Held(s, slot, need, state.mode)
    d.mode = HELD
    d.emit(EffectKind.MODE, profile.identity_rule or R_HELD, detail=HELD)
    return d


def identified(
    state: State, inp: Identify, offered: Callable[[State], tuple[str, ...]], variant: str
) -> tuple[State, ShotReport]:
    """An `Identify` checked against the held need and the answers `offered` (`Variant.held_options`): the
    position the held shot was played from, and the report with the named ball (`Variant.apply` folds it)."""
    held = state.held
    if state.mode != HELD or held is None:
        raise IllegalInputError("no shot is held for a ball to be named", "нет удара, ожидающего номера шара")
    options = offered(state)
    if held.need is NeedKind.BALL_COLOUR:
        if type(inp.colour) is not Colour or inp.ball is not None:
            raise MalformedInputError("Identify: give the ball's colour", "Identify: укажите цвет шара")
        value = inp.colour.value
    else:
        if type(inp.ball) is not int or inp.colour is not None:
            raise MalformedInputError("Identify: give the ball's number", "Identify: укажите номер шара")
        value = str(inp.ball)
    if value not in options:
        raise IllegalInputError(
            f"{variant}: {value!r} is not a ball that could have fallen; name one of: {', '.join(options)}",
            f"{variant}: {value!r} — не шар, который мог упасть; назовите один из: {', '.join(options)}",
        )
    report = with_ball(held.report, held.slot, inp.ball, inp.colour)
    return state._replace(mode=held.mode, held=None), report  # the position the shot was played from


def possible_answers(
    state: State,
    colour_of: Callable[[int], Colour],
    candidates: Candidates,
    colours: Callable[[State], tuple[str, ...]],
) -> tuple[str, ...]:
    """What may answer the held need: ball numbers not named elsewhere in the report, or colours (the
    variant's `colour_of`, `unnamed_candidates` and `colour_options` decide; `Variant.held_options`)."""
    held = state.held
    if held is None:
        return ()
    balls = reported(held.report)
    colour = balls[held.slot][1]
    if held.need is NeedKind.BALL_COLOUR:
        fits = {colour_of(b) for b in candidates(state, None)}
        return tuple(c for c in colours(state) if Colour(c) in fits)
    named = {b for b, _ in balls if b is not None}
    return tuple(str(b) for b in candidates(state, colour) if b not in named)


def held_need(held: Held, rule: Reason, options: tuple[str, ...]) -> Need:
    """The blocking need of a held shot: which ball (or colour) went into that pocket."""
    n = len(held.report.pocketed)
    pocket = int(held.report.pocketed[held.slot].pocket) if held.slot < n else None
    what_en = f"went into pocket {pocket}" if pocket is not None else "left the table"
    what_ru = f"упал в лузу {pocket}" if pocket is not None else "выскочил за борт"
    if held.need is NeedKind.BALL_COLOUR:
        en, ru = f"what colour was the ball that {what_en}?", f"какого цвета шар {what_ru}?"
    else:
        en, ru = f"which ball {what_en}?", f"какой шар {what_ru}?"
    return Need(
        held.need,
        None,
        f"{rule.text('en')}: {en}",
        f"{rule.text('ru')}: {ru}",
        options=options,
        before_shot=False,
        blocking=True,
        slot=held.slot,
        pocket=pocket,
    )
