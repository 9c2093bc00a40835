"""Request and response bodies of the REST API (the referee actions themselves are
hub.vocab.actions' models)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from hub.errors import ErrorBody
from hub.view.table import TableView
from hub.vocab.action_types import ColourName, PocketNo
from hub.vocab.alerts import HubAlert
from hub.vocab.new_match import NewMatchAction


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- requests


class TokenIn(_In):
    pin: Annotated[
        str,
        Field(
            min_length=1, max_length=64, description="the table's referee PIN, or the club's (4..12 digits)"
        ),
    ]
    label: Annotated[
        str | None,
        Field(
            max_length=40,
            pattern=r"^[\w .@-]*$",
            description="who acts (recorded with each action), e.g. 'panel'",
        ),
    ] = None


class MatchIn(NewMatchAction):
    """Start a match: the new_match action without its `kind`."""

    kind: Literal["new_match"] = "new_match"


class CommandIn(_In):
    name: Literal["identify", "calibrate"]
    seconds: Annotated[float, Field(gt=0, le=600, description="identify: how long the node blinks")] = 10.0
    pocket: PocketNo | None = Field(
        None, description="calibrate: the pocket whose colour sensor to calibrate"
    )
    colour: ColourName | None = Field(
        None, description="calibrate: the colour of the ball held in the pocket"
    )


class OtaIn(_In):
    release: Annotated[
        str | None,
        Field(
            max_length=64,
            pattern=r"^[A-Za-z0-9._+-]+$",
            description="a release id (GET /api/ota); none: the hub's own firmware",
        ),
    ] = None


# ---------------------------------------------------------------- answers


class TokenOut(BaseModel):
    token: str
    table: str
    expires_s: int


class ClubTokenOut(BaseModel):
    token: str
    role: Literal["club"] = "club"
    expires_s: int


class ActionOut(BaseModel):
    ok: bool = True
    rev: int
    state: TableView


class CommandOut(BaseModel):
    ok: bool = True
    device: str
    name: str


class OtaOut(BaseModel):
    ok: bool = True
    device: str
    release: str
    en: str
    ru: str


class TableOut(BaseModel):
    id: str
    name: str
    state: TableView


class Label(BaseModel):
    en: str
    ru: str


class OptionChoice(BaseModel):
    value: Any
    label: Label


OptionType = Literal["int", "bool", "choice"]


class VariantOption(BaseModel):
    name: str
    label: Label
    type: OptionType
    default: Any
    choices: list[OptionChoice] | None = None


class RefereeFoul(BaseModel):
    code: str  # the foul action's `foul` (e.g. `miss`)
    paragraph: str  # where it is defined (e.g. `5.3`, `classic 5.5`): a step's `fouls` list these
    cite: str = ""  # the rule the variant's FOUL effect cites (e.g. `general 19.1`, `hundred 19`)
    en: str = ""  # the foul's name in the engine's words (every screen says the same)
    ru: str = ""


class RefereeFact(BaseModel):
    name: str  # the fact action's `name`
    type: Literal["ball", "colour", "count", "bool", "flag"]  # hub.vocab.action_types.FactType


class VariantProfile(BaseModel):
    """What a screen must know about a variant (shared_rules.profile.Profile): no variant names in the UI."""

    identity: str  # number | colour | none: how a pocketed ball is told apart
    fixed_cue_ball: bool
    calls: bool  # shots carry a call made before the shot
    facts: list[str]  # the ShotReport facts its shots may need
    fouls: list[RefereeFoul] = []  # the fouls the referee may call, in the panel's order
    foul_names: list[RefereeFoul] = []  # every foul a shot of the variant can carry (the board names them)
    referee_facts: list[RefereeFact] = []  # the facts the referee sets one by one, in the panel's order


class VariantOut(BaseModel):
    id: str
    title: Label
    target: int
    options: list[VariantOption]
    profile: VariantProfile | None = None


class Health(BaseModel):
    ok: bool
    worker_alive: bool
    broker_connected: bool | None
    queue_depth: int
    boot: str
    hub_ms: int
    tables: int
    websocket_clients: int
    alerts: list[HubAlert] = []  # hub alerts: a full disk, the clock behind


class ErrorOut(BaseModel):
    error: ErrorBody  # the one body of a refusal in every channel (hub.errors)


# Each refusal status with the one error body, for a router's `responses=`: FastAPI's OpenAPI response specs,
# only `{"model": ...}` here (FastAPI types a spec as an open dict of any values; this one passes as that).
ERRORS: dict[int | str, dict[str, type[ErrorOut]]] = {
    s: {"model": ErrorOut} for s in (400, 401, 404, 409, 422, 429, 503)
}
