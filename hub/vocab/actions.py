"""Every referee action, defined once: one typed model per kind, discriminated on `kind`.

Each model carries its schema (the REST API takes `RefereeActionBody`, so the OpenAPI document lists each
action with its fields; the control socket and the store take the same kinds and fields), its bilingual check
(`check`: the values a person can get wrong, normalised for the store), its category (a shot amendment, an
input of the rules engine, or match control) and how it applies: `amend` a shot's evidence
(hub/vocab/amendments.py), the `engine_input` it becomes, or what it does to the session (`control`).
`hub.vocab.referee.parse` checks an action and builds its model; the session dispatches on the category.
docs/web-api.md and docs/reconciliation.md describe them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from hub.names import clean_name
from hub.vocab import checks as c
from hub.vocab.action_types import (
    Args,
    Ball,
    BaseAction,
    Category,
    ColourName,
    Controls,
    EngineAction,
    MatchControl,
    Seat,
    colour_of,
)
from hub.vocab.amendments import (
    AddBallAction,
    ConfirmAction,
    DeclareAction,
    FactAction,
    FoulAction,
    IdentifyAction,
    JumpedAction,
    RemoveAction,
    WithdrawAction,
)
from shared_rules.errors import RulesError
from shared_rules.model import Choose, Concede, Input, Interference, Lag, RefereeDecision
from shared_rules.outcome import NeedKind
from shared_rules.race import MAX_RACE, MAX_TIME_MIN, RaceRules

__all__ = [
    "ACTION_MODELS",
    "Action",
    "NewMatchAction",
    "NextFrameAction",
    "RefereeActionBody",
    "TimeUpAction",
    "action_for_need",
    "fields_of",
    "kinds_of",
    "to_request",
]


class LagAction(EngineAction):
    """The lag's winner (general 11)."""

    kind: Literal["lag"]
    winner: Seat
    answers: ClassVar[tuple[str, ...]] = (NeedKind.LAG,)

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"winner": c.seat(a, "winner")}

    def engine_input(self) -> Input:
        return Lag(self.winner)


class ChooseAction(EngineAction):
    """A player's choice the rules give (penalty ball, Dynamic/Star options)."""

    kind: Literal["choose"]
    player: Seat
    option: Annotated[str, Field(min_length=1, max_length=60)]
    ball: Ball | None = None
    colour: ColourName | None = None
    answers: ClassVar[tuple[str, ...]] = (NeedKind.CHOICE,)

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {
            "player": c.seat(a, "player"),
            "option": c.text(a, "option", limit=60),
            "ball": c.ball(a, "ball"),
            "colour": c.colour(a),
        }

    def engine_input(self) -> Input:
        return Choose(self.player, self.option, self.ball, colour_of(self.colour))


class DecideAction(EngineAction):
    """The referee's decision where the rules call for one."""

    kind: Literal["decide"]
    option: Annotated[str, Field(min_length=1, max_length=60)]
    winner: Seat | None = None
    answers: ClassVar[tuple[str, ...]] = (NeedKind.REFEREE_DECISION,)

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"option": c.text(a, "option", limit=60), "winner": c.seat(a, "winner", required=False)}

    def engine_input(self) -> Input:
        return RefereeDecision(self.option, self.winner)


class InterferenceAction(EngineAction):
    """Outside interference (general 27): restore the position, or re-rack."""

    kind: Literal["interference"]
    restore: bool = True

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"restore": c.flag(a, "restore", True)}

    def engine_input(self) -> Input:
        return Interference(self.restore)


class ConcedeAction(EngineAction):
    """A player concedes."""

    kind: Literal["concede"]
    player: Seat

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"player": c.seat(a, "player")}

    def engine_input(self) -> Input:
        return Concede(self.player)


class OpenShotAction(MatchControl):
    """Open a shot whose strike the cue sensor missed."""

    kind: Literal["open_shot"]

    def control(self, ctl: Controls, at_ms: int) -> None:
        ctl.open_shot(at_ms)


