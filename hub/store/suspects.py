"""Suspect inputs: events stored with an impossible time, flagged `suspect` in their record
(hub.ingest.timecheck).

They stay in the log (nothing accepted is lost) but are not counted; the table's `impossible_time` alert lists
them and a suspect pocket event becomes a question to the referee (hub.ingest.suspects). This module reads
them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hub.store.database import Store


@dataclass(frozen=True)
class Flagged:
    """A stored sensor input flagged suspect: its key and the reason code."""

    device: str
    boot: int
    seq: int
    code: Any


@dataclass(frozen=True)
class SuspectPocket:
    """A pocket event flagged suspect: its key, when the hub received it, its pocket (as stored) and
    reason."""

    device: str
    boot: int
    seq: int
    received_ms: int
    pocket: Any
    code: Any


def flagged(store: Store, match_id: int) -> list[Flagged]:
    """The match's suspect inputs in cursor order."""
    return [
        Flagged(*r)
        for r in store.conn.execute(
            "SELECT device, boot, seq, json_extract(record, '$.suspect') FROM inputs WHERE match_id = ? "
            "AND json_valid(record) AND json_extract(record, '$.suspect') IS NOT NULL ORDER BY id",
            (match_id,),
        )
    ]


def pockets(store: Store, match_id: int) -> list[SuspectPocket]:
    """The match's suspect pocket events (from sensors) in cursor order."""
    return [
        SuspectPocket(*r)
        for r in store.conn.execute(
            "SELECT device, boot, seq, received_ms, json_extract(record, '$.fields.pocket'), "
            "json_extract(record, '$.suspect') FROM inputs WHERE match_id = ? AND device IS NOT NULL "
            "AND json_valid(record) AND json_extract(record, '$.suspect') IS NOT NULL "
            "AND json_extract(record, '$.kind') = 'pocket' ORDER BY id",
            (match_id,),
        )
    ]
