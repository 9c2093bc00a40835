"""Referee actions: validation with errors a person can act on, the record codec,
and their effect on a session."""

from __future__ import annotations

import json

import pytest

from hub.view.build import scoreboard
from hub.vocab.checks import RefereeInputError
from hub.vocab.inputs import (
    RecordError,
    RefereeAction,
    input_from_record,
    input_to_record,
    parse_referee_action,
)
from hub.vocab.referee import ACTION_KINDS, validate
from shared_rules import Foul, ShotReport
from tests.hub.tablekit import Kit, item, session

# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("kind", "args", "field", "words"),
    [
        ("shout", {}, "kind", "unknown referee action 'shout'"),
        ("foul", {"foul": "elbow"}, "foul", "unknown foul 'elbow'"),
        ("add_ball", {"pocket": 7}, "pocket", "pocket 1..6"),
        ("lag", {"winner": 2}, "winner", "seat 0 or 1"),
        ("lag", {"winner": True}, "winner", "seat 0 or 1"),
        ("identify", {"item": "x"}, "ball", "give the ball number"),
        ("identify", {"item": "x", "ball": 16}, "ball", "0..15"),
        ("declare", {"calls": [{"ball": 1, "pocket": 1}] * 3}, "calls", "at most two"),
        ("declare", {"ball": 3, "pocket": 2, "kind": "sideways"}, "call.kind", "'object' or 'cue_ball'"),
        ("fact", {"name": "spin", "value": 1}, "name", "unknown fact 'spin'"),
        ("fact", {"name": "cushions", "value": -1}, "value", "0..50"),
        ("fact", {"name": "centre_crossing", "value": "yes"}, "value", "true or false"),
        ("confirm", {"question": "q"}, "answer", "answer: missing"),
        ("confirm", {"question": "q", "answer": ""}, "answer", "non-empty text"),
        ("foul", {"foul": "miss", "shot": "yesterday"}, "shot", "'current'"),
        ("new_match", {"variant": "free", "players": ["Ivan"]}, "players", "two player names"),
    ],
)
def test_bad_actions_name_the_field_in_both_languages(kind: str, args: dict, field: str, words: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(RefereeInputError) as exc:
        validate(kind, args)
    assert exc.value.field == field and words in exc.value.en
    assert exc.value.ru and exc.value.ru != exc.value.en


def test_foul_codes_by_name_or_paragraph_and_normalised_args() -> None:
    assert validate("foul", {"foul": "5.3"})["foul"] == "miss"
    assert validate("foul", {"foul": "Double_Hit"}) == {
        "foul": "double_hit",
        "on": True,
        "offender": None,
        "shot": "current",
    }
    assert validate("declare", {"ball": 5, "pocket": 3}) == {
        "calls": [{"ball": 5, "pocket": 3, "kind": "object", "method": ""}],
        "shot": "next",
    }
    assert set(ACTION_KINDS) >= {
        "declare",
        "identify",
        "foul",
        "choose",
        "confirm",
        "close_shot",
        "undo",
        "interference",
        "lag",
        "concede",
        "decide",
        "new_match",
        "end_match",
        "dismiss_alert",
    }


def test_parse_accepts_inline_args_and_a_uid() -> None:
    a = parse_referee_action({"kind": "foul", "foul": "miss", "uid": "tap-1"}, 1234)
    assert a == RefereeAction(
        "foul", {"foul": "miss", "on": True, "offender": None, "shot": "current"}, 1234, "tap-1"
    )
    with pytest.raises(RefereeInputError, match="uid"):
        parse_referee_action({"kind": "undo", "uid": 5}, 0)


def test_records_round_trip_through_json() -> None:
    k = Kit()
    for inp in [
        k.strike(1000, seat=1, double=True),
        k.pocket(2000, 4, "yellow", 0.8),
        k.ref("declare", 3000, uid="u1", calls=[{"ball": 0, "pocket": 2, "kind": "cue_ball"}]),
    ]:
        back = input_from_record(json.loads(json.dumps(input_to_record(inp))))
        assert input_to_record(back) == input_to_record(inp)
        assert type(back) is type(inp) and back.at_ms == inp.at_ms


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ({"type": "gossip"}, "neither"),
        ({"type": "referee", "kind": "foul", "args": {"foul": "nope"}, "at_ms": 1}, "not valid"),
        (
            {
                "type": "sensor",
                "kind": "pocket",
                "device": "pk-1",
                "boot": 1,
                "seq": 1,
                "t": 5,
                "fields": {},
                "role": "pocket",
                "seat": None,
                "at_ms": "soon",
                "received_ms": 5,
            },
            "at_ms",
        ),
        (
            {
                "type": "sensor",
                "kind": "pocket",
                "device": "pk-1",
                "boot": 1,
                "seq": 1,
                "t": 5,
                "fields": {},
                "role": "waiter",
                "seat": None,
                "at_ms": 5,
                "received_ms": 5,
            },
            "role",
        ),
    ],
)
def test_bad_records_raise_record_error(record: dict, words: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(RecordError, match=words):
        input_from_record(record)


# ---------------------------------------------------------------- actions on a session


def board_without_volatile(s) -> dict:  # type: ignore[no-untyped-def, type-arg]
    return json.loads(json.dumps(scoreboard(s)))


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (RefereeAction("close_shot", {}, 30000), "no shot is open"),
        (RefereeAction("identify", {"item": "pk-9/1/1", "ball": 3}, 30000), "no ball, strike or question"),
        (RefereeAction("choose", {"player": 1, "option": "take_ball", "ball": 3}, 30000), "no choice"),
        (RefereeAction("lag", {"winner": 1}, 30000), "no lag is due"),
        (RefereeAction("new_match", {"variant": "free", "players": ["A", "B"]}, 30000), "service"),
    ],
)
def test_impossible_actions_raise_and_change_nothing(action: RefereeAction, words: str) -> None:
    k = Kit()
    s = session(
        "free", [k.ref("lag", 500, winner=0), k.strike(1000), k.pocket(2000, 1), k.ref("close_shot", 9000)]
    )
    before, history = board_without_volatile(s), s.match.history
    with pytest.raises(RefereeInputError) as exc:
        s.apply(action)
    assert words in exc.value.en
    assert board_without_volatile(s) == before and s.match.history == history


