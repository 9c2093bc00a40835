"""The hub's telemetry connection (hub.ingest.mqtt), through the installation's locked Mosquitto: its own
account reads telemetry alone; losing it leaves events alone and losing the hub's connection leaves telemetry
alone; a hub upgraded from one connection reads each report once;
the reading pace holds a flood back in the broker."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hub import config
from hub.ingest.mqtt import TELE_FILTER, Pace, topic_filters
from hub.service.hub import Hub
from tests.hub.conftest import locked_config
from tests.hub.nodes import Node
from tests.support.broker import Mosquitto
from tests.support.proxy import TcpProxy


def wait_for(cond: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def battery(hub: Hub, device: str) -> float | None:
    dev = hub.registry.get(device)
    return dev.battery if dev else None


@pytest.fixture
def nodes(locked: Mosquitto) -> Iterator[Callable[[str, str], Node]]:
    """`nodes(device, role)`: a scripted node of t1 logged in with its own account; all closed at the end."""
    made: list[Node] = []

    def make(device: str, role: str) -> Node:
        made.append(Node(locked.port, "t1", device, role, login=locked.login("t1", device)))
        return made[-1]

    yield make
    for n in made:
        n.close()


@pytest.mark.mosquitto
@pytest.mark.parametrize("cut", ["telemetry", "hub"])
def test_losing_one_connection_leaves_the_other_alone(
    locked: Mosquitto, tmp_path: Path, nodes: Callable[[str, str], Node], cut: str
) -> None:
    cfg = locked_config(locked, tmp_path / "luza.db")
    hub = Hub(cfg)
    assert hub.mqtt is not None and hub.mqtt_tele is not None
    conn, other = (hub.mqtt_tele, hub.mqtt) if cut == "telemetry" else (hub.mqtt, hub.mqtt_tele)
    proxy = TcpProxy(("127.0.0.1", locked.port)).start()
    # this connection goes by a link the test cuts
    conn.cfg = dataclasses.replace(cfg.broker, port=proxy.port)
    try:
        hub.start(connect_timeout=10)
        assert other.wait_connected(10) and conn.wait_connected(10)
        hub.new_match("t1", "free", ("A", "B"))
        cue, pocket = nodes("cue-a", "cue"), nodes("p-head", "pocket")

        def event_arrives() -> None:
            target = hub.stats["accepted"] + 1
            cue.send(cue.event("strike", int(time.time() * 1000), pk=2.0, dbl=False))
            wait_for(lambda: hub.stats["accepted"] >= target, "the event never reached the hub")

        def report_arrives(bat: float) -> None:
            pocket.tele(bat=bat, up=1000)
            wait_for(lambda: battery(hub, "p-head") == bat, f"the report {bat} never reached the registry")

        event_arrives()
        report_arrives(3.9)
        proxy.cut()
        wait_for(lambda: not conn.connected.is_set(), "the cut connection still looks up")
        if cut == "telemetry":
            for _ in range(3):
                event_arrives()  # events flow while telemetry's link is down
        else:
            report_arrives(3.8)  # and telemetry while the hub's connection is down
        proxy.restore()
        assert conn.wait_connected(15), "the cut connection did not come back"
        event_arrives()
        report_arrives(3.7)
        assert other.connects == 1, "the other connection dropped too"
        assert conn.connects == 2
    finally:
        hub.stop()
        proxy.stop()


@pytest.mark.mosquitto
def test_an_upgraded_hub_reads_each_report_once(
    locked: Mosquitto, tmp_path: Path, nodes: Callable[[str, str], Node]
) -> None:
    """The hub's persistent session still holds the telemetry subscription of the one-connection hub before
    the upgrade: the hub connection drops it, so a report does not come twice (once on each connection)."""
    db = tmp_path / "luza.db"
    before = Hub(locked_config(locked, db, tele=False)).start(connect_timeout=10)
    assert before.mqtt_tele is None
    before.stop()
    hub = Hub(locked_config(locked, db)).start(connect_timeout=10)
    try:
        assert hub.mqtt is not None and hub.mqtt.session_present  # the old session, with its subscriptions
        hub.new_match("t1", "free", ("A", "B"))
        pocket = nodes("p-head", "pocket")
        wait_for(lambda: hub.registry.get("p-head").state == "online", "no birth")  # type: ignore[union-attr]
        assert hub.wait_idle(10)
        received, accepted = hub.stats["received"], hub.stats["accepted"]
        pocket.tele(bat=3.6, up=1000)
        # the same node's event after the report: on the hub connection a copy of the report would come first
        pocket.send(pocket.event("pocket", int(time.time() * 1000), p=1, c="ivory"))
        wait_for(
            lambda: hub.stats["accepted"] > accepted and battery(hub, "p-head") == 3.6, "nothing arrived"
        )
        assert hub.wait_idle(10)
        assert hub.stats["received"] - received == 2  # the report once, the event once
    finally:
        hub.stop()


def test_the_connections_share_out_the_topics() -> None:
    one = config.BrokerConfig()
    two = config.BrokerConfig(tele_username="luza-hub-tele", tele_password="pw")
    assert topic_filters(one, False) == (
        [(f, 1) for f in ("luza/v1/+/+/status", "luza/v1/+/+/evt", "luza/v1/+/+/tele", "luza/v1/+/+/ans")],
        [],
    )
    subscribe, unsubscribe = topic_filters(two, False)
    assert (
        TELE_FILTER not in [f for f, _ in subscribe] and len(subscribe) == 3 and unsubscribe == [TELE_FILTER]
    )
    assert topic_filters(two, True) == ([(TELE_FILTER, 0)], [])
    assert two.tele_client_id == "luza-hub-tele" != two.client_id


def test_the_reading_pace() -> None:
    now = [0.0]

    def sleep(s: float) -> None:
        now[0] += s

    pace = Pace(per_s=100, burst=10, monotonic=lambda: now[0], sleep=sleep)
    for _ in range(10):
        pace.wait()
    assert now[0] == 0.0  # the burst passes at once
    assert pace.behind_s() == 0.0
    for _ in range(100):
        pace.wait()
    assert now[0] == pytest.approx(1.0)  # then 100 a second
    assert pace.behind_s() == pytest.approx(1.0)  # held back ever since the burst ran out
    now[0] += 5.0  # quiet for a while: the bucket refills to the burst, no more
    for _ in range(10):
        pace.wait()
    assert now[0] == pytest.approx(6.0) and pace.waited_s == pytest.approx(1.0)
    assert pace.behind_s() == 0.0  # caught up
    pace.wait()
    assert now[0] == pytest.approx(6.01)
