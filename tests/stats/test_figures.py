"""The statistics of seeded matches (tests/stats/seeded.py) against a hand count from their scripts and logs:
every figure of every player, the head-to-head records, the rating by Elo's formula written out here; the same
figures when the whole history is recomputed again, with or without the cache;
a merge moves matches and figures."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.stats import facts as facts_mod
from hub.stats.compute import compute
from hub.stats.figures import head_to_head, leaderboard
from hub.stats.registry import PlayerError, merge
from hub.store.database import Store
from hub.store.players import Players
from tests.stats.seeded import seed

A_START = 1_794_668_400_000  # tests/export/matchkit.py START_MS: match A starts there


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, int]]:
    db = tmp_path_factory.mktemp("seeded") / "luza.db"
    return db, seed(db)


@pytest.fixture
def db(seeded: tuple[Path, dict[str, int]], tmp_path: Path) -> Iterator[Path]:
    """A copy of the seeded database of its own (a merge changes it)."""
    copy = tmp_path / "luza.db"
    for f in seeded[0].parent.glob("luza.db*"):
        shutil.copy(f, tmp_path / f.name)
    yield copy


def elo(r_a: float, r_b: float, s_a: float) -> tuple[float, float]:
    """Elo by hand: E = 1 / (1 + 10^((Rb - Ra) / 400)), R' = R + 32 (S - E)."""
    e_a = 1 / (1 + 10 ** ((r_b - r_a) / 400))
    return r_a + 32 * (s_a - e_a), r_b + 32 * ((1 - s_a) - (1 - e_a))


def strike_times(db: Path, match_id: int) -> list[tuple[str, int]]:
    """The cue strikes of a match straight from its stored log: (device, hub time)."""
    s = Store(db, readonly=True)
    try:
        return [
            (r.device or "", r.at_ms)
            for r in s.inputs(match_id=match_id)
            if r.record.get("type") == "sensor" and r.record.get("kind") == "strike"
        ]
    finally:
        s.close()


