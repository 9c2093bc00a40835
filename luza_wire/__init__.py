"""Luza's wire contract: what crosses between a node and the hub (docs/wire.md).

Imports nothing but `json`, and runs unchanged on CPython 3.11+ and MicroPython 1.2x (no dataclasses, enum or
typing at run time), so the device carries this package as it is beside the firmware. Its modules:

- `frame`: the payload rules every message follows (version, size, JSON, ids, field checks) and `Rejection`;
- `messages`: the parsed messages (`Topic`, `Event`, `Status`, `Telemetry`, `Command`, `Answer`);
- `protocol`: topics, building and parsing each channel's payloads, the hub's retained payloads;
- `envelope`: one payload on a serial line (the USB gateway mode).
"""
