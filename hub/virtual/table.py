"""A virtual table: pocket nodes and cue nodes running the real firmware, played from a script of shots.

    table = VirtualTable(("127.0.0.1", port), workdir, table="table-1", speed=1.0)
    await table.start()                                   # every node connects, births go out
    await table.sync_time()                               # the hub's time exchange (the hub does it too)
    await table.synced()                                  # ... or wait for a real hub's exchange
    await table.play([
        Shot(0, player="a", balls=(Pot(3, after_ms=800, colour="ivory", rattle=True),)),
        Shot(6000, player="b", double_gap_ms=12),         # a double hit, nothing potted
        Shot(12000, player="a", balls=(Pot(1), Pot(6, after_ms=1400, colour="yellow"))),
        traces.Hand(15000, pocket=2),                     # anything from hub.virtual.traces goes too
        CueMotion("b", traces.Knock(16000)),
    ])
    await table.stop()

Script format (times in ms from the start of `play`, virtual time):
  * `Shot(t_ms, player, peak_g=8.0, double_gap_ms=None, balls=(...))`: player "a"/"b" strikes at `t_ms`
    (a `traces.Strike` on that player's cue node, a double hit if `double_gap_ms`); each
    `Pot(pocket, after_ms=800, colour="ivory", rattle=False, speed=2.0)` is a ball into `pocket` at
    `t_ms + after_ms`, rattling in the jaws first if `rattle` (a `traces.Bounce`).
  * any beam happening of `hub.virtual.traces` (`Ball`, `Bounce`, `Rattle`, `Hand`, `Out`, `NetBounce`,
    `Jam`) at its own `t_ms` and `pocket`;
  * `CueMotion(player, motion)` for a raw `traces.Strike`, `Touch` or `Knock` on a player's cue.
Noise (`traces.Noise`: jitter, chatter) applies to every beam edge.

Layout: `pockets` groups the six pockets into nodes (default two nodes of three: (1, 2, 3) and (4, 5, 6));
node ids are `pockets-123`, `pockets-456`; cue nodes are `cue-a`, `cue-b`. Colour sensors on every pocket
unless `colour=False`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from firmware import pins
from hub.config import NodeCue, NodePocket, NodeSettings
from hub.virtual import traces
from hub.virtual.node import VirtualNode, VirtualTime
from luza_wire import protocol


@dataclass(frozen=True)
class Pot:
    """A ball into `pocket`, `after_ms` after its shot's strike."""

    pocket: int
    after_ms: float = 800.0
    colour: str = "ivory"
    rattle: bool = False
    speed: float = 2.0


