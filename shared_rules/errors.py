"""One error family for bad input to the engine; the state is never changed when one is raised.

Two kinds, as in python-chess: malformed input (`MalformedInputError`: pocket 7, an unknown field, a log of an
unknown version) and input that is well formed but impossible here (`IllegalInputError`: a ball that is not on
the table, the wrong player, a choice that is not offered). Messages are written for a referee.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error the rules engine raises on bad input."""

    def __init__(self, en: str, ru: str | None = None) -> None:
        super().__init__(en)
        self.en = en
        self.ru = ru or en


class MalformedInputError(RulesError):
    """The input cannot be read at all."""


class IllegalInputError(RulesError):
    """The input is well formed but cannot happen in this position."""
