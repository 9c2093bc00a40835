"""A match of several frames (shared_rules/race.py) and the frame's opening (shared_rules/opening.py):
general 11 (the lag, then alternation), A-G4 (break rules, the winner of the race), A-G5 (handicap)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings

from hub.view.engine import engine_summary
from shared_rules import (
    VARIANTS,
    BreakRule,
    Concede,
    Handicap,
    IllegalInputError,
    Lag,
    MalformedInputError,
    Match,
    Opening,
    Race,
    RaceRules,
    RefereeDecision,
    ShotReport,
)
from shared_rules.outcome import EffectKind
from shared_rules.race_standing import next_breaker, result_of
from tests.rules.helpers import cites, pot
from tests.rules.strategies import PrefixRandom, random_input, rnds


def race(
    variant: str = "free",
    race_to: int = 3,
    rule: BreakRule = BreakRule.ALTERNATE,
    handicap: str | None = None,
    **options: object,
) -> Race:
    h = Handicap.parse(handicap) if handicap else None
    return Race(variant, ("Ivan", "Petr"), options, RaceRules(race_to, rule, h))


def win_frame(r: Race, winner: int) -> None:
    """The frame in play ends with `winner` winning (the loser concedes, after the lag if one is due)."""
    if r.frame.state.mode == "lag":
        r.play(Lag(winner=winner))
    r.play(Concede(player=1 - winner))


def test_general_11_first_frame_lag_then_frames_alternate() -> None:
    """general 11: the lag winner breaks the first frame; later frames alternate, whoever won them."""
    r = race(race_to=3)
    assert r.frame.state.mode == "lag" and r.frame.needs()[0].kind == "lag"
    r.play(Lag(winner=1))
    r.play(Concede(player=0))  # seat 1 wins frame 1
    breakers = [result_of(r.frame).breaker]
    for winner in (1, 0, 0):
        r.next_frame()
        state = r.frame.state
        assert state.mode == "play" and state.is_break and state.breaker == state.to_play
        assert cites(r.frame.opened, "general 11")
        breakers.append(state.breaker)
        r.play(Concede(player=1 - winner))
    assert breakers == [1, 0, 1, 0]
    assert r.score == (2, 2) and r.winner is None


def test_general_11_alternation_counts_from_the_lag_winner_in_every_variant() -> None:
    """general 11: in every variant frame 2 is broken by the lag loser, with no lag of its own."""
    for name in VARIANTS:
        r = race(name, race_to=2)
        win_frame(r, 0)
        r.next_frame()
        assert r.frame.state.to_play == 1 and r.frame.state.breaker == 1 and r.frame.needs()[0].kind != "lag"


@pytest.mark.parametrize(("rule", "expected"), [(BreakRule.LOSER, [0, 1, 0]), (BreakRule.WINNER, [1, 0, 1])])
def test_general_a_g4_loser_or_winner_breaks(rule: BreakRule, expected: list[int]) -> None:
    """general A-G4: the loser (or the winner) of the previous frame breaks the next; the reason says so."""
    r = race(race_to=3, rule=rule)
    win_frame(r, 1)  # frames won by 1, 0, 1, 0
    breakers = []
    for winner in (0, 1, 0):
        r.next_frame()
        breakers.append(r.frame.state.breaker)
        assert cites(r.frame.opened, "general A-G4")
        r.play(Concede(player=1 - winner))
    assert breakers == expected


def test_general_a_g4_first_to_n_frames_wins_and_the_match_is_then_closed() -> None:
    """general A-G4: the first to race_to frames wins; nothing more can be played."""
    r = race(race_to=2)
    win_frame(r, 0)
    r.next_frame()
    r.play(Concede(player=1))
    assert r.winner == 0 and r.over and r.score == (2, 0)
    summary = r.summary()
    assert summary["over"] and summary["winner"] == 0 and "A-G4" in summary["reason"]["en"]
    with pytest.raises(IllegalInputError):
        r.next_frame()
    with pytest.raises(IllegalInputError):
        r.play(Lag(winner=0))


def test_general_a_g4_next_frame_refused_while_the_frame_is_in_play() -> None:
    """general A-G4: a frame is finished (or conceded) before the next one starts."""
    r = race()
    r.play(Lag(winner=0))
    with pytest.raises(IllegalInputError) as e:
        r.next_frame()
    assert "still in play" in e.value.en and "ещё идёт" in e.value.ru


def test_general_a_g4_abandoned_match_has_no_winner_and_keeps_its_reason() -> None:
    """general A-G4: a match may be abandoned with a reason (then no winner); the reason is required."""
    r = race(race_to=3)
    win_frame(r, 0)
    with pytest.raises(MalformedInputError):
        r.abandon("  ")
    r.abandon("the club closes")
    assert r.over and r.winner is None and r.summary()["abandoned"] == "the club closes"
    again = Race.from_log(json.loads(json.dumps(r.to_log())))
    assert again.summary() == r.summary()
    with pytest.raises(IllegalInputError):
        r.play(Lag(winner=0))


def test_general_a_g4_drawn_frame_counts_for_nobody_and_the_break_alternates() -> None:
    """general A-G4: a drawn frame (Free A-F1 decision) scores nobody;
    with the loser rule the break alternates."""
    r = race(race_to=2, rule=BreakRule.LOSER, target=9)
    m = r.frame
    m.play(Lag(winner=0))
    # 8:7 with one ball left is Free's dead end (A-F1): pot 8 for seat 0 and 7 for seat 1 by hand-made shots
    while len(m.state.on_table) > 1 or (m.state.mode == "play" and sum(m.state.scores) < 15):
        if m.state.mode != "play":
            break
        shooter = m.state.to_play
        want = 8 if shooter == 0 else 7
        if m.state.scores[shooter] >= want:
            m.play(ShotReport(shooter=shooter, cushions=2))  # a miss that is no foul: the turn passes
            continue
        ball = min(b for b in m.state.on_table if b != 0) if any(b != 0 for b in m.state.on_table) else 0
        m.play(ShotReport(shooter=shooter, cue_ball=0 if ball else None, pocketed=(pot(ball),)))
    assert m.state.mode == "referee", m.state
    m.play(RefereeDecision("draw"))
    assert result_of(m).drawn and r.score == (0, 0)
    r.next_frame()
    assert r.frame.state.breaker == 1 and cites(r.frame.opened, "general 11")


def test_general_a_g5_balls_on_the_shelf_score_for_the_player_and_are_cited() -> None:
    """general A-G5: balls handicap — the highest object balls go to the player's
    shelf, each scored and cited."""
    r = race("combined", race_to=2, handicap="balls:2:1")
    s = r.frame.state
    assert s.shelves == ((), (15, 14)) and s.scores == (0, 2)
    assert 15 not in s.on_table and 14 not in s.on_table and len(s.on_table) == 13
    shelved = [e for e in r.frame.opened.effects if e.kind is EffectKind.TO_SHELF]
    assert [(e.player, e.ball) for e in shelved] == [(1, 15), (1, 14)]
    assert all(e.reason.cite() == "general A-G5" for e in r.frame.opened.effects)
    assert any("A-G5" in x["en"] for x in engine_summary(r.frame)["last_reasons"])
    win_frame(r, 0)
    r.next_frame()  # every frame gets it again
    assert r.frame.state.shelves[1] == (15, 14) and r.frame.state.scores == (0, 2)


def test_general_a_g5_balls_handicap_counts_toward_the_target() -> None:
    """general A-G5: the shelf balls count: with 2 given and target 8, six more pots win."""
    m = Match.new("free", ("A", "B"), opening=Opening(breaker=1, balls=(0, 2)))
    assert m.state.to_play == 1 and m.state.is_break
    for _ in range(6):
        ball = min(b for b in m.state.on_table if b != 0)
        m.play(ShotReport(shooter=1, cue_ball=0 if not m.state.is_break else None, pocketed=(pot(ball),)))
    assert m.state.winner == 1 and m.state.scores == (0, 8)


def test_general_a_g5_points_head_start_and_frames_head_start() -> None:
    """general A-G5: a points head start in each frame; a frames head start in the race's score."""
    r = race("classic", race_to=3, handicap="points:20:0")
    assert r.frame.state.scores == (20, 0) and cites(r.frame.opened, "general A-G5")
    f = race("star", race_to=3, handicap="frames:1")
    assert f.score == (0, 1) and f.summary()["head_start"] == [0, 1]
    win_frame(f, 1)
    f.next_frame()
    win_frame(f, 1)
    assert f.winner == 1 and f.score == (0, 3)