@dataclass(frozen=True)
class Shot:
    """Player `player` strikes at `t_ms`; `balls` drop afterwards."""

    t_ms: float
    player: str = "a"
    peak_g: float = 8.0
    double_gap_ms: float | None = None
    balls: tuple[Pot, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class CueMotion:
    """A raw accelerometer motion on one player's cue."""

    player: str
    motion: traces.Motion


def pocket_node_id(group: Sequence[int]) -> str:
    return "pockets-" + "".join(str(p) for p in group)


def cue_node_id(player: str) -> str:
    return "cue-" + player


class VirtualTable:
    """Pocket and cue nodes of one table on a real broker. See the module docstring."""

    def __init__(
        self,
        broker: tuple[str, int],
        workdir: Path,
        table: str = "table-1",
        pockets: Sequence[Sequence[int]] = ((1, 2, 3), (4, 5, 6)),
        players: Sequence[str] = ("a", "b"),
        speed: float = 1.0,
        noise: traces.Noise | None = None,
        colour: bool = True,
        seed: int = 0,
        tele_s: int = 30,
        cue_settings: NodeCue | None = None,
    ) -> None:
        if sorted(p for g in pockets for p in g) != [1, 2, 3, 4, 5, 6]:
            raise ValueError(f"pockets must split 1..6 between the nodes, got {pockets!r}")
        self.broker = broker
        self.table = table
        self.vt = VirtualTime(speed=speed)
        self.noise = noise if noise is not None else traces.Noise(jitter_us=150, chatter=0.3)
        self.seed = seed
        self.groups = [tuple(g) for g in pockets]
        self.pocket_nodes: list[VirtualNode] = []
        for i, group in enumerate(self.groups):
            cfg = NodeSettings(
                role="pocket",
                table=table,
                device=pocket_node_id(group),
                wifi={"ssid": "virtual"},
                tele_s=tele_s,
                pockets=[
                    NodePocket(pocket=p, upper=pins.SLOTS[s][0], lower=pins.SLOTS[s][1], colour=colour)
                    for s, p in enumerate(group)
                ],
            )
            self.pocket_nodes.append(VirtualNode(cfg, broker, workdir, self.vt, seed=seed + 10 * i))
        self.cue_nodes: dict[str, VirtualNode] = {}
        for i, player in enumerate(players):
            cfg = NodeSettings(
                role="cue",
                table=table,
                device=cue_node_id(player),
                wifi={"ssid": "virtual"},
                tele_s=tele_s,
                cue=cue_settings.copy() if cue_settings else NodeCue(),
            )
            self.cue_nodes[player] = VirtualNode(
                cfg, broker, workdir, self.vt, battery=3.9, seed=seed + 100 + i
            )

    @property
    def nodes(self) -> list[VirtualNode]:
        return [*self.pocket_nodes, *self.cue_nodes.values()]

    async def start(self, timeout: float = 5.0) -> None:
        """Start every node and wait until all are connected."""
        for n in self.nodes:
            n.start()
        deadline = asyncio.get_running_loop().time() + timeout
        while not all(n.node is not None and n.node.link.up for n in self.nodes):
            if asyncio.get_running_loop().time() > deadline:
                down = [n.device for n in self.nodes if n.node is None or not n.node.link.up]
                raise TimeoutError(f"virtual nodes not connected after {timeout:.1f} s: {', '.join(down)}")
            await asyncio.sleep(0.01)

    async def synced(self, timeout: float = 10.0) -> None:
        """Wait until every node has taken the hub's time (the hub sends it on each birth): events stamped
        before that carry uptime only, and a test or demo that needs hub times waits here, not on a sleep."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not all(n.node is not None and n.node.clock.synced for n in self.nodes):
            if asyncio.get_running_loop().time() > deadline:
                late = [n.device for n in self.nodes if n.node is None or not n.node.clock.synced]
                raise TimeoutError(
                    f"no time from the hub after {timeout:.1f} s: {', '.join(late)} (is the hub "
                    "running and connected to the same broker?)"
                )
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        await asyncio.gather(*(n.stop() for n in self.nodes))

    # ------------------------------------------------------------ commands, as the hub sends them

    async def send(self, device: str, name: str, **args: Any) -> None:
        """Publish one `cmd` to a node, as the hub would (one short-lived client)."""
        await self.send_many([(device, protocol.encode_command(name, 0, **args))])

    async def sync_time(self) -> None:
        """The time exchange to every node, stamped with the virtual hub clock as it is sent."""
        await self.send_many([(n.device, b"") for n in self.nodes], time_sync=True)

    async def send_many(self, items: Sequence[tuple[str, bytes]], time_sync: bool = False) -> None:
        def work() -> None:
            c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="virtual-hub-" + self.table)
            c.connect(self.broker[0], self.broker[1])
            c.loop_start()
            try:
                for device, payload in items:
                    if time_sync:
                        payload = protocol.encode_command("time", 0, hub=self.vt.hub_ms())
                    c.publish(protocol.topic(self.table, device, "cmd"), payload, qos=1).wait_for_publish(5)
            finally:
                c.disconnect()
                c.loop_stop()

        await asyncio.to_thread(work)

    # ------------------------------------------------------------ playing a script

    async def play(
        self,
        script: Iterable[Shot | traces.Happening | CueMotion],
        lead_ms: float = 100.0,
        settle_ms: float = 400.0,
    ) -> float:
        """Play `script` from now + `lead_ms` (virtual); returns when all of it happened (+ `settle_ms`).

        Returns the virtual time (ms) the script's 0 was mapped to, so callers can compute true times.
        """
        beams: dict[int, list[traces.Happening]] = {}
        motions: dict[str, list[traces.Motion]] = {p: [] for p in self.cue_nodes}
        for item in script:
            if isinstance(item, Shot):
                self._cue(motions, item.player).append(
                    traces.Strike(item.t_ms, peak_g=item.peak_g, double_gap_ms=item.double_gap_ms)
                )
                for pot in item.balls:
                    kind = traces.Bounce if pot.rattle else traces.Ball
                    beams.setdefault(pot.pocket, []).append(
                        kind(item.t_ms + pot.after_ms, pocket=pot.pocket, speed=pot.speed, colour=pot.colour)
                    )
            elif isinstance(item, CueMotion):
                self._cue(motions, item.player).append(item.motion)
            else:
                beams.setdefault(item.pocket, []).append(item)
        at = self.vt.ms() + lead_ms
        for i, (group, node) in enumerate(zip(self.groups, self.pocket_nodes, strict=True)):
            happenings = [h for p in group for h in beams.get(p, [])]
            if not happenings:
                continue
            edges = traces.beam_edges(happenings, pockets=group, noise=self.noise, seed=self.seed + i)
            balls = []
            for h in happenings:
                colour = getattr(h, "colour", None)
                if colour is not None:  # the colour sensor sees the ball while it is in the throat
                    span = (traces.BALL_MM + traces.BEAM_GAP_MM) / h.speed + 40  # type: ignore[union-attr]
                    balls.append((group.index(h.pocket), at + h.t_ms, at + h.t_ms + span, colour))
            node.board.play_edges(edges, at, balls)
        for player, ms in motions.items():
            if ms:
                self.cue_nodes[player].board.play_motions(ms, at)
        await asyncio.gather(*(n.board.idle() for n in self.nodes))
        await self.vt.until(self.vt.ms() + settle_ms)
        return at

    def _cue(self, motions: dict[str, list[traces.Motion]], player: str) -> list[traces.Motion]:
        if player not in motions:
            raise ValueError(f"no cue node for player {player!r} (players: {', '.join(motions)})")
        return motions[player]
