"""Hostile and malformed payloads through a real broker: fuzzed with hypothesis, and raw bytes from
mosquitto_pub. Every payload is accounted for (accepted, duplicate, device update or rejected with a reason),
and ingest never stops: a good event after the storm is still taken.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.service.hub import Hub
from luza_wire import protocol
from tests.hub.service.test_service import T0, wait_for
from tests.support.broker import Mosquitto

pytestmark = pytest.mark.mosquitto

# what a broker accepts in a topic level: no wildcards or separators, no control characters or non-characters
ID_CHARS = st.characters(codec="utf-8", exclude_characters="+#/", exclude_categories=("Cc", "Cs", "Cn"))
ids = st.one_of(
    st.sampled_from(["t1", "t2", "p-head", "p-mid", "cue-a", "t2-p", "x" * 33, "", "T1"]),
    st.text(ID_CHARS, max_size=40),
)
channels = st.sampled_from(["evt", "status", "tele"])
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**60), 2**60), st.floats(allow_nan=True), st.text(max_size=30)
)
field_names = st.sampled_from(
    [
        "v",
        "k",
        "d",
        "b",
        "s",
        "t",
        "u",
        "p",
        "c",
        "cf",
        "dur",
        "pk",
        "dbl",
        "gap",
        "st",
        "fw",
        "ip",
        "role",
        "err",
        "rssi",
        "bat",
        "ob",
        "up",
        "heap",
        "rgb",
    ]
)
objects = st.dictionaries(field_names, st.one_of(scalars, st.lists(scalars, max_size=4)), max_size=12)


@st.composite
def near_valid(draw: st.DrawFn) -> bytes:
    """A valid event with one field mangled: the hardest kind to tell apart."""
    kind = draw(st.sampled_from(["pocket", "strike", "jam", "clear"]))
    fields = {"p": draw(st.integers(0, 7))} if kind != "strike" else {"pk": draw(st.floats(-1, 2000))}
    obj = json.loads(
        protocol.encode_event(
            kind,
            "p-head",
            draw(st.integers(0, 3)),
            draw(st.integers(0, 50)),
            T0 + draw(st.integers(-(10**6), 10**6)),
            **fields,
        )
    )
    key = draw(st.sampled_from(sorted(obj)))
    obj[key] = draw(scalars)
    return json.dumps(obj).encode()


payloads = st.one_of(
    st.binary(max_size=1500),
    objects.map(lambda o: json.dumps(o).encode()),
    near_valid(),
    st.text(max_size=200).map(str.encode),
)
messages = st.lists(st.tuples(ids, ids, channels, payloads), min_size=1, max_size=6)


def publisher(broker: Mosquitto) -> mqtt.Client:
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="fuzzer", protocol=mqtt.MQTTv5)
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    return c


def accounted(hub: Hub) -> int:
    return sum(hub.stats[k] for k in ("accepted", "duplicates", "rejected", "updates"))


def test_fuzzed_payloads_through_the_broker(cfg: Any, mosquitto: Mosquitto, hubs: Callable[..., Hub]) -> None:
    hub = hubs(cfg)
    hub.new_match("t1", "free", ("A", "B"))
    pub = publisher(mosquitto)
    published = [0]

    @settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
    @given(messages)
    def storm(batch: list[tuple[str, str, str, bytes]]) -> None:
        for table, device, channel, payload in batch:
            info = pub.publish(f"luza/v1/{table}/{device}/{channel}", payload, qos=1)
            info.wait_for_publish(5)
            published[0] += 1
        # telemetry past one node's rate is shed before the worker sees it (hub.service.inbox): counted there
        wait_for(lambda: hub.stats["received"] + hub._queue.shed["tele"] == published[0], 10)
        assert hub.wait_idle(5)
        assert accounted(hub) == hub.stats["received"]  # nothing vanished, nothing counted twice

    try:
        storm()
        assert hub._worker is not None and hub._worker.is_alive()
        good = protocol.encode_event("pocket", "p-head", 99, 1, T0, p=1)
        pub.publish("luza/v1/t1/p-head/evt", good, qos=1).wait_for_publish(5)
        wait_for(lambda: hub.store is not None and hub.store.has_event(("p-head", 99, 1)), 10)
        assert hub.stats["rejected"] > 0
    finally:
        pub.loop_stop()
        pub.disconnect()


RAW = {
    "nul-and-invalid-utf8": (b'{"v":1,"k":"pocket"\x00\xff\xfe}', "malformed"),
    "empty": (b"", "malformed"),
    "64k-random": (bytes(range(256)) * 256, "oversized"),
    "json-array": (b"[1, 2, 3]", "malformed"),
    "trailing-garbage": (protocol.encode_event("pocket", "p-head", 1, 1, T0, p=1) + b"}}", "malformed"),
    "huge-number": (b'{"v":1,"k":"pocket","d":"p-head","b":1,"s":1e999,"t":1,"p":1}', "bad_field"),
}


@pytest.mark.skipif(shutil.which("mosquitto_pub") is None, reason="mosquitto-clients not installed")
def test_raw_bytes_from_mosquitto_pub(
    cfg: Any, mosquitto: Mosquitto, hubs: Callable[..., Hub], tmp_path: Path
) -> None:
    hub = hubs(cfg)
    for name, (data, _code) in RAW.items():
        f = tmp_path / name
        f.write_bytes(data)
        args = ["-n"] if not data else ["-f", str(f)]
        subprocess.run(
            [
                "mosquitto_pub",
                "-h",
                "127.0.0.1",
                "-p",
                str(mosquitto.port),
                "-q",
                "1",
                "-V",
                "mqttv5",
                "-t",
                "luza/v1/t1/p-head/evt",
                *args,
            ],
            check=True,
            timeout=10,
        )
    wait_for(lambda: hub.stats["rejected"] == len(RAW), 10)
    assert hub.store is not None
    rows = hub.store.rejected()
    assert [r.code for r in rows] == [code for _, code in RAW.values()]
    assert rows[2].size == 65536 and len(rows[2].payload) == 4096  # kept for inspection, bounded
    assert all(r.reason and r.device == "p-head" for r in rows)
    time.sleep(0.1)
    assert hub.stats["accepted"] == 0
