"""The demo's scripted referee: the call before each shot and the answers to the panel's questions.

It reads what a referee sees (the scoreboard `hub.state(table)["match"]`: `on_table`, `to_play`, `scores`,
`needs`, `questions`) and asks the rules engine what the variant wants, never its name: a call is made where
the engine asks for one (a `declaration` need: Classic 5.2, 100 points §4 and its optional call on the break),
of a ball the need offers that would score now (`Variant.scoring_balls`: 100 points keeps #10 for last, §12);
the ball potted is one that would score (Star 4.1: the colour the player needs next, or the joker). Questions
are answered the way a referee who watched the shot would: `identify` with the ball that was called (or one
that could have fallen, or the colour of the ball potted), a lag with a coin toss, a choice or decision with
the first option offered.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from hub.demo.shapes import Board, NextShotJSON, RefereeBody
from shared_rules.model import Colour
from shared_rules.outcome import NeedKind
from shared_rules.state import State
from shared_rules.variant import Variant

COLOURS = frozenset(c.value for c in Colour)
# ball 0 is the special (coloured) ball in every variant (shared_rules.model): never a "white" answer
SPECIAL = 0


@dataclass(frozen=True)
class Plan:
    """One scripted shot: the call (ball into pocket, or none) and the colour of the ball that falls."""

    pocket: int
    call: int | None
    colour: str
    pot: bool


def seen(state: State, board: Board) -> State:
    """The engine's committed state with what the scoreboard shows since
    (an open shot played on top of it)."""
    scores = board.get("scores") or state.scores
    return state._replace(
        on_table=tuple(board.get("on_table", state.on_table)),
        scores=(scores[0], scores[1]),
        to_play=int(board.get("to_play", state.to_play)),
        is_break=bool(board.get("is_break", state.is_break)),
    )


def call_ball(rules: Variant, state: State, board: Board, rng: random.Random) -> int | None:
    """A legal call that would score, where the engine asks for a call (its `declaration` need); else None."""
    need = next((n for n in board.get("needs", []) if n.get("kind") == NeedKind.DECLARATION), None)
    if need is None:
        return None
    offered = {int(o) for o in need.get("options", []) if str(o).isdigit()}
    balls = [b for b in rules.scoring_balls(state, state.to_play) if b in offered]
    return rng.choice(balls) if balls else None


def target_ball(rules: Variant, state: State, rng: random.Random) -> int | None:
    """A ball that would score for the player to play (a plain one rather than the special ball), or None."""
    balls = list(rules.scoring_balls(state, state.to_play))
    plain = [b for b in balls if b != rules.SPECIAL]
    return rng.choice(plain or balls) if balls else None


def plan_shot(rules: Variant, state: State, board: Board, rng: random.Random) -> Plan:
    """What the player in turn does: usually (70 %) pots the ball the referee
    called, or one that would score."""
    state = seen(state, board)
    pocket = rng.randint(1, 6)
    pot = rng.random() < 0.7
    call = call_ball(rules, state, board, rng)
    ball = call if call is not None else target_ball(rules, state, rng)
    asked = any(n.get("kind") == NeedKind.DECLARATION for n in board.get("needs", []))
    if ball is None or (asked and call is None):
        pot = False  # nothing left that would score, or nothing left to call
    colour = rules.colour_of(ball).value if ball is not None else Colour.IVORY.value
    return Plan(pocket, call, colour, pot)


def their_call(rules: Variant, plan: Plan, board: Board) -> Plan:
    """The shot when a person referees: the script calls nothing; the player goes for the ball and pocket the
    person called for this shot (the scoreboard's `next_shot`), if any, else for the ball of `plan`."""
    next_shot: NextShotJSON = board.get("next_shot") or {"declarations": []}
    calls = next_shot.get("declarations") or []
    call = calls[-1] if calls else None
    ball = call.get("ball") if call is not None else None
    if call is None or not isinstance(ball, int):
        return replace(plan, call=None)
    return Plan(int(call.get("pocket") or plan.pocket), None, rules.colour_of(ball).value, plan.pot)


def answers(
    board: Board, called: int | None, rng: random.Random, colour: str | None = None
) -> list[RefereeBody]:
    """The referee actions that answer the scoreboard's open questions (a call before a shot is not one)."""
    out: list[RefereeBody] = []
    for q in board.get("questions", []):
        action, options = q.get("action"), list(q.get("options") or [])
        if action == "identify" and options and all(o in COLOURS for o in options):
            out.append(
                {
                    "kind": "identify",
                    "item": q.get("item"),
                    "colour": colour if colour in options else options[0],
                }
            )
        elif action == "identify":
            ball = called if called is not None and str(called) in options else _first_ball(options)
            if ball is not None:
                out.append({"kind": "identify", "item": q.get("item"), "ball": ball})
        elif action == "lag":
            out.append({"kind": "lag", "winner": rng.randint(0, 1)})
        elif action == "choose" and options:
            out.append({"kind": "choose", "player": q.get("player") or 0, "option": options[0]})
        elif action == "decide" and options:
            out.append({"kind": "decide", "option": options[0]})
        elif action == "confirm" and options:
            out.append({"kind": "confirm", "question": q.get("id"), "answer": q.get("default") or options[0]})
    return out


def _first_ball(options: Sequence[str]) -> int | None:
    balls = [int(o) for o in options if o.isdigit() and int(o) != SPECIAL]
    return balls[0] if balls else None


def unanswered(board: Board) -> list[str]:
    """The open questions other than the call before the next shot: what keeps a match from going on."""
    return [str(q.get("en", q.get("id"))) for q in board.get("questions", []) if q.get("action") != "declare"]