class CloseShotAction(MatchControl):
    """Close the open shot now."""

    kind: Literal["close_shot"]

    def control(self, ctl: Controls, at_ms: int) -> None:
        ctl.close_shot(at_ms)


class UndoAction(MatchControl):
    """Undo the latest step (the scoreboard's `undo` names it)."""

    kind: Literal["undo"]

    def control(self, ctl: Controls, at_ms: int) -> None:
        ctl.undo()


class DismissAlertAction(MatchControl):
    """Hide an alert (its id)."""

    kind: Literal["dismiss_alert"]
    alert: Annotated[str, Field(min_length=1, max_length=120)]

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"alert": c.text(a, "alert", limit=120)}

    def control(self, ctl: Controls, at_ms: int) -> None:
        ctl.dismiss(self.alert)


MAX_LIMIT_S = 600  # a shot clock's longest setting: seconds per shot, seconds per extension
MAX_EXTENSIONS = 10  # extensions per player per frame


class ExtensionAction(MatchControl):
    """An extension of the shot clock for the shot being timed (hub/reconcile/shotclock.py): the player to play
    (or `player`) uses one of the extensions the match gives per frame."""  # noqa: E501

    kind: Literal["extension"]
    player: Seat | None = None

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"player": c.seat(a, "player", required=False)}

    def control(self, ctl: Controls, at_ms: int) -> None:
        ctl.extend(at_ms, self.player)


class ShotClockBody(BaseModel):
    """A match's shot clock: seconds per shot (0: off), extensions per player per frame, seconds per extension."""  # noqa: E501

    model_config = ConfigDict(extra="forbid", frozen=True)
    limit_s: Annotated[int, Field(ge=0, le=MAX_LIMIT_S)] = 0
    extensions: Annotated[int, Field(ge=0, le=MAX_EXTENSIONS)] = 0
    extension_s: Annotated[int | None, Field(ge=0, le=MAX_LIMIT_S)] = None


def check_shot_clock(a: Mapping[str, object]) -> dict[str, int] | None:
    """new_match's `shot_clock`, checked with bilingual messages (None: no clock)."""
    raw = a.get("shot_clock")
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or not set(raw) <= {"limit_s", "extensions", "extension_s"}:
        raise c.err(
            "shot_clock",
            'must be {"limit_s": seconds per shot (0 = off), "extensions": per player per '
            'frame, "extension_s": seconds each}',
            'нужен объект {"limit_s": секунд на удар (0 — без часов), '
            '"extensions": продлений на игрока за партию, "extension_s": секунд в продлении}',
        )
    out: dict[str, int] = {}
    for name, top in (("limit_s", MAX_LIMIT_S), ("extensions", MAX_EXTENSIONS), ("extension_s", MAX_LIMIT_S)):
        v = raw.get(name)
        if v is None:
            continue
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= top:
            raise c.err(
                f"shot_clock.{name}",
                f"must be a whole number from 0 to {top}, got {v!r}",
                f"нужно целое число от 0 до {top}, получено {v!r}",
            )
        out[name] = v
    return out


