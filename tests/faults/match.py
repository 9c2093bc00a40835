"""The match every fault scenario plays: a seeded Free match on a virtual table
(the real firmware on CPython).

`script(seed)` draws the shots: who strikes (the turn as the rules engine keeps it: a player who pots plays
on) and which balls drop into which pockets. `Player.play(table, steps, fault)` plays them through a real
broker, each shot in two phases (the strike, then its balls a moment later),
and calls `fault(k, phase)` between
them, so a scenario injects its fault mid-shot while the script stays the same one the baseline plays.
`score(board)` is what "the same final score" compares: the scoreboard's scores, turn, balls and shot count.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hub import config
from hub.service.hub import Hub
from hub.view.engine import engine_summary
from hub.virtual import traces
from hub.virtual.table import Shot, VirtualTable
from shared_rules import Match
from shared_rules.model import Colour, Lag, Pocket, PocketedBall, ShotReport
from tests.faults.hubproc import HubProcess
from tests.support.broker import Mosquitto
from tests.support.config import SPARE_T2, VIRTUAL_T1, luza_config, write_luza_toml

PLAYERS = ("Ivan", "Petr")
SPEED = 10.0  # virtual ms per wall ms: a minute of play takes six seconds
SHOT_MS = 4000.0  # a shot every 4 s of virtual time
# The first ball drops this long after the strike phase ended (~1.7 s after the strike, the next at ~2.1 s):
# node clocks may trail one another by the time exchange's transit x SPEED on a busy machine;
# this leaves room both ways.
BALL_MS = 1100.0
SCORE_KEYS = ("scores", "to_play", "on_table", "winner", "over", "shelves", "shot_count")

Fault = Callable[[int, str], Awaitable[None]]


@dataclass(frozen=True)
class Step:
    """One shot: `player` ("a" = seat 0, "b" = seat 1) strikes; `balls` are (pocket, colour) that drop."""

    player: str
    balls: tuple[tuple[int, str], ...]


def script(seed: int, shots: int = 10, max_pots: int = 6) -> list[Step]:
    """A Free match of `shots` shots: at most `max_pots` balls in all
    (the match stays open), turns by the engine."""
    rng = random.Random(seed)
    m = Match.new("free", players=PLAYERS)
    m.play(Lag(0))
    out: list[Step] = []
    pots = 0
    for _ in range(shots):
        n = min(rng.choice((0, 0, 1, 1, 2)), max_pots - pots)
        pockets = rng.sample(range(1, 7), n)
        balls = tuple((p, "ivory") for p in pockets)
        seat = m.state.to_play
        out.append(Step("ab"[seat], balls))
        m.play(report(seat, balls))
        pots += n
    return out


def report(seat: int, balls: Sequence[tuple[int, str]]) -> ShotReport:
    return ShotReport(
        shooter=seat, pocketed=tuple(PocketedBall(Pocket(p), colour=Colour(c)) for p, c in balls)
    )


def engine_score(steps: Sequence[Step]) -> dict[str, Any]:
    """The rules engine fed the script's facts directly: what every run must end with."""
    m = Match.new("free", players=PLAYERS)
    m.play(Lag(0))
    for st in steps:
        m.play(report("ab".index(st.player), st.balls))
    s = engine_summary(m)
    return {"scores": s["scores"], "to_play": s["to_play"], "on_table": s["on_table"], "over": s["over"]}


def score(board: dict[str, Any]) -> dict[str, Any]:
    """The part of a scoreboard that two runs of the same match must agree on."""
    return {k: board.get(k) for k in SCORE_KEYS}


def engine_part(board: dict[str, Any]) -> dict[str, Any]:
    return {k: board.get(k) for k in ("scores", "to_play", "on_table", "over")}


def events_made(table: VirtualTable, earlier_boots: int = 0) -> int:
    """How many events the table's nodes numbered in their current boots
    (+ those of boots before a reboot)."""
    return earlier_boots + sum(n.node.seq for n in table.nodes if n.node is not None)


