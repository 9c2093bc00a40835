"""The JSON the demo reads and sends, typed: the scoreboard it reads (`Board`, a part of the table view's
`match`: MatchView's JSON, docs/table-view.schema.json), the referee actions it sends (`RefereeBody`, the body
of POST /api/tables/{table}/actions and of `Hub.submit`), the race each match is (`RaceSpec`: RaceBody's JSON,
hub/vocab/actions.py) and the REST API's answers (`ActionAnswer`, `TokenAnswer`: hub/web/schemas.py).

The scoreboard's TypedDicts are partial (`total=False`): they name only the keys the demo reads, and the
scripted referee (hub.demo.referee) is also handed a partial board (tests, tests/dashboard/scenes.py).
"""

from __future__ import annotations

from typing import Protocol, Required, TypedDict

from hub.view.table import TableStateJSON
from shared_rules.race_rules import Handicap, RaceRules

# -- the scoreboard as the demo reads it (MatchView's JSON, hub/view/match.py) -------------------------------


class TextJSON(TypedDict):
    en: str
    ru: str


class NeedJSON(TypedDict, total=False):
    kind: str
    options: list[str]


class QuestionJSON(TypedDict, total=False):
    id: str
    action: str
    en: str
    item: str | None
    player: int | None
    options: list[str]
    default: str | None


class CallJSON(TypedDict, total=False):
    ball: int | None
    pocket: int


class NextShotJSON(TypedDict):
    declarations: list[CallJSON]


class RaceJSON(TypedDict, total=False):
    race_to: int
    frame: int
    score: list[int]
    winner: int | None
    over: bool


class Board(TypedDict, total=False):
    """The keys of the scoreboard (the table state's `match`) the demo reads."""

    players: list[str]
    scores: list[int]
    to_play: int
    is_break: bool
    over: bool
    winner: int | None
    on_table: list[int]
    needs: list[NeedJSON]
    questions: list[QuestionJSON]
    next_shot: NextShotJSON
    race: RaceJSON
    last_reasons: list[TextJSON]


# -- what the demo sends ------------------------------------------------------------------------------------


class RefereeBody(TypedDict, total=False):
    """A referee action the demo sends: its `kind` and that kind's fields (hub/vocab/actions.py)."""

    kind: Required[str]
    item: str | None
    ball: int
    colour: str
    pocket: int
    winner: int
    player: int
    option: str
    question: str | None
    answer: str | None
    reason: str


class Referee(Protocol):
    """Who makes the demo's referee actions: the hub directly, or the panel's REST API (hub.demo.client)."""

    label: str

    def act(self, action: RefereeBody) -> None: ...


class HandicapSpec(TypedDict):
    """A race's handicap: HandicapBody's JSON (hub/vocab/new_match.py)."""

    kind: str  # points | balls | frames
    amount: int
    seat: int


class RaceSpec(TypedDict, total=False):
    """The race each demo match is (`luza demo --race ...`): RaceBody's JSON (hub/vocab/new_match.py), as
    `new_match` takes it; a key left out takes RaceBody's default."""

    race_to: int
    break_rule: str  # alternate | loser | winner
    handicap: HandicapSpec | None
    time_limit_min: int | None
    time_rule: str  # finish_frame | referee


def handicap_spec(h: Handicap) -> HandicapSpec:
    return {"kind": h.kind.value, "amount": h.amount, "seat": h.seat}


def race_spec(rules: RaceRules) -> RaceSpec:
    """The race as `new_match` takes it (every key, as `RaceRules.to_dict` writes them)."""
    return {
        "race_to": rules.race_to,
        "break_rule": rules.break_rule.value,
        "handicap": handicap_spec(rules.handicap) if rules.handicap else None,
        "time_limit_min": rules.time_limit_min,
        "time_rule": rules.time_rule,
    }


# -- the REST API's answers (hub/web/schemas.py) -----------------------------------------------------------


class ActionAnswer(TypedDict):
    """ActionOut's JSON: an action or a new match accepted, and the table's state after it."""

    ok: bool
    rev: int
    state: TableStateJSON


class TokenAnswer(TypedDict):
    """TokenOut's JSON: a referee token for the table."""

    token: str
    table: str
    expires_s: int


def board_of(state: TableStateJSON) -> Board:
    """The scoreboard in a table's state (its `match`: MatchView's JSON) as the demo reads it, or {}."""
    match: Board | None = state.get("match")
    return match or {}
