"""Full matches of each variant, played by virtual nodes (the real firmware logic on CPython) through a real
Mosquitto into the hub: the result is the right one, and the hub's committed match equals the rules engine fed
the same facts directly. Then the same through `luza serve` in its own process.

Each script is one player potting a ball a shot until the match is won (a potting player plays on in these
variants), with the colours the variant needs (Star: the player's colour sequence, 4.1) and, where the
variant wants calls, the referee's declaration before each shot (100 points: 15, 14, 13, 12 called and
made, 54 > 50 wins, hundred 3; Classic: no call on the break, 5.2 / A-C4, so the referee names the 15 that
fell on it, 5.1, then 14, 13, 12, 11, 10 are called and made, 75 >= 71 wins, classic 1).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hub import config
from hub.service.hub import Hub
from hub.view.engine import engine_summary as summary_of
from hub.virtual.table import Pot, Shot, VirtualTable
from shared_rules import VARIANTS, Match
from shared_rules.model import Colour, Declaration, Lag, Pocket, PocketedBall, ShotReport
from tests.hub.service.test_faults import Serve, retained_state
from tests.hub.service.test_service import wait_for
from tests.support.broker import Mosquitto
from tests.support.config import luza_config, write_luza_toml

pytestmark = pytest.mark.mosquitto

PLAYERS = ("Ivan", "Petr")
SPEED = 20.0  # virtual time runs twenty times faster than the wall clock
SHOT_GAP_MS = 4000.0
# variant -> the balls player "a" pots, one per shot, until the match is won: (colour, called ball or None)
SCRIPTS: dict[str, list[tuple[str, int | None]]] = {
    "free": [("ivory", None)] * 8,
    "combined": [("ivory", None)] * 8,
    "dynamic": [("ivory", None)] * 8,
    # 4.1
    "star": [(c, None) for c in ("blue", "yellow", "black", "green", "red", "blue", "yellow", "black")],
    "hundred": [("ivory", b) for b in (15, 14, 13, 12)],
}
# Scripts whose break takes no call (classic 5.2, A-C4): the referee names the first ball after it fell, which
# `play` does only when given `identify`; kept out of SCRIPTS,
# whose scripts `play` plays with `declare` alone.
NAMED_ON_BREAK: dict[str, list[tuple[str, int | None]]] = {
    "classic": [("ivory", b) for b in (15, 14, 13, 12, 11, 10)],
}
VARIANT_NAMES = sorted(VARIANTS)


def table_config(broker: Mosquitto, db: Path) -> config.Config:
    """The virtual table's hub, in process."""
    return luza_config(broker.url, db, client_id="luza-hub-variants")


def pocket_of(i: int) -> int:
    return 1 + i % 6


def engine_summary(variant: str, pots: list[tuple[str, int | None]]) -> dict[str, Any]:
    """The rules engine fed the same facts by hand: the lag, then seat 0 pots one ball a shot (as called, or
    named on a break that takes no call)."""
    m = Match.new(variant, players=PLAYERS)
    m.play(Lag(0))
    for i, (colour, call) in enumerate(pots):
        called = call is not None and not (i == 0 and variant in NAMED_ON_BREAK)
        calls = (Declaration(call, Pocket(pocket_of(i))),) if called and call is not None else ()
        m.play(
            ShotReport(
                shooter=0,
                declarations=calls,
                pocketed=(PocketedBall(Pocket(pocket_of(i)), ball=call, colour=Colour(colour)),),
            )
        )
    return json.loads(json.dumps(summary_of(m)))


def play(
    table: VirtualTable,
    pots: list[tuple[str, int | None]],
    declare: Callable[[int, int], None] | None = None,
    identify: Callable[[int], None] | None = None,
) -> None:
    """The nodes play one shot per pot, SHOT_GAP_MS apart (virtual); the referee calls the ball first if
    asked, or (given `identify`: a break that takes no call) names the first shot's ball after it fell."""

    async def run() -> None:
        await table.start()
        await table.synced()  # the hub's time exchange on each birth
        for i, (colour, call) in enumerate(pots):
            start = table.vt.ms()
            named_after = i == 0 and identify is not None
            if call is not None and not named_after:
                assert declare is not None, "this script needs a referee"
                await asyncio.to_thread(declare, call, pocket_of(i))
                # the player takes the shot a moment after the call: the nodes' clocks trail the hub's by the
                # time command's transit, which virtual time multiplies by SPEED
                await table.vt.until(table.vt.ms() + 1000)
            await table.play([Shot(0, "a", balls=(Pot(pocket_of(i), 800, colour),))])
            await table.vt.until(start + SHOT_GAP_MS)
            if named_after and call is not None:
                assert identify is not None
                await asyncio.to_thread(identify, call)
        await table.stop()

    asyncio.run(run())


