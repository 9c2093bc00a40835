"""`luza demo` end to end: private Mosquitto, virtual nodes running the firmware logic, hub, rules engine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hub.demo import run_demo, scoreboard_line

pytestmark = pytest.mark.mosquitto


@pytest.mark.parametrize("variant", ["free", "dynamic"])
def test_demo_plays_a_match_to_a_result_and_keeps_it_in_the_store(variant: str, tmp_path: Path) -> None:
    lines: list[str] = []
    result = run_demo(variant, speed=25.0, seed=3, workdir=str(tmp_path), out=lines.append)
    assert result.over and result.winner in (0, 1)
    assert max(result.scores) == 8 and result.scores[result.winner] == 8  # free/dynamic 1: first to 8
    assert any("won by / победил" in line for line in lines)
    assert any(f"{variant} 1:" in line for line in lines)  # the deciding reason cites the variant's paragraph
    assert (tmp_path / "luza.db").stat().st_size > 0


def test_scoreboard_line_reads_in_both_languages() -> None:
    line = scoreboard_line({"players": ["Ivan", "Petr"], "scores": [3, 1], "to_play": 1, "over": False,
                            "last_reasons": [{"en": "free 5.2: again", "ru": "free 5.2: ещё"}]})
    assert line.splitlines() == ["Ivan 3 : 1 Petr  · to play / бьёт: Petr", "    free 5.2: again",
                                 "    free 5.2: ещё"]


def test_demo_refuses_a_variant_it_cannot_play_with_a_clear_message() -> None:
    out = subprocess.run([sys.executable, "-m", "hub.cli", "demo", "--variant", "snooker"],
                         capture_output=True, text=True)
    assert out.returncode == 2
    assert "invalid choice: 'snooker'" in out.stderr and "Traceback" not in out.stderr
