"""Serial ingest: a node or USB gateway writing the same payloads as MQTT, one JSON line each:

    {"topic": "luza/v1/t1/p-head/evt", "payload": {"v": 1, "k": "pocket", ...}}

Each line becomes a `RawMessage` (source "serial", no ack: the line has arrived once it is read) and goes
through the same parsing, validation and store as MQTT. A line that is not that shape, or longer than
MAX_LINE, becomes a RawMessage carrying a framing `error`, so the hub stores and counts it like any rejected
payload. Commands to the node (the time exchange) go back down the same port as lines of the same shape. If
the port goes away (USB unplugged) the reader reopens it every second until stopped.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import serial

from hub.ingest.mqtt import RawMessage, now_ms
from luza_wire import envelope
from luza_wire.frame import Rejection

log = logging.getLogger("luza.serial")

MAX_LINE = envelope.MAX_SERIAL_LINE  # bytes; a wire payload is at most 1 KiB, the envelope adds little


def parse_line(line: bytes) -> tuple[str, bytes] | tuple[None, tuple[str, str]]:
    """A JSON line -> (topic, payload bytes), or (None, (code,
    reason)) for a framing error (envelope.parse_serial)."""
    got = envelope.parse_serial(line)
    if isinstance(got, Rejection):
        return None, (got.code, got.reason)
    return got


class SerialIngest:
    """Reads one serial port on its own thread. `url` is anything pyserial opens (/dev/ttyUSB0, loop://)."""

    def __init__(
        self,
        url: str,
        on_message: Callable[[RawMessage], None],
        baud: int = 115200,
        clock: Callable[[], int] = now_ms,
        port: Any = None,
    ) -> None:
        self.url = url
        self.baud = baud
        self._on_message = on_message
        self._clock = clock
        self._port = port  # an already-open port (tests); else opened from url
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._write_lock = threading.Lock()
        self.lines = 0
        self.opened = threading.Event()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"serial {self.url}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout)
        if self._port is not None:
            with contextlib.suppress(OSError, serial.SerialException):
                self._port.close()

    def send(self, topic: str, payload: bytes) -> None:
        """Write a command line to the node; a port that is gone is logged, not raised."""
        line = envelope.encode_serial(topic, payload)
        with self._write_lock:
            try:
                if self._port is not None:
                    self._port.write(line.encode())
            except (OSError, serial.SerialException) as exc:
                log.warning("could not write to %s: %s", self.url, exc)

    # ------------------------------------------------------------ reader thread

    def _open(self) -> bool:
        if self._port is not None and getattr(self._port, "is_open", True):
            return True
        try:
            self._port = serial.serial_for_url(self.url, baudrate=self.baud, timeout=0.1)
            log.info("serial ingest reading %s", self.url)
            return True
        except (OSError, serial.SerialException) as exc:
            log.warning("cannot open %s (%s); retrying every second", self.url, exc)
            return False

    def _run(self) -> None:
        buf = bytearray()
        skipping = False  # inside an over-long line: drop bytes until its newline
        while not self._stop.is_set():
            if not self._open():
                self._stop.wait(1.0)
                continue
            self.opened.set()
            try:
                chunk = self._port.read(max(1, self._port.in_waiting or 1))
            except (OSError, serial.SerialException) as exc:
                log.warning("serial port %s failed (%s); reopening", self.url, exc)
                self._port = None
                self._stop.wait(1.0)
                continue
            if not chunk:
                continue
            buf += chunk
            while True:
                nl = buf.find(b"\n")
                if nl < 0:
                    if len(buf) > MAX_LINE:
                        if not skipping:
                            self._framing_error(
                                ("oversized", f"serial line longer than {MAX_LINE} bytes"),
                                bytes(buf[:MAX_LINE]),
                            )
                        skipping = True
                        buf.clear()
                    break
                line = bytes(buf[:nl]).strip()
                del buf[: nl + 1]
                if skipping:
                    skipping = False
                    continue
                if line:
                    self._line(line)

    def _line(self, line: bytes) -> None:
        self.lines += 1
        if len(line) > MAX_LINE:
            self._framing_error(("oversized", f"serial line longer than {MAX_LINE} bytes"), line)
            return
        topic, data = parse_line(line)
        if topic is None:
            assert isinstance(data, tuple)
            self._framing_error(data, line)
            return
        assert isinstance(data, bytes)
        self._on_message(RawMessage("serial", topic, data, self._clock(), None, link=self))

    def _framing_error(self, err: tuple[str, str], line: bytes) -> None:
        self._on_message(RawMessage("serial", "", line, self._clock(), None, error=err, link=self))


def wait_until(pred: Callable[[], bool], timeout: float) -> bool:
    """Poll `pred` until true or `timeout` seconds pass (tests and shutdown)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.01)
    return pred()
