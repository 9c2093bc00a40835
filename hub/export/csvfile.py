"""CSV: one row per shot of an export document (its frame in a column of its own), UTF-8 with a byte-order
mark (so a spreadsheet opens the Cyrillic names right) and a header row; times in the given zone, ISO 8601. A
text cell that a spreadsheet would run as a formula (it starts with = + - @, a tab or a carriage return) is
written with a leading apostrophe."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from datetime import UTC, tzinfo
from typing import TypeVar

from hub.export import text
from hub.export.document import ExportDoc

COLUMNS = (
    "match",
    "frame",
    "shot",
    "status",
    "provisional",
    "started",
    "ended",
    "shooter_seat",
    "shooter",
    "call",
    "balls",
    "ball_numbers_from",
    "pockets",
    "seen_colours",
    "fouls",
    "points_a",
    "points_b",
    "score_a",
    "score_b",
    "reasons_en",
    "reasons_ru",
    "shot_time_s",
    "shooter_id",
    "evidence",
)


Row = dict[str, str | int]  # column (COLUMNS) -> its cell: text, or a number a spreadsheet keeps as one


def rows(doc: ExportDoc, tz: tzinfo = UTC) -> list[Row]:
    """The CSV rows as dicts (column -> value)."""
    out: list[Row] = []
    fmt = "%Y-%m-%dT%H:%M:%S%z"
    ver = doc.get("verification")
    ev = ver.get("evidence") if ver else None
    ids = doc["match"].get("player_ids") or [None, None]  # the registry's ids, where the match names them
    # on every row: filters keep it
    word = "" if not ev else "complete" if ev.get("complete") else str(ev.get("en"))
    for s in doc["shots"]:
        pa, pb = text.points(s)
        after: Sequence[int | None] = s.get("score_after") or [None, None]
        pid = None if s["shooter"] is None else ids[s["shooter"]]
        out.append(
            {
                "match": doc["match"]["id"],
                "frame": s.get("frame", 1),
                "shot": s["number"],
                "status": s["status"],
                "provisional": "yes" if s["provisional"] else "no",
                "started": text.local(s["opened_ms"], tz, fmt),
                "ended": text.local(s["closed_ms"], tz, fmt),
                "shooter_seat": "" if s["shooter"] is None else s["shooter"],
                "shooter": s["shooter_name"] or "",
                "call": text.calls(s, "en"),
                "balls": " ".join(text.ball_name(b["ball"], "en") for b in s["balls"]),
                "ball_numbers_from": " ".join(b["ball_source"] or "?" for b in s["balls"]),
                "pockets": " ".join(str(b["pocket"]) for b in s["balls"]),
                "seen_colours": " ".join(b["seen_colour"] or "-" for b in s["balls"]),
                "fouls": "; ".join(f["cite"] for f in s["fouls"]),
                "points_a": pa,
                "points_b": pb,
                "score_a": "" if after[0] is None else after[0],
                "score_b": "" if after[1] is None else after[1],
                "reasons_en": text.reasons(s, "en"),
                "reasons_ru": text.reasons(s, "ru"),
                "shot_time_s": "" if (took := s.get("shot_ms")) is None else f"{took / 1000:.1f}",
                "shooter_id": "" if pid is None else pid,
                "evidence": word,
            }
        )
    return out


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet runs a cell that starts so as a formula
NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?$")


_V = TypeVar("_V")


def cell(value: _V) -> _V | str:
    """A value safe to open in a spreadsheet: text that would start a formula (a player named `=HYPERLINK(…)`)
    gets a leading apostrophe, which spreadsheets show as text and do not keep; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not NUMBER.match(value):
        return "'" + value
    return value


def render(doc: ExportDoc, tz: tzinfo = UTC) -> bytes:
    buf = io.StringIO(newline="")
    w = csv.DictWriter(buf, COLUMNS, lineterminator="\r\n")
    w.writeheader()
    w.writerows({k: cell(v) for k, v in row.items()} for row in rows(doc, tz))
    return buf.getvalue().encode("utf-8-sig")
