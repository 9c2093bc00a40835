"""`luza verify FILE [--key PUB | --fingerprint FP]`: who signed an export, and (JSON) whether it replays.

Exit codes: 0 verified (and signed by the key given, or by the key it names when none is given); 1 the file
does not match its replay, or its evidence is incomplete; 2 the file or the key cannot be read; 3 unsigned
(nobody vouches for it); 4 forged (the signature does not match the content, or is by another key than the
one given). docs/exports.md says more.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from hub.errors import refusal_line

UNSIGNED, FORGED = 3, 4


def register(sub: Any) -> None:
    p = sub.add_parser(
        "verify",
        help="check an export's signature and replay it",
        description="Say who signed an export file (the club's key, another, nobody) and replay "
        "a JSON export through the rules engine. / Проверить подпись и пересчитать "
        "файл партии.",
    )
    p.add_argument("file", help="a file written by luza export (json; csv, html, pdf: the signature only)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--key", metavar="FILE", help="the club's public key (luza key --public FILE)")
    which.add_argument(
        "--fingerprint",
        metavar="FP",
        help="the club's published key fingerprint, e.g. 3F2A-9C1B-... as the scoresheet prints it",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hub.export import signing
    from hub.export.model import ExportError

    try:
        want = (
            signing.public_from_file(args.key)
            if args.key
            else signing.normal_fingerprint(args.fingerprint)
            if args.fingerprint
            else None
        )
        fmt = Path(args.file).suffix.lstrip(".").lower()
        if fmt in signing.TRAILERS:
            return _seal_only(args.file, fmt, want)
        return _json(args.file, want)
    except ExportError as exc:
        print(f"luza verify: {refusal_line(exc.body)}", file=sys.stderr)
        return 2


def _said(seal: Any, want: str | None) -> tuple[int, str]:
    """(exit code, the line about the signature)."""
    if seal.status == "unsigned":
        return UNSIGNED, "UNSIGNED: the file carries no signature, nobody vouches for it / подписи нет"
    if seal.status == "forged":
        return FORGED, f"FORGED: {seal.reason} / ПОДДЕЛКА: подпись не сходится с содержимым"
    if want is not None and seal.fingerprint != want:
        return FORGED, (
            f"FORGED: signed by {seal.fingerprint}, not by the club's key {want} / ПОДДЕЛКА: подписано "
            "другим ключом"
        )
    note = "the club's key" if want else "not compared: give --key or --fingerprint"
    return 0, f"signed by {seal.fingerprint} ({note}) / подписано ключом {seal.fingerprint}"


def _seal_only(path: str, fmt: str, want: str | None) -> int:
    from hub.export import signing
    from hub.export.model import ExportError

    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ExportError(f"cannot read {path}: {exc.strerror or exc}") from None
    code, line = _said(signing.seal_of_bytes(data, fmt), want)
    print(f"{line}\n({fmt}: the signature only; the JSON export of the match is the one that replays)")
    return code


def _json(path: str, want: str | None) -> int:
    from hub.export import signing
    from hub.export.verify import evidence_of, read, verify

    doc = read(path)
    v = verify({k: val for k, val in doc.items() if k != "signature"})
    seal_code, seal_line = _said(signing.seal_of_json(doc), want)
    if seal_code == FORGED:
        print(seal_line)
        return FORGED
    if not v.ok:
        print(f"FAILED: {path} does not match its replay / НЕ СОВПАДАЕТ с пересчётом:")
        for p in v.problems:
            print(f"  {p}")
        print(seal_line)
        return 1
    evidence = evidence_of(doc["inputs"])  # from the inputs: the file's own verification block is not trusted
    if not evidence["complete"]:
        block = doc.get("verification")
        said = block.get("evidence") if isinstance(block, dict) else None
        claimed = said.get("complete") if isinstance(said, dict) else None
        extra = " (the file's verification block says complete: it is not)" if claimed is True else ""
        print(
            f"INCOMPLETE: match {v.match_id} replays to the same result ({v.shots} shots, {v.score()}), "
            f"but {evidence['en']}{extra} / {evidence['ru']}"
        )
        print(seal_line)
        return 1
    if seal_code:
        print(f"match {v.match_id} replays to the same result ({v.shots} shots, {v.score()}), but")
        print(seal_line)
        return seal_code
    print(
        f"verified: match {v.match_id} replays to the same result ({v.shots} shots, "
        f"{v.score()}); {seal_line} / проверено: результат совпадает"
    )
    return 0
