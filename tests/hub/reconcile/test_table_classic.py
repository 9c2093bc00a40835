"""Classic pyramid through the hub: calls, ball numbers, the cue-ball foul;
scripted shots equal the engine."""

from __future__ import annotations

import pytest

from hub.view.build import scoreboard
from shared_rules import VARIANTS, Colour, Declaration, Lag, Match, Pocket, PocketedBall, ShotReport
from tests.hub.tablekit import Kit, item, session

pytestmark = pytest.mark.skipif(
    "classic" not in VARIANTS, reason="the Classic variant is not in the engine yet"
)


def call(ball: int, pocket: int) -> tuple[Declaration, ...]:
    return (Declaration(ball, Pocket(pocket)),)


def test_scripted_classic_match_equals_the_engine_fed_directly() -> None:
    k = Kit()
    brk = k.pocket(2000, 5)
    s = session("classic", [k.ref("lag", 500, winner=0), k.strike(1000), brk])
    q = next(q for q in s.questions if q.kind == "identify")
    assert q.item == "pk-5/1/1" and q.cite == "classic 5.1"
    for inp in [
        k.ref("identify", 3000, item=q.item, ball=4),  # A-C4: balls pocketed on a correct break count
        k.ref("declare", 10000, ball=6, pocket=3),  # classic 5.2
        k.strike(20000),
        k.pocket(21000, 3),  # the ball in the called pocket is the called ball
        k.ref("declare", 30000, ball=1, pocket=2),
        k.strike(40000),
        k.pocket(41000, 2, "yellow", 0.95),  # classic 5.5: the cue ball fell: foul
    ]:
        s.apply(inp)
    assert any(a.kind == "cue_ball_seen" and a.cite == "classic 5.5" for a in s.alerts)
    for inp in [
        k.ref("declare", 50000, ball=15, pocket=6),
        k.strike(60000, seat=1),
        k.pocket(61000, 4),  # Petr: a ball in another pocket than called
    ]:
        s.apply(inp)
    assert any(a.kind == "pocket_mismatch" for a in s.alerts)
    wrong = s.assembler.open.pockets[0]  # type: ignore[union-attr]
    s.apply(k.ref("identify", 62000, item=wrong.id, ball=15))
    s.apply(k.ref("close_shot", 70000))

    m = Match.new("classic", players=("Ivan", "Petr"))
    for inp in [
        Lag(0),
        ShotReport(0, pocketed=(PocketedBall(Pocket(5), 4),)),
        ShotReport(0, declarations=call(6, 3), pocketed=(PocketedBall(Pocket(3), 6),)),
        ShotReport(0, declarations=call(1, 2), pocketed=(PocketedBall(Pocket(2), 0, Colour.YELLOW),)),
        ShotReport(1, declarations=call(15, 6), pocketed=(PocketedBall(Pocket(4), 15),)),
    ]:
        m.play(inp)
    assert s.match.history == m.history and s.match.state == m.state
    assert scoreboard(s)["scores"] == list(m.state.scores)


def test_a_shot_held_for_a_ball_number_resumes_when_the_referee_names_it() -> None:
    k = Kit()
    unknown = k.pocket(21000, 5)  # no call for pocket 5: only the referee can say which ball it was
    s = session(
        "classic",
        [
            k.ref("lag", 500, winner=0),
            k.strike(1000),
            k.ref("declare", 10000, ball=6, pocket=3),
            k.strike(20000, seat=1),
            k.pocket(20900, 3),
            unknown,
            k.ref("declare", 30000, ball=1, pocket=1),
            k.strike(40000, seat=1),
        ],
    )
    assert s.status == "held"  # shot 2 is committed but the engine waits for a number; shot 3 waits
    asks = [q for q in s.questions if q.action == "identify"]
    assert [q.item for q in asks] == [item(unknown)] and not any(a.kind == "engine_error" for a in s.alerts)
    s.apply(k.ref("identify", 41000, item=item(unknown), ball=9))
    assert s.status == "live" and scoreboard(s)["provisional"] is True
    shot2 = s.match.history[2]
    assert isinstance(shot2, ShotReport) and [b.ball for b in shot2.pocketed] == [6, 9]
    assert s.match.state.scores == (0, 15)  # classic 5.3: with the called ball, every ball counts


def test_classic_5_4_a_shot_without_a_call_is_recorded_not_refused() -> None:
    """classic 5.4: a safety or a miss is struck with no call. The hub records it as a shot without a call (a
    ball that falls is uncalled and spotted, nothing scores, the turn passes): no engine error, nothing held,
    and the panel never has to invent a call to go on."""
    k = Kit()
    # an empty break
    s = session(
        "classic",
        [
            k.ref("lag", 500, winner=0),
            k.strike(1000),
            k.ref("close_shot", 9000),
            # no call
            k.strike(20000, seat=1),
            k.pocket(21000, 4),
            k.ref("close_shot", 30000),
        ],
    )
    assert s.status == "live" and not any(a.kind == "engine_error" for a in s.alerts)
    m = Match.new("classic", players=("Ivan", "Petr"))
    for inp in [Lag(0), ShotReport(0), ShotReport(1, pocketed=(PocketedBall(Pocket(4)),))]:
        m.play(inp)
    assert s.match.state.on_table == m.state.on_table and len(m.state.on_table) == 16
    assert s.match.state.scores == (0, 0) and s.match.state.to_play == 0 and s.match.state.shots == 2
    assert any("classic 5.4" in r["en"] for r in scoreboard(s)["last_reasons"])
