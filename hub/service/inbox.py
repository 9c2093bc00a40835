"""The hub's ingest queue (MQTT and serial -> the worker), bounded by a fixed memory budget.

Each queued payload costs its bytes plus a fixed overhead for the objects around it. Under a flood:

- a payload over the wire limit is cut to a short sample at once and carries an `oversized` framing error (it
  can only be rejected, and a hostile 64 KB message must not sit in memory as it came);
- telemetry (`tele`, any QoS) is shed **per node** first: each node's telemetry topic may bring `TELE_BURST`
  reports at once and `TELE_PER_S` a second on average (a node sends one every `tele_s` >= 1 s, 30 s by
  default); past that its reports are shed at once, on the MQTT thread, before they can queue ahead of
  anyone's events (one node flooding with its own login delayed real events by seconds: docs/security.md);
- telemetry is also shed once the queue holds half the budget;
- anything else the broker cannot redeliver (QoS 0, serial lines) is shed at the full budget;
- events and other QoS 1 messages are never shed. The broker holds back what the hub has not acknowledged (the
  hub acks only after the commit, and its MQTT session allows at most `RECEIVE_MAXIMUM` unacknowledged
  messages in flight), so their share is bounded by that window times the largest item, and it is part of the
  budget. Stop acking is the back-pressure: the broker keeps the rest, nothing is dropped.

A shed QoS 1 message (telemetry) is acknowledged at once, so it does not hold a slot of the broker's window.
Shedding is counted per class (`shed`, in the hub's stats) and logged at most once per `log_every_s` with the
counts since the last line. Referee requests and control items are small and always queued.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable

from hub.ingest.mqtt import RECEIVE_MAXIMUM, RawMessage
from hub.store.rejected import MAX_REJECTED_PAYLOAD
from luza_wire import frame

log = logging.getLogger("luza.hub")

OVERHEAD = 600  # bytes around each queued payload (RawMessage, its ack closure, the queue's slot)
SAMPLE = MAX_REJECTED_PAYLOAD  # bytes kept of an oversized payload (what the store keeps of a rejected one)
TOPIC_MAX = 256  # characters of a topic kept (a real one is under 70)
MAX_ITEM = SAMPLE + TOPIC_MAX + OVERHEAD
EVENT_SHARE = RECEIVE_MAXIMUM * MAX_ITEM  # what the broker's window can have queued here at most
BUDGET = EVENT_SHARE + 2 * 1024 * 1024  # bytes: the event share plus 2 MiB for everything that can be shed


def cost(raw: RawMessage) -> int:
    return len(raw.payload) + len(raw.topic) + OVERHEAD


def trimmed(raw: RawMessage) -> RawMessage:
    """An oversized payload (or topic) cut to a sample, with the `oversized` error the wire would give it."""
    if len(raw.payload) <= frame.MAX_PAYLOAD and len(raw.topic) <= TOPIC_MAX:
        return raw
    if len(raw.topic) > TOPIC_MAX:
        error = (
            "bad_topic",
            f"topic of {len(raw.topic)} characters (not luza/v1/<table>/<device>/<channel>)",
        )
    else:
        error = ("oversized", f"payload is {len(raw.payload)} bytes; the limit is {frame.MAX_PAYLOAD}")
    return RawMessage(
        raw.source,
        raw.topic[:TOPIC_MAX],
        raw.payload[:SAMPLE],
        raw.received_ms,
        raw.ack,
        raw.error or error,
        raw.link,
        len(raw.payload),
    )


TELE_PER_S = 2.0  # a node's telemetry reports a second, on average (docs above)
TELE_BURST = 5.0
TELE_NODES = 4096  # topics tracked; more (a flood of made-up device names) starts the count afresh


class TeleRate:
    """A token bucket per telemetry topic (one node): `allow(topic)` is False for a report past its rate."""

    def __init__(
        self,
        per_s: float = TELE_PER_S,
        burst: float = TELE_BURST,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_s, self.burst, self.monotonic = per_s, burst, monotonic
        self._buckets: dict[str, tuple[float, float]] = {}  # topic -> (tokens, when)

    def allow(self, topic: str) -> bool:
        now = self.monotonic()
        tokens, then = self._buckets.get(topic, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.per_s)
        if len(self._buckets) >= TELE_NODES and topic not in self._buckets:
            self._buckets.clear()
        if tokens < 1.0:
            self._buckets[topic] = (tokens, now)
            return False
        self._buckets[topic] = (tokens - 1.0, now)
        return True


def _class(raw: RawMessage) -> str:
    """'tele' (shed first), 'kept' (QoS 1 over MQTT: the broker redelivers,
    never shed), or 'best' (the rest)."""
    if raw.topic.endswith("/tele"):
        return "tele"
    return "kept" if raw.ack is not None else "best"


class Inbox:
    """A FIFO of the worker's items with the memory budget above. Thread-safe."""

    def __init__(
        self, budget: int = BUDGET, log_every_s: float = 10.0, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.budget, self.log_every_s, self.monotonic = budget, log_every_s, monotonic
        self.bytes = 0
        self.peak = 0
        self.shed: Counter[str] = Counter()  # per class, since start
        self._q: queue.Queue[object] = queue.Queue()
        self._lock = threading.Lock()
        self._unlogged: Counter[str] = Counter()
        self._logged_at = -1e9
        self.tele_rate = TeleRate(monotonic=monotonic)

    def offer(self, raw: RawMessage) -> bool:
        """Queue a received payload, or shed it (False): acknowledged if it has an ack, counted, logged."""
        if not isinstance(raw, RawMessage):  # a bug elsewhere: the worker reports it and goes on
            self._q.put(raw)
            return True
        raw = trimmed(raw)
        kind, size = _class(raw), cost(raw)
        limit = {"tele": self.budget // 2, "best": self.budget}.get(kind)
        with self._lock:
            if kind == "tele" and not self.tele_rate.allow(raw.topic):
                self.shed["tele"] += 1
                self._unlogged["tele (one node's rate)"] += 1
                shed = True
            elif limit is not None and self.bytes + size > limit:
                self.shed[kind] += 1
                self._unlogged[kind] += 1
                shed = True
            else:
                self.bytes += size
                self.peak = max(self.peak, self.bytes)
                shed = False
        if shed:
            if raw.ack is not None:
                raw.ack()  # telemetry the broker would otherwise keep in its window
            self._log_shed()
            return False
        self._q.put(raw)
        return True

    def put(self, item: object) -> None:
        """Queue a referee request or a control item (never shed)."""
        self._q.put(item)

    def get(self, timeout: float | None = None) -> object:
        """The next item (queue.Empty after `timeout` seconds; 0 = do not wait)."""
        item = self._q.get(timeout=timeout) if timeout != 0 else self._q.get_nowait()
        if isinstance(item, RawMessage):
            with self._lock:
                self.bytes -= cost(item)
        return item

    def qsize(self) -> int:
        return self._q.qsize()

    def _log_shed(self) -> None:
        now = self.monotonic()
        with self._lock:
            if now - self._logged_at < self.log_every_s:
                return
            self._logged_at, counts, self._unlogged = now, dict(self._unlogged), Counter()
        log.warning(
            "ingest queue shed %s (queue at %d of %d bytes); events are never shed",
            ", ".join(f"{n} {k}" for k, n in sorted(counts.items())),
            self.bytes,
            self.budget,
        )


class Outstanding:
    """How many items handed to the worker it has not yet acted on;
    `wait` blocks until none (tests, benchmarks)."""

    def __init__(self) -> None:
        self._count = 0
        self._idle = threading.Condition()

    def add(self, n: int = 1) -> None:
        with self._idle:
            self._count += n

    def done(self, n: int = 1) -> None:
        if n:
            with self._idle:
                self._count -= n
                self._idle.notify_all()

    def wait(self, timeout: float) -> bool:
        """True once nothing is outstanding; False if `timeout` seconds pass first."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while self._count:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
        return True
