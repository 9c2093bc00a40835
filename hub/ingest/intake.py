"""Intake: one raw payload (MQTT or serial) -> an accepted sensor input, a device update, or a rejection.

Checks, in order: transport framing, topic (protocol.parse_topic), device known to the config, device on its
own table, payload (protocol.parse: malformed, wrong version, oversized, bad fields), the event fits the
device (a strike from a cue node, a pocket the node covers), and a boot long past (an event from an earlier
boot that the hub has no clock for, or older than `late_window`). An event is placed on the hub's timeline by
its uptime through the hub's own offset for its boot (hub.ingest.clockmap), never by the node's clock alone.
The result is a plain value; the hub's worker does the I/O.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from hub.config import Config, DeviceConfig
from hub.ingest.clockmap import ClockMap
from hub.ingest.mqtt import RawMessage
from hub.ingest.registry import Registry
from hub.vocab.inputs import SensorInput
from luza_wire import protocol
from luza_wire.frame import Rejection
from luza_wire.messages import Answer, Event, Status, Telemetry

POCKET_KINDS = ("pocket", "jam", "clear", "calib", "out", "flag")


@dataclass(frozen=True)
class Rejected:
    code: str
    reason: str
    device: str | None
    key: tuple[str, int, int] | None = None  # a readable event refused for what it says: settled all the same


@dataclass(frozen=True)
class AnswerIn:
    """A node's answer to a command (Answer: which seqs of a `resend` it no longer holds)."""

    device: DeviceConfig
    answer: Answer


@dataclass(frozen=True)
class StatusIn:
    device: DeviceConfig
    status: Status


@dataclass(frozen=True)
class TeleIn:
    device: DeviceConfig
    tele: Telemetry


@dataclass(frozen=True)
class EventIn:
    device: DeviceConfig
    input: SensorInput


Intake = Rejected | StatusIn | TeleIn | EventIn | AnswerIn


def classify(
    raw: RawMessage, config: Config, registry: Registry, clocks: ClockMap, late_window_ms: int
) -> Intake:
    if raw.error is not None and not raw.topic:  # a serial line that is not an envelope
        return Rejected(raw.error[0], raw.error[1], None)
    topic = protocol.parse_topic(raw.topic)
    if isinstance(topic, Rejection):
        return Rejected(topic.code, topic.reason, None)
    dev = config.device(topic.device)
    if dev is None:
        return Rejected(
            "unknown_device",
            f"device {topic.device!r} is not in the config; add it to a table's pockets or cues in luza.toml",
            topic.device,
        )
    if dev.table != topic.table:
        return Rejected(
            "wrong_table",
            f"device {dev.id!r} belongs to table {dev.table!r} but published on table "
            f"{topic.table!r}; fix the node's table setting or luza.toml",
            dev.id,
        )
    if topic.channel not in protocol.NODE_CHANNELS:
        return Rejected("bad_channel", f"channel {topic.channel!r} is not a node -> hub channel", dev.id)
    if raw.error is not None:  # cut by the ingest queue (hub.service.inbox): counted for its device
        return Rejected(raw.error[0], raw.error[1], dev.id)
    msg = protocol.parse(topic.channel, raw.payload, topic.device)
    if isinstance(msg, Rejection):
        return Rejected(msg.code, msg.reason, dev.id)
    if isinstance(msg, Status):
        return StatusIn(dev, msg)
    if isinstance(msg, Telemetry):
        return TeleIn(dev, msg)
    if isinstance(msg, Answer):
        return AnswerIn(dev, msg)
    assert isinstance(msg, Event)
    result = _event(raw, dev, msg, registry, clocks, late_window_ms)
    return dataclasses.replace(result, key=msg.key) if isinstance(result, Rejected) else result


def _event(
    raw: RawMessage, dev: DeviceConfig, ev: Event, registry: Registry, clocks: ClockMap, late_window_ms: int
) -> Intake:
    if ev.kind == "strike" and dev.role != "cue":
        return Rejected(
            "wrong_role", f"{dev.id!r} is a pocket node in luza.toml but sent a cue strike", dev.id
        )
    if ev.kind in POCKET_KINDS:
        if dev.role != "pocket":
            return Rejected(
                "wrong_role", f"{dev.id!r} is a cue node in luza.toml but sent a {ev.kind!r} event", dev.id
            )
        if ev.get("pocket") not in dev.pockets:
            return Rejected(
                "wrong_pocket",
                f"{dev.id!r} reported pocket {ev.get('pocket')}, but luza.toml gives it "
                f"pockets {list(dev.pockets)}",
                dev.id,
            )
    current = registry.current_boot(dev.id)
    old_boot = current is not None and ev.boot < current
    # a boot that ended before the hub measured it
    unknown = old_boot and clocks.offset(dev.id, ev.boot) is None
    if unknown and not ev.synced:
        return Rejected(
            "stale_boot",
            f"event from boot {ev.boot} of {dev.id!r} (now on boot {current}) carries "
            f"uptime the hub has no clock for",
            dev.id,
        )
    offset = None
    # placed by the node's uptime and the hub's own measure of its clock
    if ev.up is not None and not unknown:
        at_ms, offset = clocks.place(dev.id, ev.boot, ev.up, raw.received_ms)
    else:  # firmware without `up` (or a boot the hub never measured): the node's clock is all there is
        at_ms = clocks.to_hub(dev.id, ev.boot, ev.t, ev.synced, raw.received_ms)
    if old_boot and at_ms < raw.received_ms - late_window_ms:
        return Rejected(
            "stale_boot",
            f"event from boot {ev.boot} of {dev.id!r} (now on boot {current}) is "
            f"{(raw.received_ms - at_ms) // 1000} s old, beyond ingest.late_window_s",
            dev.id,
        )
    return EventIn(dev, SensorInput(ev, dev.role, dev.seat, at_ms, raw.received_ms, offset))
