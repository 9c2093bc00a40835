"""Which pockets are jammed: folded from the pocket nodes' `jam` and `clear` events (a beam blocked too long,
and free again), per (device, pocket), with the beams jammed. Every change is recorded on the input's `Mark`
(hub/reconcile/trail.py), so the fold can take it back.
"""

from __future__ import annotations

from hub.reconcile.trail import Affected, Mark
from hub.vocab.inputs import SensorInput

JamKey = tuple[str, int | None]  # (device, pocket)


class Jams:
    """The pockets jammed now: since when, and which beams (`bm`; None from an old node that names none)."""

    def __init__(self) -> None:
        self.since: dict[JamKey, int] = {}
        self.beams: dict[JamKey, set[int | None]] = {}

    def fold(self, inp: SensorInput, mark: Mark) -> None:
        """A `jam` or `clear` event (any other kind changes nothing)."""
        e = inp.event
        key = (e.device, e.get("pocket"))
        if e.kind not in ("jam", "clear"):
            return
        since, beams = self.since.get(key), self.beams.get(key)
        saved = None if beams is None else set(beams)

        def back(aff: Affected) -> None:
            self.since.pop(key, None)
            self.beams.pop(key, None)
            if since is not None:
                self.since[key] = since
            if saved is not None:
                self.beams[key] = saved

        mark.on_undo(back)
        if e.kind == "jam":
            self.since.setdefault(key, inp.at_ms)
            self.beams.setdefault(key, set()).add(e.get("beam"))
            return
        jammed = self.beams.get(key, set())
        jammed.discard(e.get("beam"))
        if not jammed or e.get("beam") is None:  # every jammed beam cleared (an old node names none)
            self.since.pop(key, None)
            self.beams.pop(key, None)
