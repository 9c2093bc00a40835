"""Exports that cannot be forged (hub/export/signing.py, `luza verify --key/--fingerprint`): a signed export
verifies as the club's; an edited score, an edited evidence block, a match re-derived after removing events,
a file re-signed by another key each fail with their own message and exit code."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from hub.cli import main
from hub.export import build, load, signing
from hub.export.files import render
from hub.export.model import Source
from hub.store.database import Store

OK, FAILED, UNSIGNED, FORGED = 0, 1, 3, 4


def club_key(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, Path]:
    """The hub's fingerprint as `luza key` prints it, and its public key file."""
    public = tmp_path / "club.pub"
    capsys.readouterr()
    assert main(["key", "--db", str(db), "--public", str(public)]) == 0
    fp = capsys.readouterr().out.split()[0]
    return fp, public


def exported(db: Path, tmp_path: Path, fmt: str = "json", match: int = 1) -> Path:
    out = tmp_path / f"m{match}.{fmt}"
    assert main(["export", "--db", str(db), "--match", str(match), "--format", fmt, "-o", str(out)]) == 0
    return out


def verify(capsys: pytest.CaptureFixture[str], path: Path, *key: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["verify", str(path), *key])
    return code, capsys.readouterr().out


def test_the_key_is_made_once_0600_beside_the_database(
    match_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fp, _ = club_key(match_db, tmp_path, capsys)
    path = signing.key_path(match_db)
    assert path.parent == match_db.parent and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert club_key(match_db, tmp_path, capsys)[0] == fp  # the same key every time


def test_a_signed_export_verifies_as_the_clubs(
    match_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fp, public = club_key(match_db, tmp_path, capsys)
    out = exported(match_db, tmp_path)
    assert json.loads(out.read_text())["signature"]["fingerprint"] == fp
    for key in (["--fingerprint", fp.lower().replace("-", "")], ["--key", str(public)]):
        code, text = verify(capsys, out, *key)
        assert code == OK and f"signed by {fp} (the club's key)" in text and "verified: match 1" in text
    code, text = verify(capsys, out)
    assert code == OK and "not compared: give --key or --fingerprint" in text


def test_an_edited_score_is_forged(
    match_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fp, _ = club_key(match_db, tmp_path, capsys)
    doc = json.loads(exported(match_db, tmp_path).read_text())
    doc["shots"][1]["score_after"][0] = 99
    (tmp_path / "edited.json").write_text(json.dumps(doc, ensure_ascii=False))
    code, text = verify(capsys, tmp_path / "edited.json", "--fingerprint", fp)
    assert code == FORGED and "FORGED: the signature does not match the content" in text


def test_an_edited_evidence_block_is_forged_and_the_evidence_is_rederived(
    match_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fp, _ = club_key(match_db, tmp_path, capsys)
    doc = json.loads(exported(match_db, tmp_path).read_text())
    doc["verification"]["evidence"] = {"complete": False, "missing_events": 3, "missing": []}
    (tmp_path / "edited.json").write_text(json.dumps(doc, ensure_ascii=False))
    code, text = verify(capsys, tmp_path / "edited.json", "--fingerprint", fp)
    assert code == FORGED and "does not match the content" in text
    # unsigned, a block that says "complete" over inputs with a hole is not believed
    del doc["signature"]
    doc["inputs"] = [
        i
        for i in doc["inputs"]
        if not (
            i["origin"]["type"] == "sensor" and i["origin"]["seq"] == 2 and i["origin"]["device"] == "cue-a"
        )
    ]
    doc["verification"]["evidence"] = {"complete": True, "missing_events": 0, "missing": []}
    (tmp_path / "holed.json").write_text(json.dumps(doc, ensure_ascii=False))
    code, text = verify(capsys, tmp_path / "holed.json")
    assert code == FAILED and "UNSIGNED" in text


def rederived(db: Path, drop: int, signer: signing.Signer | None) -> dict[str, Any]:
    """Match 1 built again by anyone from its inputs less `drop` sensor events in the middle."""
    store = Store(db, readonly=True)
    try:
        src = load(store, 1)
    finally:
        store.close()
    sensors = [i for i, e in enumerate(src.inputs) if e["record"].get("type") == "sensor"]
    gone = set(sensors[len(sensors) // 2 : len(sensors) // 2 + drop])
    doc = build(Source(src.match, src.settings, [e for i, e in enumerate(src.inputs) if i not in gone]))
    return json.loads(render(doc, "json", signer=signer)) if signer else json.loads(json.dumps(doc))


def test_a_match_rederived_after_removing_events_does_not_verify_as_the_clubs(
    match_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fp, _ = club_key(match_db, tmp_path, capsys)
    mallory = signing.Signer(Ed25519PrivateKey.generate())
    signed = tmp_path / "rederived.json"
    signed.write_text(json.dumps(rederived(match_db, 3, mallory), ensure_ascii=False))
    code, text = verify(capsys, signed, "--fingerprint", fp)
    assert code == FORGED and f"signed by {mallory.fingerprint}, not by the club's key {fp}" in text
    plain = tmp_path / "unsigned.json"
    plain.write_text(json.dumps(rederived(match_db, 3, None), ensure_ascii=False))
    code, text = verify(capsys, plain, "--fingerprint", fp)
    assert code == FAILED and "UNSIGNED" in text and "verified: match" not in text
    assert "INCOMPLETE" in text  # three events taken from the middle leave a hole in the seqs it re-derives


def test_a_file_resigned_by_another_key_is_forged(
    match_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fp, _ = club_key(match_db, tmp_path, capsys)
    doc = json.loads(exported(match_db, tmp_path).read_text())
    other = signing.Signer(Ed25519PrivateKey.generate())
    (tmp_path / "resigned.json").write_text(json.dumps(signing.sign_json(doc, other), ensure_ascii=False))
    code, text = verify(capsys, tmp_path / "resigned.json", "--fingerprint", fp)
    assert code == FORGED and f"signed by {other.fingerprint}, not by the club's key" in text
    doc["signature"]["key"] = doc["signature"]["key"][:-4] + "AAA="  # a key swapped under the old signature
    (tmp_path / "swapped.json").write_text(json.dumps(doc, ensure_ascii=False))
    assert verify(capsys, tmp_path / "swapped.json", "--fingerprint", fp)[0] == FORGED


@pytest.mark.parametrize("fmt", ["csv", "html", "pdf"])
def test_csv_html_and_pdf_carry_a_signature_line(
    fmt: str, match_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fp, _ = club_key(match_db, tmp_path, capsys)
    out = exported(match_db, tmp_path, fmt)
    code, text = verify(capsys, out, "--fingerprint", fp)
    assert code == OK and f"signed by {fp}" in text
    data = out.read_bytes()
    if fmt == "html":
        assert f"Подписано ключом клуба {fp}" in data.decode()  # the scoresheet prints the fingerprint
    at = data.index(b"1") if fmt != "pdf" else len(data) // 2
    (tmp_path / f"edited.{fmt}").write_bytes(data[:at] + b"7" + data[at + 1 :])
    assert verify(capsys, tmp_path / f"edited.{fmt}", "--fingerprint", fp)[0] == FORGED
    (tmp_path / f"bare.{fmt}").write_bytes(data[: data.rstrip().rfind(b"\n") + 1])
    assert verify(capsys, tmp_path / f"bare.{fmt}", "--fingerprint", fp)[0] == UNSIGNED
