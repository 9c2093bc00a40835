"""The ingest queue's memory budget (hub.service.inbox): telemetry shed first, then other QoS 0; QoS 1 events
never shed (the broker's window holds the rest back while the hub does not ack); oversized payloads cut at
once. Unit tests, a flood through Mosquitto against a held worker,
and `luza serve`'s peak RSS under a flood."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from hub import config
from hub.ingest.mqtt import RECEIVE_MAXIMUM, RawMessage
from hub.service.changes import Change
from hub.service.hub import Hub
from hub.service.inbox import EVENT_SHARE, OVERHEAD, TELE_BURST, TELE_PER_S, Inbox, cost
from luza_wire import frame, protocol, telemetry
from tests.hub.service.test_fault_floods import peak_rss_mb
from tests.hub.service.test_faults import Serve, write_config
from tests.hub.service.test_service import wait_for
from tests.support.broker import Mosquitto

TELE = telemetry.encode_tele(1, up=1000, heap=80000, rssi=-60)
BIG = b'{"v": 1, "k": "pocket", "pad": "' + b"x" * 60_000 + b'"}'  # 60 KB: far over the wire's 1 KiB


def raw(channel: str, payload: bytes, acked: list[int] | None = None, device: str = "p-head") -> RawMessage:
    ack = (lambda: acked.append(1)) if acked is not None else None
    return RawMessage("mqtt", protocol.topic("t1", device, channel), payload, 0, ack)


def test_telemetry_goes_first_then_other_qos0_and_qos1_never(caplog: pytest.LogCaptureFixture) -> None:
    tick = [0.0]
    box = Inbox(budget=20 * (OVERHEAD + 200), log_every_s=10, monotonic=lambda: tick[0])
    acked: list[int] = []
    with caplog.at_level(logging.WARNING, logger="luza.hub"):
        # 30 nodes, each within its rate
        kept = [box.offer(raw("tele", TELE, acked, f"n{i}")) for i in range(30)]
        assert sum(kept) == (box.budget // 2) // cost(raw("tele", TELE))  # telemetry: up to half the budget
        # a shed QoS 1 tele is acked at once (frees the broker's window)
        assert acked == [1] * (30 - sum(kept))
        best = [box.offer(raw("evt", b'{"v": 1}')) for _ in range(30)]
        assert 0 < sum(best) < 30 and box.bytes <= box.budget
        events = [box.offer(raw("evt", b'{"v": 1}', [])) for _ in range(50)]
        assert all(events)  # never shed: bounded by the broker's window instead
    assert (
        box.shed["tele"] == 30 - sum(kept) and box.shed["best"] == 30 - sum(best) and "kept" not in box.shed
    )
    assert len([r for r in caplog.records if "shed" in r.getMessage()]) == 1  # rate-limited
    n = box.qsize()
    for _ in range(n):
        box.get(0)
    assert box.bytes == 0 and box.qsize() == 0


def test_one_nodes_telemetry_past_its_rate_is_shed_at_once_and_the_others_are_not() -> None:
    tick = [0.0]
    box = Inbox(monotonic=lambda: tick[0])
    acked: list[int] = []
    flood = [box.offer(raw("tele", TELE, acked)) for _ in range(1000)]  # one node, all at once
    assert (
        sum(flood) == TELE_BURST and len(acked) == 1000 - TELE_BURST and box.shed["tele"] == 1000 - TELE_BURST
    )
    assert box.offer(raw("tele", TELE, [], "p-mid"))  # another node's report still goes in
    tick[0] += 1.0  # a second later the flooding node may send TELE_PER_S more
    assert sum(box.offer(raw("tele", TELE, [])) for _ in range(10)) == int(TELE_PER_S)
    assert all(box.offer(raw("evt", b'{"v": 1}', [])) for _ in range(100))  # events: never


def test_an_oversized_payload_is_cut_at_once_and_keeps_its_size() -> None:
    box = Inbox()
    assert box.offer(raw("evt", BIG, []))
    item = box.get(0)
    assert isinstance(item, RawMessage)
    assert item.error is not None and item.error[0] == "oversized" and item.size == len(BIG)
    assert len(item.payload) <= 4096 and box.bytes == 0


def test_the_budget_holds_the_whole_window_of_qos1_events() -> None:
    assert EVENT_SHARE >= RECEIVE_MAXIMUM * (frame.MAX_PAYLOAD + OVERHEAD)


# ------------------------------------------------------------------ through Mosquitto


def publish_flood(port: int, items: list[tuple[str, bytes, int]]) -> None:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="flooder")
    c.max_inflight_messages_set(1000)
    c.max_queued_messages_set(0)
    c.connect("127.0.0.1", port)
    c.loop_start()
    infos = [c.publish(t, p, qos=q) for t, p, q in items]
    for info in infos:
        info.wait_for_publish(60)
    c.loop_stop()
    c.disconnect()


@pytest.mark.mosquitto
def test_a_flood_against_a_held_worker_sheds_telemetry_and_keeps_every_event(
    cfg: config.Config, mosquitto: Mosquitto, hubs: Callable[..., Hub]
) -> None:
    hub = hubs(cfg)
    entered, release = threading.Event(), threading.Event()

    def hold(change: Change) -> None:
        entered.set()
        release.wait(30)

    unsubscribe = hub.subscribe(hold)
    hub.submit_async("t1", {"kind": "new_match", "variant": "free", "players": ["A", "B"]})
    assert entered.wait(10)  # the worker is held: everything now queues
    unsubscribe()
    n_events = 1500
    events = [
        (
            protocol.topic("t1", "p-head", "evt"),
            protocol.encode_event("pocket", "p-head", 7, s, 1000 + s, p=1),
            1,
        )
        for s in range(1, n_events + 1)
    ]
    flood = [(protocol.topic("t1", "p-head", "tele"), TELE, 0)] * 20_000 + [
        (protocol.topic("t1", "p-mid", "evt"), BIG, 0)
    ] * 300
    publish_flood(mosquitto.port, flood + events)
    inbox = hub._queue
    wait_for(lambda: inbox.shed["tele"] > 0, 20)
    wait_for(lambda: inbox.qsize() >= RECEIVE_MAXIMUM, 20)  # the broker's window of QoS 1 is in
    held = inbox.qsize()
    peak = inbox.peak
    release.set()
    assert hub.store is not None
    wait_for(
        lambda: (
            hub.store is not None
            and hub.store.conn.execute(
                "SELECT count(*) FROM inputs WHERE device = 'p-head' AND boot = 7"
            ).fetchone()[0]
            == n_events
        ),
        30,
    )
    assert hub.wait_idle(10)
    print(
        f"\nheld worker: {held} items queued at most {peak / 1e6:.1f} MB of a {inbox.budget / 1e6:.1f} MB "
        f"budget; shed {dict(inbox.shed)}; {n_events} of {n_events} QoS 1 events stored"
    )
    assert peak <= inbox.budget
    assert "kept" not in inbox.shed and inbox.shed["tele"] > 0
    assert hub.stats["shed_tele"] == inbox.shed["tele"]


@pytest.mark.mosquitto
def test_luza_serve_rss_stays_bounded_under_a_flood_of_oversized_qos0_and_telemetry(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    db = tmp_path / "luza.db"
    serve = Serve(write_config(tmp_path / "luza.toml", mosquitto, db))
    try:
        assert serve.proc.pid and os.path.exists(f"/proc/{serve.proc.pid}/status")
        before = peak_rss_mb(serve.proc.pid)
        flood = [(protocol.topic("t1", "p-mid", "evt"), BIG, 0)] * 2000 + [
            (protocol.topic("t1", "p-head", "tele"), TELE, 0)
        ] * 20_000
        sentinel = (
            protocol.topic("t1", "p-head", "evt"),
            protocol.encode_event("pocket", "p-head", 9, 1, 5, p=1),
            1,
        )
        publish_flood(mosquitto.port, [*flood, sentinel])  # the sentinel arrives after the whole flood

        def stored() -> bool:
            import sqlite3

            with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10) as conn:
                return (
                    conn.execute(
                        "SELECT count(*) FROM inputs WHERE device = 'p-head' AND boot = 9"
                    ).fetchone()[0]
                    == 1
                )

        wait_for(stored, 60)
        peak = peak_rss_mb(serve.proc.pid)
    finally:
        serve.stop()
    offered = sum(len(p) for _t, p, _q in flood) / 1e6
    print(
        f"\nluza serve under a flood of {offered:.0f} MB (2,000 x 60 KB QoS 0 + 20,000 tele): peak RSS "
        f"{before:.0f} -> {peak:.0f} MB"
    )
    assert peak < before + 12, (before, peak)  # the queue's budget is 7 MB; without it: 41 -> 57 MB here