def stored_events(db: Path) -> int:
    """Sensor events in the store (read-only, beside a running hub)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        return int(conn.execute("SELECT count(*) FROM inputs WHERE device IS NOT NULL").fetchone()[0])
    finally:
        conn.close()


def begin_match(hub: Hub) -> int:
    """The referee starts a Free match and records the lag (seat 0 breaks)."""
    match_id = int(hub.new_match("t1", "free", PLAYERS)["match_id"])
    hub.submit("t1", {"kind": "lag", "winner": 0})
    return match_id


@dataclass(frozen=True)
class Scenario:
    """What `prepare` set up: the virtual table, the hub's database, its config in process and as a file, the
    in-process hub that started the match (still running, unless handed over) and the match's id."""

    table: VirtualTable
    db: Path
    toml: Path
    cfg: config.Config
    hub: Hub
    match_id: int | None

    def hand_over(self) -> HubProcess:
        """Stop the in-process hub and start the hub process on the same database, which plays the match."""
        self.hub.stop()
        return HubProcess(self.toml, self.table.vt)

    def rebuilt(self) -> Hub:
        """A hub without MQTT on the database (start it with `with`): the match as the log rebuilds it."""
        return Hub(self.cfg, clock=self.table.vt.hub_ms, mqtt=False)


def prepare(
    broker: Mosquitto,
    workdir: Path,
    seed: int,
    start: Callable[..., Hub],
    t2: bool = False,
    begin: bool = True,
    client_id: str = "luza-hub-faults",
) -> Scenario:
    """Every scenario's preamble: the hub's config (in `workdir`, with the spare table t2 if asked), the
    virtual table of `seed` on `broker`, a hub started by `start` (the `hubs` fixture) on the table's clock,
    and, unless `begin` is false, the referee's start of the Free match (`begin_match`).
    The nodes are not started yet."""
    db, tables = workdir / "luza.db", (VIRTUAL_T1, SPARE_T2) if t2 else (VIRTUAL_T1,)
    toml = write_luza_toml(workdir / "luza.toml", broker.url, db, tables, client_id)
    table = VirtualTable(("127.0.0.1", broker.port), workdir / "nodes", table="t1", speed=SPEED, seed=seed)
    cfg = luza_config(broker.url, db, tables, client_id)
    hub = start(cfg, clock=table.vt.hub_ms)
    return Scenario(table, db, toml, cfg, hub, begin_match(hub) if begin else None)


async def no_fault(k: int, phase: str) -> None:
    return None


class Player:
    """Plays a script on a virtual table, shot by shot, with a fault hook between the phases of each shot."""

    def __init__(self, table: VirtualTable) -> None:
        self.table = table
        self.shot_started: list[float] = []  # virtual ms each shot's strike phase began

    async def play(self, steps: Sequence[Step], fault: Fault = no_fault) -> None:
        t = self.table
        for k, st in enumerate(steps):
            start = t.vt.ms()
            self.shot_started.append(start)
            await t.play([Shot(0, st.player)])
            await fault(k, "strike")
            if st.balls:
                await t.play(
                    [traces.Ball(BALL_MS + 400 * i, pocket=p, colour=c) for i, (p, c) in enumerate(st.balls)]
                )
            await fault(k, "balls")
            await t.vt.until(max(start + SHOT_MS, t.vt.ms()))


def run_table(
    table: VirtualTable,
    steps: Sequence[Step],
    fault: Fault = no_fault,
    after: Callable[[], Awaitable[None]] | None = None,
) -> Player:
    """Start the nodes, wait for the hub's time, play the script,
    then `after()` (e.g. wait for drains), stop."""
    player = Player(table)

    async def main() -> None:
        await table.start()
        try:
            await table.synced()
            await player.play(steps, fault)
            if after is not None:
                await after()
        finally:
            await table.stop()

    asyncio.run(main())
    return player


async def until(cond: Callable[[], bool], timeout: float, what: str) -> None:
    """Wait (asyncio) until `cond()` holds; fail naming `what` after `timeout` wall seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not cond():
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.02)