def test_a_refused_engine_action_leaves_the_open_shot_open() -> None:
    k = Kit()
    s = session("free", [k.ref("lag", 500, winner=0), k.strike(1000), k.pocket(2000, 1)])
    before = board_without_volatile(s)
    with pytest.raises(RefereeInputError, match="no choice"):
        s.apply(k.ref("choose", 3000, player=1, option="take_ball", ball=3))  # would have closed the shot
    assert board_without_volatile(s) == before and s.assembler.open is not None


def test_nothing_to_undo_and_a_wrong_answer_are_refused() -> None:
    k = Kit()
    s = session("free")
    with pytest.raises(RefereeInputError, match="nothing to undo"):
        s.apply(k.ref("undo", 10))
    strike = k.strike(1000, double=True)
    s.apply(strike)
    with pytest.raises(RefereeInputError, match="does not fit"):
        s.apply(k.ref("confirm", 2000, question=f"double_hit:{item(strike)}", answer="maybe"))


def test_an_action_that_makes_a_shot_unplayable_is_refused() -> None:
    k = Kit()
    first = k.pocket(2000, 1)
    s = session(
        "free",
        [
            k.ref("lag", 500, winner=0),
            k.strike(1000),
            first,
            k.ref("identify", 2500, item=item(first), ball=7),
            k.strike(20000),
            k.pocket(21000, 2),
        ],
    )
    second = s.assembler.open.pockets[0]  # type: ignore[union-attr]
    with pytest.raises(RefereeInputError, match="ball 7 is not on the table"):
        s.apply(k.ref("identify", 22000, item=second.id, ball=7))  # 7 is already on Ivan's shelf
    assert scoreboard(s)["provisional"] is True


