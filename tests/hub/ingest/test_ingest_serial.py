"""Serial ingest through a real pty pair (the node's side is the pty master): JSON lines -> RawMessages."""

from __future__ import annotations

import json
import os
import queue
from collections.abc import Iterator

import pytest
import serial

from hub.ingest.mqtt import RawMessage
from hub.ingest.serial import MAX_LINE, SerialIngest, parse_line
from luza_wire import protocol
from luza_wire.messages import Event


@pytest.fixture
def pty() -> Iterator[tuple[int, str]]:
    master, slave = os.openpty()
    name = os.ttyname(slave)
    try:
        yield master, name
    finally:
        os.close(master)
        os.close(slave)


def collect(q: queue.Queue[RawMessage], n: int) -> list[RawMessage]:
    return [q.get(timeout=5) for _ in range(n)]


def line(topic: str, payload: object) -> bytes:
    return json.dumps({"topic": topic, "payload": payload}).encode() + b"\n"


def test_lines_become_messages_and_bad_lines_become_framing_errors(pty: tuple[int, str]) -> None:
    master, name = pty
    got: queue.Queue[RawMessage] = queue.Queue()
    ing = SerialIngest(name, got.put, clock=lambda: 42)
    ing.start()
    try:
        assert ing.opened.wait(5)  # pyserial puts the tty in raw mode on open; write only after that
        evt = json.loads(protocol.encode_event("pocket", "p1", 1, 5, 1000, p=2))
        os.write(master, line("luza/v1/t1/p1/evt", evt))
        os.write(master, b"not json\n")
        os.write(master, b'{"topic": 3}\n')
        os.write(master, b"{" + b"x" * (MAX_LINE + 10))  # over-long, then its end arrives in a later chunk
        os.write(master, b"yy\n")
        os.write(master, line("luza/v1/t1/p1/tele", {"v": 1, "b": 1, "rssi": -50})[:20])  # split line...
        os.write(master, line("luza/v1/t1/p1/tele", {"v": 1, "b": 1, "rssi": -50})[20:])  # ...joined
        msgs = collect(got, 5)
    finally:
        ing.stop()
    assert msgs[0].source == "serial" and msgs[0].topic == "luza/v1/t1/p1/evt" and msgs[0].received_ms == 42
    ev = protocol.parse_event(msgs[0].payload, "p1")
    assert isinstance(ev, Event) and ev.key == ("p1", 1, 5) and ev.get("pocket") == 2
    assert msgs[0].ack is None and msgs[0].error is None
    assert msgs[1].error is not None and msgs[1].error[0] == "malformed"
    assert msgs[2].error is not None and "topic" in msgs[2].error[1]
    assert msgs[3].error is not None and msgs[3].error[0] == "oversized"
    assert msgs[4].topic == "luza/v1/t1/p1/tele" and msgs[4].error is None
    assert got.empty()  # the tail of the over-long line was dropped, not parsed


def test_commands_go_back_down_the_port(pty: tuple[int, str]) -> None:
    master, name = pty
    ing = SerialIngest(name, lambda m: None)
    ing.start()
    try:
        assert ing.opened.wait(5)
        ing.send("luza/v1/t1/p1/cmd", protocol.encode_command("time", 1, hub=123))
        data = b""
        while not data.endswith(b"\n"):
            data += os.read(master, 1024)
    finally:
        ing.stop()
    obj = json.loads(data)
    assert obj["topic"] == "luza/v1/t1/p1/cmd" and obj["payload"]["hub"] == 123


def test_parse_line_accepts_a_string_payload() -> None:
    assert parse_line(b'{"topic": "a", "payload": "{\\"v\\": 1}"}') == ("a", b'{"v": 1}')


def test_loop_url_works_too() -> None:
    port = serial.serial_for_url("loop://", timeout=0.1)
    got: queue.Queue[RawMessage] = queue.Queue()
    ing = SerialIngest("loop://", got.put, port=port)
    ing.start()
    try:
        port.write(line("luza/v1/t1/p1/status", {"v": 1, "st": "online", "b": 1}))
        (msg,) = collect(got, 1)
    finally:
        ing.stop()
    assert msg.topic == "luza/v1/t1/p1/status"
