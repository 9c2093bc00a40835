"""Signed exports: each hub has an Ed25519 key, and every export file it makes carries a signature by it.

The key lives beside the hub's database (`<db dir>/<db stem>-signing.key`, PKCS#8 PEM, mode 0600): the
installer makes it (`luza key`), and any export makes it on first use if it is missing. Its **fingerprint** —
the first 16 bytes of SHA-256 over the raw 32-byte public key, as 8 groups of 4 hex digits — is what a club
publishes (on the wall, on its site) and what the scoresheet prints;
`luza key --public FILE` writes the public key.

What is signed (docs/exports.md): the message is `luza-export-signature-v1\\n<format>\\n` followed by
- JSON: the canonical JSON of the whole document without its `signature` member (keys sorted, no spaces,
  UTF-8 as is: `json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`); the signature is
  the document's `signature` member, so the file stays one JSON document;
- CSV, HTML, PDF: the file's bytes up to its last line, which is the signature: `#luza-signature S` (CSV: one
  cell of a last row), `<!-- luza-signature S -->` (HTML), `%luza-signature S` after `%%EOF` (PDF: a comment
  to readers), where S is `ed25519 <fingerprint> <public key, base64> <signature, base64>`.
JSON's block is `{"alg": "ed25519", "key": <public key, base64>, "fingerprint",
"value": <signature, base64>}`.

`seal_of_json` / `seal_of_bytes` say whether a file is signed (and by which fingerprint), unsigned, or forged
(a signature that does not match the content).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from hub.export.document import ExportDoc, Signature
from hub.export.model import ExportError

CONTEXT = b"luza-export-signature-v1\n"
MARK = b"luza-signature "
TRAILERS = {"csv": (b"#", b"\r\n"), "html": (b"<!-- ", b" -->\n"), "pdf": (b"%", b"\n")}


def key_path(db: str | Path) -> Path:
    """Where a hub's signing key lives: beside its database."""
    p = Path(db)
    return p.with_name(f"{p.stem}-signing.key")


def fingerprint(public: bytes) -> str:
    digest = hashlib.sha256(public).hexdigest()[:32].upper()
    return "-".join(digest[i : i + 4] for i in range(0, 32, 4))


def normal_fingerprint(text: str) -> str:
    """A fingerprint as typed (any case, with or without dashes or spaces) in the printed form."""
    hexes = "".join(c for c in text.upper() if c in "0123456789ABCDEF")
    if len(hexes) < 32 or len(hexes) != len("".join(c for c in text if c not in "-: ")):
        raise ExportError(
            f"not a key fingerprint: {text!r} (32 hex digits, e.g. as the scoresheet prints it)",
            f"это не отпечаток ключа: {text!r} (32 шестнадцатеричные цифры, как в протоколе)",
        )
    return "-".join(hexes[i : i + 4] for i in range(0, 32, 4))


@dataclass(frozen=True)
class Signer:
    key: Ed25519PrivateKey
    path: Path | None = None

    @property
    def public(self) -> bytes:
        return self.key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)

    def block(self, message: bytes) -> Signature:
        return {
            "alg": "ed25519",
            "key": base64.b64encode(self.public).decode(),
            "fingerprint": self.fingerprint,
            "value": base64.b64encode(self.key.sign(message)).decode(),
        }

    def public_pem(self) -> bytes:
        return self.key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )


