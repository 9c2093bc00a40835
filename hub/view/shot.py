"""The shot card (`ShotView`), the referee's questions (`QuestionView`) and a session's alerts (`AlertView`)
as the screens read them (docs/web-api.md, "Scoreboard")."""

from __future__ import annotations

from typing import Literal

from hub.view.base import Text, View, omitted_if_none
from hub.vocab.alerts import Severity

Source = Literal["sensor", "referee"]
FactValue = int | bool | str | None  # a ShotReport fact the referee set: a ball, a colour, a count, a flag


class Call(View):
    """A call (declaration): the ball, the pocket, what kind of call and how it is played."""

    ball: int
    pocket: int
    kind: str
    method: str


class NextShot(View):
    declarations: list[Call]  # the calls made for the shot that has not opened yet


class Strike(View):
    item: str
    at_ms: int
    seat: int | None
    double: bool


class Pocketed(View):
    """A ball counted in the shot: what the pocket saw and which ball it is judged to be."""

    item: str
    pocket: int
    at_ms: int
    source: Source
    seen: str | None  # the colour the pocket's sensor read
    ball: int | None
    named: bool  # the referee named it (`identify`)
    colour: str | None


class LateDrop(View):
    item: str
    pocket: int
    at_ms: int
    answer: str | None


class Jumped(View):
    item: str
    ball: int | None
    colour: str | None


class TakenOut(View):
    item: str
    pocket: int
    source: Source


class Amendment(View):
    kind: str
    at_ms: int
    by: str | None


class ShotView(View):
    """The open shot, or the last one: its evidence, the identities used, and how it was judged."""

    number: int
    opened_at: int | None
    opened_by: str
    closed_at: int | None
    status: str  # open | pending | one of hub.reconcile.statuses.StepStatus
    strike: Strike | None
    pocketed: list[Pocketed]
    removed: list[str]
    late: list[LateDrop]
    jumped: list[Jumped]
    fouls: list[str]  # the shot's, as judged
    declarations: list[Call]
    facts: dict[str, FactValue]
    called_fouls: list[str]  # the referee's own
    answers: dict[str, str]  # question id -> answer
    taken_out: list[TakenOut]
    error: list[str] | None  # [en, ru] when the engine refused it
    amendments: list[Amendment]


class Choice(View):
    value: str
    label: Text


class QuestionView(View):
    """Something only the referee can settle, answered by the referee action `action`."""

    id: str
    kind: str
    action: str
    en: str
    ru: str
    shot: int | None
    item: str | None
    player: int | None
    options: list[str]
    default: str | None
    cite: str
    choices: list[Choice] | None = omitted_if_none("the options labelled (not in the stored scoreboard)")
    balls: list[int] | None = omitted_if_none("the balls a choice may take (not in the stored scoreboard)")
    pocket: int | None = omitted_if_none("a suspect ball's pocket")
    reason: str | None = omitted_if_none("why a suspect ball's time is impossible")


class AlertView(View):
    """Sensing and the rules, or two sensors, disagree, or a part of the table is unwell (one match's)."""

    id: str
    kind: str
    en: str
    ru: str
    shot: int | None = None
    item: str | None = None
    severity: Severity = "warning"
    cite: str = ""
