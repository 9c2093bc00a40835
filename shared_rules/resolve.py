"""Naming the balls of a shot report: which pocketed and jumped ball is which (for `Variant.fold_shot`).

`resolve` checks every reported ball and lifts it off the table, in reported order (`ShotFacts.pocketed`,
`.pockets`, `.jumped`). A ball reported without its number is the lowest fitting ball (by colour if given),
object balls before the cue ball; named balls are taken first, so an unnamed ball never takes a named one's
number. (Where an unnamed ball's identity decides the result the shot never gets here: it is held, held.py.)
"""

from __future__ import annotations

import typing
from collections.abc import Callable

from .draft import Draft
from .errors import IllegalInputError, MalformedInputError
from .model import Colour, JumpedBall, Pocket, PocketedBall, ShotReport
from .state import State


class ShotFacts:
    """What the pipeline worked out about one shot, handed to the hooks."""

    __slots__ = ("cue", "from_hand", "hand_rule", "jumped", "pockets", "pocketed", "was_break", "wrong_ball")

    def __init__(self, state: State) -> None:
        self.was_break = state.is_break
        self.from_hand = state.in_hand
        self.hand_rule = state.hand_rule
        self.cue: int | None = None  # the ball struck with the cue, if known
        self.wrong_ball = False  # a ball other than the designated cue ball was struck (general 15)
        self.pocketed: tuple[int, ...] = ()  # in the order reported
        self.pockets: tuple[Pocket, ...] = ()
        self.jumped: tuple[int, ...] = ()


# `Variant.pick_ball`: (draft, ball, colour, cue, taken, field) -> the ball (a hook; Star picks by colour)
PickBall = Callable[[Draft, int | None, Colour | None, int | None, list[int], str], int]


def resolve(d: Draft, s: ShotReport, f: ShotFacts, pick: PickBall) -> None:
    """Name every pocketed and jumped ball (`pick` picks fitting ones where not given) and lift them off;
    named balls are taken first, so an unnamed ball never takes the number of a named one."""
    if s.pocketed or s.jumped:
        reports: list[tuple[str, int | None, Colour | None]] = []
        pockets: list[Pocket] = []
        for i, pb in enumerate(s.pocketed):
            if type(pb) is not PocketedBall:
                raise MalformedInputError(f"pocketed[{i}]: not a PocketedBall: {pb!r}")
            pocket = pb.pocket
            if type(pocket) is not Pocket:
                try:
                    pocket = Pocket(pocket)
                except ValueError:
                    raise MalformedInputError(
                        f"pocketed[{i}].pocket: {pocket!r} is not a pocket (1..6)",
                        f"pocketed[{i}].pocket: {pocket!r} — нет такой лузы (1..6)",
                    ) from None
            pockets.append(pocket)
            reports.append((f"pocketed[{i}]", pb.ball, pb.colour))
        for i, jb in enumerate(s.jumped):
            if type(jb) is not JumpedBall:
                raise MalformedInputError(f"jumped[{i}]: not a JumpedBall: {jb!r}")
            reports.append((f"jumped[{i}]", jb.ball, jb.colour))
        ids: list[int | None] = [None] * len(reports)
        named: list[int] = []
        for i, (field, ball, colour) in enumerate(reports):
            if ball is not None:
                ids[i] = pick(d, ball, colour, f.cue, named, field)
                named.append(ids[i])  # type: ignore[arg-type]
        for i, (field, ball, colour) in enumerate(reports):
            if ball is None:
                ids[i] = pick(d, None, colour, f.cue, named, field)
                named.append(ids[i])  # type: ignore[arg-type]
        taken = typing.cast(list[int], ids)
        n = len(pockets)
        f.pockets = tuple(pockets)
        f.pocketed = tuple(taken[:n])
        f.jumped = tuple(taken[n:])
        for b in taken:
            d.on_table.remove(b)
    fc = s.first_contact
    if fc is not None and not (
        type(fc) is int and fc != f.cue and (fc in d.on_table or fc in f.pocketed or fc in f.jumped)
    ):
        raise IllegalInputError(
            f"first_contact: ball {fc!r} is not an object ball on the table",
            f"first_contact: шар {fc!r} — не прицельный шар на столе",
        )


def fitting_ball(
    d: Draft,
    ball: int | None,
    colour: Colour | None,
    cue: int | None,
    taken: list[int],
    field: str,
    colour_of: Callable[[int], Colour],
    special: int,
) -> int:
    """The reported ball, checked; or, if not named, the lowest fitting object ball (then the cue ball).

    The default of `Variant.pick_ball`; `colour_of` is the variant's, `special` its coloured ball."""
    if ball is not None:
        if type(ball) is not int:
            raise MalformedInputError(f"{field}.ball: {ball!r} is not a ball number")
        if ball not in d.on_table:
            raise IllegalInputError(
                f"{field}: ball {ball} is not on the table", f"{field}: шара {ball} нет на столе"
            )
        if ball in taken:
            raise IllegalInputError(
                f"{field}: ball {ball} is reported twice", f"{field}: шар {ball} указан дважды"
            )
        if colour is not None and colour_of(ball) is not colour:
            raise IllegalInputError(
                f"{field}: ball {ball} is not {colour.value}", f"{field}: шар {ball} не цвета {colour.value}"
            )
        return ball
    best: int | None = None
    fallback: int | None = None
    for b in d.on_table:
        if b in taken or (colour is not None and colour_of(b) is not colour):
            continue
        if b == cue or (b == special and colour is None):
            if fallback is None or b < fallback:
                fallback = b
        elif best is None or b < best:
            best = b
    if best is None:
        best = fallback
    if best is None:
        what = f"{colour.value} " if colour is not None else ""
        raise IllegalInputError(
            f"{field}: no {what}ball left on the table to match", f"{field}: на столе не осталось такого шара"
        )
    return best