class HandicapBody(BaseModel):
    """A handicap (general A-G5): points or balls in every frame, or frames in the race, for one seat."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["points", "balls", "frames"]
    amount: Annotated[int, Field(ge=1, le=200)]
    seat: Seat = 1


class RaceBody(BaseModel):
    """The match format: a race to `race_to` frames, who breaks the later frames (general 11, A-G4), a handicap."""  # noqa: E501

    model_config = ConfigDict(extra="forbid", frozen=True)
    race_to: Annotated[
        int, Field(ge=1, le=MAX_RACE, description="frames to win the match (1: a single frame)")
    ] = 1
    break_rule: Literal["alternate", "loser", "winner"] = "alternate"
    handicap: HandicapBody | None = None
    time_limit_min: Annotated[
        int | None, Field(ge=1, le=MAX_TIME_MIN, description="a match time limit in minutes (general A-G6)")
    ] = None
    time_rule: Literal["finish_frame", "referee"] = "finish_frame"


class NewMatchAction(MatchControl):
    """Start a match (REST: POST /api/tables/{table}/match)."""

    kind: Literal["new_match"]
    variant: Annotated[str, Field(min_length=1, max_length=20)]
    players: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=60)]], Field(min_length=2, max_length=2)
    ]
    options: dict[str, bool | int | str] = Field(default_factory=dict)
    cues: Annotated[dict[str, Seat], Field(max_length=8)] = Field(default_factory=dict)
    race: RaceBody | None = None
    shot_clock: ShotClockBody | None = None
    player_ids: (
        Annotated[list[Annotated[int, Field(ge=1)] | None], Field(min_length=2, max_length=2)] | None
    ) = Field(None, description="the players' registry ids (GET /api/players), null for a name typed in")
    routed: ClassVar[bool] = True

    def rules(self) -> RaceRules:
        """The race the match is (a single frame with no handicap when `race` is not given)."""
        return RaceRules.from_dict(self.race.model_dump() if self.race else None)

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        players = a.get("players")
        if isinstance(players, list | tuple):  # bidirectional controls would show a name reversed (hub.names)
            players = [clean_name(p) if isinstance(p, str) else p for p in players]
        if (
            not isinstance(players, list | tuple)
            or len(players) != 2
            or not all(isinstance(p, str) and p.strip() and len(p) <= 60 for p in players)
        ):
            raise c.err(
                "players",
                "must be two player names (1..60 characters each)",
                "нужны два имени игроков (от 1 до 60 символов)",
            )
        options = a.get("options", {})
        if not isinstance(options, Mapping):
            raise c.err(
                "options",
                'must be an object of variant parameters, e.g. {"target": 71}',
                'нужен объект параметров партии, напр. {"target": 71}',
            )
        cues = a.get("cues") or {}
        if (
            not isinstance(cues, Mapping)
            or len(cues) > 8
            or not all(isinstance(d, str) and c.is_int(s) and s in (0, 1) for d, s in cues.items())
        ):
            raise c.err(
                "cues",
                'must pair cue nodes with seats, e.g. {"cue-a": 0, "cue-b": 1}',
                'нужны пары датчик кия — место игрока, напр. {"cue-a": 0, "cue-b": 1}',
            )
        out = {"variant": c.text(a, "variant", limit=20), "players": list(players), "options": dict(options)}
        if cues:
            out["cues"] = dict(cues)
        race = race_args(a.get("race"))
        if race is not None:
            out["race"] = race
        clock = check_shot_clock(a)
        if clock is not None:
            out["shot_clock"] = clock
        ids = player_id_args(a.get("player_ids"))
        if ids is not None:
            out["player_ids"] = ids
        return out

    def control(self, ctl: Controls, at_ms: int) -> None:
        raise c.RefereeInputError(
            "new_match is handled by the service: end this match, then start one",
            "новую партию начинает сервис: завершите эту партию и начните новую",
            "kind",
        )


class NextFrameAction(MatchControl):
    """Start the next frame of a race once the frame in play is over (general 11, A-G4). The frame left behind
    ends here (its open shot closes, as the winning pot may still be in it); the service opens the next one."""  # noqa: E501

    kind: Literal["next_frame"]

    def control(self, ctl: Controls, at_ms: int) -> None:
        ctl.end(at_ms, "next_frame")


class TimeUpAction(MatchControl):
    """The match time is up (general A-G6): the hub sends it itself when the time limit runs out (uid
    `time-up-<match>`), the referee may send it earlier. The service records it with the race (it is routed,
    never an input of the frame's session); what follows is the race's time rule."""

    kind: Literal["time_up"]
    routed: ClassVar[bool] = True

    def control(self, ctl: Controls, at_ms: int) -> None:
        raise c.RefereeInputError("time_up is handled by the service", "time_up обрабатывает сервис", "kind")


def race_args(raw: object) -> dict[str, Any] | None:
    """A new_match's `race`, checked (bilingual) and normalised; None for a single frame with no handicap."""
    if raw is None:
        return None
    try:
        rules = RaceRules.from_dict(raw)
    except RulesError as exc:
        raise c.err("race", exc.en, exc.ru) from None
    return None if rules.plain else rules.to_dict()


def player_id_args(ids: object) -> list[int | None] | None:
    """A new_match's `player_ids`, checked (bilingual): two registry ids or nulls; None when it names nobody.
    Whether the registry holds them is the service's word (hub/service/matches.py)."""
    if ids is None:
        return None
    if (
        not isinstance(ids, list | tuple)
        or len(ids) != 2
        or not all(i is None or (c.is_int(i) and i >= 1) for i in ids)
    ):
        raise c.err(
            "player_ids",
            "must be two registry ids (whole numbers from 1) or null, e.g. [3, null]",
            "нужны два номера игроков из реестра (целые от 1) или null, напр. [3, null]",
        )
    if ids[0] is not None and ids[0] == ids[1]:
        raise c.err(
            "player_ids", "a player cannot play against themself", "игрок не может играть сам с собой"
        )
    return list(ids) if any(i is not None for i in ids) else None


class EndMatchAction(MatchControl):
    """End the match (its final board stays as `last_match`); before a race has a winner it is abandoned, and the
    reason goes on the scoresheet (general A-G4)."""  # noqa: E501

    kind: Literal["end_match"]
    reason: Annotated[str, Field(max_length=200)] = ""

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"reason": c.text(a, "reason", required=False)}

    def control(self, ctl: Controls, at_ms: int) -> None:
        ctl.end(at_ms)


