"""Dynamic pyramid through the hub: scripted shots as hub inputs give the match the engine gives directly."""

from __future__ import annotations

from hub.view.build import scoreboard
from shared_rules import Choose, Colour, Foul, InHand, Lag, Match, Pocket, PocketedBall, ShotReport
from tests.hub.tablekit import Kit, session

IVORY, YELLOW = Colour.IVORY, Colour.YELLOW


def test_scripted_dynamic_match_equals_the_engine_fed_directly() -> None:
    k = Kit()
    s = session(
        "dynamic",
        [
            k.ref("lag", 500, winner=0),
            k.strike(1000),  # 1: Ivan breaks, nothing falls
            # 2: Petr
            k.strike(20000, seat=1),
            k.pocket(21000, 4, "ivory", 0.9),
            k.pocket(21500, 1, "yellow", 0.9),
            k.ref("choose", 24000, player=1, option="take_ball", ball=5),  # dynamic 5.2
        ],
    )
    assert s.match.state.in_hand is InHand.ANYWHERE and s.match.state.hand_rule == "objects_only"
    for inp in [
        k.strike(40000, seat=1),
        k.pocket(41000, 2, "yellow", 0.9),  # 3: premium shot, the yellow falls again
        k.strike(60000, seat=0),  # 4: Ivan, in hand anywhere (dynamic 5.2), misses
        k.ref("foul", 63000, foul="miss"),
    ]:
        s.apply(inp)
    q = next(q for q in s.questions if q.kind == "choice")
    assert q.player == 1 and q.options == ("take_ball", "penalty_shot")  # dynamic 7
    for inp in [
        k.ref("choose", 66000, player=1, option="penalty_shot"),
        k.strike(80000, seat=1),
        k.pocket(81000, 3, "ivory", 0.9),  # 5: the penalty shot, a ball falls
        k.ref("close_shot", 90000),
    ]:
        s.apply(inp)

    m = Match.new("dynamic", players=("Ivan", "Petr"))
    for inp in [
        Lag(0),
        ShotReport(0),
        ShotReport(1, pocketed=(PocketedBall(Pocket(4), None, IVORY), PocketedBall(Pocket(1), 0, YELLOW))),
        Choose(1, "take_ball", 5),
        ShotReport(1, pocketed=(PocketedBall(Pocket(2), 0, YELLOW),)),
        ShotReport(0, fouls=frozenset({Foul.MISS})),
        Choose(1, "penalty_shot"),
        ShotReport(1, pocketed=(PocketedBall(Pocket(3), None, IVORY),)),
    ]:
        m.play(inp)
    assert s.match.history == m.history and s.match.state == m.state
    assert scoreboard(s)["scores"] == list(m.state.scores)