@pytest.mark.parametrize(
    ("variant", "handicap"),
    [
        ("star", "points:2"),
        ("star", "balls:1"),
        ("classic", "balls:2"),
        ("hundred", "balls:1"),
        ("free", "balls:8"),
        ("free", "points:8"),
    ],
)
def test_general_a_g5_a_handicap_the_variant_cannot_give_is_refused(variant: str, handicap: str) -> None:
    """general A-G5: no balls where balls have values or a fixed rack; nothing that reaches the target."""
    with pytest.raises(MalformedInputError) as e:
        race(variant, handicap=handicap)
    assert "A-G5" in e.value.en and "A-G5" in e.value.ru


def test_general_a_g5_frames_handicap_cannot_decide_the_race() -> None:
    """general A-G5: frames given must be fewer than the race's length; bad handicap texts are refused."""
    with pytest.raises(MalformedInputError):
        RaceRules(2, handicap=Handicap.parse("frames:2"))
    for bad in ("frames", "goals:1", "balls:x", "balls:1:2", "balls:1:0:9", "balls:0"):
        with pytest.raises(MalformedInputError):
            Handicap.parse(bad)
    assert Handicap.parse("balls:2") == Handicap.parse("balls:2:1")


def test_free_a_f1_replayed_frame_gets_its_handicap_again() -> None:
    """free A-F1 with general A-G5: the frame replayed from a new rack gives the
    handicap again, with a new lag."""
    m = Match.new("free", ("A", "B"), {"target": 9}, Opening(balls=(1, 0)))
    assert m.state.shelves == ((15,), ())
    m.play(Lag(winner=0))
    while m.state.mode == "play":
        shooter = m.state.to_play
        if m.state.scores[shooter] >= (8 if shooter == 0 else 7):
            m.play(ShotReport(shooter=shooter, cushions=2))
            continue
        ball = min(b for b in m.state.on_table if b != 0)
        m.play(
            ShotReport(shooter=shooter, cue_ball=0 if m.state.hand is None else None, pocketed=(pot(ball),))
        )
    assert m.state.mode == "referee"
    m.play(RefereeDecision("replay_frame"))
    assert m.state.mode == "lag" and m.state.shelves == ((15,), ()) and m.state.scores == (1, 0)


