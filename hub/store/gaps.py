"""Holes in a node's sequence numbers: events the hub never stored.

Every node numbers its events 1, 2, 3, ... per boot, so a stored seq above one not stored means events were
lost on the way (a broker that crashed with them, a queue limit). The hub notices a hole the moment a later
event arrives: the table shows a `missing_events` alert naming the node, the boot and the ranges (it updates
as the hole fills, and goes when it is filled), and `luza replay` says the match's evidence is incomplete
instead of "verified". Holes are counted within a match: between the first and the last seq of each
(device, boot) among the match's inputs, a seq stored nowhere (not in this match, not outside any match).
A loss after a node's last stored event cannot be seen here (the node's high-water mark would show it).
"""

from __future__ import annotations

from collections.abc import Mapping

from hub.store.database import Store
from hub.vocab.alerts import MissingEvents

Gap = tuple[str, int, int, int]  # (device, boot, first missing seq, last missing seq)
SHOWN = 5


def _ranges(seqs: list[int], lo: int, hi: int) -> list[tuple[int, int]]:
    """The runs of integers in lo..hi missing from sorted `seqs`."""
    out, expect = [], lo
    for s in seqs:
        if s > expect:
            out.append((expect, s - 1))
        expect = max(expect, s + 1)
    if expect <= hi:
        out.append((expect, hi))
    return out


def of_device(store: Store, match_id: int, device: str, boot: int) -> list[Gap]:
    """The holes of one (device, boot) within a match."""
    lo, hi = store.conn.execute(
        "SELECT min(seq), max(seq) FROM inputs WHERE match_id = ? AND device = ? AND boot = ?",
        (match_id, device, boot),
    ).fetchone()
    if lo is None:
        return []
    n = store.conn.execute(
        "SELECT count(*) FROM inputs WHERE device = ? AND boot = ? AND seq BETWEEN ? AND ?",
        (device, boot, lo, hi),
    ).fetchone()[0]
    if n == hi - lo + 1:
        return []
    seqs = [
        r[0]
        for r in store.conn.execute(
            "SELECT seq FROM inputs WHERE device = ? AND boot = ? AND seq BETWEEN ? AND ? ORDER BY seq",
            (device, boot, lo, hi),
        )
    ]
    return [(device, boot, a, b) for a, b in _ranges(seqs, lo, hi)]


def of_match(store: Store, match_id: int) -> list[Gap]:
    """Every hole of a match, by device and boot."""
    keys = store.conn.execute(
        "SELECT DISTINCT device, boot FROM inputs WHERE match_id = ? AND device IS NOT NULL "
        "ORDER BY device, boot",
        (match_id,),
    ).fetchall()
    return [g for d, b in keys for g in of_device(store, match_id, d, b)]


def describe(gap: Gap, lang: str = "en") -> str:
    """'p-head boot 1 seq 5-7' (or in Russian)."""
    d, b, first, last = gap
    seqs = f"{first}" if first == last else f"{first}-{last}"
    return f"{d} загрузка {b} № {seqs}" if lang == "ru" else f"{d} boot {b} seq {seqs}"


def gone(store: Store) -> dict[tuple[str, int], list[tuple[int, int]]]:
    """The seq ranges nodes answered they no longer hold (`gone_events`,
    hub.ingest.delivery), by (device, boot)."""
    out: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for dev, boot, a, b in store.conn.execute(
        "SELECT device, boot, first_seq, last_seq FROM gone_events ORDER BY device, boot, first_seq"
    ):
        out.setdefault((dev, boot), []).append((a, b))
    return out


def record_gone(store: Store, device: str, boot: int, first: int, last: int, at_ms: int) -> None:
    """Keep a seq range a node answered it no longer holds (a range already kept is ignored)."""
    store.conn.execute(
        "INSERT OR IGNORE INTO gone_events(device, boot, first_seq, last_seq, at_ms) VALUES (?, ?, ?, ?, ?)",
        (device, boot, first, last, at_ms),
    )


def seqs_above(store: Store, device: str, boot: int, after: int, limit: int) -> list[int]:
    """The stored seqs of (device, boot) above `after`, ascending, at most `limit` of them."""
    rows = store.conn.execute(
        "SELECT seq FROM inputs WHERE device = ? AND boot = ? AND seq > ? ORDER BY seq LIMIT ?",
        (device, boot, after, limit),
    )
    return [s for (s,) in rows]


