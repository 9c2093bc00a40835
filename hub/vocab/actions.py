"""Every referee action, gathered once: the `Action` union of one typed model per kind, discriminated on
`kind`.

Each model carries its schema (the REST API takes `RefereeActionBody`, so the OpenAPI document lists each
action with its fields; the control socket and the store take the same kinds and fields), its bilingual check
(`check`: the values a person can get wrong, normalised for the store), its category (a shot amendment, an
input of the rules engine, or match control) and how it applies: `amend` a shot's evidence
(hub/vocab/amendments.py), the `engine_input` it becomes (hub/vocab/engine_actions.py), or what it does to the
session (`control`: hub/vocab/control_actions.py, and hub/vocab/new_match.py for starting a match).
`hub.vocab.referee.parse` checks an action and builds its model; the session dispatches on the category.
docs/web-api.md and docs/reconciliation.md describe them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Union, get_args

from pydantic import BaseModel, Field

from hub.vocab.action_types import BaseAction, Category
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
from hub.vocab.control_actions import (
    CloseShotAction,
    DismissAlertAction,
    EndMatchAction,
    ExtensionAction,
    NextFrameAction,
    OpenShotAction,
    TimeUpAction,
    UndoAction,
)
from hub.vocab.engine_actions import ChooseAction, ConcedeAction, DecideAction, InterferenceAction, LagAction
from hub.vocab.new_match import NewMatchAction

__all__ = [
    "ACTION_MODELS",
    "Action",
    "RefereeActionBody",
    "action_for_need",
    "fields_of",
    "kinds_of",
    "to_request",
]

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

if TYPE_CHECKING:
    # a type checker cannot read a union built at run time: to it the body is any action (what `to_request`
    # takes); at run time, below, new_match is left out
    RefereeActionBody = Action
else:
    RefereeActionBody = Annotated[
        Union[tuple(m for m in get_args(Action) if m is not NewMatchAction)],  # noqa: UP007 (a tuple of types)
        Field(discriminator="kind"),
    ]
"""Every action `POST /api/tables/{table}/actions` takes: the `Action` union but new_match (its own route)."""


def fields_of(kind: str) -> tuple[str, ...]:
    """The argument names an action of `kind` may carry (not `kind` or `uid`)."""
    return tuple(n for n in ACTION_MODELS[kind].model_fields if n not in ("kind", "uid"))


def kinds_of(category: Category) -> tuple[str, ...]:
    """The action kinds of one category."""
    return tuple(k for k, m in ACTION_MODELS.items() if m.category is category)


def action_for_need(need: str) -> str | None:
    """The action kind that answers the engine's need of this kind (a question names it)."""
    return next((k for k, m in ACTION_MODELS.items() if need in m.answers), None)


def to_request(action: BaseModel, by: str | None = None) -> dict[str, object]:
    """A parsed model -> the dict `Hub.submit` takes (unset optional fields left out; `by` records who). Its
    keys are the fields of whichever kind `action` is, so it is the action's own JSON, not one fixed shape."""
    d = action.model_dump(exclude_none=True)
    if by:
        d["by"] = by
    return d
