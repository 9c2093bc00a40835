"""REST routes for match history and exports, as one APIRouter the web app includes:

    app.include_router(history_router(hub.config.store.path))

- GET /api/matches                    search: table, variant, player, since,
  until (YYYY-MM-DD or ISO time, the
                                      hub's local zone), status, limit,
                                      offset -> {total, limit, offset, matches}
- GET /api/matches/export.zip         every match started in [since, until) in one format, zipped (the club's:
                                      a heavy export, hub/web/heavy.py)
- GET /api/matches/{id}               the match's JSON export (luza-match-export)
- GET /api/matches/{id}/verify        what `luza verify` says of the match's JSON
  export, made now (hub/export/
                                      verdict.py): {status:
                                      verified|incomplete|failed|unsigned|forged, en, ru, ...}
- GET /api/matches/{id}/export        ?format=json|csv|html|pdf&lang=ru|en -> the file
  (attachment; html inline;
                                      pdf is a heavy export)

Reads only, on its own read-only connection per request (the hub's worker keeps the writer). Errors are the
refusal's body like every route's (hub.web.errors.ApiError): {"error": {"code", "en", "ru", "field"}} with 400
(malformed), 404 (no such match), 410 (`damaged`: part of the match is on a torn page of the database; one
warning line in the log), 501 (PDF without WeasyPrint) or 503 (the database cannot be read). The zip of many
matches leaves such a match out and lists it (luza-skipped.txt inside, header X-Luza-Skipped).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Header
from fastapi.responses import JSONResponse, Response, StreamingResponse

from hub.errors import DAMAGED, MALFORMED, NOT_FOUND, UNAVAILABLE, SchemaError
from hub.export import build, load, signing
from hub.export import history as hist
from hub.export.days import local_zone, parse_day
from hub.export.files import MEDIA_TYPES, check_format, filename, render, zip_stream
from hub.export.model import ExportError
from hub.export.verdict import verdict_of
from hub.store.database import Store
from hub.web.errors import ApiError
from hub.web.heavy import Gate, Job

Auth = Annotated[str | None, Header(alias="Authorization")]

log = logging.getLogger("luza.web")


def _export_error(exc: ExportError, field: str | None = None, match_id: str | None = None) -> ApiError:
    # a torn page of the database (hub.store.integrity): one line in the log, no trace
    if exc.code == DAMAGED:
        log.warning("%s", exc.en)
        return ApiError(410, DAMAGED, exc.en, exc.ru, "match")
    if exc.code == UNAVAILABLE:
        return ApiError(501, UNAVAILABLE, exc.en, exc.ru, "format")
    if exc.code == NOT_FOUND:  # the CLI's message names the database file; a web client is not told that
        return ApiError(404, NOT_FOUND, f"no match {match_id}", f"партии {match_id} нет", "match")
    return ApiError(400, MALFORMED, exc.en, exc.ru, field)


def history_router(db_path: str | Path, gate: Gate | None = None) -> APIRouter:
    """The history and export routes over the hub database at `db_path`; `gate` says who may run a heavy
    export (default: nobody)."""
    router = APIRouter(tags=["history"])
    heavy = gate or Gate()

    @contextmanager
    def store() -> Iterator[Store]:
        try:
            s = Store(db_path, readonly=True)
        except (OSError, SchemaError, sqlite3.DatabaseError) as exc:
            raise ApiError(
                503,
                UNAVAILABLE,
                f"the match database cannot be read: {exc}",
                f"база партий недоступна: {exc}",
            ) from None
        try:
            yield s
        finally:
            s.close()

    @router.get("/api/matches", summary="Search the match history")
    def matches(
        table: str | None = None,
        variant: str | None = None,
        player: str | None = None,
        since: str | None = None,
        until: str | None = None,
        status: str | None = None,
        limit: str = "50",
        offset: str = "0",
    ) -> Response:
        try:
            n, skip = _int(limit, "limit"), _int(offset, "offset")
            q = hist.Query(
                table, variant, player, _day(since, "since"), _day(until, "until"), status, n, skip
            )
            with store() as s:
                total, rows = hist.search(s, q)
        except hist.QueryError as exc:
            return ApiError.of(exc).response()
        except ApiError as exc:
            return exc.response()
        return JSONResponse({"total": total, "limit": n, "offset": skip, "matches": rows})

    @router.get(
        "/api/matches/export.zip", summary="Export many matches as one zip (the club's; one at a time)"
    )
    def export_zip(
        authorization: Auth = None,
        format: str = "json",
        lang: str = "ru",
        since: str | None = None,
        until: str | None = None,
    ) -> Response:
        try:
            check_format(format, lang)
            span = _day(since, "since"), _day(until, "until")
            heavy.authorize(authorization)
            with store() as s:
                total, _ = hist.search(s, hist.Query(since_ms=span[0], until_ms=span[1], limit=1))
            job = heavy.begin(total, format)
        except ExportError as exc:
            return _export_error(exc, "format").response()
        except ApiError as exc:
            return exc.response()
        # streamed: a match that cannot be read is listed in luza-skipped.txt inside the zip (and logged)
        return StreamingResponse(
            heavy.stream(job, lambda: _zip(db_path, job, format, lang, span)),
            media_type=MEDIA_TYPES["zip"],
            headers={"Content-Disposition": f'attachment; filename="luza-matches-{format}.zip"'},
        )

    @router.get("/api/matches/{match_id}", summary="One match as its JSON export")
    def match(match_id: str) -> Response:
        try:
            with store() as s:
                doc = build(load(s, _int(match_id, "match")), _now())
            doc = signing.sign_json(doc, signing.for_db(db_path))
        except ExportError as exc:
            return _export_error(exc, match_id=match_id).response()
        except ApiError as exc:
            return exc.response()
        return JSONResponse(doc)

    @router.get(
        "/api/matches/{match_id}/verify", summary="`luza verify` on the match's JSON export, by the hub"
    )
    def verify(match_id: str) -> Response:
        try:
            with store() as s:
                doc = build(load(s, _int(match_id, "match")), _now())
            verdict = verdict_of(signing.sign_json(doc, signing.for_db(db_path)))
        except ExportError as exc:
            return _export_error(exc, match_id=match_id).response()
        except ApiError as exc:
            return exc.response()
        return JSONResponse(verdict)

    @router.get("/api/matches/{match_id}/export", summary="One match as a file: json, csv, html or pdf")
    def export(match_id: str, authorization: Auth = None, format: str = "json", lang: str = "ru") -> Response:
        job: Job | None = None
        try:
            if format == "pdf":  # seconds of CPU a page: the club's, one at a time
                heavy.authorize(authorization)
                job = heavy.begin(1, format)
            with store() as s:
                doc = build(load(s, _int(match_id, "match")), _now())
            data = render(doc, format, lang, local_zone(), signing.for_db(db_path))
        except ExportError as exc:
            return _export_error(exc, "format" if "format" in exc.en else "lang", match_id).response()
        except ApiError as exc:
            return exc.response()
        finally:
            if job is not None:
                heavy.end(job)
        disposition = "inline" if format == "html" else "attachment"
        return Response(
            data,
            media_type=MEDIA_TYPES[format],
            headers={
                "Content-Disposition": f"{disposition}; "
                f'filename="{filename(doc["match"]["id"], format, lang)}"'
            },
        )

    return router


def _zip(
    db_path: str | Path, job: Job, fmt: str, lang: str, span: tuple[int | None, int | None]
) -> Iterator[bytes]:
    """The zip's bytes, made on the heavy export's own thread (its own read-only connection)."""
    s = Store(db_path, readonly=True)
    try:

        def one_more() -> None:
            job.done += 1

        skipped: list[tuple[int, str]] = []
        yield from zip_stream(s, fmt, lang, local_zone(), *span, _now(), one_more, skipped)
        if skipped:
            log.warning(
                "export.zip: %d match(es) cannot be read and are listed in luza-skipped.txt: %s",
                len(skipped),
                ",".join(str(i) for i, _ in skipped),
            )
    finally:
        s.close()


def _day(value: str | None, field: str) -> int | None:
    try:
        return parse_day(value, local_zone(), field)
    except ExportError as exc:
        raise ApiError(400, MALFORMED, exc.en, exc.ru, field) from None


def _int(value: str, field: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ApiError(
            400,
            MALFORMED,
            f"{field}: expected a whole number, got {value!r}",
            f"{field}: нужно целое число, получено {value!r}",
            field,
        ) from None


def _now() -> int:
    return int(time.time() * 1000)
