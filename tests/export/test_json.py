"""The JSON evidence log: golden exports of a Classic and a 100 points match played through the hub, the JSON
Schema, and `luza verify` (passes on an export, fails on a tampered one and says where)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from hub.cli import main
from hub.export import build, load
from hub.export.verify import verify
from hub.store.database import Store

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
SCHEMA = json.loads((ROOT / "docs" / "match-export.schema.json").read_text())
MATCHES = {"classic": 1, "hundred": 2}


def export(db: Path, match_id: int) -> dict[str, Any]:
    store = Store(db, readonly=True)
    try:
        return json.loads(json.dumps(build(load(store, match_id))))
    finally:
        store.close()


@pytest.mark.parametrize("variant", sorted(MATCHES))
def test_the_export_equals_the_golden_file(variant: str, match_db: Path) -> None:
    doc = export(match_db, MATCHES[variant])
    doc.pop("generator")  # the installed version; everything else is fixed by the script and its clock
    path = GOLDEN / f"{variant}.json"
    if os.environ.get("LUZA_UPDATE_GOLDEN"):
        path.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    assert doc == json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("variant", sorted(MATCHES))
def test_the_export_is_valid_under_the_schema_and_says_what_happened(variant: str, match_db: Path) -> None:
    doc = export(match_db, MATCHES[variant])
    jsonschema.validate(doc, SCHEMA)
    assert doc["result"]["winner_name"] == "Иван Петров" and doc["result"]["status"] == "ended"
    assert doc["verification"]["matches_stored_state"] is True
    assert doc["settings"]["table"]["pockets"] == {"pk-12": [1, 2], "pk-34": [3, 4], "pk-56": [5, 6]}
    assert doc["settings"]["firmware"]["cue-a"] == "0.3.1" and doc["settings"]["rules"]["variant"] == variant
    foul = next(s for s in doc["shots"] if s["fouls"])
    assert foul["reasons"] and all(r["ru"] and r["en"] for r in foul["reasons"])
    assert any(e["kind"] == "score" and e["amount"] < 0 for e in foul["effects"])
    called = next(s for s in doc["shots"] if s["call"] and s["balls"])
    assert (
        called["balls"][0]["ball"] == called["call"][0]["ball"]
        and called["balls"][0]["seen_colour"] == "ivory"
    )
    refs = [i for i in doc["inputs"] if i["origin"]["type"] == "referee"]
    sensors = [i for i in doc["inputs"] if i["origin"]["type"] == "sensor"]
    assert refs and sensors and all(i["applied"] for i in doc["inputs"])
    assert {i["origin"]["device"] for i in sensors} >= {"cue-a", "cue-b", "pk-34"}


def test_the_referee_naming_a_ball_is_recorded_as_the_correction_of_its_shot(match_db: Path) -> None:
    doc = export(match_db, 1)
    named = next(i for i in doc["inputs"] if i["origin"].get("action") == "identify")
    assert named["corrects"]["shot"] == 1 and named["origin"]["entered_by"] == "referee"
    assert doc["shots"][0]["balls"][0] | {} == doc["shots"][0]["balls"][0]
    assert (
        doc["shots"][0]["balls"][0]["ball"] == 4 and doc["shots"][0]["balls"][0]["ball_source"] == "referee"
    )


def write(tmp: Path, doc: dict[str, Any], name: str = "m.json") -> Path:
    p = tmp / name
    p.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return p


def test_luza_verify_passes_on_an_export_without_the_database(
    match_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m.json"
    assert main(["export", "--db", str(match_db), "--match", "2", "--format", "json", "-o", str(out)]) == 0
    copy = tmp_path / "elsewhere.json"
    copy.write_bytes(out.read_bytes())
    capsys.readouterr()
    assert main(["verify", str(copy)]) == 0
    assert "verified: match 2 replays to the same result" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("where", "tamper", "expect"),
    [
        (
            "a shot's score",
            lambda d: d["shots"][1]["score_after"].__setitem__(0, 99),
            "shots[1].score_after[0]: 99",
        ),
        ("the winner", lambda d: d["result"].update(winner=1), "result.winner: 1"),
        (
            "a named ball",
            lambda d: next(i for i in d["inputs"] if i["origin"].get("action") == "identify")["record"][
                "args"
            ].update(ball=9),
            "shots[0].balls[0].ball: 4, the replay gives 9",
        ),
        ("a reason", lambda d: d["shots"][0]["reasons"][0].update(ru="подделка"), "shots[0].reasons[0].ru"),
    ],
)
def test_luza_verify_fails_on_a_tampered_export_and_says_where(
    where: str, tamper: Any, expect: str, match_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = export(match_db, 1)
    tamper(doc)
    assert main(["verify", str(write(tmp_path, doc))]) == 1, where
    out = capsys.readouterr().out
    assert out.startswith("FAILED:") and expect in out, out


def test_the_engine_log_alone_is_checked_against_the_result(match_db: Path) -> None:
    doc = export(match_db, 2)
    doc["engine_log"]["frames"][-1].pop()  # the winning shot removed from the engine's log only
    v = verify(doc)
    assert not v.ok and any(p.startswith("engine_log reaches scores") for p in v.problems)


@pytest.mark.parametrize("junk", [None, 1, "x", [], {}])
def test_verify_never_crashes_on_a_mangled_file(junk: object, match_db: Path) -> None:
    """Every top-level, match and first-input field replaced by junk: a Verdict or a one-line ExportError."""
    from hub.export.model import ExportError

    base = export(match_db, 1)
    places: list[tuple[str, ...]] = [(k,) for k in base] + [("match", k) for k in base["match"]]
    places += [("inputs", "0", k) for k in base["inputs"][0]] + [("inputs", "1", "record", "args")]
    for place in places:
        doc = json.loads(json.dumps(base))
        target = doc
        for key in place[:-1]:
            target = target[int(key)] if isinstance(target, list) else target[key]
        target[place[-1]] = junk
        try:
            v = verify(doc)
        except ExportError as exc:
            assert exc.en and "\n" not in exc.en, place
            continue
        derived = place[0] in ("engine_log", "shots", "actions", "result") or (
            place[0] == "inputs" and place[-1] in ("origin", "corrects", "applied", "refused")
        )
        assert not (derived and doc != base and v.ok), place  # a derived part replaced by junk never passes


def test_the_schema_lists_every_effect_kind_of_the_engine() -> None:
    from shared_rules.outcome import EffectKind

    assert set(SCHEMA["$defs"]["effect"]["properties"]["kind"]["enum"]) == {k.value for k in EffectKind}
