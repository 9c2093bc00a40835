"""`luza demo` end to end: private Mosquitto, virtual nodes running the firmware logic, hub, rules engine."""

from __future__ import annotations

import argparse
import itertools
import json
import random
import socket
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from hub.commands import demo as demo_command
from hub.commands.demo import demo_variants
from hub.demo import terminal as demo
from hub.demo.referee import answers, call_ball, plan_shot, target_ball, their_call
from hub.demo.terminal import run_demo, scoreboard_line
from hub.demo.web import run_web_demo
from shared_rules import VARIANTS, Match, State

pytestmark = pytest.mark.mosquitto


TARGETS = {
    "free": 8,
    "combined": 8,
    "dynamic": 8,
    "star": 8,  # free/combined/dynamic 1, star 1: eight
    "classic": 71,
    "hundred": 51,
}  # classic 1: 71 points; hundred 3: more than 50


DEMO_VARIANTS = demo_variants()


@pytest.mark.parametrize("variant", DEMO_VARIANTS)
def test_demo_plays_a_match_to_a_result_and_keeps_it_in_the_store(variant: str, tmp_path: Path) -> None:
    lines: list[str] = []
    result = run_demo(variant, speed=25.0, seed=3, workdir=str(tmp_path), out=lines.append)
    assert result.over and result.winner in (0, 1) and result.problem is None
    assert max(result.scores) >= TARGETS[variant] and result.scores[result.winner] == max(result.scores)
    if variant not in ("classic", "hundred"):
        assert result.scores[result.winner] == TARGETS[variant]  # one ball a shot: exactly the target
    won = next(i for i, line in enumerate(lines) if "won by / победил" in line)
    assert f"{variant} " in lines[won]  # the deciding reason cites the variant's own paragraph
    assert (tmp_path / "luza.db").stat().st_size > 0


def test_every_variant_is_offered() -> None:
    assert sorted(DEMO_VARIANTS) == sorted(VARIANTS)