def load_or_create(path: str | Path) -> Signer:
    """The key at `path`, made (0600, never overwritten) if there is none; ExportError saying what to do."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        return _create(p)
    except OSError as exc:
        raise ExportError(
            f"cannot read the hub's signing key {p}: {exc.strerror or exc} (run as the hub's user, "
            "e.g. sudo -u luza)",
            f"не читается ключ подписи хаба {p}: {exc.strerror or exc} "
            "(запустите от пользователя хаба, например sudo -u luza)",
        ) from None
    key = serialization.load_pem_private_key(data, password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ExportError(f"{p} is not an Ed25519 key", f"{p} — не ключ Ed25519")
    return Signer(key, p)


def _create(p: Path) -> Signer:
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    try:
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it a moment ago: use that one
        return load_or_create(p)
    except OSError as exc:
        raise ExportError(
            f"cannot create the hub's signing key {p}: {exc.strerror or exc}",
            f"не удалось создать ключ подписи хаба {p}: {exc.strerror or exc}",
        ) from None
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    return Signer(key, p)


def for_db(db: str | Path) -> Signer:
    return load_or_create(key_path(db))


def canonical(doc: Mapping[str, object]) -> bytes:
    body = {k: v for k, v in doc.items() if k != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sign_json(doc: ExportDoc, signer: Signer) -> ExportDoc:
    """The document with its `signature` member (last)."""
    out = doc.copy()
    out.pop("signature", None)
    out["signature"] = signer.block(CONTEXT + b"json\n" + canonical(out))
    return out


def sign_bytes(data: bytes, fmt: str, signer: Signer) -> bytes:
    """A CSV, HTML or PDF file with its signature line appended."""
    head, tail = TRAILERS[fmt]
    body = data if data.endswith(b"\n") else data + b"\n"
    b = signer.block(CONTEXT + fmt.encode() + b"\n" + body)
    words = " ".join((b["alg"], b["fingerprint"], b["key"], b["value"])).encode()  # one CSV cell: no commas
    return body + head + MARK + words + tail


@dataclass(frozen=True)
class Seal:
    status: str  # signed | unsigned | forged
    fingerprint: str | None = None
    reason: str = ""


def _check(block: object, message: bytes) -> Seal:
    if not isinstance(block, Mapping) or block.get("alg") != "ed25519":
        return Seal("forged", None, "the signature block is not an Ed25519 signature of Luza")
    try:
        public = base64.b64decode(str(block.get("key")), validate=True)
        value = base64.b64decode(str(block.get("value")), validate=True)
    except (ValueError, binascii.Error):
        return Seal("forged", None, "the signature block cannot be read")
    fp = fingerprint(public)
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(value, message)
    except (InvalidSignature, ValueError):
        return Seal(
            "forged", fp, "the signature does not match the content: the file was changed after it was signed"
        )
    if block.get("fingerprint") not in (None, fp):
        return Seal("forged", fp, "the signature block names another key's fingerprint")
    return Seal("signed", fp)


def seal_of_json(doc: Mapping[str, object]) -> Seal:
    if "signature" not in doc:
        return Seal("unsigned")
    return _check(doc["signature"], CONTEXT + b"json\n" + canonical(doc))


def seal_of_bytes(data: bytes, fmt: str) -> Seal:
    head, tail = TRAILERS[fmt]
    stripped = data[: -len(tail)] if data.endswith(tail) else data
    cut = stripped.rfind(b"\n")
    body, line = stripped[: cut + 1], stripped[cut + 1 :]
    if not line.startswith(head + MARK):
        return Seal("unsigned")
    words = line[len(head + MARK) :].decode("ascii", "replace").split(" ")
    if len(words) != 4:
        return Seal("forged", None, "the signature line cannot be read")
    block = dict(zip(("alg", "fingerprint", "key", "value"), words, strict=True))
    return _check(block, CONTEXT + fmt.encode() + b"\n" + body)


def public_from_file(path: str | Path) -> str:
    """The fingerprint of a key file: a public key (PEM) or the hub's signing key itself."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ExportError(
            f"cannot read the key {p}: {exc.strerror or exc}", f"не читается ключ {p}: {exc.strerror or exc}"
        ) from None
    try:
        key: Any = serialization.load_pem_public_key(data)
    except ValueError:
        try:
            key = serialization.load_pem_private_key(data, password=None).public_key()
        except (ValueError, TypeError):
            raise ExportError(f"{p} is not a PEM key", f"{p} — не ключ PEM") from None
    if not isinstance(key, Ed25519PublicKey):
        raise ExportError(f"{p} is not an Ed25519 key", f"{p} — не ключ Ed25519")
    return fingerprint(key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))