Action = (
    LagAction
    | DeclareAction
    | IdentifyAction
    | AddBallAction
    | JumpedAction
    | RemoveAction
    | FoulAction
    | FactAction
    | ConfirmAction
    | WithdrawAction
    | ChooseAction
    | OpenShotAction
    | CloseShotAction
    | UndoAction
    | InterferenceAction
    | ConcedeAction
    | DecideAction
    | DismissAlertAction
    | ExtensionAction
    | NewMatchAction
    | NextFrameAction
    | TimeUpAction
    | EndMatchAction
)
"""Any referee action, typed."""

ACTION_MODELS: dict[str, type[BaseAction]] = {
    m.model_fields["kind"].annotation.__args__[0]: m  # type: ignore[union-attr]
    for m in get_args(Action)
}
"""kind -> its model, in the order the panel documents them."""

RefereeActionBody = Annotated[
    LagAction
    | DeclareAction
    | IdentifyAction
    | AddBallAction
    | JumpedAction
    | RemoveAction
    | FoulAction
    | FactAction
    | ConfirmAction
    | WithdrawAction
    | ChooseAction
    | OpenShotAction
    | CloseShotAction
    | UndoAction
    | InterferenceAction
    | ConcedeAction
    | DecideAction
    | DismissAlertAction
    | ExtensionAction
    | NextFrameAction
    | TimeUpAction
    | EndMatchAction,
    Field(discriminator="kind"),
]
"""Every action `POST /api/tables/{table}/actions` takes (new_match has its own route)."""


def fields_of(kind: str) -> tuple[str, ...]:
    """The argument names an action of `kind` may carry (not `kind` or `uid`)."""
    return tuple(n for n in ACTION_MODELS[kind].model_fields if n not in ("kind", "uid"))


def kinds_of(category: Category) -> tuple[str, ...]:
    """The action kinds of one category."""
    return tuple(k for k, m in ACTION_MODELS.items() if m.category is category)


def action_for_need(need: str) -> str | None:
    """The action kind that answers the engine's need of this kind (a question names it)."""
    return next((k for k, m in ACTION_MODELS.items() if need in m.answers), None)


def to_request(action: BaseModel, by: str | None = None) -> dict[str, Any]:
    """A parsed model -> the dict `Hub.submit` takes (unset optional fields left out; `by` records who)."""
    d = action.model_dump(exclude_none=True)
    if by:
        d["by"] = by
    return d
