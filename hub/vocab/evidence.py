"""What a shot is made of: the sensors' and the referee's evidence, gathered per shot.

The floor's data types: `hub.reconcile.assembler.ShotAssembler` cuts the evidence into `ShotEvidence`, the
referee's amendments (hub.vocab.amendments) change it, and `hub.reconcile.report` turns it into a shot report.
`BallOut` and `PocketFlag` are what a pocket node's beams could not settle (hub/reconcile/throat.py explains
them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hub.config import ShotTiming
from shared_rules.model import Colour, Declaration, Foul, Pocket


@dataclass(frozen=True)
class BallOut:
    """An upward passage out of `pocket`; `ball` is the pocket evidence it un-counts (None: nothing to
    undo)."""

    id: str
    pocket: int
    at_ms: int
    ball: str | None


@dataclass(frozen=True)
class PocketFlag:
    """A node's flag; `ball` is the pocket evidence a `two` flag is about."""

    id: str
    pocket: int
    at_ms: int
    why: str
    beam: int | None = None
    ball: str | None = None


@dataclass(frozen=True, slots=True)
class PocketEvidence:
    """A ball seen going into a pocket (sensor), or added by the referee (`source="referee"`)."""

    id: str
    pocket: Pocket
    at_ms: int
    colour: Colour | None = None
    conf: float | None = None
    source: str = "sensor"
    # counted on one beam alone: the beam that did not see it (declared dead), issue 19
    alone: int | None = None


@dataclass(frozen=True, slots=True)
class StrikeEvidence:
    id: str
    at_ms: int
    seat: int | None = None  # the seat the cue node is paired with
    double: bool = False  # the cue sensor saw two contacts: a hint for §18
    gap: float | None = None


@dataclass(frozen=True, slots=True)
class Identity:
    """What the referee said about a pocketed ball."""

    ball: int | None = None
    colour: Colour | None = None
    direct: bool | None = None


@dataclass(slots=True)  # a long match keeps a thousand of them
class ShotEvidence:
    """Everything gathered for one shot. Mutable, owned by the assembler and the session that feeds it."""

    number: int
    opened_at: int
    opened_by: str  # "strike" | "pocket" | "referee"
    strike: StrikeEvidence | None = None
    extra_strikes: list[StrikeEvidence] = field(default_factory=list)
    pockets: list[PocketEvidence] = field(default_factory=list)
    late: list[PocketEvidence] = field(default_factory=list)  # §23 candidates
    jumped: list[tuple[str, int | None, Colour | None]] = field(default_factory=list)
    identities: dict[str, Identity] = field(default_factory=dict)
    removed: set[str] = field(default_factory=set)
    fouls: dict[Foul, int | None] = field(default_factory=dict)  # referee fouls -> offender
    answers: dict[str, str] = field(default_factory=dict)  # question id -> answer
    facts: dict[str, object] = field(default_factory=dict)
    declarations: tuple[Declaration, ...] = ()
    outs: list[BallOut] = field(default_factory=list)  # balls that came back out (hub/reconcile/throat.py)
    flags: list[PocketFlag] = field(default_factory=list)  # what the pocket beams could not settle
    early: bool = False  # a strike before the previous shot could have ended (§14.2 candidate)
    closed_at: int | None = None
    closed_by: str | None = None
    voided: bool = False
    # the previous shot's settle: this shot's clock started there (None: first shot)
    clock_from: int | None = None
    # the time this shot had (shot clock and extensions); None: the clock is off
    allowed_ms: int | None = None

    def settled_at(self, timing: ShotTiming) -> int:
        """When the hub judges this shot's balls can have stopped: `min_shot_ms` after its opening and
        `pocket_settle_ms` after its last ball the sensors saw, whichever is later; sooner if the referee
        closed it by hand ("balls stopped"). A strike before it is an early start (§14.2);
        the shot clock starts there."""
        # a ball the referee added is dated by the tap, not the drop
        t = max(
            [
                self.opened_at + timing.min_shot_ms,
                *(p.at_ms + timing.pocket_settle_ms for p in self.pockets if p.source == "sensor"),
            ]
        )
        if self.closed_by == "referee" and self.closed_at is not None:
            t = min(t, self.closed_at)
        return t

    @property
    def last_activity(self) -> int:
        t = self.strike.at_ms if self.strike else self.opened_at
        return max([t, *(p.at_ms for p in self.pockets)])

    def items(self) -> set[str]:
        ids = {p.id for p in self.pockets} | {p.id for p in self.late} | {j[0] for j in self.jumped}
        ids |= {
            f.id for f in self.flags if f.why == "single"
        }  # a one-beam passage: the referee says if it was a ball
        if self.strike:
            ids.add(self.strike.id)
        return ids | {s.id for s in self.extra_strikes}
