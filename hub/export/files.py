"""Export files: one match in one format, or many matches into one zip (`luza export --all`, REST)."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, tzinfo
from typing import Any

from hub.export import csvfile, html, pdf, signing
from hub.export.document import ExportDoc
from hub.export.history import Query, search
from hub.export.model import ExportError, build, load
from hub.store.database import Store

FORMATS = ("json", "csv", "html", "pdf")
MEDIA_TYPES = {
    "json": "application/json",
    "csv": "text/csv; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "pdf": "application/pdf",
    "zip": "application/zip",
}


def check_format(fmt: str, lang: str = "ru") -> None:
    if fmt not in FORMATS:
        raise ExportError(
            f"unknown format {fmt!r}; one of {', '.join(FORMATS)}",
            f"неизвестный формат {fmt!r}; есть {', '.join(FORMATS)}",
        )
    if lang not in ("ru", "en"):
        raise ExportError(f"unknown language {lang!r}; ru or en", f"неизвестный язык {lang!r}; ru или en")


def to_json(doc: ExportDoc) -> bytes:
    return (json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=False) + "\n").encode()


def render(
    doc: ExportDoc, fmt: str, lang: str = "ru", tz: tzinfo = UTC, signer: signing.Signer | None = None
) -> bytes:
    """One export document in `fmt` (json | csv | html | pdf), signed by `signer` (hub/export/signing.py)."""
    check_format(fmt, lang)
    key = signer.fingerprint if signer is not None else None
    if fmt == "json":
        return to_json(signing.sign_json(doc, signer) if signer is not None else doc)
    if fmt == "csv":
        data = csvfile.render(doc, tz)
    elif fmt == "html":
        data = html.render(doc, lang, tz, key).encode()
    else:
        data = pdf.render(doc, lang, tz, key)
    return signing.sign_bytes(data, fmt, signer) if signer is not None else data


def filename(match_id: int, fmt: str, lang: str = "ru") -> str:
    tail = f"-{lang}" if fmt in ("html", "pdf") else ""
    return f"luza-match-{match_id}{tail}.{fmt}"


def export_match(
    store: Store,
    match_id: int,
    fmt: str,
    lang: str = "ru",
    tz: tzinfo = UTC,
    exported_ms: int | None = None,
    signer: signing.Signer | None = None,
) -> bytes:
    """One match as a file, signed by `signer` (default:
    the key beside the store's database, made if missing)."""
    check_format(fmt, lang)
    doc = build(load(store, match_id), exported_ms)
    return render(doc, fmt, lang, tz, signer or signing.for_db(store.path))


@dataclass(frozen=True)
class Zipped:
    """Many matches in one zip: how many are in it, the bytes,
    and the ones that could not be read (id, why)."""

    count: int
    data: bytes
    skipped: tuple[tuple[int, str], ...] = ()


SKIPPED_NAME = "luza-skipped.txt"  # in the zip: the matches left out because they cannot be read, and why


def export_all(
    store: Store,
    fmt: str,
    lang: str = "ru",
    tz: tzinfo = UTC,
    since_ms: int | None = None,
    until_ms: int | None = None,
    exported_ms: int | None = None,
) -> Zipped:
    """Every match started in [since, until) into one zip (one file per match). A match a damaged page of the
    database keeps from being read is skipped and listed in luza-skipped.txt inside
    the zip (and in `skipped`)."""
    done: list[int] = []
    skipped: list[tuple[int, str]] = []
    data = b"".join(
        zip_stream(store, fmt, lang, tz, since_ms, until_ms, exported_ms, lambda: done.append(1), skipped)
    )
    return Zipped(len(done), data, tuple(skipped))


class _Sink(io.RawIOBase):
    """A write-only, non-seekable stream whose bytes are taken out as they come (zipfile then writes each
    entry's sizes after its data, so nothing has to be held back)."""

    def __init__(self) -> None:
        self.buf, self.pos = bytearray(), 0

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        self.buf += b
        self.pos += len(b)
        return len(b)

    def tell(self) -> int:
        return self.pos

    def take(self) -> bytes:
        out = bytes(self.buf)
        self.buf.clear()
        return out


def zip_stream(
    store: Store,
    fmt: str,
    lang: str = "ru",
    tz: tzinfo = UTC,
    since_ms: int | None = None,
    until_ms: int | None = None,
    exported_ms: int | None = None,
    progress: Callable[[], None] | None = None,
    skipped: list[tuple[int, str]] | None = None,
) -> Iterator[bytes]:
    """The zip of `export_all`, made and given out one match at a time (memory: one match's file); the matches
    that cannot be read are appended to `skipped` and listed in luza-skipped.txt."""
    check_format(fmt, lang)
    left_out = skipped if skipped is not None else []
    signer = signing.for_db(store.path)
    sink = _Sink()
    with zipfile.ZipFile(sink, "w", zipfile.ZIP_DEFLATED) as zf:
        offset = 0
        while True:
            _, page = search(store, Query(since_ms=since_ms, until_ms=until_ms, limit=500, offset=offset))
            for m in page:
                try:
                    data = export_match(store, m["id"], fmt, lang, tz, exported_ms, signer)
                except ExportError as exc:
                    if exc.code != "damaged":
                        raise
                    left_out.append((m["id"], exc.en if lang == "en" else exc.ru))
                    continue
                zf.writestr(filename(m["id"], fmt, lang), data)
                if progress is not None:
                    progress()
                yield sink.take()
            if len(page) < 500:
                break
            offset += 500
        if left_out:
            head = (
                "These matches could not be read and are not in this zip:"
                if lang == "en"
                else "Эти партии не удалось прочитать, их нет в архиве:"
            )
            zf.writestr(
                SKIPPED_NAME,
                "\n".join(
                    [
                        head,
                        *(
                            f"match {i}: {why}" if lang == "en" else f"партия {i}: {why}"
                            for i, why in left_out
                        ),
                    ]
                )
                + "\n",
            )
    yield sink.take()
