"""Building hub inputs for TableSession tests: real wire events (built and parsed by luza_wire.protocol)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from hub.reconcile.fold import HubInput
from hub.reconcile.table import TableSession
from hub.vocab.inputs import RefereeAction, SensorInput, parse_referee_action
from luza_wire import protocol
from luza_wire.messages import Event


class Kit:
    """Makes inputs for one table: per-device sequence numbers, devices named like a real table's."""

    def __init__(self, boot: int = 1) -> None:
        self.boot = boot
        self.seq: dict[str, int] = defaultdict(int)

    def _event(
        self, kind: str, device: str, t: int, role: str, seat: int | None, delay: int = 0, **fields: object
    ) -> SensorInput:
        self.seq[device] += 1
        ev = protocol.parse_event(
            protocol.encode_event(kind, device, self.boot, self.seq[device], t, **fields)
        )
        assert isinstance(ev, Event), ev
        return SensorInput(ev, role, seat, t, t + delay)

    def strike(
        self, t: int, seat: int | None = 0, double: bool = False, device: str | None = None, delay: int = 0
    ) -> SensorInput:
        dev = device or ("cue-a" if seat in (0, None) else "cue-b")
        return self._event(
            "strike", dev, t, "cue", seat, delay, pk=2.5, dbl=double, gap=4 if double else None
        )

    def pocket(
        self,
        t: int,
        pocket: int,
        colour: str | None = None,
        conf: float | None = None,
        device: str | None = None,
        delay: int = 0,
    ) -> SensorInput:
        return self._event(
            "pocket", device or f"pk-{pocket}", t, "pocket", None, delay, p=pocket, c=colour, cf=conf, dur=40
        )

    def jam(self, t: int, pocket: int, clear: bool = False) -> SensorInput:
        return self._event(
            "clear" if clear else "jam", f"pk-{pocket}", t, "pocket", None, 0, p=pocket, dur=3000
        )

    @staticmethod
    def ref(kind: str, t: int, uid: str | None = None, **args: object) -> RefereeAction:
        d: dict[str, object] = {"kind": kind, "args": args}
        if uid:
            d["uid"] = uid
        return parse_referee_action(d, t)


def item(inp: SensorInput) -> str:
    """The assembler's id of a sensor event (device/boot/seq)."""
    device, boot, seq = inp.event.key
    return f"{device}/{boot}/{seq}"


def session(variant: str, inputs: Iterable[HubInput] = (), **options: object) -> TableSession:
    s = TableSession("t1", variant, ("Ivan", "Petr"), options)
    for inp in inputs:
        s.apply(inp)
    return s
