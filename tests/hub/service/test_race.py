"""A race to N frames through the hub service (real Mosquitto, real SQLite): each frame its own fold, the
frame boundary a stored `next_frame` action, the whole match replayed from the store
(general 11, A-G4, A-G5)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub import config
from hub.service.hub import Hub
from hub.service.rebuild import comparable, differences, replay_match, stored_differences
from hub.view.build import stored
from hub.view.match import MatchView
from hub.vocab.checks import RefereeInputError
from shared_rules import VARIANTS, Concede, Lag, Race, RaceRules, ShotReport
from shared_rules.opening import BreakRule
from tests.hub.nodes import Clock

pytestmark = pytest.mark.mosquitto

T0 = 1_800_000_000_000
PLAYERS = ("Ivan", "Petr")


def board(hub: Hub) -> dict[str, Any]:
    return stored(MatchView.model_validate(hub.state("t1")["match"]))


def act(hub: Hub, clock: Clock, kind: str, **args: object) -> dict[str, Any]:
    clock.now += 1000
    return hub.submit("t1", {"kind": kind, **args})


def empty_shot(hub: Hub, clock: Clock) -> None:
    """A shot the referee opens and closes with nothing pocketed (the turn passes, no foul)."""
    act(hub, clock, "open_shot")
    act(hub, clock, "close_shot")


def play_frame(hub: Hub, clock: Clock, winner: int, shots: int) -> None:
    """The frame in play: the lag if one is due, `shots` empty shots, then the loser concedes."""
    if board(hub)["mode"] == "lag":
        act(hub, clock, "lag", winner=winner)
    for _ in range(shots):
        empty_shot(hub, clock)
    act(hub, clock, "concede", player=1 - winner)


def test_general_11_race_to_2_alternates_the_break_and_survives_a_restart(
    cfg: config.Config, hubs: Callable[..., Hub]
) -> None:
    """general 11: frame 2 of a race is broken by the lag loser; the board's race section has the frame score;
    a restarted hub rebuilds both frames from the log; general A-G5: the handicap balls are on the shelf."""
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    state = hub.new_match(
        "t1", "free", PLAYERS, race={"race_to": 2, "handicap": {"kind": "balls", "amount": 2}}
    )
    first = state["match"]
    assert first["shelves"] == [[], [15, 14]] and first["scores"] == [0, 2]
    assert any("A-G5" in e["cite"] for e in first["effects"])
    play_frame(hub, clock, winner=0, shots=3)
    b = board(hub)
    assert b["race"]["score"] == [1, 0] and b["race"]["frame_over"] and b["race"]["next_breaker"] == 1
    with pytest.raises(RefereeInputError):  # the lag is not due in frame 2's place: frame 1 is over
        act(hub, clock, "lag", winner=1)
    act(hub, clock, "next_frame")
    b = board(hub)
    assert b["race"]["frame"] == 2 and b["to_play"] == 1 and b["mode"] == "play" and b["is_break"]
    assert b["shelves"] == [[], [15, 14]] and b["race"]["frames"][0]["winner"] == 0
    with pytest.raises(RefereeInputError) as e:
        act(hub, clock, "next_frame")
    assert "still in play" in e.value.en
    empty_shot(hub, clock)
    before = board(hub)
    hub.stop()
    again = hubs(cfg, clock=clock)
    assert board(again) == before
    play_frame(again, clock, winner=0, shots=1)
    b = board(again)
    assert b["race"]["winner"] == 0 and b["race"]["score"] == [2, 0] and b["race"]["over"]
    with pytest.raises(RefereeInputError):
        act(again, clock, "next_frame")


def test_general_a_g4_ending_an_undecided_race_abandons_it_with_the_reason(
    cfg: config.Config, hubs: Callable[..., Hub]
) -> None:
    """general A-G4: end_match before anybody has won the race abandons it;
    the reason is kept and replayed."""
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    mid = hub.new_match("t1", "combined", PLAYERS, race={"race_to": 3, "break_rule": "loser"})["match_id"]
    play_frame(hub, clock, winner=1, shots=2)
    act(hub, clock, "next_frame")
    assert board(hub)["to_play"] == 0  # the loser of frame 1 breaks
    act(hub, clock, "end_match", reason="the club closes")
    last = hub.state("t1")["last_match"]
    assert last["race"]["abandoned"] == "the club closes" and last["race"]["winner"] is None
    assert hub.store is not None
    match = hub.store.match(mid)
    assert match is not None
    replay = replay_match(hub.store, match, {})
    assert (
        differences(comparable(match.last_state), comparable(json.loads(json.dumps(replay.scoreboard()))))
        == []
    )


def test_new_match_refuses_a_race_it_cannot_play(cfg: config.Config, hubs: Callable[..., Hub]) -> None:
    """general A-G5: a handicap the variant cannot give is refused at the start, in both languages."""
    hub = hubs(cfg, clock=Clock(T0))
    with pytest.raises(RefereeInputError) as e:
        hub.new_match(
            "t1", "classic", PLAYERS, race={"race_to": 2, "handicap": {"kind": "balls", "amount": 2}}
        )
    assert "A-G5" in e.value.en and "A-G5" in e.value.ru
    with pytest.raises(RefereeInputError) as e:
        hub.new_match("t1", "free", PLAYERS, race={"race_to": 2, "break_rule": "sometimes"})
    assert e.value.field == "race"
    with pytest.raises(RefereeInputError):
        hub.new_match("t1", "free", PLAYERS, race={"race_to": 2, "handicap": {"kind": "frames", "amount": 2}})


frames_plan = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 3)), min_size=1, max_size=7)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    race_to=st.integers(1, 3),
    rule=st.sampled_from(list(BreakRule)),
    plan=frames_plan,
)
def test_a_race_to_n_replays_to_the_same_result_from_the_store(
    cfg: config.Config,
    hubs: Callable[..., Hub],
    variant: str,
    race_to: int,
    rule: BreakRule,
    plan: list[tuple[int, int]],
) -> None:
    """general 11, A-G4: any race of any variant, played through the hub, replays from the store to the stored
    scoreboard, and its frame score and breakers equal the engine's own race fed the same frames."""
    hub, clock = _shared_hub(cfg, hubs)
    clock.now += 10_000
    mid = hub.new_match("t1", variant, PLAYERS, race={"race_to": race_to, "break_rule": rule.value})[
        "match_id"
    ]
    engine = Race(variant, PLAYERS, {}, RaceRules(race_to, rule))
    for k, (winner, shots) in enumerate(plan):
        if engine.over:
            break
        if k:
            act(hub, clock, "next_frame")
            engine.next_frame()
        if engine.frame.state.mode == "lag":
            engine.play(Lag(winner))
        for _ in range(shots):
            engine.play(ShotReport(shooter=engine.frame.state.to_play))
        engine.play(Concede(1 - winner))
        play_frame(hub, clock, winner, shots)
    act(hub, clock, "end_match", reason="property test")
    assert hub.store is not None
    match = hub.store.match(mid)
    assert match is not None and match.last_state is not None
    replayed = json.loads(json.dumps(replay_match(hub.store, match, {}).scoreboard()))
    assert differences(comparable(match.last_state), comparable(replayed)) == []
    if not engine.over:
        engine.abandon("property test")
    want = {**engine.summary(), "deadline_ms": None}  # no time limit (the engine has no clock, general A-G6)
    assert replayed["race"] == json.loads(json.dumps(want))


