"""Shot times in the exports (issue 22, item 3; hub/reconcile/shotclock.py): JSON `shot_ms` and `shot_clock`,
the CSV's `shot_time_s`; `luza verify` re-derives them (a tampered time fails) and still passes a file
exported before shot times existed."""

from __future__ import annotations

import copy
import json
from itertools import pairwise
from pathlib import Path
from typing import Any

from hub.export import build, csvfile, load
from hub.export.verify import verify
from hub.store.database import Store


def export(db: Path, match_id: int = 1) -> dict[str, Any]:
    store = Store(db, readonly=True)
    try:
        return json.loads(json.dumps(build(load(store, match_id))))
    finally:
        store.close()


def test_every_shot_has_its_time_from_the_previous_settle_to_its_strike(match_db: Path) -> None:
    doc = export(match_db)
    shots = doc["shots"]
    settle = doc["settings"]["settle"]
    assert shots[0]["shot_ms"] is None  # the break: nothing settled before it
    for before, shot in pairwise(shots):
        if shot["strike"] is None:
            continue
        balls = [b["at_ms"] for b in before["balls"] if b["source"] == "sensor"]
        settled = max(
            [before["opened_ms"] + settle["min_shot_ms"], *(t + settle["pocket_settle_ms"] for t in balls)]
        )
        assert shot["shot_ms"] == max(0, shot["strike"]["at_ms"] - settled), shot["number"]
    # no clock set
    assert doc["settings"]["shot_clock"] is None and all(s["shot_clock"] is None for s in shots)


def test_the_csv_gives_the_shot_time_in_seconds(match_db: Path) -> None:
    doc = export(match_db)
    rows = csvfile.rows(doc)
    assert [r["shot_time_s"] for r in rows] == [
        "" if s["shot_ms"] is None else f"{s['shot_ms'] / 1000:.1f}" for s in doc["shots"]
    ]
    assert rows[1]["shot_time_s"] == "14.8" and csvfile.COLUMNS[-1] == "evidence"


def test_verify_recomputes_shot_times_and_reads_files_from_before_them(match_db: Path) -> None:
    doc = export(match_db)
    assert verify(doc).ok
    tampered = copy.deepcopy(doc)
    tampered["shots"][1]["shot_ms"] = 9000
    verdict = verify(tampered)
    assert not verdict.ok and any("shots[1].shot_ms" in p for p in verdict.problems)
    older = copy.deepcopy(doc)
    for s in older["shots"]:
        del s["shot_ms"], s["shot_clock"]
    assert verify(older).ok  # an export made before shot times were exported
