"""Starting a match (`new_match`; REST: POST /api/tables/{table}/match): the players, the variant and its
options, the cue nodes' seats, the race (general 11, A-G4..A-G6) and the shot clock, each checked with
bilingual messages. The service handles it (it is routed, never an input of a frame's session).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from hub.names import clean_name
from hub.vocab import checks as c
from hub.vocab.action_types import Args, Controls, MatchControl, Seat
from shared_rules.errors import RulesError
from shared_rules.race_rules import MAX_RACE, MAX_TIME_MIN, RaceRules, RaceRulesJSON

MAX_LIMIT_S = 600  # a shot clock's longest setting: seconds per shot, seconds per extension
MAX_EXTENSIONS = 10  # extensions per player per frame


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


def race_args(raw: object) -> RaceRulesJSON | None:
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
