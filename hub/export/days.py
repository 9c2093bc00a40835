"""Days as the club means them: `YYYY-MM-DD` in the hub's local zone, turned into epoch milliseconds.
Shared by the history API and `luza matches` / `luza export`."""

from __future__ import annotations

from datetime import datetime, tzinfo

from hub.export.model import ExportError


def local_zone() -> tzinfo:
    zone = datetime.now().astimezone().tzinfo
    assert zone is not None
    return zone


def parse_day(value: str | None, tz: tzinfo, name: str) -> int | None:
    """`YYYY-MM-DD` (or `YYYY-MM-DDTHH:MM`) in the local zone -> epoch ms; ExportError naming the option."""
    if value is None:
        return None
    try:
        dt = datetime.fromisoformat(value)
    except ValueError:
        raise ExportError(
            f"{name}: expected a date YYYY-MM-DD, got {value!r}",
            f"{name}: нужна дата ГГГГ-ММ-ДД, получено {value!r}",
        ) from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=tz)
    return int(dt.timestamp() * 1000)