def test_a_board_stored_before_races_still_verifies_but_a_race_needs_its_section(
    cfg: config.Config, hubs: Callable[..., Hub]
) -> None:
    """A board the hub stored before matches had a race (table view 1, no `race`) verifies against a refold of
    a single frame; a race to 2 (general A-G4) with its `race` taken out of the stored board does not."""
    clock = Clock(T0)
    hub = hubs(cfg, clock=clock)
    assert hub.store is not None
    plain = hub.new_match("t1", "free", PLAYERS)["match_id"]
    play_frame(hub, clock, winner=0, shots=1)
    act(hub, clock, "end_match")
    raced = hub.new_match("t1", "free", PLAYERS, race={"race_to": 2})["match_id"]
    play_frame(hub, clock, winner=1, shots=1)
    for mid, verifies in ((plain, True), (raced, False)):
        match = hub.store.match(mid)
        assert match is not None and match.last_state is not None
        refold = replay_match(hub.store, match, {}).scoreboard()
        assert stored_differences(match.last_state, refold) == []
        old = {k: v for k, v in match.last_state.items() if k != "race"}
        assert (stored_differences(old, refold) == []) is verifies


_HUBS: dict[int, tuple[Hub, Clock]] = {}


def _shared_hub(cfg: config.Config, hubs: Callable[..., Hub]) -> tuple[Hub, Clock]:
    """One hub (and its clock) per run of the property test: hypothesis calls the body many times with the
    same fixtures, and each example starts a match of its own on it."""
    key = id(cfg)
    if key not in _HUBS or _HUBS[key][0].store is None:
        _HUBS.clear()
        clock = Clock(T0)
        _HUBS[key] = (hubs(cfg, clock=clock), clock)
    return _HUBS[key]
