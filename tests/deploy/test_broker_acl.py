"""The generated Mosquitto config loaded by a real `mosquitto`: who may connect, publish and read what.

MQTT v5 throughout: a refused publish is a PUBACK with reason code 135 (Not authorized); over 3.1.1 it would
be silent. Reads are checked on every delivery: Mosquitto 2.0 grants any subscription, then delivers only what
the reader may read, so the tests check what arrives.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from hub.deploy import broker_config as bc
from hub.deploy import credentials as creds
from hub.ingest.mqtt import HUB_STATUS_TOPIC
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto

OK, GRANTED_QOS1, NOT_AUTHORIZED, BAD_LOGIN = 0, 1, 135, 134


def test_anonymous_and_wrong_passwords_are_refused(locked: Mosquitto, clients: Any) -> None:
    assert clients(locked, None, None).connect() == NOT_AUTHORIZED
    user, _ = locked.login("t1", "cue-a")
    assert clients(locked, user, "not-the-password").connect() in (BAD_LOGIN, NOT_AUTHORIZED)
    assert clients(locked, "t1.nobody", "x").connect() in (BAD_LOGIN, NOT_AUTHORIZED)
    assert clients(locked, *locked.login("t1", "cue-a")).connect() == OK


def test_a_node_publishes_only_its_own_topics(locked: Mosquitto, clients: Any) -> None:
    node = clients(locked, *locked.login("t1", "pockets-123"))
    assert node.connect() == OK
    for ch in ("evt", "status", "tele", "ans"):  # ans: a node's answer to `resend` (docs/wire.md)
        assert node.publish(f"luza/v1/t1/pockets-123/{ch}") == OK
    refused = [
        "luza/v1/t1/pockets-456/evt",
        "luza/v1/t1/pockets-456/ans",
        "luza/v1/t1/cue-a/status",
        "luza/v1/t2/pockets-123/evt",
        "luza/v1/t2/t2-p/evt",
        "luza/v1/t1/state",
        "luza/v1/t2/state",
        "luza/v1/t1/pockets-456/cmd",
        "luza/v1/t1/pockets-123/cmd",
        HUB_STATUS_TOPIC,
        "luza/v1/t1/pockets-123/other",
        "elsewhere",
    ]
    for topic in refused:
        assert node.publish(topic, b'{"st":"fake"}', retain=True) == NOT_AUTHORIZED, topic


def test_a_node_reads_only_its_own_cmd(locked: Mosquitto, clients: Any) -> None:
    hub = clients(locked, creds.HUB_USER, locked.credentials.hub)  # type: ignore[union-attr]
    node = clients(locked, *locked.login("t1", "cue-a"))
    assert hub.connect() == OK and node.connect() == OK
    # Mosquitto 2.0 grants the subscription and checks `read` on every delivery: nothing else arrives
    node.subscribe("luza/v1/t1/cue-b/cmd")
    node.subscribe("luza/v1/t1/state")
    node.subscribe("luza/v1/#")
    assert node.subscribe("luza/v1/t1/cue-a/cmd") == GRANTED_QOS1
    for topic in ("luza/v1/t1/cue-b/cmd", "luza/v1/t2/t2-p/cmd", "luza/v1/t1/state", "luza/v1/t1/cue-a/cmd"):
        assert hub.publish(topic, b'{"c":"identify"}') == OK
    node.wait_message("luza/v1/t1/cue-a/cmd")  # the last one sent: everything before it has been routed
    assert {t for t, _, _ in node.messages} == {"luza/v1/t1/cue-a/cmd"}


def test_the_hub_does_all_it_needs(locked: Mosquitto, clients: Any) -> None:
    hub = clients(locked, creds.HUB_USER, locked.credentials.hub)  # type: ignore[union-attr]
    assert hub.connect() == OK
    for f in ("luza/v1/+/+/evt", "luza/v1/+/+/status", "luza/v1/+/+/tele"):
        assert hub.subscribe(f) == GRANTED_QOS1
    node = clients(locked, *locked.login("t2", "t2-p"))
    assert node.connect() == OK
    assert node.publish("luza/v1/t2/t2-p/evt", b'{"k":"pocket"}') == OK
    assert hub.wait_message("luza/v1/t2/t2-p/evt") == b'{"k":"pocket"}'
    for topic in ("luza/v1/t1/state", "luza/v1/t2/state", HUB_STATUS_TOPIC, "luza/v1/t1/cue-b/cmd"):
        assert hub.publish(topic, b"{}", retain=topic != "luza/v1/t1/cue-b/cmd") == OK


def test_screens_read_states_and_the_hub_status_only(locked: Mosquitto, clients: Any) -> None:
    hub = clients(locked, creds.HUB_USER, locked.credentials.hub)  # type: ignore[union-attr]
    screen = clients(locked, "screen-demo", locked.credentials.screens["demo"])  # type: ignore[union-attr]
    assert hub.connect() == OK and screen.connect() == OK
    assert hub.publish("luza/v1/t1/state", b'{"match":null}', retain=True) == OK
    assert screen.subscribe("luza/v1/+/state") == GRANTED_QOS1
    assert screen.wait_message("luza/v1/t1/state") == b'{"match":null}'
    assert screen.subscribe(HUB_STATUS_TOPIC) == GRANTED_QOS1
    screen.subscribe("luza/v1/#")
    assert screen.publish("luza/v1/t1/state", b'{"match":"fake"}') == NOT_AUTHORIZED
    assert screen.publish("luza/v1/t1/cue-a/cmd", b"{}") == NOT_AUTHORIZED
    assert hub.publish("luza/v1/t1/cue-a/cmd", b'{"c":"identify"}') == OK
    assert hub.publish("luza/v1/t1/state", b'{"match":1}', retain=True) == OK
    with screen.cond:
        assert screen.cond.wait_for(lambda: screen.messages[-1][1] == b'{"match":1}', 5)
    assert {t for t, _, _ in screen.messages} == {"luza/v1/t1/state"}


def test_the_hubs_telemetry_account_reads_telemetry_and_nothing_else(locked: Mosquitto, clients: Any) -> None:
    """luza-hub-tele (the hub's second connection, hub.ingest.mqtt) publishes nothing and reads only
    telemetry: a stolen copy of its password can neither change a score nor see the events."""
    c = locked.credentials
    assert c is not None and c.tele
    tele = clients(locked, creds.TELE_USER, c.tele)
    hub = clients(locked, creds.HUB_USER, c.hub)
    node = clients(locked, *locked.login("t1", "pockets-123"))
    assert tele.connect() == OK and hub.connect() == OK and node.connect() == OK
    assert clients(locked, creds.TELE_USER, c.hub).connect() in (BAD_LOGIN, NOT_AUTHORIZED)
    tele.subscribe("luza/v1/#")  # granted; every delivery is checked against the ACL
    for topic in (
        "luza/v1/t1/state",
        "luza/v1/t1/pockets-123/evt",
        "luza/v1/t1/pockets-123/tele",
        "luza/v1/t1/pockets-123/status",
        "luza/v1/t1/pockets-123/ans",
        "luza/v1/t1/pockets-123/cmd",
        HUB_STATUS_TOPIC,
        "elsewhere",
    ):
        assert tele.publish(topic, b'{"st":"fake"}', retain=True) == NOT_AUTHORIZED, topic
    for ch in ("evt", "status", "ans"):
        assert node.publish(f"luza/v1/t1/pockets-123/{ch}", b'{"k":"pocket"}') == OK
    for topic in ("luza/v1/t1/state", "luza/v1/t1/pockets-123/cmd", HUB_STATUS_TOPIC):
        assert hub.publish(topic, b"{}") == OK
    assert node.publish("luza/v1/t1/pockets-123/tele", b'{"v":1,"b":1}') == OK  # the last one sent
    assert tele.wait_message("luza/v1/t1/pockets-123/tele") == b'{"v":1,"b":1}'
    assert {t for t, _, _ in tele.messages} == {"luza/v1/t1/pockets-123/tele"}


def test_the_tool_reads_everything_and_sends_commands_but_not_state(locked: Mosquitto, clients: Any) -> None:
    tool = clients(locked, creds.TOOL_USER, locked.credentials.tool)  # type: ignore[union-attr]
    assert tool.connect() == OK
    assert tool.subscribe("luza/v1/#") == GRANTED_QOS1
    assert tool.publish("luza/v1/t1/cue-a/cmd", b'{"c":"identify"}') == OK
    assert tool.publish("luza/v1/t1/state", b"{}") == NOT_AUTHORIZED
    assert tool.publish("luza/v1/t1/cue-a/evt", b"{}") == NOT_AUTHORIZED


def test_a_node_cannot_take_over_the_hubs_session(locked: Mosquitto, clients: Any) -> None:
    """Client id = user name: a node asking for the hub's client id keeps its own, and the hub stays on."""
    hub = clients(locked, creds.HUB_USER, locked.credentials.hub, client_id=creds.HUB_USER)  # type: ignore[union-attr]
    assert hub.connect() == OK
    intruder = clients(locked, *locked.login("t1", "cue-a"), client_id=creds.HUB_USER)
    assert intruder.connect() == OK
    assert hub.publish("luza/v1/t1/state", b"{}") == OK  # still connected: a takeover would have closed it
    assert not hub.disconnected.is_set()


def test_the_broker_restart_keeps_the_hubs_queued_messages(locked: Mosquitto, clients: Any) -> None:
    from hub.config import BrokerConfig
    from hub.ingest.mqtt import MqttIngest, RawMessage

    got: list[RawMessage] = []
    arrived = threading.Event()

    def take(m: RawMessage) -> None:
        got.append(m)
        arrived.set()

    cfg = BrokerConfig(port=locked.port, username=creds.HUB_USER, password=locked.credentials.hub)  # type: ignore[union-attr]
    ingest = MqttIngest(cfg, take)
    ingest.start()
    assert ingest.wait_connected(5)
    ingest.stop()  # away, with a persistent session: the broker queues for it
    node = clients(locked, *locked.login("t1", "pockets-123"))
    assert node.connect() == OK
    assert node.publish("luza/v1/t1/pockets-123/evt", b'{"k":"queued"}') == OK
    node.close()
    locked.restart()
    ingest = MqttIngest(cfg, take)
    ingest.start()
    try:
        assert ingest.wait_connected(5) and arrived.wait(5)
        assert [m.payload for m in got] == [b'{"k":"queued"}']
    finally:
        ingest.stop()


def test_the_config_is_what_the_issue_asks(tmp_path: Path) -> None:
    from tests.deploy.conftest import tables_config

    cfg = tables_config()
    limits = bc.queue_limits(cfg)
    assert limits.max_queued_messages > 1000  # the stock queue would drop silently
    assert limits.max_queued_messages == 2 * 12 * (
        3 * bc.RATE_PER_HOUR["pocket"] + 2 * bc.RATE_PER_HOUR["cue"]
    )
    from hub import configfile

    club = configfile.parse(
        {
            "tables": [
                {
                    "id": f"t{i}",
                    "pockets": {f"t{i}-p{p}": p for p in range(1, 7)},
                    "cues": {f"t{i}-a": 0, f"t{i}-b": 1},
                }
                for i in range(16)
            ]
        }
    )
    assert bc.queue_limits(club).max_queued_bytes <= bc.MAX_QUEUE_BYTES  # 16 tables: capped to the Pi's RAM
    text = bc.mosquitto_conf(bc.Layout(), limits)
    for line in (
        "allow_anonymous false",
        "persistence true",
        "queue_qos0_messages false",
        "use_username_as_clientid true",
        f"max_packet_size {bc.MAX_PACKET}",
        "listener 1883",
    ):
        assert line in text.splitlines(), line
    tls = bc.mosquitto_conf(bc.Layout(tls=bc.Tls("/ca.pem", "/c.pem", "/k.pem")), limits)
    assert "listener 1883 127.0.0.1" in tls and "listener 8883" in tls and "certfile /c.pem" in tls


def test_password_hashes_are_mosquittos_and_kept_when_unchanged() -> None:
    import subprocess

    c = creds.ensure(None, creds_config(), ["wall"])
    text = bc.passwd_text(c)
    assert bc.passwd_text(c, text) == text  # regenerating changes no byte
    rotated = creds.rotate(c, "t1.cue-a")
    again = bc.passwd_text(rotated, text)
    changed = [a for a, b in zip(text.splitlines(), again.splitlines(), strict=True) if a != b]
    assert [line.split(":")[0] for line in changed] == ["t1.cue-a"]
    # mosquitto_passwd itself writes hashes this module verifies
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "pw"
        subprocess.run(["mosquitto_passwd", "-b", "-c", str(f), "u", "secret"], check=True)
        hashed = f.read_text().strip().split(":", 1)[1]
    assert bc.hash_matches(hashed, "secret") and not bc.hash_matches(hashed, "other")


def creds_config() -> Any:
    from tests.deploy.conftest import tables_config

    return tables_config()


def test_hub_status_birth_clean_stop_and_last_will(locked: Mosquitto, clients: Any) -> None:
    from hub.config import BrokerConfig
    from hub.ingest.mqtt import MqttIngest

    screen = clients(locked, "screen-demo", locked.credentials.screens["demo"])  # type: ignore[union-attr]
    assert screen.connect() == OK and screen.subscribe(HUB_STATUS_TOPIC) == GRANTED_QOS1
    cfg = BrokerConfig(port=locked.port, username=creds.HUB_USER, password=locked.credentials.hub)  # type: ignore[union-attr]

    def statuses() -> list[dict[str, Any]]:
        return [json.loads(p) for t, p, _ in screen.messages if t == HUB_STATUS_TOPIC]

    def wait_state(st: str) -> dict[str, Any]:
        with screen.cond:
            assert screen.cond.wait_for(lambda: any(s["st"] == st for s in statuses()), 5), statuses()
        return [s for s in statuses() if s["st"] == st][-1]

    first = MqttIngest(cfg, lambda m: None)
    first.start()
    online = wait_state("online")
    first.stop()
    assert wait_state("offline")["boot"] == online["boot"]
    second = MqttIngest(cfg, lambda m: None)
    second.start()
    with screen.cond:
        assert screen.cond.wait_for(lambda: statuses()[-1]["st"] == "online", 5)
    assert statuses()[-1]["boot"] != online["boot"] and statuses()[-1]["ver"]
    second.client.loop_stop()  # the hub vanishes: no DISCONNECT, the broker publishes its Last Will
    sock = second.client.socket()
    assert sock is not None
    sock.close()
    lost = wait_state("lost")
    assert lost["boot"] == statuses()[-2]["boot"]
