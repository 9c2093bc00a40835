"""Full matches of each variant, played by virtual nodes (the real firmware logic on CPython) through a real
Mosquitto into the hub: the result is the right one, and the hub's committed match equals the rules engine fed
the same facts directly. Then the same through `luza serve` in its own process.

Each script is one player potting a ball a shot until the match is won (a potting player plays on in these
variants), with the colours the variant needs (Star: the player's colour sequence, 4.1).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hub import config
from hub.service import Hub
from hub.virtual.table import Pot, Shot, VirtualTable
from shared_rules import VARIANTS, Match
from shared_rules.model import Colour, Lag, Pocket, PocketedBall, ShotReport
from tests.hub.test_faults import Serve, retained_state
from tests.hub.test_service import wait_for
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto

PLAYERS = ("Ivan", "Petr")
SPEED = 10.0  # virtual time runs ten times faster than the wall clock
SHOT_GAP_MS = 4000.0
# variant -> the colours of the balls player "a" pots, one per shot, until the match is won
SCRIPTS: dict[str, list[str]] = {
    "free": ["ivory"] * 8,
    "combined": ["ivory"] * 8,
    "dynamic": ["ivory"] * 8,
    "star": ["blue", "yellow", "black", "green", "red", "blue", "yellow", "black"],  # star 4.1
}
VARIANT_NAMES = sorted(VARIANTS)


def table_config(broker: Mosquitto, db: Path) -> config.Config:
    return config.parse({
        "broker": {"url": broker.url, "client_id": "luza-hub-variants", "reconnect_min_s": 1, "reconnect_max_s": 1},
        "store": {"path": str(db)},
        "tables": [{"id": "t1", "pockets": {"pockets-123": [1, 2, 3], "pockets-456": [4, 5, 6]},
                    "cues": {"cue-a": 0, "cue-b": 1}}],
    })


def script(colours: list[str]) -> list[Shot]:
    return [Shot(i * SHOT_GAP_MS, "a", balls=(Pot(1 + i % 6, 800, colour),)) for i, colour in enumerate(colours)]


def engine_summary(variant: str, colours: list[str]) -> dict[str, Any]:
    """The rules engine fed the same facts by hand: the lag, then seat 0 pots one ball a shot."""
    m = Match.new(variant, players=PLAYERS)
    m.play(Lag(0))
    for i, colour in enumerate(colours):
        m.play(ShotReport(shooter=0, pocketed=(PocketedBall(Pocket(1 + i % 6), colour=Colour(colour)),)))
    return json.loads(json.dumps(m.summary()))


def play(table: VirtualTable, shots: list[Shot]) -> None:
    async def run() -> None:
        await table.start()
        await asyncio.sleep(0.3)  # the hub's time exchange on each birth
        await table.play(shots)
        await table.stop()

    asyncio.run(run())


def needs_script(variant: str) -> list[str]:
    if variant not in SCRIPTS:
        pytest.skip(f"no end-to-end script for {variant!r} yet (added when the variant lands)")
    return SCRIPTS[variant]


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_virtual_nodes_play_a_match_to_the_engines_result(variant: str, mosquitto: Mosquitto, tmp_path: Path,
                                                          hubs: Callable[..., Hub]) -> None:
    colours = needs_script(variant)
    table = VirtualTable(("127.0.0.1", mosquitto.port), tmp_path / "nodes", table="t1", speed=SPEED)
    hub = hubs(table_config(mosquitto, tmp_path / "luza.db"), clock=table.vt.hub_ms)
    hub.new_match("t1", variant, PLAYERS)
    hub.submit("t1", {"kind": "lag", "winner": 0})
    play(table, script(colours))
    wait_for(lambda: hub.stats["accepted"] >= 2 * len(colours))
    assert hub.wait_idle(5)
    hub.submit("t1", {"kind": "close_shot"})  # the referee closes the last shot: everything is committed
    session = hub.session("t1")
    assert session is not None
    got = json.loads(json.dumps(session.match.summary()))
    want = engine_summary(variant, colours)
    assert want["over"] and want["winner"] == 0
    assert got == want
    board = hub.state("t1")["match"]
    assert board["winner"] == 0 and board["over"] and board["scores"] == want["scores"]
    assert hub.stats["rejected"] == 0


def write_toml(path: Path, broker: Mosquitto, db: Path) -> Path:
    path.write_text(f"""
[broker]
url = "{broker.url}"
client_id = "luza-hub-variants"

[store]
path = "{db}"

[[tables]]
id = "t1"
pockets = {{ pockets-123 = [1, 2, 3], pockets-456 = [4, 5, 6] }}
cues = {{ cue-a = 0, cue-b = 1 }}
""")
    return path


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_luza_serve_plays_a_full_match(variant: str, mosquitto: Mosquitto, tmp_path: Path) -> None:
    colours = needs_script(variant)
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
        play(table, script(colours))
        want = engine_summary(variant, colours)
        wait_for(lambda: retained_state(mosquitto)["match"]["scores"] == want["scores"], 10)
        board = retained_state(mosquitto)["match"]
        assert board["over"] and board["winner"] == 0  # the last shot is still open: provisionally won
    finally:
        serve.stop()
