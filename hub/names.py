"""Names people typed (players), made safe to show and export: bidirectional control characters are removed.

A right-to-left override (U+202E) in a player's name shows the rest of the line reversed on the board, the
panel, the scoresheet and in a spreadsheet; the isolates, embeddings and marks reorder text more quietly. None
of them is ever part of a real name, so they are stripped where a name enters (the new_match action) and again
where a stored one is read (a match stored before this was checked).
"""

from __future__ import annotations

import re

BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")


def clean_name(name: str) -> str:
    """`name` without bidirectional control characters (ALM, LRM, RLM, LRE…RLO, LRI…PDI)."""
    return _BIDI.sub("", name)