def test_a_demo_that_cannot_finish_exits_non_zero_and_says_why(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(demo, "MAX_SHOTS", 2)
    args = argparse.Namespace(variant="classic", speed=25.0, seed=3, workdir=None)
    assert demo_command.run(args) == 1
    err = capsys.readouterr().err
    assert "the match did not finish in 2 shots (limit 2)" in err and "партия не доиграна" in err


def test_the_terminal_demo_resumes_its_match_on_the_same_workdir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A match left in play (here: cut at the shot limit) is resumed by the next run on the same --workdir, in
    its own variant, rather than refused (the hub rebuilt it from the store)."""
    monkeypatch.setattr(demo, "MAX_SHOTS", 2)
    assert not run_demo("classic", speed=25.0, seed=3, workdir=str(tmp_path), out=lambda _: None).over
    monkeypatch.setattr(demo, "MAX_SHOTS", 400)
    lines: list[str] = []
    result = run_demo("free", speed=25.0, seed=3, workdir=str(tmp_path), out=lines.append)
    assert "resuming match 1 from the store / продолжаю партию из базы" in lines
    assert result.over and result.problem is None and max(result.scores) >= TARGETS["classic"]
    db = sqlite3.connect(tmp_path / "luza.db")
    rows = db.execute("SELECT id, variant, status FROM matches").fetchall()
    db.close()
    assert rows == [(1, "classic", "live")]  # over, and not ended: the terminal demo leaves the result up


def test_scoreboard_line_reads_in_both_languages() -> None:
    line = scoreboard_line(
        {
            "players": ["Ivan", "Petr"],
            "scores": [3, 1],
            "to_play": 1,
            "over": False,
            "last_reasons": [{"en": "free 5.2: again", "ru": "free 5.2: ещё"}],
        }
    )
    assert line.splitlines() == [
        "Ivan 3 : 1 Petr  · to play / бьёт: Petr",
        "    free 5.2: again",
        "    free 5.2: ещё",
    ]


def test_demo_refuses_a_variant_it_cannot_play_with_a_clear_message() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "hub.cli", "demo", "--variant", "snooker"], capture_output=True, text=True
    )
    assert out.returncode == 2
    assert (
        "unknown variant 'snooker': choose from free, combined, dynamic, star, hundred, classic or all"
        in out.stderr
    )
    assert "Traceback" not in out.stderr


def _position(
    variant: str,
    on_table: list[int],
    is_break: bool = False,
    to_play: int = 0,
    scores: tuple[int, int] = (0, 0),
) -> tuple[Match, State, dict[str, object]]:
    """A match of `variant` with the scoreboard showing this position (as the demo referee sees it)."""
    m = Match.new(variant)
    state = m.state._replace(
        on_table=tuple(on_table), is_break=is_break, to_play=to_play, scores=scores, mode="play", hand=None
    )
    board = {
        "on_table": on_table,
        "is_break": is_break,
        "to_play": to_play,
        "scores": list(scores),
        "needs": [{"kind": n.kind, "options": list(n.options)} for n in m.variant.needs(state)],
    }
    return m, state, board


def _call(variant: str, on_table: list[int], is_break: bool = False) -> int | None:
    m, state, board = _position(variant, on_table, is_break)
    return call_ball(m.variant, state, board, random.Random(1))


def test_the_referee_calls_only_what_the_rules_allow() -> None:
    """The engine says when a call is asked (its declaration need) and which balls would score: no names."""
    assert _call("classic", [0, 4, 5], is_break=True) is None  # classic 5.2, A-C4: no call on the break
    assert _call("classic", [0, 4]) == 4
    for _ in range(20):  # hundred 12: not #10 while pyramid balls remain; it is called once alone (§20)
        assert _call("hundred", [0, 10, 7], is_break=True) == 7
    assert _call("hundred", [0, 10]) == 10
    assert _call("free", [0, 4]) is None
    m, state, board = _position("classic", [0])
    assert not plan_shot(m.variant, state, board, random.Random(1)).pot  # nothing left to call


def test_under_a_person_the_player_goes_for_the_ball_they_called() -> None:
    m, state, board = _position("classic", [0, 4, 7])
    plan = plan_shot(m.variant, state, board, random.Random(1))
    board["next_shot"] = {"declarations": [{"ball": 7, "pocket": 2, "kind": "ball", "method": "ball"}]}
    mine = their_call(m.variant, plan, board)
    assert (mine.call, mine.pocket, mine.colour, mine.pot) == (
        None,
        2,
        m.variant.colour_of(7).value,
        plan.pot,
    )
    assert their_call(m.variant, plan, {"next_shot": {"declarations": []}}) == replace(plan, call=None)


def _colour(to_play: int, scores: tuple[int, int], on_table: list[int]) -> str | None:
    m, state, _ = _position("star", on_table, to_play=to_play, scores=scores)
    ball = target_ball(m.variant, state, random.Random(1))
    return None if ball is None else m.variant.colour_of(ball).value


def test_star_pots_the_colour_the_player_needs_next() -> None:
    # star 4.1: blue first; ball 2 is blue, ball 1 yellow (shared_rules.star.COLOURS); then yellow
    assert _colour(0, (0, 0), [0, 1, 2]) == "blue"
    assert _colour(1, (0, 1), [0, 1, 2]) == "yellow"
    assert _colour(0, (0, 0), [0, 1]) == "ivory"  # the joker
    assert _colour(0, (0, 0), [1]) is None


def test_questions_are_answered_with_the_called_ball_or_the_first_option() -> None:
    rng = random.Random(1)
    board = {
        "questions": [
            {"id": "identify:p1", "action": "identify", "item": "p1", "options": ["4", "7"]},
            {"id": "need:choice:1:3", "action": "choose", "player": 1, "options": ["take_ball", "give_back"]},
            {"id": "need:declaration:0:4", "action": "declare", "options": ["4"]},
        ]
    }
    assert answers(board, 7, rng) == [
        {"kind": "identify", "item": "p1", "ball": 7},
        {"kind": "choose", "player": 1, "option": "take_ball"},
    ]
    assert answers(board, None, rng)[0]["ball"] == 4


def test_web_demo_plays_match_after_match_through_the_panel_api(tmp_path: Path) -> None:
    """`luza demo` on a screen: locked-down broker, hub, web app; the script starts and referees each match
    with the demo PIN through the REST API (Classic: calls and named balls; 100 points: calls, #10 last)."""
    lines: list[str] = []
    result = run_web_demo(
        ["classic", "hundred"],
        speed=25.0,
        seed=3,
        workdir=str(tmp_path),
        port=0,
        matches=2,
        out=lines.append,
        pause_s=0,
    )
    assert result.problem is None
    assert [m[0] for m in result.matches] == ["classic", "hundred"]
    for variant, winner, scores, _shots in result.matches:
        assert winner in (0, 1) and scores[winner] >= TARGETS[variant]
    assert any(
        line.startswith("  referee PIN / PIN судьи: 2468   club PIN / PIN клуба: 1357") for line in lines
    )
    assert any("/board/demo" in line for line in lines) and any("/referee/demo" in line for line in lines)
    db = sqlite3.connect(tmp_path / "luza.db")
    by = {
        json.loads(r)["args"].get("by")
        for (r,) in db.execute("SELECT record FROM inputs WHERE source = 'referee'")
    }
    db.close()
    assert by == {"demo"}  # every referee action came through the panel API with the demo's token


def test_demo_command_line_says_what_to_do_when_the_port_is_taken(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "hub.cli",
                "demo",
                "--port",
                str(port),
                "--matches",
                "1",
                "--workdir",
                str(tmp_path),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=Path(__file__).resolve().parents[3],
        )
    assert proc.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in proc.stderr and f"(try --port {port + 1})" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_demo_plays_a_race_to_3_with_a_handicap_and_replays_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`luza demo --race 3 --handicap balls:2`: Free frames alternate the break (general 11), every frame
    opens with two balls on seat 1's shelf (general A-G5),
    and `luza replay` re-derives the whole match from the store."""
    args = argparse.Namespace(
        variant="free",
        speed=25.0,
        seed=4,
        workdir=str(tmp_path),
        race=3,
        break_rule="alternate",
        handicap=demo_command.handicap("balls:2"),
        terminal=True,
    )
    assert demo_command.run(args) == 0
    out = capsys.readouterr().out
    assert "frames / партии " in out and "won by seat" in out
    from hub.cli import main

    assert main(["replay", str(tmp_path / "luza.db"), "--match", "1"]) == 0
    replay = capsys.readouterr().out
    assert "race to 3 (alternate breaks): frames " in replay and "verified" in replay
    frames = [line for line in replay.splitlines() if line.startswith("  frame ")]
    assert len(frames) >= 3
    breakers = [int(line.rsplit(" ", 1)[1]) for line in frames]
    assert all(b != a for a, b in itertools.pairwise(breakers))  # alternate (general 11)


def test_demo_plays_a_race_to_the_time_limit_and_replays_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`luza demo --race 3 --time-limit 1`: the hub calls time by itself a minute (of the demo's time)
    into the match; the frame in play is finished and the leader in frames wins (general A-G6) before anyone
    reaches 3; `luza replay` re-derives it, the time included."""
    args = argparse.Namespace(
        variant="free",
        speed=25.0,
        seed=5,
        workdir=str(tmp_path),
        race=3,
        break_rule="alternate",
        handicap=None,
        time_limit=1,
        time_rule="finish_frame",
        terminal=True,
    )
    assert demo_command.run(args) == 0
    assert "won by seat" in capsys.readouterr().out
    from hub.cli import main

    assert main(["replay", str(tmp_path / "luza.db"), "--match", "1"]) == 0
    replay = capsys.readouterr().out
    (race,) = [line for line in replay.splitlines() if line.startswith("  race to 3")]
    assert "time limit 1 min (finish_frame), time up" in race and "verified" in replay
    won = [int(n) for n in race.split("frames ", 1)[1].split(",", 1)[0].split(":")]
    assert max(won) < 3 and won[0] != won[1]  # won on time, by the leader in frames


def test_demo_handicap_option_refuses_nonsense() -> None:
    with pytest.raises(argparse.ArgumentTypeError) as e:
        demo_command.handicap("goals:3")
    assert "KIND:AMOUNT" in str(e.value)
