"""Prometheus metrics of one hub (GET /metrics), on a registry of their own
(one per app, so tests can run many).

Counters are read from the hub's own counts at scrape time; the sensor-event-to-commit latency is observed by
the hub's worker after each commit (Hub.latency_observers)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from hub.service.hub import Hub

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)


PinCounts = Callable[[], Mapping[tuple[str, str], int]]  # {(table, ok | wrong | locked): attempts}


class _HubCollector(Collector):
    def __init__(self, hub: Hub, ws_clients: Callable[[], int], pins: PinCounts) -> None:
        self.hub, self.ws_clients, self.pins = hub, ws_clients, pins

    def collect(self) -> Iterator[Metric]:
        stats = self.hub.stats
        for name, key, doc in (
            ("luza_events_received", "received", "payloads received from nodes (MQTT, serial)"),
            ("luza_events_accepted", "accepted", "sensor events accepted into the log"),
            ("luza_events_duplicate", "duplicates", "redelivered sensor events skipped"),
            ("luza_referee_actions", "referee", "referee actions stored"),
            ("luza_referee_refused", "referee_refused", "referee actions refused"),
            ("luza_commit_failures", "commit_failures", "store commits that failed and were retried"),
            ("luza_worker_errors", "worker_errors", "batches the worker failed on (and survived)"),
            (
                "luza_session_errors",
                "session_errors",
                "internal errors while a table folded an input (the table is held with an alert)",
            ),
        ):
            yield CounterMetricFamily(name, doc, value=stats.get(key, 0))
        rejected = CounterMetricFamily(
            "luza_events_rejected", "payloads rejected, by reason code", labels=["code"]
        )
        by_code: Counter[str] = Counter()
        for dev in self.hub.devices():
            by_code.update(dev.get("rejected") or {})
        for code, n in sorted(by_code.items()):
            rejected.add_metric([code], n)
        yield rejected
        devices = self.hub.devices()
        yield GaugeMetricFamily(
            "luza_devices_online",
            "configured nodes online",
            value=sum(1 for d in devices if d.get("online") and d.get("table_id")),
        )
        yield GaugeMetricFamily(
            "luza_devices_configured", "configured nodes", value=sum(1 for d in devices if d.get("table_id"))
        )
        yield GaugeMetricFamily(
            "luza_websocket_clients", "WebSocket clients connected", value=self.ws_clients()
        )
        yield GaugeMetricFamily(
            "luza_queue_depth", "items waiting for the hub's worker", value=self.hub.queue_depth()
        )
        shed = CounterMetricFamily(
            "luza_ingest_shed",
            "payloads shed by the ingest queue's memory budget, by class "
            "(tele first, best = other QoS 0; QoS 1 events never)",
            labels=["class"],
        )
        for kind in ("tele", "best"):
            shed.add_metric([kind], stats.get("shed_" + kind, 0))
        yield shed
        pins = CounterMetricFamily(
            "luza_pin_attempts",
            "PIN attempts at the token exchange, by table and result "
            "(ok; wrong: evaluated and wrong; locked: refused unheard while locked out)",
            labels=["table", "result"],
        )
        counts = self.pins()
        for t in self.hub.config.tables:
            for result in ("ok", "wrong", "locked"):
                pins.add_metric([t.id, result], counts.get((t.id, result), 0))
        yield pins
        yield GaugeMetricFamily(
            "luza_worker_alive",
            "1 while the hub's worker thread runs",
            value=1 if self.hub.worker_alive else 0,
        )


class Metrics:
    """The registry of one app; `render()` is the /metrics body."""

    def __init__(self, hub: Hub, pins: PinCounts = dict) -> None:
        self.registry = CollectorRegistry()
        self.ws_clients: Callable[[], int] = lambda: 0
        self.latency = Histogram(
            "luza_event_commit_seconds",
            "sensor event received -> committed and published",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.registry.register(_HubCollector(hub, lambda: self.ws_clients(), pins))
        self._hub = hub
        hub.latency_observers.append(self.latency.observe)

    def close(self) -> None:
        if self.latency.observe in self._hub.latency_observers:
            self._hub.latency_observers.remove(self.latency.observe)

    def render(self) -> bytes:
        return generate_latest(self.registry)