def test_race_log_round_trips_and_refuses_damage() -> None:
    r = race(race_to=2, handicap="balls:1:0")
    win_frame(r, 1)
    r.next_frame()
    r.play(ShotReport(shooter=0))
    log = json.loads(json.dumps(r.to_log()))
    again = Race.from_log(log)
    assert again.summary() == r.summary() and again.frame.state == r.frame.state
    assert [f.to_log() for f in again.frames] == [f.to_log() for f in r.frames]
    assert r.frames[1].to_log()["opening"]["breaker"] == 0
    log["frames"][0] = log["frames"][0][:1]  # frame 1 no longer ends: frame 2 cannot start
    with pytest.raises(MalformedInputError) as e:
        Race.from_log(log)
    assert "log.frames[1]" in e.value.en


def test_next_breaker_with_no_breaker_yet_is_the_lag() -> None:
    """general 11: a frame conceded before the lag leaves nobody to alternate from:
    the next frame has a lag."""
    r = race(race_to=3)
    r.play(Concede(player=0))
    r.next_frame()
    assert r.frame.state.mode == "lag" and next_breaker(r.rules, r.results) is None


PROPS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@PROPS
@given(rnd=rnds())
def test_random_race_replays_to_the_same_result_from_its_log(variant: str, rnd: PrefixRandom) -> None:
    """general 11, A-G4: a random race to 2 or 3 (random break rule) replays from
    its log to the same match."""
    rule = rnd.choice(list(BreakRule))
    r = race(variant, race_to=rnd.randint(2, 3), rule=rule)
    for _ in range(4000):
        if r.over:
            break
        if r.frame.state.over:
            r.next_frame()
            continue
        r.play(random_input(r.frame, rnd))
    assert r.over, r.summary()
    again = Race.from_log(json.loads(json.dumps(r.to_log())))
    assert again.summary() == r.summary()
    assert [f.state for f in again.frames] == [f.state for f in r.frames]
    for k in range(1, len(r.frames)):  # every later frame was broken by the rule's player
        prev, this = result_of(r.frames[k - 1]), r.frames[k]
        if prev.breaker is not None and this.opening.breaker is not None and prev.winner is not None:
            want = {
                BreakRule.ALTERNATE: 1 - prev.breaker,
                BreakRule.LOSER: 1 - prev.winner,
                BreakRule.WINNER: prev.winner,
            }[rule]
            assert this.opening.breaker == want


def timed(rule: str = "finish_frame", race_to: int = 5) -> Race:
    return Race("free", ("Ivan", "Petr"), {}, RaceRules(race_to, time_limit_min=60, time_rule=rule))