def test_every_figure_matches_the_hand_count(db: Path, seeded: tuple[Path, dict[str, int]]) -> None:
    ids = seeded[1]
    fig, run = compute(db)
    assert run.folded == 4 and fig.counted == 4 and fig.left_out == []
    ivan, sergei, anna, dup = (fig.players[ids[k]] for k in ("ivan", "sergei", "anna", "dup"))
    # Иван: A (7 shots: break pots ball 4 in pocket 5; 15 in 3; miss; then 14/2, 12/6, 11/3, 10/5) and B (13
    # in 4, then a touch called: hundred 19)
    assert ivan["matches"] == {"played": 2, "won": 1, "lost": 1, "drawn": 0, "unfinished": 0}
    assert ivan["frames"] == {"played": 2, "won": 1, "lost": 1}
    assert ivan["points"] == {"for": 71 + 0, "against": 8 + 52}
    assert (ivan["shots"], ivan["visits"], ivan["balls"], ivan["potting_shots"]) == (
        7 + 2,
        2 + 1,
        6 + 1,
        6 + 1,
    )
    assert ivan["balls_per_visit"] == round(7 / 3, 2) and ivan["pot_rate"] == round(7 / 9, 3)
    # the best series: A's second visit, 14 + 12 + 11 + 10, from the strike of its first shot
    a_strikes = strike_times(db, 1)
    assert len(a_strikes) == 9
    assert ivan["best_run"] == {"balls": 4, "points": 47, "at_ms": a_strikes[5][1], "match": 1}
    # shot time = strike - (the previous shot's strike or last ball + 12 s): A 4, 9, 4, 4, 5, 4 s; B 7, 4 s
    assert ivan["shot_time"] == {"count": 8, "average_ms": (30_000 + 11_000) // 8, "longest_ms": 9000}
    assert ivan["fouls"] == {"hundred 19": 1}
    assert ivan["breaks"] == {"count": 1, "pot": 1, "foul": 0, "none": 0, "balls": 1}
    assert ivan["pockets"] == {"1": 0, "2": 1, "3": 2, "4": 1, "5": 2, "6": 1}
    # Сергей: A (13 in 4; the cue ball in 1: classic 5.5), C (a break, nothing), D (as A)
    assert sergei["matches"] == {"played": 3, "won": 0, "lost": 2, "drawn": 0, "unfinished": 1}
    assert sergei["points"] == {"for": 8 + 0 + 8, "against": 71 + 0 + 71}
    assert (sergei["shots"], sergei["visits"], sergei["balls"]) == (2 + 1 + 2, 1 + 1 + 1, 1 + 0 + 1)
    assert sergei["best_run"] == {"balls": 1, "points": 13, "at_ms": a_strikes[3][1], "match": 1}
    assert sergei["shot_time"] == {"count": 4, "average_ms": (2000 + 14_000) * 2 // 4, "longest_ms": 14_000}
    assert sergei["fouls"] == {"classic 5.5": 2}
    assert sergei["breaks"] == {"count": 1, "pot": 0, "foul": 0, "none": 1, "balls": 0}
    assert sergei["pockets"]["4"] == 2 and sum(sergei["pockets"].values()) == 2
    # Anna: B (15 in 3, miss; 14/2, 12/6, 11/3): shot times 4, 4.6 (after the touch), 4, 4 s
    assert anna["matches"]["won"] == 1 and anna["points"] == {"for": 52, "against": 0}
    assert (anna["shots"], anna["visits"], anna["balls"], anna["pot_rate"]) == (5, 2, 4, 0.8)
    assert (
        anna["best_run"]["balls"] == 3 and anna["best_run"]["points"] == 37 and anna["best_run"]["match"] == 2
    )
    assert anna["shot_time"] == {
        "count": 4,
        "average_ms": (4000 + 4600 + 4000 + 4000) // 4,
        "longest_ms": 4600,
    }
    assert anna["pockets"] == {"1": 0, "2": 1, "3": 2, "4": 0, "5": 0, "6": 1}
    assert dup["matches"]["won"] == 1 and dup["best_run"]["match"] == 4
    # the rating: A (Иван beats Сергей), B (Anna beats Иван), D (the duplicate beats Сергей); C is not rated
    r_i, r_s = elo(1500, 1500, 1)
    r_a, r_i = elo(1500, r_i, 1)
    r_d, r_s = elo(1500, r_s, 1)
    assert (ivan["rating"], sergei["rating"], anna["rating"], dup["rating"]) == tuple(
        round(x, 1) for x in (r_i, r_s, r_a, r_d)
    )
    assert (ivan["rated"], sergei["rated"], anna["rated"]) == (2, 2, 1)
    assert [p["id"] for p in leaderboard(fig)] == [ids["anna"], ids["dup"], ids["ivan"], ids["sergei"]]


def test_head_to_head_and_the_handicap_it_suggests(db: Path, seeded: tuple[Path, dict[str, int]]) -> None:
    ids = seeded[1]
    fig, _ = compute(db)
    rows = {r["opponent"]["id"]: r for r in head_to_head(fig, ids["ivan"])}
    assert set(rows) == {ids["sergei"], ids["anna"]}
    v_sergei = rows[ids["sergei"]]
    assert (
        v_sergei["matches"],
        v_sergei["won"],
        v_sergei["lost"],
        v_sergei["points_for"],
        v_sergei["points_against"],
    ) == (1, 1, 0, 71, 8)
    assert rows[ids["anna"]]["lost"] == 1 and rows[ids["anna"]]["points_against"] == 52
    diff = fig.players[ids["ivan"]]["rating"] - fig.players[ids["sergei"]]["rating"]
    e = 1 / (1 + 10 ** (-diff / 400))
    assert v_sergei["handicap"]["to"] == "opponent" and v_sergei["handicap"]["points"] == int(
        71 * (e - 0.5) + 0.5
    )
    assert rows[ids["anna"]]["handicap"]["to"] is None  # 17 rating points apart: no handicap below 25
    # the guest typed in by name (match C) is nobody's opponent in a head-to-head record
    assert sorted(r["opponent"]["id"] for r in head_to_head(fig, ids["sergei"])) == sorted(
        [ids["ivan"], ids["dup"]]
    )


def test_recomputing_the_whole_history_gives_identical_figures(db: Path) -> None:
    first, run1 = compute(db)
    again, run2 = compute(db)
    cold, run3 = compute(db, use_cache=False)
    assert (run1.folded, run2.folded, run2.cached, run3.folded) == (4, 0, 4, 4)
    dump = [
        json.dumps(dict(sorted(f.players.items())), ensure_ascii=False, sort_keys=True)
        for f in (first, again, cold)
    ]
    assert dump[0] == dump[1] == dump[2]
    assert first.pairs == again.pairs == cold.pairs


def test_a_new_facts_version_folds_every_match_again(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compute(db)
    monkeypatch.setattr("hub.stats.compute.VERSION", facts_mod.VERSION + 1)
    _, run = compute(db)
    assert run.folded == 4


def test_merging_moves_matches_and_figures(db: Path, seeded: tuple[Path, dict[str, int]]) -> None:
    ids = seeded[1]
    before, _ = compute(db)
    assert merge(db, ids["dup"], ids["ivan"], A_START) == 1
    after, run = compute(db)
    assert run.folded == 0  # the facts are per seat: a merge changes who sat there, not what happened
    ivan = after.players[ids["ivan"]]
    assert ids["dup"] not in after.players
    assert ivan["matches"] == {"played": 3, "won": 2, "lost": 1, "drawn": 0, "unfinished": 0}
    assert ivan["points"]["for"] == 71 + 0 + 71 and ivan["shots"] == 7 + 2 + 7
    assert ivan["fouls"] == before.players[ids["ivan"]]["fouls"]
    assert [r["match"] for r in ivan["recent"]] == [4, 2, 1]
    v_sergei = next(r for r in head_to_head(after, ids["ivan"]) if r["opponent"]["id"] == ids["sergei"])
    assert (v_sergei["matches"], v_sergei["won"]) == (2, 2)
    # the match itself now names Иван (its export carries the id beside the name typed then)
    s = Store(db, readonly=True)
    try:
        m = s.match(4)
        assert (
            m is not None and m.player_ids == (ids["ivan"], ids["sergei"]) and m.players[0] == "Ivan Petrov"
        )
    finally:
        s.close()
    reg = Players(db)
    old = reg.get(ids["dup"])
    assert old is not None and old.merged_into == ids["ivan"] and reg.resolve(ids["dup"]) == ids["ivan"]
    assert [p.id for p in reg.search("ivan petrov")] == [ids["ivan"]]  # the duplicate no longer found


@pytest.mark.parametrize(
    "dup,into,field,words",
    [
        ("sergei", "sergei", "into", "cannot be merged into themself"),
        ("ivan", "sergei", "into", "played each other (match 1)"),
        ("ivan", 99, "player", "no player 99"),
    ],
)
def test_a_merge_that_cannot_be(
    db: Path, seeded: tuple[Path, dict[str, int]], dup: Any, into: Any, field: str, words: str
) -> None:
    ids = seeded[1]
    with pytest.raises(PlayerError) as exc:
        merge(db, ids[dup], ids.get(into, into) if isinstance(into, str) else into, A_START)
    assert words in exc.value.en and exc.value.ru and exc.value.field == field


def test_an_incomplete_match_is_left_out(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A match whose evidence has holes is not verified: listed as left out, counted for nobody."""
    real = facts_mod.match_facts

    def holed(doc: dict[str, Any]) -> dict[str, Any]:
        out = real(doc)
        return {**out, "complete": out["match"] != 2}

    monkeypatch.setattr("hub.stats.compute.match_facts", holed)
    fig, _ = compute(db, use_cache=False)
    assert [x["match"] for x in fig.left_out] == [2] and fig.counted == 3
    assert all(r["match"] != 2 for p in fig.players.values() for r in p["recent"])
