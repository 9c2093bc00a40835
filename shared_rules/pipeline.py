"""The fixed steps of the shot pipeline (variant.py's `fold_shot`) that no variant's hook replaces: the draft
a shot starts from, the fouls a report carries and those its facts prove (general 12, 15, 20, 24.3), and
where the cue ball goes after the penalty of a placement foul or an incorrect break. Plain functions on a
draft, the report and its facts (resolve.py), like general.py's.
"""

from __future__ import annotations

from . import general as g
from .draft import Draft
from .errors import MalformedInputError
from .model import Foul, InHand, ShotReport
from .resolve import ShotFacts
from .state import State


def begin_shot(state: State) -> Draft:
    """The draft of a shot played from `state`: the balls move, so earlier spot placements are history, a ball
    in hand is on the table, and the break (if it was one) is past."""
    d = Draft(state)
    d.placed = []
    if d.hand is not None:
        d.on_table.append(d.hand)
        d.hand = None
    d.in_hand = InHand.NONE
    d.hand_rule = ""
    d.is_break = False
    return d


def reported_fouls(s: ShotReport) -> set[Foul]:
    """The fouls the report names, each checked to be a foul code."""
    found = set(s.fouls)
    for x in found:
        if type(x) is not Foul:
            raise MalformedInputError(
                f"fouls: {x!r} is not a foul code", f"fouls: {x!r} — нет такого нарушения"
            )
    return found


def proven_fouls(
    s: ShotReport, f: ShotFacts, jump_is_foul: bool, break_min: int, require_completion: bool
) -> set[Foul]:
    """The fouls the facts prove: the wrong ball struck (general 15), a ball jumped (24.3, where the
    variant counts it), an incorrect break (`break_min` balls to a cushion, general 12), a shot not correctly
    completed (general 20, where the variant requires it)."""
    found: set[Foul] = set()
    if f.wrong_ball:
        found.add(Foul.BAD_CUE_STRIKE)
    if f.jumped and jump_is_foul:
        found.add(Foul.JUMPED)
    if f.was_break:
        objects = sum(1 for b in f.pocketed if b != f.cue)
        if not g.break_is_correct(s, objects, break_min):
            found.add(Foul.BAD_BREAK)
    elif require_completion and not g.correctly_completed(s, bool(f.pocketed)):
        found.add(Foul.NOT_COMPLETED)
    return found


def after_penalty(
    d: Draft, f: ShotFacts, fouls: list[Foul], offender: int, special: int, rebreak: bool
) -> None:
    """After the variant's penalty (`on_foul`): a placement foul puts the ball played from hand back in hand,
    an incorrect break is broken again if the match says so; a choice the penalty offered keeps only the balls
    still on the table."""
    if Foul.PLACEMENT in fouls and f.from_hand is not InHand.NONE:
        g.placement_foul(d, f.from_hand, f.cue if f.cue is not None else special, offender)
        d.is_break = f.was_break
    elif f.was_break and Foul.BAD_BREAK in fouls and rebreak:
        g.rebreak(d, offender, special)
    if d.pending is not None and d.pending.balls:
        # the two rules above may move the cue ball into hand after the penalty was offered
        d.pending = d.pending._replace(balls=tuple(b for b in d.pending.balls if b in d.on_table))