def first_above(store: Store, device: str, boot: int, after: int) -> int | None:
    """The lowest stored seq of (device, boot) above `after` (None: none is stored)."""
    row = store.conn.execute(
        "SELECT min(seq) FROM inputs WHERE device = ? AND boot = ? AND seq > ?", (device, boot, after)
    ).fetchone()
    return None if row[0] is None else int(row[0])


def is_final(gap: Gap, gone: Mapping[tuple[str, int], list[tuple[int, int]]]) -> bool:
    """True if the node answered that every seq of the hole is gone (it can never be filled)."""
    d, b, first, last = gap
    seq = first
    for a, z in sorted(gone.get((d, b), ())):
        if a <= seq <= z:
            seq = z + 1
    return seq > last


def alert(
    match_id: int, gaps: list[Gap], gone: Mapping[tuple[str, int], list[tuple[int, int]]] | None = None
) -> MissingEvents | None:
    """The table alert for a match's holes (None when there are none). A hole the node answered gone is final;
    the others are being asked for again (hub.ingest.delivery)."""
    if not gaps:
        return None
    n = sum(last - first + 1 for _, _, first, last in gaps)
    final = [g for g in gaps if is_final(g, gone or {})]
    more = ", ..." if len(gaps) > SHOWN else ""
    en = ", ".join(describe(g) for g in gaps[:SHOWN]) + more
    ru = ", ".join(describe(g, "ru") for g in gaps[:SHOWN]) + more
    if final and len(final) == len(gaps):
        en_state, ru_state = "final: the node no longer has them", "окончательно: у датчика их больше нет"
    elif final:
        en_state = f"{len(final)} of {len(gaps)} hole(s) final, the rest asked for again"
        ru_state = f"{len(final)} из {len(gaps)} пропусков окончательны, остальные запрошены снова"
    else:
        en_state, ru_state = "asked for again", "запрошены снова"
    return MissingEvents(
        kind="missing_events",
        match_id=match_id,
        severity="error",
        count=n,
        devices=sorted({g[0] for g in gaps}),
        ranges=[list(g) for g in gaps[:SHOWN]],
        final=[list(g) for g in final[:SHOWN]],
        en=f"{n} event(s) never reached the hub ({en}; {en_state}): the evidence of this match is "
        "incomplete; check the balls on the table",
        ru=f"{n} событ. не дошло до хаба ({ru}; {ru_state}): доказательства партии неполные — проверьте "
        "шары на столе",
    )


class Holes:
    """The holes of each table's live match, kept up to date as its events arrive."""

    def __init__(self) -> None:
        self._by_table: dict[str, dict[tuple[str, int], list[Gap]]] = {}
        # table -> (device, boot) -> the match's highest seq
        self._top: dict[str, dict[tuple[str, int], int]] = {}

    def load(self, store: Store, table: str, match_id: int) -> None:
        """Start tracking a (rebuilt or new) match of a table."""
        by: dict[tuple[str, int], list[Gap]] = {}
        for g in of_match(store, match_id):
            by.setdefault((g[0], g[1]), []).append(g)
        self._by_table[table] = by
        self._top[table] = {
            (d, b): s
            for d, b, s in store.conn.execute(
                "SELECT device, boot, max(seq) FROM inputs WHERE match_id = ? "
                "AND device IS NOT NULL GROUP BY device, boot",
                (match_id,),
            )
        }

    def update(self, store: Store, table: str, match_id: int, device: str, boot: int, seq: int) -> bool:
        """After event `seq` of (device, boot) was stored in the match: True if its holes changed. The usual
        case (the node's next seq after the match's highest: its holes, all below, stay as they are) is
        decided without the store; any other asks it."""
        by, top = self._by_table.setdefault(table, {}), self._top.setdefault(table, {})
        key = (device, boot)
        high = top.get(key)
        top[key] = seq if high is None else max(high, seq)
        if high is not None and seq == high + 1:
            return False
        now = of_device(store, match_id, device, boot)
        if now == by.get(key, []):
            return False
        if now:
            by[key] = now
        else:
            by.pop(key, None)
        return True

    def alert(
        self, table: str, match_id: int, gone: Mapping[tuple[str, int], list[tuple[int, int]]] | None = None
    ) -> MissingEvents | None:
        """The table's `missing_events` alert now (None: no holes); `gone`: the ranges nodes answered gone."""
        return alert(match_id, sorted(g for gs in self._by_table.get(table, {}).values() for g in gs), gone)
