"""Free pyramid through the hub: scripted shots as hub inputs give the match the engine
gives for the same facts."""

from __future__ import annotations

from hub.view.build import scoreboard
from shared_rules import Choose, Colour, Foul, Lag, Match, Pocket, PocketedBall, ShotReport
from tests.hub.tablekit import Kit, item, session


def script(k: Kit) -> list:  # type: ignore[type-arg]
    return [
        k.ref("lag", 500, winner=0),
        k.strike(1000),  # 1: Ivan breaks
        k.pocket(2500, 5, "ivory", 0.95),
        k.strike(20000),  # 2: Ivan again (a ball fell)
        k.pocket(22000, 2),  # no colour sensor in pocket 2
        k.pocket(22500, 6, "yellow", 0.9),  # the coloured ball counts like any other (free 5.4)
        k.strike(40000),  # 3: nothing falls: the turn passes (free 5.3)
        k.strike(60000, seat=1),  # 4: Petr
        k.ref("foul", 65000, foul="miss"),  # general 5.3: only the referee sees a miss
        k.ref("choose", 70000, player=0, option="take_ball", ball=7),  # free 7: Ivan's penalty ball
        k.strike(80000, seat=0),  # 5: Ivan
        k.pocket(82000, 3),
        k.ref("close_shot", 90000),
    ]


def direct() -> Match:
    m = Match.new("free", players=("Ivan", "Petr"))
    for inp in [
        Lag(0),
        ShotReport(0, pocketed=(PocketedBall(Pocket(5), None, Colour.IVORY),)),
        ShotReport(0, pocketed=(PocketedBall(Pocket(2)), PocketedBall(Pocket(6), 0, Colour.YELLOW))),
        ShotReport(0),
        ShotReport(1, fouls=frozenset({Foul.MISS})),
        Choose(0, "take_ball", 7),
        ShotReport(0, pocketed=(PocketedBall(Pocket(3)),)),
    ]:
        m.play(inp)
    return m


def test_scripted_free_match_equals_the_engine_fed_directly() -> None:
    s = session("free", script(Kit()))
    m = direct()
    assert s.match.history == m.history
    assert s.match.state == m.state
    assert s.match.state.scores == (5, 0)
    board = scoreboard(s)
    assert board["scores"] == [5, 0] and board["status"] == "live" and board["provisional"] is False
    assert board["shot_count"] == 5 and board["shot"]["status"] == "ok"


def test_the_open_shot_is_provisional_until_the_next_strike() -> None:
    k = Kit()
    s = session("free", [k.ref("lag", 500, winner=0), k.strike(1000), k.pocket(2500, 5, "ivory")])
    board = scoreboard(s)
    assert board["provisional"] is True
    assert board["scores"] == [1, 0] and board["committed_scores"] == [0, 0]
    assert board["shot"]["pocketed"][0]["seen"] == "ivory" and board["shot"]["status"] == "open"
    s.apply(k.strike(30000))
    board = scoreboard(s)
    assert board["committed_scores"] == [1, 0] and board["scores"] == [1, 0]
    assert len(s.match.history) == 2  # Lag + the break


def test_a_foul_asks_for_the_penalty_ball_and_the_choice_commits_the_shot() -> None:
    k = Kit()
    s = session("free", [k.ref("lag", 500, winner=0), k.strike(1000), k.ref("foul", 4000, foul="miss")])
    needs = [q for q in s.questions if q.kind == "choice"]
    assert len(needs) == 1 and needs[0].player == 1 and needs[0].action == "choose"
    s.apply(k.ref("choose", 6000, player=1, option="take_ball", ball=3))
    assert s.match.state.scores == (0, 1) and [q for q in s.questions if q.kind == "choice"] == []
    assert s.assembler.open is None  # the choice ended the shot


def test_a_choice_entered_after_the_next_strike_goes_before_that_shot() -> None:
    k = Kit()
    s = session(
        "free",
        [
            k.ref("lag", 500, winner=0),
            k.strike(1000),
            k.ref("foul", 4000, foul="miss"),
            k.strike(20000, seat=1),
        ],
    )  # Petr strikes before the referee entered his choice
    assert scoreboard(s)["provisional"] is False  # the open shot cannot be played before the choice
    s.apply(k.ref("choose", 21000, player=1, option="take_ball", ball=3))
    m = Match.new("free", players=("Ivan", "Petr"))
    for inp in [Lag(0), ShotReport(0, fouls=frozenset({Foul.MISS})), Choose(1, "take_ball", 3)]:
        m.play(inp)
    assert s.match.history == m.history
    assert scoreboard(s)["provisional"] is True  # Petr's open shot is played on top


def test_strike_from_the_other_players_cue_is_a_28_question() -> None:
    k = Kit()
    strike = k.strike(1000, seat=1)
    s = session("free", [k.ref("lag", 500, winner=0), strike])
    q = next(q for q in s.questions if q.kind == "out_of_turn")
    assert q.id == f"out_of_turn:{item(strike)}" and q.options == ("foul", "no_foul") and "Petr" in q.en
    assert [a.kind for a in s.alerts] == ["strike_out_of_turn"]
    s.apply(k.ref("confirm", 3000, question=q.id, answer="foul"))
    s.apply(k.ref("close_shot", 5000))
    played = s.match.history[-1]
    assert (
        isinstance(played, ShotReport)
        and played.fouls == frozenset({Foul.INTERFERENCE})
        and played.offender == 1
    )
    assert not [q for q in s.questions if q.kind == "out_of_turn"]
