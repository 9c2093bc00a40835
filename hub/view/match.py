"""`MatchView`: a match as every screen reads it (the table view's `match` and `last_match`; docs/web-api.md,
"Scoreboard"). Three layers, each a subclass of the one before, so the JSON keeps its order and each layer can
be had alone:

- `EngineView`: the rules engine's typed state and outcome, written for screens (what `Match.summary()` was);
- `SessionView`: plus the table session's facts (the shot card, questions, alerts): what the store keeps
  beside the match and `luza replay` compares (`hub.view.build.stored`);
- `MatchView`: plus what a screen shows without knowing the rules (ball colours and values, the variants' own
  sections, the last effects, the history, what undo takes back).

Adding to the match (a shot clock, player ids; as a race's frames were, `race`): write a sub-model here, add
it as an optional field (`race: RaceView | None = None`) to the layer it belongs to, fill it in
hub.view.build, bump `hub.view.schema.VERSION` and regenerate docs/table-view.schema.json (`python -m
hub.view.schema --write`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from hub.view.base import Text, View
from hub.view.race import RaceView
from hub.view.shot import AlertView, NextShot, QuestionView, ShotView

InHand = Literal["none", "house", "anywhere"]
ColourName = Literal["ivory", "yellow", "blue", "black", "green", "red"]


class Series(View):
    visit: int
    run: int
    shots: int
    frame: int


class NeedView(View):
    """What must be supplied before or with the next shot (shared_rules.outcome.Need)."""

    kind: str
    player: int | None
    en: str
    ru: str
    options: list[str]
    balls: list[int]
    before_shot: bool
    blocking: bool
    slot: int | None  # the ball a held shot asks about
    pocket: int | None


class EngineView(View):
    """The rules engine's state and the reasons of its last outcome, for the screens."""

    variant: str
    title: Text
    players: list[str]
    scores: list[int]
    to_play: int
    in_hand: InHand
    hand_rule: str
    is_break: bool
    mode: str  # lag | play | referee | held | over | decider | last_ball (shared_rules.state.Mode)
    series: Series
    winner: int | None
    draw: bool
    over: bool
    on_table: list[int]
    shelves: list[list[int]]
    debts: list[int]
    needs: list[NeedView]
    last_reasons: list[Text]


class SessionView(EngineView):
    """Plus the table session's facts: the shot card, the calls for the next shot, questions and alerts."""

    table: str
    match_id: int | str | None
    status: Literal["live", "held", "ended"]
    provisional: bool  # the open shot is played on top of the committed match
    committed_scores: list[int]
    shot: ShotView | None  # the open shot, else the last one
    next_shot: NextShot
    shot_count: int
    questions: list[QuestionView]
    alerts: list[AlertView]
    race: RaceView  # the match's frames (a single frame is a race to 1; hub/view/race.py)


class BallView(View):
    colour: ColourName
    value: int  # points on a shelf
    label: str  # what to draw on it


class StarFacts(View):
    next: list[ColourName | None]  # the colour each player needs next
    sequences: list[list[ColourName]]
    done: list[int]
    first_to_five: int | None


class HundredFacts(View):
    ten: Literal["table", "off_spot", "pocket", "shelf0", "shelf1"]
    privilege: bool
    control_ball: int | None  # the seat with the right to play #10
    last_ball: bool
    restricted: bool


class ClassicFacts(View):
    decider: bool
    decider_ball: int | None
    bonus_given: bool


class Placed(View):
    ball: int
    spot: str
    en: str
    ru: str


class EffectView(View):
    kind: str
    player: int | None
    ball: int | None
    amount: int | None
    spot: str | None
    detail: str | None
    cite: str
    en: str
    ru: str


class HistoryRow(View):
    number: int | None  # the shot's number; None for a lag, a choice, ...
    kind: str
    shooter: int | None
    scores: list[int]  # after the step
    deltas: list[int]
    fouls: list[str]
    reasons: list[Text]


class UndoView(View):
    number: int | None
    kind: str
    en: str
    ru: str


class MatchClock(View):
    started_ms: int | None
    ended_ms: int | None


class ShotClockLast(View):
    """The last shot with a measured time: its number, the time taken, the time it had, whether it ran out."""

    shot: int
    shot_ms: int | None
    allowed_ms: int | None  # None: the clock was off
    expired: bool


class ShotClockView(View):
    """The shot clock now. `on` false: the match has none (shot times are still measured: `last`)."""

    on: bool
    limit_ms: int | None  # None with the clock off
    warn_ms: int  # the screens warn in the last `warn_ms` (10 s)
    extension_ms: int | None  # what one extension adds; None with the clock off
    extensions: int  # per player per frame
    extensions_left: list[int]  # per seat, in this frame
    running: bool  # a shot is being timed: after the first shot, until the match is over
    shot: int | None  # the number of the shot being timed
    player: int | None  # to play
    # hub ms: the previous shot settled (may be ahead of `hub_ms` while balls can roll)
    started_at: int | None
    extended: int  # extensions granted for the shot being timed
    expires_at: int | None  # `started_at` + the limit and its extensions; None with the clock off
    last: ShotClockLast | None


class MatchView(SessionView):
    """Plus what a screen shows without knowing the rules. A variant registered outside the six (Variant
    .board_facts) adds its section by its name: the only extra fields a match view takes."""

    model_config = ConfigDict(frozen=True, extra="allow")

    balls: dict[str, BallView]
    points_left: int
    target: int
    to_win: list[int] | None
    star: StarFacts | None
    hundred: HundredFacts | None
    classic: ClassicFacts | None
    placed: list[Placed]
    effects: list[EffectView]
    deltas: list[int]
    history: list[HistoryRow]
    undo: UndoView | None
    pockets: dict[str, Text]
    clock: MatchClock
    shot_clock: ShotClockView  # hub/view/shotclock.py
    player_ids: list[int | None] = Field(
        min_length=2,
        max_length=2,
        description="each seat's player in the registry (GET /api/players/{id}; hub/store/players.py), null "
        "for a name typed in; the match's own ids, a merged duplicate already resolved when it started",
    )
