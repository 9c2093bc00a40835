"""Issue 22's whole match, as a club would watch it: `luza demo` plays a Classic race to 3 with a frames
handicap and the shot clock from the sensors, a real Chromium shows it on the wall board and the stream
overlay, and the finished match exports to one scoresheet with every frame that `luza verify` passes and a
tampered copy fails (general 11: the break alternates; A-G4: first to 3 frames; A-G5:
a frame given before the first break).
The clock's own rules (it starts at the settle, stops at the strike) are
tests/hub/service/test_shot_clock.py's; here the screens are checked to show it on
every shot the demo plays."""

from __future__ import annotations

import itertools
import json
import queue
import threading
from pathlib import Path
from typing import Any

import pytest

from hub.cli import main
from hub.demo.web import run_web_demo
from hub.export import html
from tests.dashboard.support import BOARD
from tests.export.test_json import export

pytestmark = [pytest.mark.browser, pytest.mark.mosquitto]

RACE = {"race_to": 3, "break_rule": "alternate", "handicap": {"kind": "frames", "amount": 1, "seat": 1}}
CLOCK = {"limit_s": 45, "extensions": 1}


class Watched:
    """The table states a page received on its WebSocket (the board's own feed)."""

    def __init__(self) -> None:
        self.states: list[dict[str, Any]] = []

    def on(self, page: Any) -> None:
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: Any) -> None:
        try:
            msg = json.loads(payload)
        except (TypeError, ValueError):
            return
        if isinstance(msg, dict) and isinstance(msg.get("match"), dict):
            self.states.append(msg["match"])


def open_screen(browser: Any, url: str, watch: Watched | None = None) -> Any:
    page = browser.new_page(viewport=BOARD)
    if watch is not None:
        watch.on(page)
    page.goto(url)
    page.wait_for_function("document.body.dataset.online === '1'", timeout=30_000)
    return page


def test_the_demo_plays_a_classic_race_to_3_with_a_handicap_and_the_shot_clock(
    browser: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ready: queue.Queue[str] = queue.Queue()
    go = threading.Event()
    done: list[Any] = []

    def on_ready(base: str) -> None:
        ready.put(base)
        go.wait(60)  # the screens are open before the first shot

    demo = threading.Thread(
        target=lambda: done.append(
            run_web_demo(
                ["classic"],
                speed=20.0,
                seed=3,
                workdir=str(tmp_path),
                port=0,
                matches=1,
                out=lambda _: None,
                pause_s=0,
                on_ready=on_ready,
                race=RACE,
                shot_clock=CLOCK,
            )
        ),
        daemon=True,
    )
    demo.start()
    base = ready.get(timeout=120)
    seen = Watched()
    board = open_screen(browser, f"{base}/board/demo?lang=ru", seen)
    overlay = open_screen(browser, f"{base}/overlay/demo?lang=ru")
    go.set()
    board.wait_for_function(
        "(document.getElementById('race')?.textContent || '').includes('до 3 побед')", timeout=60_000
    )
    # the clock runs from the first settle
    board.wait_for_selector("#shotclock:not([hidden])", timeout=60_000)
    assert overlay.locator(".mid .race").inner_text().startswith("до 3 побед")
    overlay.wait_for_selector("#shotclock:not([hidden])", timeout=60_000)
    overlay.wait_for_function(
        "(document.querySelector('.mid .race')?.textContent || '').includes('партия 2')", timeout=300_000
    )  # the frame score moves on the overlay too
    demo.join(600)
    assert not demo.is_alive() and done and done[0].problem is None, done
    clocks = [m["shot_clock"] for m in seen.states if m.get("shot_clock")]
    assert clocks and all(c["on"] and c["limit_ms"] == 45_000 and c["extensions"] == 1 for c in clocks), {
        (c["on"], c["limit_ms"], c["extensions"]) for c in clocks
    }
    timed = {c["shot"] for c in clocks if c["running"] and c["started_at"] is not None}
    measured = {c["last"]["shot"]: c["last"] for c in clocks if c["last"]}
    # every shot timed from its settle, measured at its strike
    assert len(timed) >= 10 and len(measured) >= 10
    assert all(m["shot_ms"] is not None and m["allowed_ms"] == 45_000 for m in measured.values())

    doc = export(tmp_path / "luza.db", 1)
    race, frames = doc["race"], doc["frames"]
    assert race["race_to"] == 3 and race["winner"] in (0, 1) and race["score"][race["winner"]] == 3
    assert race["head_start"] == [0, 1]  # general A-G5: a frame given to seat 1 before the first break
    breakers = [f["result"]["breaker"] for f in frames]
    assert all(a != b for a, b in itertools.pairwise(breakers))  # general 11: the break alternates
    untimed = [
        (s["frame"], s["number"]) for s in doc["shots"] if s.get("strike") and s.get("shot_ms") is None
    ]
    # only each frame's break: nothing settled before it
    assert untimed == [(k, 1) for k in range(1, len(frames) + 1)]
    page = html.render(doc, "ru")
    assert page.count('<h2 class="frame">') == len(frames) >= 2 and "до 3 побед" in page
    good = tmp_path / "race.json"
    good.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    capsys.readouterr()
    assert main(["verify", str(good)]) == 3  # replays to the same result; 3: the test's file is not signed
    assert "replays to the same result" in capsys.readouterr().out
    bad = json.loads(json.dumps(doc))
    bad["race"]["score"] = list(reversed(bad["race"]["score"]))
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    assert main(["verify", str(tampered)]) == 1
    assert capsys.readouterr().out.startswith("FAILED:")
