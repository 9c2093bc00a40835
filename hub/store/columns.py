"""How the store writes a value into a JSON TEXT column: one canonical text (compact, keys sorted, UTF-8 as
it is), so the same value is always the same bytes (the export signs records read back from these columns)."""

from __future__ import annotations

import json


def dumps(obj: object) -> str:
    """The canonical JSON text of `obj` for a column."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
