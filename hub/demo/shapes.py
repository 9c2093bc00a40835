"""The JSON the demo reads and sends, typed: the scoreboard it reads (`Board`, a part of the table view's
`match`: MatchView's JSON, docs/table-view.schema.json), the referee actions it sends (`RefereeBody`, the body
of POST /api/tables/{table}/actions and of `Hub.submit`) and the REST API's answers (`ActionAnswer`,
`TokenAnswer`: hub/web/schemas.py). The race each match is, it sends as the rules engine writes it
(shared_rules.race_rules.RaceRulesJSON).

The scoreboard's TypedDicts are partial (`total=False`): they name only the keys the demo reads, and the
scripted referee (hub.demo.referee) is also handed a partial board (tests, tests/dashboard/scenes.py).
"""

from __future__ import annotations

from typing import Protocol, Required, TypedDict

from hub.view.table import TableStateJSON

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
