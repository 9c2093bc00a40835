"""`luza verify`'s verdict on a stored match, for the web (GET /api/matches/{id}/verify, the match page).

The same checks as `luza verify FILE` (hub/commands/verify.py) on the JSON export the hub makes of the match
now: the replay of the inputs and of the engine log (hub/export/verify.py), the evidence re-derived from the
inputs, and the signature. One status a page can show, with a sentence in both languages:
verified | incomplete (replays, but events never reached the hub) | failed
(does not replay) | unsigned | forged.
"""

from __future__ import annotations

from typing import TypedDict

from hub.export import signing
from hub.export.document import Evidence, ExportDoc
from hub.export.verify import evidence_of, verify


class SealBody(TypedDict):
    status: str  # signed | unsigned | forged
    fingerprint: str | None


class VerdictBody(TypedDict):
    """The body of GET /api/matches/{id}/verify (docs/web-api.md)."""

    match: object  # the file's match id as it gives it (verify.Verdict.match_id)
    status: str  # verified | incomplete | failed | unsigned | forged
    ok: bool
    en: str
    ru: str
    shots: int
    scores: list[int]
    frames: list[int]
    problems: list[str]
    evidence: Evidence
    signature: SealBody


def verdict_of(signed: ExportDoc) -> VerdictBody:
    """The verdict on a signed JSON export, in the order `luza verify` decides it."""
    v = verify({k: val for k, val in signed.items() if k != "signature"})
    seal = signing.seal_of_json(signed)
    evidence = evidence_of(signed["inputs"])
    score = v.score()
    if seal.status == "forged":
        status, en, ru = (
            "forged",
            f"the signature does not match: {seal.reason}",
            "подпись не сходится с содержимым",
        )
    elif not v.ok:
        status, en, ru = (
            "failed",
            "the match does not replay to the stored result",
            "партия не пересчитывается в сохранённый итог",
        )
    elif not evidence["complete"]:
        status, en, ru = (
            "incomplete",
            f"replays to the same result ({score}), but {evidence['en']}",
            f"пересчёт даёт тот же итог ({score}), но {evidence['ru']}",
        )
    elif seal.status == "unsigned":
        status, en, ru = "unsigned", "replays, but nobody signed it", "пересчёт совпадает, но подписи нет"
    else:
        status, en, ru = (
            "verified",
            f"replays to the same result ({v.shots} shots, {score}); signed by {seal.fingerprint}",
            f"проверено: пересчёт даёт тот же итог ({v.shots} ударов, {score}); подпись {seal.fingerprint}",
        )
    return {
        "match": v.match_id,
        "status": status,
        "ok": status == "verified",
        "en": en,
        "ru": ru,
        "shots": v.shots,
        "scores": v.scores,
        "frames": v.frames,
        "problems": v.problems,
        "evidence": evidence,
        "signature": {"status": seal.status, "fingerprint": seal.fingerprint},
    }
