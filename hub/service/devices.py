"""The tables' nodes as the hub's worker hears them: status and telemetry into the device registry and the
node clocks, what a live session is told about its table's nodes, and what the worker saves of them with each
commit.

`DeviceDesk` owns none of the match: the router hands it the live session a message concerns, if any.
Everything happens inside the worker's transaction, collected in the `Batch`.
"""

from __future__ import annotations

from hub.config import Config
from hub.hubclock import HubClock
from hub.ingest.clockmap import ClockMap
from hub.ingest.intake import StatusIn, TeleIn
from hub.ingest.mqtt import RawMessage
from hub.ingest.registry import Registry
from hub.ingest.timebase import RECENT_MS, Timebase
from hub.reconcile.table import TableSession
from hub.service.batch import Batch
from hub.store.database import Store


class DeviceDesk:
    """Status and telemetry of the configured nodes; their health as a session sees it; saving them."""

    def __init__(
        self,
        config: Config,
        store: Store,
        registry: Registry,
        clocks: ClockMap,
        clock: HubClock,
        timebase: Timebase,
    ) -> None:
        self.config, self.store, self.registry, self.clocks, self.clock = (
            config,
            store,
            registry,
            clocks,
            clock,
        )
        self.timebase = timebase  # the hub's timeline, sampled by each node's uptime (hub.ingest.timebase)

    def status(self, raw: RawMessage, s: StatusIn, session: TableSession | None, batch: Batch) -> None:
        """A node's status (online, offline, error, a birth): the registry, and the live session of its
        table."""
        st, dev = s.status, s.device
        if self.registry.on_status(
            dev.id, st.state, st.boot, st.fw, st.ip, st.error, raw.received_ms, st.ota
        ):
            batch.births.append((dev.table, dev.id, raw.link))
        batch.devices.add(dev.id)
        batch.counts["updates"] += 1
        if session is not None:
            session.device_status(dev.id, dev.role, st.state == "online")
            batch.touched.add(dev.table)

    def tele(self, raw: RawMessage, t: TeleIn, session: TableSession | None, batch: Batch) -> None:
        """A node's telemetry: the registry, a pocket node's health for the live session, and its uptime as a
        fresh sample of that boot's clock offset."""
        tele, dev = t.tele, t.device
        self.registry.on_tele(dev.id, tele.boot, tele.fields, raw.received_ms)
        if session is not None and dev.role == "pocket":
            session.health = tuple(self.registry.health(dev.table))
            batch.touched.add(dev.table)
        up = tele.fields.get("up")
        if isinstance(up, int):  # the node's uptime now: a fresh sample of that boot's clock offset
            received = self.timebase.sample(dev.id, tele.boot, up, raw.received_ms)
            self.clocks.observe(dev.id, tele.boot, up, received)
        batch.devices.add(dev.id)
        batch.counts["updates"] += 1

    def health(self, table_id: str, session: TableSession) -> None:
        """Tell a new or rebuilt session which of its table's nodes are down (appliance health, not the
        log)."""
        t = self.config.table(table_id)
        for d in t.devices if t else ():
            dev = self.registry.get(d.id)
            if dev is not None and dev.state in ("lost", "offline", "error"):
                session.device_status(d.id, d.role, False)

    def seen_boots(self) -> list[tuple[str, int]]:
        """The boots of configured nodes seen shortly before the store's high-water mark: they may still be
        up."""
        since = self.store.high_water() - RECENT_MS
        out = []
        for t in self.config.tables:
            for d in t.devices:
                dev = self.registry.get(d.id)
                if dev is not None and dev.boot is not None and (dev.last_seen_ms or 0) >= since:
                    out.append((d.id, dev.boot))
        return out

    def save(self, batch: Batch) -> list[str]:
        """Inside the transaction: the devices and clock offsets the batch changed. Returns the tables of the
        devices saved (a device change is pushed to its table's screens), in order."""
        tables = []
        for dev in batch.devices:
            self.store.save_device(dev, self.registry.row(dev))
            d = self.config.device(dev)
            if d is not None:
                tables.append(d.table)
        batch.clocks = self.clocks.dirty()
        for (dev, boot), (offset, up) in batch.clocks.items():
            self.store.save_clock(dev, boot, offset, self.clock(), up)
        return tables
