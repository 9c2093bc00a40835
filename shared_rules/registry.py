"""The variants there are: each variant module registers its class under its name when it is imported
(shared_rules/__init__.py imports them all), and a match finds its variant here by name."""

from __future__ import annotations

from .errors import RulesError
from .variant import Variant

VARIANTS: dict[str, type[Variant]] = {}


def register(cls: type[Variant]) -> type[Variant]:
    """Class decorator: add a variant to `VARIANTS` under its `name`."""
    if not cls.name or cls.name in VARIANTS:
        raise ValueError(f"variant name {cls.name!r} is empty or taken")
    if cls.PROFILE.fixed_cue_ball != (cls.CUE_BALL is not None):
        raise ValueError(f"variant {cls.name!r}: PROFILE.fixed_cue_ball disagrees with CUE_BALL")
    VARIANTS[cls.name] = cls
    return cls


def find_variant(name: str) -> type[Variant]:
    """The variant class called `name`; RulesError naming the known ones if there is none."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(VARIANTS))
        raise RulesError(
            f"unknown variant {name!r}; known: {known}", f"неизвестная разновидность {name!r}; есть: {known}"
        ) from None
