"""Star pyramid through the hub: colours from the pocket sensors, the referee's facts, the penalty choice."""

from __future__ import annotations

import pytest

from hub.view.build import scoreboard
from shared_rules import VARIANTS, Choose, Colour, Lag, Match, Pocket, PocketedBall, ShotReport
from tests.hub.tablekit import Kit, session

PB = PocketedBall
pytestmark = pytest.mark.skipif("star" not in VARIANTS, reason="the Star variant is not in the engine yet")


def test_scripted_star_match_equals_the_engine_fed_directly() -> None:
    k = Kit()
    s = session(
        "star",
        [
            k.ref("lag", 500, winner=0),
            k.strike(1000),
            k.pocket(2000, 1, "blue", 0.9),
            k.pocket(2200, 2, "red", 0.9),  # 1: the break (4.2.1)
            k.ref("fact", 10000, name="cue_colour", value="yellow", shot="next"),  # 4.3: the ball struck
            k.strike(20000),
            k.pocket(21000, 3, "yellow", 0.9),  # 2: Ivan's yellow
            k.ref("fact", 30000, name="cue_colour", value="green", shot="next"),
            k.ref("fact", 30500, name="first_contact_colour", value="red", shot="next"),
            k.strike(40000),  # 3: a green cue ball that hit a red first: foul (star 4.3)
        ],
    )
    q = next(q for q in s.questions if q.kind == "choice")
    assert q.player == 1 and q.options == ("take_ball", "give_back")  # star 5.1
    for inp in [
        k.ref("choose", 45000, player=1, option="take_ball", ball=4),
        k.strike(60000, seat=1),
        k.pocket(61000, 5),  # 4: no colour reading in pocket 5
    ]:
        s.apply(inp)
    unknown = s.assembler.open.pockets[0]  # type: ignore[union-attr]
    q = next(q for q in s.questions if q.kind == "identify_colour")
    assert q.item == unknown.id and q.cite == "star 4.1"
    s.apply(k.ref("identify", 62000, item=unknown.id, colour="ivory"))  # the joker (A-S5)
    s.apply(k.ref("close_shot", 70000))

    m = Match.new("star", players=("Ivan", "Petr"))
    for inp in [
        Lag(0),
        ShotReport(0, pocketed=(PB(Pocket(1), None, Colour.BLUE), PB(Pocket(2), None, Colour.RED))),
        ShotReport(0, cue_colour=Colour.YELLOW, pocketed=(PB(Pocket(3), None, Colour.YELLOW),)),
        ShotReport(0, cue_colour=Colour.GREEN, first_contact_colour=Colour.RED),
        Choose(1, "take_ball", 4),
        ShotReport(1, pocketed=(PB(Pocket(5), 0, Colour.IVORY),)),
    ]:
        m.play(inp)
    assert s.match.history == m.history and s.match.state == m.state
    assert scoreboard(s)["scores"] == list(m.state.scores) == [2, 2]