def test_general_a_g6_time_up_the_leader_wins_once_the_frame_in_play_is_over() -> None:
    """general A-G6: with the time called mid-frame (rule finish_frame) the frame is finished, then the leader
    in frames wins the match, short of the race's number, cited A-G6; nothing more can be played."""
    r = timed()
    win_frame(r, 0)
    r.next_frame()
    r.call_time()  # frame 2 in play
    assert r.time_called == 2 and r.winner is None and r.summary()["time_called"]
    r.play(Concede(player=0))  # seat 1 wins frame 2: 1-1, tied
    assert r.winner is None and r.score == (1, 1)
    r.next_frame()  # the decider
    r.play(Concede(player=1))
    s = r.summary()
    assert r.winner == 0 and r.over and s["winner"] == 0 and s["score"] == [2, 1]
    assert "A-G6" in s["reason"]["en"] and "лимит" in s["reason"]["ru"]
    with pytest.raises(IllegalInputError):
        r.next_frame()


def test_general_a_g6_leader_wins_at_the_frame_end_not_before() -> None:
    """general A-G6: the leader does not win while the frame in play goes on;
    a race won outright stays A-G4."""
    r = timed(race_to=2)
    win_frame(r, 1)
    r.next_frame()
    r.call_time()
    assert r.winner is None  # 0-1 but frame 2 is in play
    r.play(Concede(player=1))  # seat 0 wins frame 2: 1-1
    assert r.winner is None
    r.next_frame()
    r.play(Concede(player=0))  # seat 1 wins: 2 frames, the race is won outright
    assert r.winner == 1 and "A-G4" in r.summary()["reason"]["en"]


def test_general_a_g6_time_called_between_frames_decides_at_once() -> None:
    """general A-G6: the time up after a frame ended (before the next one): the leader wins now."""
    r = timed()
    win_frame(r, 1)
    r.call_time()
    assert r.winner == 1 and "A-G6" in r.summary()["reason"]["ru"]


def test_general_a_g6_referee_rule_decides_nothing_by_itself() -> None:
    """general A-G6: by the rule referee the board says time is up; the referee plays on or ends the match."""
    r = timed("referee")
    win_frame(r, 0)
    r.call_time()
    assert r.winner is None and not r.over and r.summary()["time_called"]
    r.next_frame()  # the referee plays on
    r.play(Concede(player=1))
    assert r.winner is None and r.score == (2, 0)
    r.abandon("time is up / время вышло")
    assert r.over and r.winner is None and r.summary()["abandoned"] == "time is up / время вышло"


def test_general_a_g6_call_time_refused_without_a_limit_or_twice_and_settings_checked() -> None:
    """general A-G6: only a timed match has its time called, once; the settings are checked (en/ru)."""
    r = race()
    with pytest.raises(IllegalInputError):
        r.call_time()
    t = timed()
    t.call_time()
    with pytest.raises(IllegalInputError) as e:
        t.call_time()
    assert e.value.ru
    for bad in (
        {"time_limit_min": 0},
        {"time_limit_min": 601},
        {"time_limit_min": "60"},
        {"time_rule": "sudden"},
    ):
        with pytest.raises(MalformedInputError):
            RaceRules.from_dict({"race_to": 3, **bad})
    rules = RaceRules(3, time_limit_min=90, time_rule="referee")
    assert RaceRules.from_dict(rules.to_dict()) == rules and not rules.plain
    assert RaceRules.from_dict({"race_to": 3}).time_rule == "finish_frame"


def test_general_a_g6_the_log_keeps_the_frame_time_was_called_in() -> None:
    """general A-G6: the race log keeps the frame in which time was called; the replay has the same winner; a
    time_called beyond the frames is refused."""
    r = timed()
    win_frame(r, 0)
    r.next_frame()
    r.play(Concede(player=0))
    r.next_frame()
    r.call_time()
    r.play(Concede(player=0))  # seat 1 leads 2-1 at the end of frame 3
    assert r.winner == 1
    log = json.loads(json.dumps(r.to_log()))
    assert log["time_called"] == 3
    again = Race.from_log(log)
    assert again.winner == 1 and again.time_called == 3 and again.summary() == r.summary()
    log["time_called"] = None
    assert Race.from_log(log).winner is None  # without the call nobody has won a race to 5
    for bad in (4, 0, "3"):
        log["time_called"] = bad
        with pytest.raises(MalformedInputError):
            Race.from_log(log)
