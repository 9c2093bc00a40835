"""The trail of a table's fold: for each input folded, what it changed, so the fold can be taken back to any
point in time order and played forward from there (a late input lands in its place;
nothing before it is redone).

A `Mark` is taken before an input is fed. Sensor evidence only appends to a shot's lists, opens a shot or
closes one, so the mark keeps the number of shots and the list lengths and closing of the shots it may change:
the latest, the latest not undone when the ones after it were (`undo`: a ball joins it) and a doubled strike's
shot. Everything else an input changes (a referee amendment to any shot, a jam, a dismissed alert, an undone
step, an engine action's step) is recorded on the mark as it happens, with what it replaced.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hub.reconcile.assembler import ShotAssembler
from hub.reconcile.statuses import StepStatus
from hub.reconcile.timeline import Step, Timeline
from hub.vocab.evidence import ShotEvidence

_LISTS = tuple(f.name for f in dataclasses.fields(ShotEvidence) if f.default_factory is list)
_FIELDS = tuple(f.name for f in dataclasses.fields(ShotEvidence))
_CONTAINERS = tuple(
    f.name for f in dataclasses.fields(ShotEvidence) if f.default_factory in (list, dict, set)
)


def lengths(shot: ShotEvidence) -> int:
    """The lengths of a shot's lists, 16 bits each in one int
    (0 for a shot with empty lists: no allocation)."""
    out = 0
    for name in _LISTS:
        out = (out << 16) | len(getattr(shot, name))
    return out


# a shot's number, closing (at, by) and its lists' lengths (`lengths`)
ShotMark = tuple[int, int | None, str | None, int]


def shot_mark(shot: ShotEvidence) -> ShotMark:
    """What sensor evidence may change on a shot: its closing and its lists' lengths."""
    return (shot.number, shot.closed_at, shot.closed_by, lengths(shot))


def restore_mark(shot: ShotEvidence, closed_at: int | None, closed_by: str | None, lens: int) -> None:
    thaw(shot)  # it may be the latest shot again: its evidence grows
    shot.closed_at, shot.closed_by = closed_at, closed_by
    for name in reversed(_LISTS):
        del getattr(shot, name)[lens & 0xFFFF :]
        lens >>= 16


_EMPTY: dict[type, Any] = {list: [], dict: {}, set: set()}  # shared by old shots, never changed in place


def freeze(shot: ShotEvidence) -> None:
    """An old shot's empty containers are replaced by shared ones (a long match keeps a thousand shots; their
    empty lists, dicts and sets were most of their memory). `thaw` before anything changes the shot."""
    for name in _CONTAINERS:
        v = getattr(shot, name)
        if not v:
            setattr(shot, name, _EMPTY[type(v)])


def shared_intact() -> bool:
    """The shared empty containers are still empty (strict mode checks it after every input)."""
    return not any(_EMPTY.values())


def thaw(shot: ShotEvidence) -> None:
    """Give a shot its own containers again (before evidence or an amendment changes it)."""
    for name in _CONTAINERS:
        v = getattr(shot, name)
        if v is _EMPTY[type(v)]:
            setattr(shot, name, type(v)())


def image(shot: ShotEvidence) -> ShotEvidence:
    """A shot's evidence as it is now, a detached copy (containers copied): taken before a referee amendment
    changes it."""
    out = copy.copy(shot)
    for name in _FIELDS:
        v = getattr(shot, name)
        if isinstance(v, list | dict | set):
            setattr(out, name, v.copy())
    return out


def restore_image(shot: ShotEvidence, img: ShotEvidence) -> None:
    """Put a shot's evidence back as `image` took it (the image stays as it is: it may be restored again)."""
    for name in _FIELDS:
        v = getattr(img, name)
        setattr(shot, name, v.copy() if isinstance(v, list | dict | set) else v)


@dataclass
class Affected:
    """What taking marks back touched: the timeline must be re-judged from the earliest of these."""

    shots: set[int] = field(default_factory=set)
    steps: list[Step] = field(default_factory=list)  # steps that are gone (an undone engine action)
    revived: list[Step] = field(default_factory=list)  # steps an undone `undo` had voided


Undo = Callable[[Affected], None]


