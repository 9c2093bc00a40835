"""Referee actions: checking one, with errors a person can act on, and building its typed model.

A referee action is an input like any sensor event: it is stored, then folded into the match by
`hub.reconcile.table.TableSession`. This module only checks the *shape* of an action (the kinds and fields of
`hub.vocab.actions`, each value by the model's own `check`) and normalises its arguments to plain JSON values
(so the store can keep them as they are); whether the action is possible in the current position is the
session's and the rules engine's business.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from pydantic import ValidationError

from hub.errors import MALFORMED
from hub.vocab.action_types import Args
from hub.vocab.actions import ACTION_MODELS, Action, fields_of
from hub.vocab.checks import RefereeInputError, err, text

__all__ = ["ACTION_KINDS", "parse", "validate"]

ACTION_KINDS: tuple[str, ...] = tuple(ACTION_MODELS)
"""Every action kind the referee panel may send (hub.vocab.actions defines each; docs/reconciliation.md)."""


def validate(kind: object, args: Mapping[str, object]) -> Args:
    """Check one action's arguments; return them normalised to plain JSON values. Raises RefereeInputError."""
    if kind is None:
        raise RefereeInputError(
            f"kind: missing; one of {', '.join(ACTION_KINDS)}",
            f"kind: не указано действие; одно из {', '.join(ACTION_KINDS)}",
            "kind",
            MALFORMED,
        )
    if not isinstance(kind, str) or kind not in ACTION_MODELS:
        raise RefereeInputError(
            f"kind: unknown referee action {kind!r}; one of {', '.join(ACTION_KINDS)}",
            f"kind: неизвестное действие судьи {kind!r}; одно из {', '.join(ACTION_KINDS)}",
            "kind",
            MALFORMED,
        )
    if not isinstance(args, Mapping):
        raise RefereeInputError("args: must be an object", "args: нужен объект", "args", MALFORMED)
    known = fields_of(kind)
    for name in args:
        # the call's kind
        if name not in known and name != "by" and not (kind == "declare" and name == "kind"):
            raise err(
                str(name),
                f"'{kind}' has no field {name!r}; its fields: {', '.join(known) or 'none'}",
                f"у действия '{kind}' нет поля {name!r}; его поля: {', '.join(known) or 'нет'}",
            )
    for name, spec in ACTION_MODELS[kind].model_fields.items():
        if spec.is_required() and name != "kind" and name not in args:
            raise err(name, "missing", "не указано")
    out = ACTION_MODELS[kind].check(args)
    if args.get("by") is not None:
        out["by"] = text(args, "by", limit=40)  # who entered it (the panel's token label)
    return out


def parse(kind: object, args: Mapping[str, object]) -> tuple[Action, Args]:
    """Check an action and build its typed model: (the model, the normalised arguments as stored)."""
    out = validate(kind, args)
    try:
        model = ACTION_MODELS[str(kind)].model_validate(
            {"kind": kind, **{k: v for k, v in out.items() if k != "by"}}
        )
    except ValidationError as exc:  # a value the bilingual check let through but the schema does not take
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "args"
        raise RefereeInputError(
            f"{where}: {first['msg']}", f"{where}: недопустимое значение", where, MALFORMED
        ) from None
    return cast(Action, model), out  # ACTION_MODELS holds exactly the members of Action
