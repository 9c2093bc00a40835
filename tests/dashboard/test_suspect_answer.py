"""The referee panel answers the hub's question about a ball dated impossibly (hub/ingest/suspects.py) with
the same referee actions the hub documents: `add` -> add_ball (its pocket and shot), `ignore` -> dismiss_alert
of the question's id. The panel's own `answerOf` (dashboard/js/panel-cards.js) runs under Node with the few
browser globals it reads stubbed; tests/faults/test_clock_jump.py sends those actions to a hub
and sees the question go."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from hub.ingest.suspects import SuspectBall, answer, question

JS = Path(__file__).resolve().parents[2] / "dashboard" / "js"
STUBS = (
    "globalThis.location = {search: '', hash: '', pathname: '/referee.html'};"
    "globalThis.localStorage = {getItem: () => null, setItem: () => {}};"
    "globalThis.navigator = {language: 'en'};"
    "globalThis.document = {documentElement: {lang: 'en'}, addEventListener() {}, "
    "querySelector() { return null; }};"
)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node (scripts/setup installs it)")
def test_the_panel_answers_a_suspect_ball_question_as_the_hub_expects() -> None:
    q = question("suspect:pockets-123/1/4", SuspectBall("pockets-123/1/4", 3, 1_780_000_000_000, "future"), 5)
    script = (
        STUBS + "const q = " + json.dumps(q) + ";"
        "import('./panel-cards.js').then((m) => console.log(JSON.stringify(q.choices.map("
        "(c) => m.answerOf(q, c.value)))));"
    )
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script], cwd=JS, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    got = [tuple(a) for a in json.loads(out.stdout)]
    assert got == [answer(q, "add"), answer(q, "ignore")]
    assert got == [
        ("add_ball", {"pocket": 3, "shot_number": 5}),
        ("dismiss_alert", {"alert": "suspect:pockets-123/1/4"}),
    ]
