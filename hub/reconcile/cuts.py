"""The referee actions that change how shots are cut from the evidence, and when each was first given.

Two actions re-cut the shots: removing a strike (it was a bump, not a stroke: `remove`) and calling a late
drop a shot of its own (`confirm ... new_shot`). The fold must then go back to the item they name and cut
again from there (`hub.reconcile.table.TableSession`). A strike or a ball that arrives after the action naming
it is cut as the action says, and the fold goes back to the action
(refused for want of the item when it was folded, it fits now).
"""

from __future__ import annotations

from hub.reconcile.assembler import ShotAssembler
from hub.reconcile.fold import HubInput, item_of
from hub.vocab.amendments import ConfirmAction, RemoveAction
from hub.vocab.evidence import ShotEvidence
from hub.vocab.inputs import RefereeAction, SensorInput

Cut = tuple[str, str]  # (item, "remove" | "new_shot")


class ShotCuts:
    """(item, cut) -> the time of the earliest action that named it."""

    def __init__(self) -> None:
        self.earliest: dict[Cut, int] = {}

    def note(self, inp: HubInput, asm: ShotAssembler, strikes: dict[str, None]) -> int | None:
        """If `inp` changes how shots are cut, tell the assembler and return the time
        the fold must go back to."""
        if isinstance(inp, SensorInput):
            e, item = inp.event, inp.item
            if e.kind == "strike" and (item, "remove") in self.earliest:
                asm.voided = asm.voided | {item}
                return self.earliest[item, "remove"]
            if e.kind == "pocket" and (item, "new_shot") in self.earliest:
                asm.new_shot = asm.new_shot | {item}
                return self.earliest[item, "new_shot"]
            return None
        named, cut = item_of(inp), cut_of(inp)
        if not cut or named is None:
            return None
        item = named
        if (item, cut) in self.earliest:  # named again (one item may also be named by the other kind)
            self.earliest[item, cut] = min(self.earliest[item, cut], inp.at_ms)
            return None
        self.earliest[item, cut] = inp.at_ms
        shot = asm.find_item(item)
        if shot is None:
            return None
        if cut == "remove":
            if item not in strikes or item in asm.voided:
                return None
            asm.voided = asm.voided | {item}
        else:
            asm.new_shot = asm.new_shot | {item}
        return time_of(shot, item)

    def forget(self, inp: RefereeAction, before: dict[Cut, int], asm: ShotAssembler) -> str | None:
        """The action that re-cut the shots was refused: cut them as `before`; the item it named, if any."""
        item, cut = item_of(inp), cut_of(inp)
        self.earliest = before
        if item is None:
            return None
        if cut == "remove":
            asm.voided = asm.voided - {item}
        else:
            asm.new_shot = asm.new_shot - {item}
        return item


def cut_of(inp: RefereeAction) -> str:
    """How an action re-cuts the shots: "remove" (a strike that was a bump), "new_shot" (a late drop that
    opens a shot of its own), or "" (it does not)."""
    act = inp.action
    if isinstance(act, RemoveAction):
        return "remove"
    return "new_shot" if isinstance(act, ConfirmAction) and act.answer == "new_shot" else ""


def time_of(shot: ShotEvidence | None, item: str) -> int:
    """When the evidence item was seen (the fold goes back to there), or the shot's opening."""
    if shot is None:
        return -(2**62)
    for ev in (shot.strike, *shot.extra_strikes, *shot.pockets, *shot.late):
        if ev is not None and ev.id == item:
            return ev.at_ms
    return shot.opened_at
