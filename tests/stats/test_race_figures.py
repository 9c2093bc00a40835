"""The statistics of a race (general 11, A-G4): the match is the race's, each frame counts as a frame, a
seat's points are its frames' scores, and every frame has its break. The race of the export tests
(tests/export/ matchkit.py `play_free_race`: Free to 2 frames, 2 balls of handicap to Сергей; Иван wins
frame 1, Сергей frames 2 and 3) played through a real Hub by registered players."""

from __future__ import annotations

from pathlib import Path

from hub.export import build, load
from hub.stats import registry
from hub.stats.compute import compute
from hub.stats.figures import head_to_head
from hub.store.database import Store
from tests.export.matchkit import Clock, Table, open_hub, play_free_race


def test_a_race_counts_for_its_winner_with_every_frame(tmp_path: Path) -> None:
    db = tmp_path / "luza.db"
    clock = Clock()
    ivan = registry.add(db, {"name": "Иван Петров"}, clock.ms).id
    sergei = registry.add(db, {"name": "Сергей Кузнецов"}, clock.ms).id
    hub = open_hub(db, clock)
    try:
        t = Table(hub, clock)
        t.births()
        play_free_race(t, player_ids=[ivan, sergei])
        assert hub.state("t1")["last_match"]["player_ids"] == [ivan, sergei]
    finally:
        hub.stop()
    s = Store(db, readonly=True)
    try:
        doc = build(load(s, 1))
    finally:
        s.close()
    frames = [f["result"] for f in doc["frames"]]
    assert [f["winner"] for f in frames] == [0, 1, 1] and frames[1]["scores"] == [1, 8]
    fig, run = compute(db)
    assert fig.counted == 1 and fig.left_out == [] and run.folded == 1
    i, g = fig.players[ivan], fig.players[sergei]
    # the match is the race's: Сергей won it 2:1, though Иван won the first frame
    assert i["matches"] == {"played": 1, "won": 0, "lost": 1, "drawn": 0, "unfinished": 0}
    assert g["matches"]["won"] == 1 and g["matches"]["lost"] == 0
    assert i["frames"] == {"played": 3, "won": 1, "lost": 2} and g["frames"] == {
        "played": 3,
        "won": 2,
        "lost": 1,
    }
    # points: the sum of each frame's final scores, not the last frame's alone
    for_i = sum(f["scores"][0] for f in frames)
    for_g = sum(f["scores"][1] for f in frames)
    assert i["points"] == {"for": for_i, "against": for_g} and g["points"] == {"for": for_g, "against": for_i}
    assert for_g > frames[-1]["scores"][1]
    # Free numbers no ball: each pot the engine shelved counts (free 6). Иван: 5; 3, 6 (frame 1); 3 (frame 2).
    # Сергей: 5; 1, then 2, 6, 4, 5 in one visit (frame 2)
    assert (i["balls"], g["balls"]) == (4, 6) and (i["visits"], g["visits"]) == (3, 2)
    assert g["best_run"] is not None and g["best_run"]["balls"] == 4
    assert g["pockets"] == {"1": 1, "2": 1, "3": 0, "4": 1, "5": 2, "6": 1}
    # a break per frame: Иван broke frames 1 (a pot) and 3 (nothing; general 11:
    # the break alternates), Сергей 2
    assert i["breaks"] == {"count": 2, "pot": 1, "foul": 0, "none": 1, "balls": 1}
    assert g["breaks"] == {"count": 1, "pot": 1, "foul": 0, "none": 0, "balls": 1}
    assert g["rating"] > i["rating"]
    [rec] = head_to_head(fig, ivan)
    assert rec["opponent"]["id"] == sergei and (rec["won"], rec["lost"]) == (0, 1)
