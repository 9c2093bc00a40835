"""What every view model shares: frozen, no field it does not declare,
and the small shapes used everywhere."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class View(BaseModel):
    """A frozen part of the read model. Building one validates it; `model_dump(mode="json")` is its JSON."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Text(View):
    """A text in both languages of the screens."""

    en: str
    ru: str


def omitted_if_none(description: str = "") -> Any:
    """A field that is left out of the JSON, not written as null, while it is None (a key only some entries
    have: the JSON keeps the shape it had before the view was typed)."""
    return Field(None, description=description or None, exclude_if=lambda v: v is None)