def needs_script(variant: str) -> list[tuple[str, int | None]]:
    if variant in NAMED_ON_BREAK:
        return NAMED_ON_BREAK[variant]
    if variant not in SCRIPTS:
        pytest.skip(f"no end-to-end script for {variant!r} yet (added when the variant lands)")
    return SCRIPTS[variant]


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_virtual_nodes_play_a_match_to_the_engines_result(
    variant: str, mosquitto: Mosquitto, tmp_path: Path, hubs: Callable[..., Hub]
) -> None:
    pots = needs_script(variant)
    table = VirtualTable(("127.0.0.1", mosquitto.port), tmp_path / "nodes", table="t1", speed=SPEED)
    hub = hubs(table_config(mosquitto, tmp_path / "luza.db"), clock=table.vt.hub_ms)
    hub.new_match("t1", variant, PLAYERS)
    hub.submit("t1", {"kind": "lag", "winner": 0})

    def declare(ball: int, pocket: int) -> None:
        hub.submit("t1", {"kind": "declare", "ball": ball, "pocket": pocket})

    def identify(ball: int) -> None:
        """The referee answers the panel's question: which ball went into the pocket (classic 5.1)."""

        def asked() -> list[dict[str, Any]]:
            return [q for q in hub.state("t1")["match"]["questions"] if q["action"] == "identify"]

        wait_for(lambda: bool(asked()))
        hub.submit("t1", {"kind": "identify", "item": asked()[0]["item"], "ball": ball})

    play(table, pots, declare, identify if variant in NAMED_ON_BREAK else None)
    wait_for(lambda: hub.stats["accepted"] >= 2 * len(pots))
    assert hub.wait_idle(5)
    hub.submit("t1", {"kind": "close_shot"})  # the referee closes the last shot: everything is committed
    session = hub.session("t1")
    assert session is not None
    got = json.loads(json.dumps(summary_of(session.match)))
    want = engine_summary(variant, pots)
    assert want["over"] and want["winner"] == 0
    assert got == want
    board = hub.state("t1")["match"]
    assert board["winner"] == 0 and board["over"] and board["scores"] == want["scores"]
    assert hub.stats["rejected"] == 0


def write_toml(path: Path, broker: Mosquitto, db: Path) -> Path:
    """The virtual table's luza.toml for `luza serve` (the broker's default reconnect times)."""
    return write_luza_toml(path, broker.url, db, client_id="luza-hub-variants", reconnect_s=None)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_luza_serve_plays_a_full_match(variant: str, mosquitto: Mosquitto, tmp_path: Path) -> None:
    pots = needs_script(variant)
    if any(call is not None for _, call in pots):
        pytest.skip(
            f"{variant!r} needs the referee's calls during play: tests/hub/service/test_control.py plays it "
            "through `luza serve --control` with the calls sent over the control socket"
        )
    db = tmp_path / "luza.db"
    # The referee's part (start the match, the lag) goes through the same Hub code before `luza serve` runs;
    # the referee panel's REST API is a later issue.
    hub = Hub(table_config(mosquitto, db)).start(connect_timeout=5)
    hub.new_match("t1", variant, PLAYERS)
    hub.submit("t1", {"kind": "lag", "winner": 0})
    hub.stop()
    serve = Serve(write_toml(tmp_path / "luza.toml", mosquitto, db))
    try:
        table = VirtualTable(("127.0.0.1", mosquitto.port), tmp_path / "nodes", table="t1", speed=SPEED)
        play(table, pots)
        want = engine_summary(variant, pots)
        wait_for(lambda: retained_state(mosquitto)["match"]["scores"] == want["scores"], 10)
        board = retained_state(mosquitto)["match"]
        assert board["over"] and board["winner"] == 0  # the last shot is still open: provisionally won
    finally:
        serve.stop()