@dataclass(slots=True)
class Mark:
    """One folded input: its place in time order and how to take it back."""

    index: int  # the input's arrival index (its time is the input's at_ms)
    shots: int = 0
    last: int = 0  # the latest shot's number (0: none yet), its closing and its lists' lengths
    closed_at: int | None = None
    closed_by: str | None = None
    lens: int = 0
    more: tuple[ShotMark, ...] = ()  # other shots the input may change, before it did (`keep`)
    pending: tuple[Any, ...] = ()
    refused: int = 0
    ended: bool = False
    strike: str | None = None  # a strike id this input added to the fold's strikes
    undo: list[Undo] | None = None

    def on_undo(self, fn: Undo) -> None:
        if self.undo is None:
            self.undo = []
        self.undo.append(fn)


def take(mark: Mark, asm: ShotAssembler, refused: int, ended: bool) -> Mark:
    """Fill a mark with the state sensor evidence may change."""
    shots = asm.shots
    mark.shots = len(shots)
    if shots:
        last = shots[-1]
        mark.last, mark.closed_at, mark.closed_by, mark.lens = (
            last.number,
            last.closed_at,
            last.closed_by,
            lengths(last),
        )
        latest = asm.last()
        if latest is not None and latest is not last:  # the latest shots were undone: evidence joins this one
            keep(mark, latest)
    if asm.pending_next:
        mark.pending = tuple(asm.pending_next)
    mark.refused, mark.ended = refused, ended
    return mark


def keep(mark: Mark, shot: ShotEvidence) -> None:
    """Before an input changes a shot that is not the latest (a ball joins the latest shot not undone, a
    doubled strike joins the shot of its stroke): keep what sensor evidence may
    change on it, to take it back."""
    if shot.number != mark.last and all(kept[0] != shot.number for kept in mark.more):
        thaw(shot)  # an old shot may share its empty containers (`freeze`): it is about to get evidence
        mark.more += (shot_mark(shot),)


def give_back(mark: Mark, asm: ShotAssembler, strikes: dict[str, None], aff: Affected) -> None:
    """Take one mark back (the later marks are already taken back)."""
    for fn in reversed(mark.undo or ()):
        fn(aff)
    if mark.strike is not None:
        strikes.pop(mark.strike, None)
    del asm.shots[mark.shots :]
    for number, closed_at, closed_by, lens in mark.more:
        restore_mark(asm.shots[number - 1], closed_at, closed_by, lens)
        aff.shots.add(number)
    if mark.last:
        restore_mark(asm.shots[mark.last - 1], mark.closed_at, mark.closed_by, mark.lens)
        aff.shots.add(mark.last)
    asm.pending_next[:] = list(mark.pending)


def retime(tl: Timeline, shots: int, aff: Affected) -> None:
    """After marks were taken back: drop the steps of shots that are gone and of undone engine actions, take
    the engine back to the earliest step touched and judge forward again. Costs the steps after that point."""
    gone: list[Step] = list(aff.steps)
    n = shots + 1
    while n in tl.shot_steps:
        gone.append(tl.shot_steps.pop(n))
        tl.noted.pop(n, None)
        n += 1
    targets = {id(s) for s in gone} | {id(s) for s in aff.revived}
    targets |= {id(tl.shot_steps[k]) for k in aff.shots if k in tl.shot_steps}
    idx0 = len(tl.steps)
    found = 0
    for i in range(len(tl.steps) - 1, -1, -1):
        if found == len(targets):
            break
        if id(tl.steps[i]) in targets:
            idx0, found = i, found + 1
    # held there: judge it again
    if idx0 <= tl.fed < len(tl.steps) and tl.steps[tl.fed].status == StepStatus.BLOCKED:
        tl.unjudge(tl.steps[tl.fed])
    if idx0 < tl.fed:
        tl.rewind(idx0)
    dead = {id(s) for s in gone}
    if dead:
        tl.steps[idx0:] = [s for s in tl.steps[idx0:] if id(s) not in dead]
        tl.rejected = [s for s in tl.rejected if id(s) not in dead]
    tl.fed = min(tl.fed, len(tl.steps))
    tl.sync()
