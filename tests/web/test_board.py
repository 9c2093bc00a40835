"""hub.view.screen: the scoreboard a screen shows without knowing the rules,
checked against the engine's facts."""

from __future__ import annotations

from hub.service.hub import Hub
from hub.view.build import match_view, scoreboard, stored
from hub.view.match import MatchView
from tests.export.matchkit import PLAYERS, Table, play_classic, play_hundred
from tests.hub.tablekit import Kit, session


def test_classic_balls_values_history_and_undo(hub: Hub, table: Table) -> None:
    play_classic(table, finish=False)
    board = hub.state("t1")["match"]
    assert board["balls"]["1"] == {"colour": "ivory", "value": 11, "label": "1"}  # classic 5.1: the ace is 11
    assert board["balls"]["0"]["colour"] == "yellow" and board["balls"]["15"]["value"] == 15
    assert board["points_left"] == sum(11 if b == 1 else b for b in board["on_table"] if b)
    assert board["target"] == 71 and board["to_win"] == [max(0, 71 - s) for s in board["scores"]]
    assert board["classic"] == {"decider": False, "decider_ball": None, "bonus_given": False}
    assert board["star"] is None and board["hundred"] is None
    last = board["history"][-1]
    assert last["kind"] == "shot" and last["scores"] == board["committed_scores"]
    n = board["shot"]["number"]  # undo takes back the latest step: here the shot being played
    assert board["undo"] == {"number": n, "kind": "shot", "en": f"Undo shot {n}", "ru": f"Отменить удар {n}"}
    assert board["clock"]["started_ms"] is not None and board["clock"]["ended_ms"] is None
    assert sum(board["deltas"]) == sum(e["amount"] for e in board["effects"] if e["kind"] == "score")
    assert all(e["cite"].startswith(("classic", "general")) for e in board["effects"])


def test_a_question_carries_labelled_choices_and_its_balls(hub: Hub, table: Table) -> None:
    hub.new_match("t1", "classic", PLAYERS)
    table.ref("lag", winner=0)
    table.wait(5000)
    table.shot(0, [5])  # the break, no call: which ball fell? (classic 5.1)
    hub.wait_idle()
    q = next(q for q in hub.state("t1")["match"]["questions"] if q["action"] == "identify")
    assert q["cite"] == "classic 5.1"
    assert q["balls"] == [int(o) for o in q["options"]] and 1 in q["balls"]
    assert {"value": "1", "label": {"en": "Ball 1", "ru": "Шар 1"}} in q["choices"]


def test_hundred_control_ball(hub: Hub, table: Table) -> None:
    play_hundred(table, finish=False)
    board = hub.state("t1")["match"]
    assert board["hundred"]["ten"] in ("table", "off_spot")
    assert board["balls"]["10"]["value"] == 10 and board["balls"]["0"]["value"] == 0  # 100 points §3
    assert board["target"] == 51


def test_star_next_colour_and_sequences() -> None:
    k = Kit()
    s = session(
        "star",
        [
            k.ref("lag", 500, winner=0),
            k.strike(1000),
            k.pocket(2000, 1, "blue", 0.9),
            k.ref("close_shot", 9000),
        ],
    )
    board = match_view(s).model_dump(mode="json")
    star = board["star"]
    assert star["sequences"][0][:5] == ["blue", "yellow", "black", "green", "red"]  # star 4.1
    assert star["next"][0] == star["sequences"][0][board["scores"][0]]
    assert board["balls"]["0"] == {"colour": "ivory", "value": 0, "label": "J"}  # the joker
    assert board["balls"]["4"]["colour"] == "blue"  # A-S1: rack position 4 is blue


def test_plain_gives_back_the_stored_scoreboard(hub: Hub, table: Table) -> None:
    play_classic(table, finish=False)
    session_board = scoreboard(hub.session("t1"))  # type: ignore[union-attr]
    assert stored(MatchView.model_validate(hub.state("t1")["match"])) == session_board


def test_a_choice_question_names_the_balls_it_may_take() -> None:
    k = Kit()
    s = session(
        "star",
        [
            k.ref("lag", 500, winner=0),
            k.strike(1000),
            k.pocket(2000, 1, "blue", 0.9),
            k.pocket(2200, 2, "red", 0.9),
            k.ref("fact", 10000, name="cue_colour", value="yellow", shot="next"),
            k.strike(20000),
            k.pocket(21000, 3, "yellow", 0.9),
            k.ref("fact", 30000, name="cue_colour", value="green", shot="next"),
            k.ref("fact", 30500, name="first_contact_colour", value="red", shot="next"),
            k.strike(
                40000
            ),  # a green cue ball that hit a red first: foul (star 4.3), the opponent chooses (5.1)
        ],
    )
    board = match_view(s).model_dump(mode="json")
    q = next(q for q in board["questions"] if q["kind"] == "choice")
    need = next(n for n in board["needs"] if n["kind"] == "choice")
    assert q["balls"] == need["balls"] and q["balls"]
    assert [c["value"] for c in q["choices"]] == ["take_ball", "give_back"]
    assert q["choices"][0]["label"] == {"en": "Take a ball", "ru": "Взять шар"}


def test_banners_read_the_engines_own_state_keys() -> None:
    from shared_rules import Match
    from shared_rules.classic import DECIDER
    from shared_rules.hundred_input import LAST_BALL, OFF_SPOT, PRIVILEGE, TEN

    _classic, _hundred = Match.new("classic").variant.board_facts, Match.new("hundred").variant.board_facts
    classic = Match.new("classic").state._replace(extra=((DECIDER, 7),))
    assert _classic(classic) == {"decider": True, "decider_ball": 7, "bonus_given": False}  # classic 5.7
    hundred = Match.new("hundred").state
    assert TEN in hundred.on_table and _hundred(hundred)["ten"] == "table"
    moved = hundred._replace(extra=((OFF_SPOT, True), (PRIVILEGE, True)), to_play=1, mode=LAST_BALL)
    assert _hundred(moved) == {
        "ten": "off_spot",
        "privilege": True,
        "control_ball": 1,
        "last_ball": True,
        "restricted": False,
    }  # 100 points §11, §14, §20
