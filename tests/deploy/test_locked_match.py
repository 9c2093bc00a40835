"""A whole virtual match through the locked-down broker: nodes with their own passwords, the hub with its own,
a screen reading the retained state and the hub's status. The ACL lets through everything a match needs."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from hub import configfile
from hub.deploy import broker_config as bc
from hub.ingest.mqtt import HUB_STATUS_TOPIC
from hub.service.hub import Hub
from hub.virtual.table import Pot, Shot, VirtualTable
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto

PLAYERS = ("Ivan", "Petr")
SPEED = 20.0
TABLE = "t1"
TABLES = [
    {
        "id": TABLE,
        "pockets": {"pockets-123": [1, 2, 3], "pockets-456": [4, 5, 6]},
        "cues": {"cue-a": 0, "cue-b": 1},
    }
]


async def until_synced(table: VirtualTable, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not all(n.node is not None and n.node.clock.synced for n in table.nodes):
        assert loop.time() < deadline, "the hub's time exchange did not reach every node"
        await asyncio.sleep(0.01)


def test_a_free_match_plays_through_the_locked_down_broker(tmp_path: Path, clients: Any) -> None:
    tables = configfile.parse({"tables": TABLES})
    broker = Mosquitto.locked(tmp_path / "broker", tables).start()
    hub: Hub | None = None
    try:
        screen = clients(broker, "screen-demo", broker.credentials.screens["demo"])  # type: ignore[union-attr]
        assert screen.connect() == 0
        screen.subscribe("luza/v1/+/state")
        screen.subscribe(HUB_STATUS_TOPIC)
        assert broker.credentials is not None and broker.credentials.hub not in broker.url  # safe to print
        cfg = configfile.parse(
            {
                "broker": {"url": broker.hub_url, "reconnect_min_s": 1, "reconnect_max_s": 1},
                "store": {"path": str(tmp_path / "luza.db")},
                "tables": TABLES,
            }
        )
        table = VirtualTable(("127.0.0.1", broker.port), tmp_path / "nodes", table=TABLE, speed=SPEED)
        broker.log_in_nodes(table)  # each node its own password, as `luza provision` writes it
        hub = Hub(cfg, clock=table.vt.hub_ms).start(connect_timeout=5)
        assert hub.mqtt is not None and hub.mqtt.connected.is_set()
        hub.new_match(TABLE, "free", PLAYERS)
        hub.submit(TABLE, {"kind": "lag", "winner": 0})

        async def play() -> None:
            await table.start()
            await until_synced(table)
            for i in range(8):  # player a pots a ball a shot: 8 is the target of Free pyramid
                start = table.vt.ms()
                await table.play([Shot(0, "a", balls=(Pot(1 + i % 6, 800, "ivory"),))])
                await table.vt.until(start + 4000)
            await table.stop()

        asyncio.run(play())
        assert hub.wait_idle(10)
        hub.submit(TABLE, {"kind": "close_shot"})
        board = hub.state(TABLE)["match"]
        assert board["over"] and board["winner"] == 0 and board["scores"][0] == 8
        assert hub.stats["rejected"] == 0 and hub.stats["accepted"] >= 16
        # a screen with its read-only login sees the final state and that the hub is online
        with screen.cond:
            assert screen.cond.wait_for(
                lambda: _last(screen, "luza/v1/t1/state").get("match", {}).get("over"), 5
            )
        assert _last(screen, HUB_STATUS_TOPIC)["st"] == "online"
        size = len(json.dumps(hub.state(TABLE), ensure_ascii=False).encode())
        assert size < bc.MAX_PACKET / 4, f"a finished match's state is {size} bytes: raise MAX_PACKET"
    finally:
        if hub is not None:
            hub.stop()
        broker.stop()


def _last(client: Any, topic: str) -> dict[str, Any]:
    got = [p for t, p, _ in client.messages if t == topic]
    return json.loads(got[-1]) if got else {}
