"""Exports of a match whose evidence has holes (hub.store.gaps) say so: JSON, CSV, HTML (and PDF, which is the
HTML) carry "evidence incomplete" with the missing ranges instead of "verified", and `luza verify` of the JSON
says INCOMPLETE (exit 1); once the hole is filled the same exports are complete and verified."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import jsonschema
import pytest

from hub.cli import main
from hub.service.hub import Hub
from tests.hub.conftest import make_config
from tests.hub.nodes import Clock, Node
from tests.hub.service.test_service import T0, start_free_match, wait_for
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto
ROOT = Path(__file__).resolve().parents[2]


def export(db: Path, match_id: int, fmt: str, out: Path, lang: str = "en") -> Path:
    assert (
        main(
            [
                "export",
                "--db",
                str(db),
                "--match",
                str(match_id),
                "--format",
                fmt,
                "--lang",
                lang,
                "-o",
                str(out),
            ]
        )
        == 0
    )
    return out


def test_exports_of_a_match_with_a_hole_say_the_evidence_is_incomplete(
    mosquitto: Mosquitto, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "luza.db"
    clock = Clock(T0)
    hub = Hub(make_config(mosquitto, db), clock=clock).start(connect_timeout=5)
    head = Node(mosquitto.port, "t1", "p-head", "pocket")
    try:
        match_id, _ = start_free_match(hub, clock)
        ev = [head.event("pocket", T0 + 1000 + 1000 * i, p=1 + i % 2, c="ivory") for i in range(4)]
        for i in (0, 1, 3):  # seq 3 never reaches the hub
            head.send(ev[i])
        wait_for(lambda: hub.stats["accepted"] == 3)
        assert hub.wait_idle(5)

        doc = json.loads(export(db, match_id, "json", tmp_path / "m.json").read_text())
        jsonschema.validate(doc, json.loads((ROOT / "docs" / "match-export.schema.json").read_text()))
        ev_json = doc["verification"]["evidence"]
        assert ev_json["complete"] is False and ev_json["missing_events"] == 1
        assert ev_json["missing"] == [{"device": "p-head", "boot": 1, "first": 3, "last": 3}]
        assert "p-head boot 1 seq 3" in ev_json["en"] and "неполные" in ev_json["ru"]
        rows = list(
            csv.DictReader(
                io.StringIO(
                    export(db, match_id, "csv", tmp_path / "m.csv").read_bytes().decode("utf-8-sig"),
                    newline="",
                )
            )
        )[:-1]  # signature
        assert rows and all(r["evidence"].startswith("evidence incomplete: 1 event(s)") for r in rows)
        page = export(db, match_id, "html", tmp_path / "m.html").read_text()
        assert (
            "Evidence incomplete" in page and "p-head boot 1 seq 3" in page and "Replay-verified" not in page
        )
        page_ru = export(db, match_id, "html", tmp_path / "m-ru.html", "ru").read_text()
        assert "Доказательства неполные" in page_ru and "Проверено повторным расчётом" not in page_ru
        assert export(db, match_id, "pdf", tmp_path / "m.pdf").read_bytes().startswith(b"%PDF")
        capsys.readouterr()
        assert main(["verify", str(tmp_path / "m.json")]) == 1
        out = capsys.readouterr().out
        assert out.startswith("INCOMPLETE:") and "p-head boot 1 seq 3" in out and "verified:" not in out

        head.send(ev[2])  # the hole is filled
        wait_for(lambda: hub.stats["accepted"] == 4)
        assert hub.wait_idle(5)
        doc = json.loads(export(db, match_id, "json", tmp_path / "m2.json").read_text())
        assert doc["verification"]["evidence"] == {"complete": True, "missing_events": 0, "missing": []}
        rows = list(
            csv.DictReader(
                io.StringIO(
                    export(db, match_id, "csv", tmp_path / "m2.csv").read_bytes().decode("utf-8-sig"),
                    newline="",
                )
            )
        )[:-1]  # signature
        assert {r["evidence"] for r in rows} == {"complete"}
        assert "Replay-verified" in export(db, match_id, "html", tmp_path / "m2.html").read_text()
        capsys.readouterr()
        assert main(["verify", str(tmp_path / "m2.json")]) == 0
        assert capsys.readouterr().out.startswith("verified:")
    finally:
        hub.stop()
        head.close()
