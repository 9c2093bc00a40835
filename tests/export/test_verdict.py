"""The hub's `luza verify` verdict on a stored match (hub/export/verdict.py, GET /api/matches/{id}/verify):
each status in the order `luza verify` decides it."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from hub.export import build, load, signing
from hub.export.verdict import verdict_of
from hub.store.database import Store


def signed(db: Path) -> dict[str, Any]:
    s = Store(db, readonly=True)
    try:
        doc = build(load(s, 1), 0)
    finally:
        s.close()
    return signing.sign_json(doc, signing.for_db(db))


def test_each_status(match_db: Path) -> None:
    doc = signed(match_db)
    assert verdict_of(doc)["status"] == "verified"
    unsigned = {k: v for k, v in doc.items() if k != "signature"}
    assert verdict_of(unsigned)["status"] == "unsigned"
    tampered = copy.deepcopy(unsigned)
    tampered["result"]["scores"] = [81, 8]
    assert verdict_of(dict(tampered, signature=doc["signature"]))["status"] == "forged"
    failed = verdict_of(signing.sign_json(tampered, signing.for_db(match_db)))
    assert failed["status"] == "failed" and not failed["ok"]
    assert any("result.scores" in p for p in failed["problems"]), failed["problems"]
