"""End-to-end delivery, the hub's side: tell each node what is stored, ask again for what is missing.

A node keeps each event in its outbox until the hub confirms it (firmware/delivery.py), because a broker's
PUBACK is not enough (a broker that crashes loses what it acknowledged). Per (device, boot) the hub keeps the
*stored mark*: the highest seq such that every seq 1..mark is settled — stored in the log, refused for what it
says (a rejection with a readable key: it would be refused again), or answered gone by the node. After each
commit that moved a device's mark (or that met a re-sent duplicate: the node evidently missed the last one)
the hub sends the node `stored {b, s}` on its `cmd` topic, at most once per `interval_s` per device (cheap: a
few dozen bytes a second at most, nothing when idle); a mark held back by that limit goes out
when it is due (`flush`).

A hole (a stored seq above the mark) is asked for at once with `resend {b, lo, hi}` (the first hole of that
boot; again after 5 s, then 10, 20 ... 60 s while it stays the same). The node re-sends what it still holds
and answers on `ans` which seqs are gone; those are kept in `gone_events` (schema v6) and the hole becomes
final — only for seqs the hub asked that node for (an unsolicited `ans` could otherwise make real events final
holes): the table's `missing_events` alert says so and `luza replay` still says the match is incomplete
(hub.store.gaps). When the hub (re)connects to a broker that lost its session, it asks every known node to
re-send whatever it has above its mark (`reconnected`): the node's own re-send may have gone out before the
hub was subscribed again.

Runs on the hub's worker thread only (it reads the store).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from hub.store import gaps
from hub.store.database import Store
from luza_wire import resend
from luza_wire.messages import Answer

Key = tuple[str, int]  # (device, boot)
CHUNK = 500  # seqs read at a time while walking a mark forward
ASK_FIRST_S = 5.0
ASK_MAX_S = 60.0
MAX_REQUESTS = 32  # resend ranges remembered per (device, boot) (the oldest gives way)


@dataclass(frozen=True)
class Outgoing:
    """A delivery command for one node: `stored` or `resend` with its arguments."""

    device: str
    name: str
    args: dict[str, int]


@dataclass
class _Ask:
    hole: tuple[int, int]
    at: float
    wait: float = ASK_FIRST_S


@dataclass
class Marks:
    """Per (device, boot): the stored mark, what was last sent, holes asked for,
    and the seqs settled otherwise."""

    interval_s: float = 1.0
    monotonic: Callable[[], float] = time.monotonic
    marks: dict[Key, int] = field(default_factory=dict)
    sent: dict[Key, int] = field(default_factory=dict)
    gone: dict[Key, list[tuple[int, int]]] = field(default_factory=dict)
    settled: dict[Key, set[int]] = field(default_factory=dict)
    due: set[Key] = field(default_factory=set)
    asked: dict[Key, _Ask] = field(default_factory=dict)
    last_send: dict[str, float] = field(default_factory=dict)
    # resend ranges asked, not yet passed
    requested: dict[Key, list[tuple[int, int]]] = field(default_factory=dict)
    unasked: int = 0  # seqs an `ans` called gone that the hub never asked for (ignored)

    # ------------------------------------------------------------ loading and recording

    def load(self, store: Store) -> None:
        """The gone ranges kept in the store (hub start)."""
        self.gone = gaps.gone(store)

    def settle(self, device: str, boot: int, seq: int) -> None:
        """An event refused for what it says (wrong pocket, stale boot):
        it will not be stored, so it is settled."""
        self.settled.setdefault((device, boot), set()).add(seq)

    def record_gone(self, store: Store, device: str, answer: Answer, now_ms: int) -> list[tuple[int, int]]:
        """Inside the transaction: keep the ranges a node answered gone — only within the ranges this hub
        asked that node to re-send (an unsolicited `ans` must not make real events final holes). Returns the
        ones new to the hub (known at once here too: a batch that fails is tried again, and the store ignores
        a range it already has)."""
        new = []
        have = self.gone.setdefault((device, answer.boot), [])
        for a, b in self._solicited((device, answer.boot), answer.gone):
            gaps.record_gone(store, device, answer.boot, a, b, now_ms)
            if (a, b) not in have:
                have.append((a, b))
                new.append((a, b))
        have.sort()
        return new

    def _solicited(self, key: Key, gone: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        """The parts of `gone` that lie within a range asked of `key`; the rest is counted in `unasked`."""
        asked = self.requested.get(key, [])
        out = []
        for a, b in gone:
            kept = [(max(a, lo), min(b, hi)) for lo, hi in asked if max(a, lo) <= min(b, hi)]
            out += kept
            self.unasked += (b - a + 1) - sum(y - x + 1 for x, y in _merge(kept))
        return _merge(out)

    def _ask(self, key: Key, lo: int, hi: int) -> Outgoing:
        """A `resend` of lo..hi, remembered so that the node's answer is accepted for those seqs only."""
        ranges = self.requested.setdefault(key, [])
        if (lo, hi) not in ranges:
            ranges.append((lo, hi))
            del ranges[:-MAX_REQUESTS]
        return Outgoing(key[0], "resend", {"b": key[1], "lo": lo, "hi": hi})

    def final(self, device: str, boot: int) -> list[tuple[int, int]]:
        """The gone ranges of (device, boot)."""
        return list(self.gone.get((device, boot), []))

    # ------------------------------------------------------------ after a commit

    def after_commit(self, store: Store, touched: Iterable[Key], duplicates: Iterable[Key]) -> list[Outgoing]:
        """The commands to send now, for the (device, boot)s whose events this
        commit stored (or met again)."""
        out: list[Outgoing] = []
        dups = set(duplicates)
        for key in sorted(set(touched) | dups):
            old = self.marks.get(key)
            mark = self._advance(store, key, old or 0)
            self.marks[key] = mark
            if mark != old or key in dups:
                self.due.add(key)
            if mark != old:
                self.asked.pop(key, None)  # progress: a hole that remains is a new one
                if key in self.requested:  # ranges wholly below the mark are settled: no answer is needed
                    self.requested[key] = [(lo, hi) for lo, hi in self.requested[key] if hi > mark]
            ask = self._hole(store, key, mark)
            if ask is not None:
                out.append(ask)
        return out + self.flush()

    def flush(self) -> list[Outgoing]:
        """`stored` for every due mark whose device may be told now (at most once per `interval_s`)."""
        now, out = self.monotonic(), []
        allowed: dict[str, bool] = {}
        for key in sorted(self.due):
            dev = key[0]
            if dev not in allowed:
                allowed[dev] = now - self.last_send.get(dev, -1e9) >= self.interval_s
            if allowed[dev]:
                out.append(Outgoing(dev, "stored", {"b": key[1], "s": self.marks[key]}))
                self.sent[key] = self.marks[key]
        for o in out:
            self.due.discard((o.device, o.args["b"]))
            self.last_send[o.device] = now
        return out

    def due_in(self) -> float | None:
        """Seconds until a held-back mark may go out (None: nothing waits)."""
        if not self.due:
            return None
        now = self.monotonic()
        return max(0.0, min(self.last_send.get(d, -1e9) + self.interval_s - now for d, _ in self.due))

    def reconnected(self, store: Store, devices: Iterable[tuple[str, int]]) -> list[Outgoing]:
        """The broker lost our session: ask each (device, current boot) for everything above its mark."""
        out = []
        for dev, boot in devices:
            mark = self.marks.get((dev, boot))
            if mark is None:
                mark = self.marks[(dev, boot)] = self._advance(store, (dev, boot), 0)
            out.append(Outgoing(dev, "stored", {"b": boot, "s": mark}))
            out.append(self._ask((dev, boot), mark + 1, mark + resend.MAX_RESEND))
        return out

    # ------------------------------------------------------------ the mark and the holes

    def _skip(self, key: Key, mark: int) -> int:
        """Past settled seqs and gone ranges that continue the mark."""
        settled, gone = self.settled.get(key), self.gone.get(key, ())
        while True:
            if settled and mark + 1 in settled:
                settled.discard(mark + 1)
                mark += 1
                continue
            nxt = next((b for a, b in gone if a <= mark + 1 <= b), None)
            if nxt is None:
                return mark
            mark = nxt

    def _advance(self, store: Store, key: Key, mark: int) -> int:
        while True:
            start = mark = self._skip(key, mark)
            for s in gaps.seqs_above(store, *key, mark, CHUNK):
                mark = self._skip(key, mark)
                if s > mark + 1:
                    return mark
                mark = max(mark, s)
            mark = self._skip(key, mark)
            if mark == start:
                return mark

    def _hole(self, store: Store, key: Key, mark: int) -> Outgoing | None:
        """`resend` for the first hole above the mark, if one is there and it is time to ask (again)."""
        first = gaps.first_above(store, *key, mark)
        if first is None:
            return None
        hole = (mark + 1, min(first - 1, mark + resend.MAX_RESEND))
        now, ask = self.monotonic(), self.asked.get(key)
        if ask is not None and ask.hole == hole and now - ask.at < ask.wait:
            return None
        wait = min(ask.wait * 2, ASK_MAX_S) if ask is not None and ask.hole == hole else ASK_FIRST_S
        self.asked[key] = _Ask(hole, now, wait)
        return self._ask(key, hole[0], hole[1])


def _merge(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, overlapping or touching ranges joined."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out
