"""Matches played through a real Hub (no broker: payloads are fed as MQTT would deliver them) on a fixed
clock, into a real SQLite store: the source of the golden exports,
the export tests and the export benchmark."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from hub import config, configfile
from hub.ingest.mqtt import RawMessage
from hub.service.hub import Hub
from luza_wire import protocol

START_MS = 1_794_668_400_000  # 2026-11-14 15:00 UTC (18:00 in Moscow): goldens do not depend on today
PLAYERS = ("Иван Петров", "Сергей Кузнецов")
TABLE = {
    "id": "t1",
    "name": "Стол 1",
    "pockets": {"pk-12": [1, 2], "pk-34": [3, 4], "pk-56": [5, 6]},
    "cues": {"cue-a": 0, "cue-b": 1},
}
POCKET_NODE = {1: "pk-12", 2: "pk-12", 3: "pk-34", 4: "pk-34", 5: "pk-56", 6: "pk-56"}


def hub_config(db: Path, settle: dict[str, Any] | None = None) -> config.Config:
    raw: dict[str, Any] = {
        "club": {"name": "Luza Billiard Club", "name_ru": "Бильярдный клуб «Луза»"},
        "store": {"path": str(db)},
        "tables": [TABLE],
    }
    if settle:
        raw["settle"] = settle
    return configfile.parse(raw)


class Clock:
    """The hub's clock, moved by the script only."""

    def __init__(self, ms: int = START_MS) -> None:
        self.ms = ms

    def __call__(self) -> int:
        return self.ms


class Table:
    """Plays one table of a Hub: node births, strikes and pocket drops (synced node clocks), referee actions."""  # noqa: E501

    def __init__(self, hub: Hub, clock: Clock) -> None:
        self.hub, self.clock = hub, clock
        self.seq: dict[str, int] = defaultdict(int)

    def wait(self, ms: int) -> None:
        self.clock.ms += ms

    def births(self, fw: str = "0.3.1") -> None:
        for dev in ("pk-12", "pk-34", "pk-56", "cue-a", "cue-b"):
            role = "cue" if dev.startswith("cue") else "pocket"
            payload = protocol.encode_status("online", 1, fw=fw, ip="10.0.0.2", role=role)
            self.hub.feed(RawMessage("mqtt", protocol.topic("t1", dev, "status"), payload, self.clock.ms))

    def _event(self, kind: str, device: str, **fields: object) -> None:
        self.seq[device] += 1
        payload = protocol.encode_event(kind, device, 1, self.seq[device], self.clock.ms, **fields)
        self.hub.feed(RawMessage("mqtt", protocol.topic("t1", device, "evt"), payload, self.clock.ms))

    def strike(self, seat: int) -> None:
        self._event("strike", "cue-a" if seat == 0 else "cue-b", pk=2.5, dbl=False)

    def pot(self, pocket: int, colour: str | None = "ivory", conf: float | None = 0.93) -> None:
        self._event("pocket", POCKET_NODE[pocket], p=pocket, c=colour, cf=conf, dur=40)

    def ref(self, kind: str, **args: object) -> dict[str, Any]:
        return self.hub.submit("t1", {"kind": kind, **args})

    def shot(
        self,
        seat: int,
        pots: list[int] | None = None,
        call: tuple[int, int] | None = None,
        colour: str | None = "ivory",
    ) -> None:
        """The referee's call (if any), the stroke, the balls falling 0.8 s apart,
        then 15 s until the next."""
        if call is not None:
            self.ref("declare", ball=call[0], pocket=call[1])
            self.wait(1000)
        self.strike(seat)
        for p in pots or []:
            self.wait(800)
            self.pot(p, colour)
        self.wait(15000)


def open_hub(db: Path, clock: Clock, settle: dict[str, Any] | None = None) -> Hub:
    return Hub(hub_config(db, settle), clock=clock, mqtt=False).start()


def play_classic(t: Table, finish: bool = True) -> None:
    """Classic: no call on the break (the referee names the ball), calls and pots, a called ball missed, the
    cue ball pocketed (classic 5.5 foul), Иван wins 71:8."""
    hub = t.hub
    hub.new_match("t1", "classic", PLAYERS)
    t.ref("lag", winner=0)
    t.wait(5000)
    t.shot(0, [5])
    hub.wait_idle()
    q = next(q for q in hub.state("t1")["match"]["questions"] if q["action"] == "identify")
    t.ref("identify", item=q["item"], ball=4)
    t.shot(0, [3], call=(15, 3))
    t.shot(0, [], call=(14, 2))
    t.shot(1, [4], call=(13, 4))
    t.shot(1, [1], call=(1, 1), colour="yellow")
    for ball, pocket in ((14, 2), (12, 6), (11, 3), (10, 5)):
        t.shot(0, [pocket], call=(ball, pocket))
    if finish:
        t.ref("end_match")
    hub.wait_idle()


def play_hundred(t: Table, finish: bool = True) -> None:
    """100 points: calls made and missed, a referee-called foul, Иван wins past 50."""
    hub = t.hub
    hub.new_match("t1", "hundred", PLAYERS)
    t.ref("lag", winner=0)
    t.wait(5000)
    t.shot(0, [3], call=(15, 3))
    t.shot(0, [], call=(14, 2))
    t.shot(1, [4], call=(13, 4))
    t.ref("declare", ball=12, pocket=5)
    t.wait(1000)
    t.strike(1)
    t.wait(600)
    t.ref("foul", foul="touch")
    t.wait(15000)
    for ball, pocket in ((14, 2), (12, 6), (11, 3)):
        t.shot(0, [pocket], call=(ball, pocket))
    if finish:
        t.ref("end_match")
    hub.wait_idle()


def play_free_race(t: Table, finish: bool = True, player_ids: list[int | None] | None = None) -> None:
    """Free, a race to 2 frames with a balls handicap (2 balls on Сергей's shelf every frame, general A-G5):
    Иван wins frame 1 (Сергей concedes after Иван's pots), Сергей breaks frame 2 (general 11) and wins it 8:1
    with six pots, Иван breaks frame 3 and concedes it: Сергей wins the match 2:1."""
    hub = t.hub
    hub.new_match(
        "t1",
        "free",
        PLAYERS,
        race={"race_to": 2, "handicap": {"kind": "balls", "amount": 2, "seat": 1}},
        player_ids=player_ids,
    )
    t.ref("lag", winner=0)
    t.wait(5000)
    t.shot(0, [5])
    t.shot(0, [3, 6])
    t.shot(0, [])
    t.ref("concede", player=1)
    t.wait(5000)
    t.ref("next_frame")
    t.wait(5000)
    t.shot(1, [5])
    t.shot(1, [1])
    t.shot(1, [])
    t.shot(0, [3])
    t.shot(0, [])
    for pocket in (2, 6, 4, 5):
        t.shot(1, [pocket])
    hub.wait_idle()
    t.ref("next_frame")
    t.wait(5000)
    t.shot(0, [])
    t.ref("concede", player=0)
    if finish:
        t.ref("end_match")
    hub.wait_idle()
