"""The hub sends a node its time again every RESYNC_S while the node talks, judged on a monotonic clock."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hub import config
from hub.ingest.resync import RESYNC_S
from hub.service.hub import Hub
from tests.hub.nodes import Clock, Node
from tests.hub.service.test_service import T0, wait_for
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto


def test_time_again_after_the_interval_not_on_every_message_and_not_on_a_wall_clock_step(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    clock, mono = Clock(T0), [1000.0]
    hub = hubs(cfg, clock=clock)
    hub.resync.monotonic = lambda: mono[0]
    assert hub.mqtt is not None and hub.mqtt.wait_connected(60)
    assert hub.wait_idle(10)
    node = Node(mosquitto.port, "t1", "p-foot", "pocket", boot=3)

    def sent() -> list[dict[str, object]]:
        """The commands by id: QoS 1 is at least once, and on a loaded machine the broker delivers one again
        (a node's keepalive missed, its session resumed); a time command again changes nothing on a node."""
        return list({c["id"]: c for c in node.commands}.values())

    wait_for(lambda: len(sent()) == 1)
    assert sent()[0]["c"] == "time" and sent()[0]["hub"] == T0  # on birth

    def tele(n: int) -> None:
        node.tele(up=n)
        wait_for(lambda: (hub.registry.get("p-foot") or object()).__dict__.get("uptime_ms") == n)
        assert hub.wait_idle(5)

    mono[0] += RESYNC_S / 2
    clock.now = T0 + 3_600_000  # the hub's wall clock steps +1 h: no re-sync for that alone
    tele(1)
    assert len(sent()) == 1  # a wall-clock step alone: no time again
    mono[0] += RESYNC_S / 2
    clock.now = T0 + 3_600_000 + 5000
    tele(2)  # the interval has passed on the monotonic clock: the time again, the hub's time now
    wait_for(lambda: len(sent()) == 2)
    # the hub's own time: its timeline (hub/hubclock.py) has followed the wall clock's
    # step ahead, at its own pace
    again = sent()[1]
    assert again["c"] == "time" and T0 + 3_600_000 <= again["hub"] <= T0 + 3_605_000
    tele(3)
    node.close()  # its offline status goes through the broker and the hub after the last telemetry
    hub.stop()
    assert len(sent()) == 2
