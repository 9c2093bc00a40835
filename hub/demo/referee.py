"""The demo's scripted referee: the call before each shot and the answers to the panel's questions.

It reads what a referee sees (the scoreboard `hub.state(table)["match"]`: `on_table`, `to_play`, `is_break`,
`questions`) and decides as the variant's rules want: Classic 5.2 and 100 points §4 call one object ball on the
table into a pocket before the shot (100 points lets the break be called too, §2 / A-100-8); Star 4.1 pots the
colour the player needs next (the joker when none of that colour is left). Questions are answered the way a
referee who watched the shot would: `identify` with the ball that was called (or one that could have fallen), a
lag with a coin toss, a choice or decision with the first option offered.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shared_rules.star import COLOURS, JOKER, sequence_colour

CALLED = ("classic", "hundred")  # variants where the referee declares ball and pocket before each shot
CUE = 0
TEN = 10  # 100 points: the control ball; potting it while pyramid balls remain is a foul (§12)


@dataclass(frozen=True)
class Plan:
    """One scripted shot: the call (ball into pocket, or none) and the colour of the ball that falls."""

    pocket: int
    call: int | None
    colour: str
    pot: bool


def call_ball(variant: str, board: Mapping[str, Any], rng: random.Random) -> int | None:
    """A legal call from the position on the scoreboard, or None where the variant makes none."""
    if variant not in CALLED:
        return None
    if variant == "classic" and board.get("is_break"):
        return None  # classic 5.2: no call on the break (A-C4)
    balls = [b for b in board.get("on_table", []) if b != CUE]
    if variant == "hundred" and any(b != TEN for b in balls):
        balls = [b for b in balls if b != TEN]  # §12: #10 is played only once the pyramid is gone (§20)
    return rng.choice(balls) if balls else None


def star_colour(board: Mapping[str, Any], first5: object) -> str | None:
    """Star 4.1: the colour the player to play needs and that is still on the table (else the joker's)."""
    player = int(board.get("to_play", 0))
    scores = board.get("scores") or [0, 0]
    need = sequence_colour(player, int(scores[player]), first5)
    on_table = [b for b in board.get("on_table", [])]
    if need is not None and any(b != JOKER and COLOURS[b] is need for b in on_table):
        return need.value
    if JOKER in on_table:
        return COLOURS[JOKER].value
    return None


def plan_shot(variant: str, board: Mapping[str, Any], rng: random.Random, first5: object = None) -> Plan:
    """What the player in turn does: usually (70 %) pots the ball the referee called / the colour needed."""
    pocket = rng.randint(1, 6)
    pot = rng.random() < 0.7
    colour = "ivory"
    if variant == "star":
        c = star_colour(board, first5)
        if c is None:
            pot = False
        else:
            colour = c
    call = call_ball(variant, board, rng)
    if variant in CALLED and call is None and not board.get("is_break"):
        pot = False  # nothing left to call
    return Plan(pocket, call, colour, pot)


def answers(board: Mapping[str, Any], called: int | None, rng: random.Random) -> list[dict[str, Any]]:
    """The referee actions that answer the scoreboard's open questions (a call before a shot is not one)."""
    out: list[dict[str, Any]] = []
    for q in board.get("questions", []):
        action, options = q.get("action"), list(q.get("options") or [])
        if action == "identify":
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
    balls = [int(o) for o in options if o.isdigit() and int(o) != CUE]
    return balls[0] if balls else None


def unanswered(board: Mapping[str, Any]) -> list[str]:
    """The open questions other than the call before the next shot: what keeps a match from going on."""
    return [str(q.get("en", q.get("id"))) for q in board.get("questions", []) if q.get("action") != "declare"]
