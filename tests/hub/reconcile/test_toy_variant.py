"""A seventh variant plays through the hub with no change to hub code (issue 13 item 1): the hub asks the
variant's profile and hooks (shared_rules.profile) and never its name.

The toy (tests/hub/toy_variant.py) tells balls apart by number, has a fixed cue ball and calls before each
shot, so the hub must ask for calls and ball numbers, name the single ball in a called pocket, and cite the
toy's own paragraphs for identity (toy 2), a call mismatch (toy 3) and the cue ball seen in a pocket (toy 4).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.service.hub import Hub
from hub.view.build import match_view, scoreboard
from hub.view.engine import engine_summary
from hub.virtual.table import Pot, Shot, VirtualTable
from shared_rules import Match
from shared_rules.model import Colour, Declaration, Lag, Pocket, PocketedBall, ShotReport
from tests.hub import toy_variant
from tests.hub.reconcile.test_variants import PLAYERS, SPEED, table_config
from tests.hub.service.test_service import wait_for
from tests.hub.tablekit import Kit, item, session
from tests.support.broker import Mosquitto

NAME = toy_variant.NAME


@pytest.fixture
def toy() -> Iterator[type[toy_variant.Toy]]:
    with toy_variant.registered() as cls:
        yield cls


def engine(*shots: ShotReport) -> Match:
    """The rules engine fed the same facts by hand."""
    m = Match.new(NAME, players=PLAYERS)
    m.play(Lag(0))
    for s in shots:
        m.play(s)
    return m


def call(ball: int, pocket: int) -> tuple[Declaration, ...]:
    return (Declaration(ball, Pocket(pocket)),)


def test_the_session_asks_and_cites_what_the_toy_profile_says(toy: type) -> None:
    k = Kit()
    # a second ball, in a pocket nobody called: only the referee knows its number
    unknown = k.pocket(21200, 3)
    s = session(NAME, [k.ref("lag", 500, winner=0)])
    assert [q.kind for q in s.questions] == ["declaration"]  # the toy's need: a call before the break too
    for inp in [
        k.ref("declare", 900, ball=6, pocket=1),
        k.strike(1000),
        k.pocket(1800, 1),  # 6 as called
        k.ref("declare", 19000, ball=4, pocket=2),
        k.strike(20000),
        k.pocket(21000, 2),
        unknown,
    ]:
        s.apply(inp)
    q = next(q for q in s.questions if q.kind == "identify")
    assert q.item == item(unknown) and q.cite == "toy 2" and q.options == ("0", "1", "2", "3", "4", "5")
    mismatch = next(a for a in s.alerts if a.kind == "pocket_mismatch")
    assert mismatch.cite == "toy 3" and not any(a.kind == "engine_error" for a in s.alerts)
    board = scoreboard(s)
    assert board["mode"] == "held" and board["needs"][0]["kind"] == "ball_number"  # the engine holds the shot
    assert s.status == "held"
    s.apply(k.ref("identify", 22000, item=item(unknown), ball=1))
    s.apply(k.ref("close_shot", 30000))
    want = engine(
        ShotReport(0, declarations=call(6, 1), pocketed=(PocketedBall(Pocket(1), 6),)),
        ShotReport(
            0, declarations=call(4, 2), pocketed=(PocketedBall(Pocket(2), 4), PocketedBall(Pocket(3), 1))
        ),
    )
    assert s.match.history == want.history and s.match.state == want.state and want.state.winner == 0
    shown = match_view(s).model_dump(mode="json")
    assert shown[NAME] == {"left": 2 + 3 + 5} and shown["balls"]["6"] == {
        "colour": "ivory",
        "value": 6,
        "label": "6",
    }


def test_the_cue_ball_seen_in_a_pocket_cites_the_toy(toy: type) -> None:
    k = Kit()
    s = session(
        NAME,
        [
            k.ref("lag", 500, winner=0),
            k.ref("declare", 900, ball=6, pocket=1),
            k.strike(1000),
            k.pocket(1800, 4, "yellow", 0.95),
        ],
    )
    seen = next(a for a in s.alerts if a.kind == "cue_ball_seen")
    assert seen.cite == "toy 4" and scoreboard(s)["mode"] != "held"  # the yellow names ball 0: nothing to ask


@pytest.mark.mosquitto
def test_virtual_nodes_play_the_toy_to_the_engines_result(
    toy: type, mosquitto: Mosquitto, tmp_path: Path, hubs: Callable[..., Hub]
) -> None:
    """Through real Mosquitto, the Hub service and its SQLite store: calls and a number named on the panel."""
    table = VirtualTable(("127.0.0.1", mosquitto.port), tmp_path / "nodes", table="t1", speed=SPEED)
    hub = hubs(table_config(mosquitto, tmp_path / "luza.db"), clock=table.vt.hub_ms)
    hub.new_match("t1", NAME, PLAYERS)
    hub.submit("t1", {"kind": "lag", "winner": 0})

    def questions() -> list[dict[str, Any]]:
        return list(hub.state("t1")["match"]["questions"])

    async def run() -> None:
        await table.start()
        await table.synced()
        for ball, pocket, extra in ((6, 1, None), (4, 2, 3)):  # the second shot: another ball into pocket 3
            await asyncio.to_thread(hub.submit, "t1", {"kind": "declare", "ball": ball, "pocket": pocket})
            # the shot a while after the call: the nodes' clocks trail the hub's by the time command's transit
            # (virtual time multiplies it by SPEED), and a strike dated before the call would not carry it
            await table.vt.until(table.vt.ms() + 4000)
            start = table.vt.ms()
            pots = (Pot(pocket, 800, "ivory"), *((Pot(extra, 900, "ivory"),) if extra else ()))
            await table.play([Shot(0, "a", balls=pots)])
            await table.vt.until(start + 4000)
        await table.stop()

    asyncio.run(run())
    wait_for(lambda: hub.stats["accepted"] >= 5)  # two strikes and three balls: every sensor event is in
    assert hub.wait_idle(5)
    wait_for(lambda: any(q["action"] == "identify" for q in questions()))
    q = next(q for q in questions() if q["action"] == "identify")
    assert q["cite"] == "toy 2" and "1" in q["options"]
    hub.submit("t1", {"kind": "identify", "item": q["item"], "ball": 1})
    hub.submit("t1", {"kind": "close_shot"})
    assert hub.wait_idle(5)
    session = hub.session("t1")
    assert session is not None
    want = engine(
        ShotReport(0, declarations=call(6, 1), pocketed=(PocketedBall(Pocket(1), 6, Colour.IVORY),)),
        ShotReport(
            0,
            declarations=call(4, 2),
            pocketed=(PocketedBall(Pocket(2), 4, Colour.IVORY), PocketedBall(Pocket(3), 1, Colour.IVORY)),
        ),
    )
    assert json.loads(json.dumps(engine_summary(session.match))) == json.loads(
        json.dumps(engine_summary(want))
    )
    board = hub.state("t1")["match"]
    assert (
        board["over"] and board["winner"] == 0 and board["scores"] == [11, 0] and board[NAME] == {"left": 10}
    )
    assert hub.stats["rejected"] == 0


@pytest.mark.mosquitto
def test_luza_demo_plays_the_toy_to_a_result(toy: type, tmp_path: Path) -> None:
    """`luza demo`'s scripted players and referee ask the engine what the toy wants (its call need, the balls
    that would score, the questions) and play it to a winner citing the toy's own goal (toy 1)."""
    from hub.demo.terminal import run_demo

    lines: list[str] = []
    result = run_demo(NAME, speed=25.0, seed=3, workdir=str(tmp_path), out=lines.append)
    assert result.over and result.problem is None and max(result.scores) >= 10
    assert any("toy 1" in line for line in lines) and any("toy 3" in line for line in lines)