def test_a_uid_makes_a_retried_action_count_once() -> None:
    k = Kit()
    s = session("free", [k.ref("lag", 500, winner=0), k.strike(1000)])
    tap = k.ref("foul", 2000, uid="tap-7", foul="miss")
    s.apply(tap)
    s.apply(tap)
    assert len(s.log) == 3
    assert s.provisional().assembly.report.fouls == frozenset({Foul.MISS})  # type: ignore[union-attr]


def test_undo_takes_back_the_last_shot_or_engine_input() -> None:
    k = Kit()
    s = session(
        "free",
        [
            k.ref("lag", 500, winner=0),
            k.strike(1000),
            k.pocket(2000, 1),
            k.strike(20000),
            k.pocket(21000, 2),
            k.ref("close_shot", 25000),
        ],
    )
    assert s.match.state.scores == (2, 0)
    s.apply(k.ref("undo", 26000))  # the second shot never happened (e.g. a test stroke)
    assert s.match.state.scores == (1, 0) and len(s.match.history) == 2
    s.apply(k.ref("undo", 27000))
    s.apply(k.ref("undo", 28000))  # and the lag
    assert s.match.history == () and any(q.kind == "lag" for q in s.questions)


def test_correcting_a_committed_shot_replays_what_follows() -> None:
    k = Kit()
    rim = k.pocket(2000, 1)
    s = session(
        "free",
        [
            k.ref("lag", 500, winner=0),
            k.strike(1000),
            rim,
            k.strike(20000),
            k.pocket(21000, 2),
            k.ref("close_shot", 25000),
        ],
    )
    assert s.match.state.scores == (2, 0)
    s.apply(k.ref("remove", 26000, item=item(rim)))  # it bounced out (general 22.5): shot 1 scored nothing
    first, second = s.match.history[1:]
    assert isinstance(first, ShotReport) and first.pocketed == ()
    assert isinstance(second, ShotReport) and second.shooter == 1  # so the turn had passed to Petr
    assert s.match.state.scores == (0, 1)


def test_removing_a_strike_rejoins_the_shots_it_cut() -> None:
    k = Kit()
    bump = k.strike(5000)  # someone leaned on the cue
    s = session("free", [k.ref("lag", 500, winner=0), k.strike(1000), bump, k.pocket(6000, 1)])
    assert s.match.state.shots == 1  # the bump closed shot 1
    n = s.rewinds
    s.apply(k.ref("remove", 7000, item=item(bump)))
    assert s.rewinds == n + 1 and s.refolded == 2 and len([x for x in s.shots if not x.voided]) == 1
    assert s.match.state.shots == 0 and scoreboard(s)["scores"] == [1, 0]


def test_alerts_jam_offline_and_dismiss() -> None:
    k = Kit()
    s = session("free", [k.ref("lag", 500, winner=0), k.strike(1000), k.jam(1500, 3)])
    s.device_status("cue-a", "cue", False)
    kinds = {a.kind: a for a in s.alerts}
    assert set(kinds) == {"jam", "node_offline"} and "луз" in kinds["jam"].ru
    s.apply(k.jam(4000, 3, clear=True))
    s.apply(k.ref("dismiss_alert", 4500, alert=kinds["node_offline"].id))
    assert s.alerts == ()
    s.device_status("cue-a", "cue", True)


def test_end_match_closes_the_shot_and_refuses_more() -> None:
    k = Kit()
    s = session("free", [k.ref("lag", 500, winner=0), k.strike(1000), k.pocket(2000, 1)])
    s.apply(k.ref("end_match", 9000, reason="time"))
    assert s.status == "ended" and s.match.state.scores == (1, 0)
    with pytest.raises(RefereeInputError, match="ended"):
        s.apply(k.ref("foul", 9500, foul="miss"))
    s.apply(k.pocket(9600, 2))  # sensors after the end are kept in the log but change nothing
    assert s.match.state.scores == (1, 0)
