"""100 points with a control ball through the hub: scripted shots as hub inputs
equal the engine fed directly."""

from __future__ import annotations

from hub.view.build import scoreboard
from shared_rules import Colour, Declaration, InHand, Lag, Match, Pocket, PocketedBall, ShotReport
from tests.hub.tablekit import Kit, session


def call(ball: int, pocket: int) -> tuple[Declaration, ...]:
    return (Declaration(ball, Pocket(pocket)),)


def test_scripted_hundred_match_equals_the_engine_fed_directly() -> None:
    k = Kit()
    s = session(
        "hundred",
        [
            k.ref("lag", 500, winner=0),
            k.strike(1000),  # 1: Ivan breaks; only the safety rule (hundred 2); nothing falls
            k.ref("declare", 10000, ball=7, pocket=3),  # Petr calls 7 into pocket 3 (hundred 4)
            k.strike(20000, seat=1),
            k.pocket(21000, 3),  # 2: the ball in the called pocket is the called ball
            k.ref("declare", 30000, ball=9, pocket=1),
            k.strike(40000, seat=1),
            k.pocket(41000, 1, "ivory", 0.9),
            k.pocket(41300, 5),  # 3: and an extra ball
        ],
    )
    assert scoreboard(s)["scores"] == [0, 7]
    extra = s.assembler.open.pockets[1]  # type: ignore[union-attr]
    q = next(q for q in s.questions if q.kind == "identify")
    assert q.item == extra.id and q.cite == "hundred 3" and "5" in q.options
    assert any(a.kind == "pocket_mismatch" for a in s.alerts)  # pocket 5 was not called
    board = scoreboard(s)  # the engine holds the open shot for the number (all balls are white, hundred 3)
    assert board["mode"] == "held" and board["scores"] == [0, 7] and s.status == "held"
    assert [n["kind"] for n in board["needs"]] == ["ball_number"] and board["needs"][0]["pocket"] == 5
    assert not any(a.kind == "engine_error" for a in s.alerts)  # the question says it
    for inp in [
        # an extra ball: spotted, does not count (hundred 4)
        k.ref("identify", 45000, item=extra.id, ball=12),
        k.ref("declare", 50000, ball=13, pocket=2),
        # 4: the cue ball falls, not as called (§8)
        k.strike(60000, seat=1),
        k.pocket(61000, 4, "yellow", 0.95),
        k.strike(80000, seat=0),  # 5: Ivan, in hand anywhere (hundred 16)
        k.ref("declare", 80500, ball=14, pocket=6, shot="current"),  # the call, tapped just after the stroke
        k.pocket(81000, 6),
        k.ref("close_shot", 90000),
    ]:
        s.apply(inp)

    m = Match.new("hundred", players=("Ivan", "Petr"))
    for inp in [
        Lag(0),
        ShotReport(0),
        ShotReport(1, declarations=call(7, 3), pocketed=(PocketedBall(Pocket(3), 7),)),
        ShotReport(
            1,
            declarations=call(9, 1),
            pocketed=(PocketedBall(Pocket(1), 9, Colour.IVORY), PocketedBall(Pocket(5), 12)),
        ),
        ShotReport(1, declarations=call(13, 2), pocketed=(PocketedBall(Pocket(4), 0, Colour.YELLOW),)),
    ]:
        m.play(inp)
    assert m.state.in_hand is InHand.ANYWHERE and m.state.to_play == 0
    m.play(ShotReport(0, declarations=call(14, 6), pocketed=(PocketedBall(Pocket(6), 14),)))
    assert s.match.history == m.history and s.match.state == m.state
    assert scoreboard(s)["scores"] == list(m.state.scores) == [14, 16]


def test_the_call_is_asked_for_before_the_shot() -> None:
    k = Kit()
    s = session("hundred", [k.ref("lag", 500, winner=0), k.strike(1000), k.strike(20000)])
    decl = [q for q in s.questions if q.kind == "declaration"]
    assert decl and decl[0].action == "declare" and decl[0].shot == 2  # the open shot has no call
    s.apply(k.ref("declare", 20500, ball=8, pocket=2, shot="current"))
    assert not [q for q in s.questions if q.kind == "declaration" and q.shot == 2]
