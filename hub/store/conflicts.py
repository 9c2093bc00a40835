"""Conflicting duplicates: the same (device, boot, seq) arriving again with different content.

A plain redelivery (the same content) is a duplicate and is dropped. Different content under a key already
stored means a node bug, a reflashed node reusing a boot number, or a forged message: the first stored input
stays the one folded into play (the log is append-only), and the newcomer is kept in `conflicts` beside it,
once per distinct content, at most `MAX_PER_MATCH` per match (further ones are only counted in the stats).
The table shows one alert naming the node and the keys, until a new match starts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from hub.store.database import Store
from hub.vocab.alerts import ConflictingEvents

MAX_PER_MATCH = 1000
SHOWN_KEYS = 5  # keys named in the alert text; the alert's "keys" field carries the same, the count all


class NodeContent(TypedDict):
    """What a node itself said in a sensor record: hub/vocab/inputs.py SensorRecord less the hub's fields."""

    kind: object
    t: object
    synced: object
    fields: object
    up: NotRequired[object]  # the node's uptime (firmware that sends it)


def content(record: Mapping[str, Any]) -> NodeContent:
    """What the node itself said in a stored sensor record (the hub's own fields - times,
    seat, offset - left out)."""
    out: NodeContent = {
        "kind": record.get("kind"),
        "t": record.get("t"),
        "synced": record.get("synced"),
        "fields": record.get("fields") or {},
    }
    if record.get("up") is not None:  # the node's uptime (firmware that sends it)
        out["up"] = record["up"]
    return out


def restamped(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """The same event, once on the node's uptime clock and once moved onto the hub clock (a node re-sends an
    event recorded before its time sync as it first sent it;
    after a reboot it can no longer restamp the old boot's)."""
    return a["synced"] != b["synced"] and a["kind"] == b["kind"] and a["fields"] == b["fields"]


def _canonical(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Conflict:
    """One stored conflict: the key, the input it contradicts, and what arrived."""

    device: str
    boot: int
    seq: int
    first_id: int
    content: NodeContent


def check(
    store: Store,
    table_id: str,
    match_id: int | None,
    key: tuple[str, int, int],
    record: Mapping[str, Any],
    received_ms: int,
) -> bool | None:
    """After a duplicate key: keep the newcomer if its content differs from the stored one.

    Returns None for a plain redelivery, True for a conflict stored now, False for one already stored (or over
    the cap)."""
    row = store.conn.execute(
        "SELECT id, record FROM inputs WHERE device = ? AND boot = ? AND seq = ?", key
    ).fetchone()
    if row is None:
        return None
    try:
        first = json.loads(row[1])
    except ValueError:
        first = {}
    new = _canonical(content(record))
    if isinstance(first, Mapping) and (
        _canonical(content(first)) == new or restamped(content(first), content(record))
    ):
        return None
    if match_id is not None and count(store, match_id) >= MAX_PER_MATCH:
        return False
    cur = store.conn.execute(
        "INSERT INTO conflicts(table_id, match_id, device, boot, seq, first_id, received_ms, content) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(device, boot, seq, content) DO NOTHING",
        (table_id, match_id, key[0], key[1], key[2], int(row[0]), received_ms, new),
    )
    return cur.rowcount == 1


def count(store: Store, match_id: int) -> int:
    """How many conflicts are kept for a match."""
    return int(
        store.conn.execute("SELECT count(*) FROM conflicts WHERE match_id = ?", (match_id,)).fetchone()[0]
    )


def of_match(store: Store, match_id: int, limit: int = SHOWN_KEYS) -> list[Conflict]:
    """The first `limit` conflicts kept for a match, oldest first."""
    rows = store.conn.execute(
        "SELECT device, boot, seq, first_id, content FROM conflicts WHERE match_id = ? ORDER BY id LIMIT ?",
        (match_id, limit),
    )
    return [Conflict(d, b, s, f, json.loads(c)) for d, b, s, f, c in rows]


def alert(store: Store, match_id: int) -> ConflictingEvents | None:
    """The table alert for a match's conflicts (None when it has none)."""
    n = count(store, match_id)
    if n == 0:
        return None
    shown = of_match(store, match_id)
    keys = ", ".join(f"{c.device} boot {c.boot} seq {c.seq}" for c in shown) + (
        ", ..." if n > len(shown) else ""
    )
    keys_ru = ", ".join(f"{c.device} загрузка {c.boot} № {c.seq}" for c in shown) + (
        ", ..." if n > len(shown) else ""
    )
    devices = sorted({c.device for c in shown})
    return ConflictingEvents(
        kind="conflicting_event",
        match_id=match_id,
        severity="warning",
        count=n,
        devices=devices,
        keys=[[c.device, c.boot, c.seq] for c in shown],
        en=f"{n} event(s) arrived again with different content ({keys}); the first one counts, the other "
        "is kept as a conflict: check the node",
        ru=f"{n} событ. пришло повторно с другим содержимым ({keys_ru}); учтено первое, другое сохранено "
        "как конфликт — проверьте датчик",
    )
