"""Combined pyramid through the hub: scripted shots as hub inputs give the match the engine gives directly."""

from __future__ import annotations

from hub.view.build import scoreboard
from shared_rules import Choose, Colour, Foul, InHand, Lag, Match, Pocket, PocketedBall, ShotReport
from tests.hub.tablekit import Kit, item, session

IVORY, YELLOW = Colour.IVORY, Colour.YELLOW


def test_scripted_combined_match_equals_the_engine_fed_directly() -> None:
    k = Kit()
    s = session(
        "combined",
        [
            k.ref("lag", 500, winner=0),
            k.strike(1000),
            k.pocket(2500, 5, "ivory", 0.9),  # 1: the break, a ball falls: Ivan again
            # 2: свояк + чужой
            k.strike(20000),
            k.pocket(21000, 6, "yellow", 0.95),
            k.pocket(21200, 2, "ivory", 0.9),
        ],
    )
    assert any(a.kind == "cue_ball_seen" and a.cite == "combined 5.2" for a in s.alerts)
    choice = next(q for q in s.questions if q.kind == "choice")
    assert choice.player == 0 and choice.action == "choose"  # combined 5.2: take a ball for the cue ball
    for inp in [
        k.ref("choose", 25000, player=0, option="take_ball", ball=9),
        k.strike(40000),  # 3: the premium shot from the house; nothing falls
        k.strike(60000, seat=1),  # 4: Petr touches a ball and the yellow falls
        k.pocket(61000, 3, "yellow", 0.95),
        k.ref("foul", 62000, foul="touch"),
        k.ref("choose", 65000, player=0, option="take_ball", ball=12),  # combined 7: Ivan's penalty ball
    ]:
        s.apply(inp)
    assert s.match.state.in_hand is InHand.HOUSE and s.match.state.to_play == 0  # combined 7: from the house
    s.apply(k.strike(80000))
    s.apply(k.pocket(81000, 1, "ivory", 0.9))
    s.apply(k.ref("close_shot", 90000))

    m = Match.new("combined", players=("Ivan", "Petr"))
    for inp in [
        Lag(0),
        ShotReport(0, pocketed=(PocketedBall(Pocket(5), None, IVORY),)),
        ShotReport(0, pocketed=(PocketedBall(Pocket(6), 0, YELLOW), PocketedBall(Pocket(2), None, IVORY))),
        Choose(0, "take_ball", 9),
        ShotReport(0),
        ShotReport(1, pocketed=(PocketedBall(Pocket(3), 0, YELLOW),), fouls=frozenset({Foul.TOUCH})),
        Choose(0, "take_ball", 12),
        ShotReport(0, pocketed=(PocketedBall(Pocket(1), None, IVORY),)),
    ]:
        m.play(inp)
    assert s.match.history == m.history and s.match.state == m.state
    assert scoreboard(s)["scores"] == list(m.state.scores) == [5, 0]


def test_an_unsure_yellow_counts_as_ivory_until_the_referee_identifies_it() -> None:
    k = Kit()
    unsure = k.pocket(21000, 6, "yellow", 0.4)  # below the colour confidence threshold
    s = session(
        "combined",
        [
            k.ref("lag", 500, winner=0),
            k.strike(1000),
            k.pocket(2000, 5),
            k.strike(20000),
            unsure,
            k.strike(40000),
        ],
    )
    shot2 = s.match.history[2]
    assert isinstance(shot2, ShotReport) and shot2.pocketed == (PocketedBall(Pocket(6)),)
    assert s.match.state.scores == (2, 0) and not any(q.kind == "choice" for q in s.questions)
    s.apply(k.ref("identify", 41000, item=item(unsure), ball=0))  # it was the yellow: shot 2 is judged again
    shot2 = s.match.history[2]
    assert isinstance(shot2, ShotReport) and shot2.pocketed == (PocketedBall(Pocket(6), 0),)
    assert s.status == "held" and any(q.kind == "choice" for q in s.questions)  # combined 5.2 now applies
    assert s.match.state.pending is not None and s.match.state.pending.player == 0
    s.apply(k.ref("choose", 42000, player=0, option="take_ball", ball=9))  # goes before the waiting shot 3
    assert isinstance(s.match.history[3], Choose) and scoreboard(s)["provisional"] is True
    assert s.match.state.in_hand is InHand.HOUSE  # shot 3 is the premium shot from the house


def test_a_shot_the_engine_refuses_holds_scoring_until_the_referee_corrects_it() -> None:
    k = Kit()
    misread = k.pocket(2100, 2, "yellow", 0.9)  # a second "yellow": one reading is wrong
    s = session(
        "combined",
        [
            k.ref("lag", 500, winner=0),
            k.strike(1000),
            k.pocket(2000, 1, "yellow", 0.9),
            misread,
            k.strike(20000),
            k.pocket(21000, 3, "ivory"),
            k.strike(40000),
        ],
    )
    assert s.status == "held" and s.match.history == (Lag(0),)  # shot 1 cannot be scored; 2 and 3 wait
    alert = next(a for a in s.alerts if a.kind == "engine_error")
    assert alert.shot == 1 and alert.severity == "error" and "twice" in alert.en
    s.apply(k.ref("identify", 41000, item=item(misread), colour="ivory"))
    assert not any(a.kind == "engine_error" for a in s.alerts)
    assert s.status == "held" and [q.kind for q in s.questions if q.action == "choose"] == ["choice"]  # 5.2
    s.apply(k.ref("choose", 42000, player=0, option="take_ball", ball=9))
    assert s.status == "live" and len(s.match.history) == 4 and scoreboard(s)["provisional"] is True
    again = session("combined", sorted(s.log, key=lambda i: i.at_ms))
    assert again.match.history == s.match.history


def test_a_lag_entered_after_the_break_goes_before_it() -> None:
    k = Kit()
    s = session("combined", [k.strike(1000), k.pocket(2000, 4, "ivory")])
    assert any(q.kind == "lag" for q in s.questions) and scoreboard(s)["provisional"] is False
    s.apply(k.ref("lag", 5000, winner=1))  # Petr won the lag and broke; the referee was late to enter it
    assert s.match.history == (Lag(1),) and scoreboard(s)["scores"] == [0, 1]
