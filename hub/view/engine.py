"""The rules engine's part of a match view: its typed state, needs and last outcome written for the screens.
The engine itself returns only those (shared_rules: `Match.state`, `Match.needs()`, `Outcome`); this is where
they become the scoreboard's first fields (docs/web-api.md, "Scoreboard")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from hub.view.base import Text
from hub.view.match import EngineView, NeedView, Series
from shared_rules import Match
from shared_rules.outcome import Need, Outcome
from shared_rules.state import State

# `engine_view`'s JSON, EngineView.model_dump(mode="json") (the golden matches and the tests compare and index
# it): the shape is EngineView's, published in docs/table-view.schema.json as the match view's first fields
EngineJSON = dict[str, Any]


class EngineFields(TypedDict):
    """EngineView's fields as `engine_fields` makes them, for the view to validate (EngineView, and the layers
    built on it: SessionView, MatchView). tests/hub/view/test_fields.py keeps the keys those of EngineView."""

    variant: str
    title: Text
    players: list[str]
    scores: list[int]
    to_play: int
    in_hand: str  # InHand: the engine's enum value
    hand_rule: str
    is_break: bool
    mode: str
    series: Series
    winner: int | None
    draw: bool
    over: bool
    on_table: list[int]
    shelves: list[list[int]]
    debts: list[int]
    needs: list[NeedView]
    last_reasons: list[Text]


def engine_fields(match: Match, state: State, needs: Sequence[Need], last: Outcome) -> EngineFields:
    """The EngineView's fields for `state` of `match` (the committed one, or the open shot played on top), the
    needs in that state and the outcome that led to it."""
    variant = match.variant
    return {
        "variant": state.variant,
        "title": Text(en=variant.title_en, ru=variant.title_ru),
        "players": list(match.players),
        "scores": list(state.scores),
        "to_play": state.to_play,
        "in_hand": state.in_hand.value,
        "hand_rule": state.hand_rule,
        "is_break": state.is_break,
        "mode": state.mode,
        "series": Series(visit=state.visit, run=state.run, shots=state.shots, frame=state.frame),
        "winner": state.winner,
        "draw": state.draw,
        "over": state.over,
        "on_table": list(state.on_table),
        "shelves": [list(state.shelves[0]), list(state.shelves[1])],
        "debts": list(state.debts),
        "needs": [need_view(n) for n in needs],
        "last_reasons": [Text(en=r.text("en"), ru=r.text("ru")) for r in dict.fromkeys(last.reasons)],
    }


def last_outcome(match: Match) -> Outcome:
    """The outcome of the last input played (before the first:
    the frame's opening, with its handicap cited)."""
    outcomes = match.outcomes
    return outcomes[-1] if outcomes else match.opened


def engine_view(match: Match) -> EngineView:
    """The engine's view of a match in its current state (the golden matches record its JSON)."""
    return EngineView.model_validate(engine_fields(match, match.state, match.needs(), last_outcome(match)))


def need_view(n: Need) -> NeedView:
    return NeedView(
        kind=n.kind,
        player=n.player,
        en=n.en,
        ru=n.ru,
        options=list(n.options),
        balls=list(n.balls),
        before_shot=n.before_shot,
        blocking=n.blocking,
        slot=n.slot,
        pocket=n.pocket,
    )


def engine_summary(match: Match) -> EngineJSON:
    """`engine_view`'s JSON (what `Match.summary()` gave before the scoreboard left the engine)."""
    return engine_view(match).model_dump(mode="json")
