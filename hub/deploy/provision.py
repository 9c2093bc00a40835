"""The pieces of `luza provision`: a new node from USB to the table.

1. `find_ports` / `probe`: the ESP32 on serial (pyserial's port list, the usual USB-UART bridges), and whether
   MicroPython answers on its REPL.
2. `esptool_commands`: optionally flash MicroPython itself.
3. `add_device`: the node in luza.toml (a targeted edit of that table's `pockets = {…}` / `cues = {…}`; the
   result is validated by hub.config), a password in the credentials file, the broker's password file and ACL
   regenerated (hub.deploy.broker_config) — then the broker is told to reload.
4. `node_config`: the node's config.json (device id, table, role, pockets or cue, Wi-Fi, broker and its own
   login), validated by the firmware's own `validate`.
5. `verify`: the identify blink and a test event seen on the broker
   (the hub's own subscription sees the same).
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware import pins
from hub import config as cfgmod
from hub import configfile
from hub.deploy import credentials as creds
from luza_wire import protocol
from luza_wire.frame import Rejection

# USB-UART bridges found on ESP32 boards: (vendor id, product id) -> name
BRIDGES = {
    (0x10C4, 0xEA60): "CP210x",
    (0x1A86, 0x7523): "CH340",
    (0x1A86, 0x55D4): "CH9102",
    (0x1A86, 0x55D3): "CH343",
    (0x0403, 0x6001): "FT232R",
    (0x0403, 0x6015): "FT231X",
    (0x303A, 0x1001): "ESP32-S3/C3 USB",
}
PROBE = b'print("LUZA-PROBE", __import__("sys").platform, __import__("sys").implementation.name)\r'


class ProvisionError(Exception):
    """A step that cannot go on, with a one-line message saying what to do."""


@dataclass(frozen=True)
class Port:
    device: str
    bridge: str


@dataclass(frozen=True)
class NewNode:
    """What the person asked for."""

    table: str
    device: str
    role: str  # "pocket" | "cue"
    pockets: tuple[int, ...] = ()
    seat: int | None = None
    colour: bool = True


def find_ports(listing: Callable[[], Sequence[Any]] | None = None) -> list[Port]:
    """Serial ports whose USB ids are a known ESP32 bridge."""
    if listing is None:
        from serial.tools import list_ports

        listing = list_ports.comports
    return [Port(p.device, BRIDGES[(p.vid, p.pid)]) for p in listing() if (p.vid, p.pid) in BRIDGES]


def no_board_message() -> str:
    names = ", ".join(sorted(set(BRIDGES.values())))
    return (
        f"no ESP32 found on USB (looked for {names}): plug the node in with a data cable, or give --port / "
        "плата ESP32 не найдена: подключите узел кабелем с данными или укажите --port"
    )


def probe(port: str, timeout: float = 5.0, baud: int = 115200) -> str:
    """Interrupt whatever runs on the board and ask MicroPython who it is;
    returns e.g. 'esp32 micropython'."""
    import serial

    try:
        link = serial.serial_for_url(port, baud, timeout=0.1)
    except (serial.SerialException, OSError) as exc:
        raise ProvisionError(f"cannot open {port}: {exc}") from None
    with link:
        link.write(b"\r\x03\x03\x02\r")  # Ctrl-C twice: stop main.py; Ctrl-B: the friendly REPL
        link.write(PROBE)
        seen = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            seen += link.read(256)
            m = re.search(rb"LUZA-PROBE (\S+) (\S+)\r?\n", seen)
            if m:
                return f"{m.group(1).decode()} {m.group(2).decode()}"
    raise ProvisionError(
        f"no MicroPython answer on {port} within {timeout:g} s: a blank board? "
        "add --micropython FIRMWARE.bin to flash it first"
    )


def esptool_commands(port: str, firmware: Path, esptool: str = "esptool.py") -> list[list[str]]:
    """Erase the flash and write MicroPython's ESP32 image (offset 0x1000 for the classic ESP32)."""
    return [
        [esptool, "--chip", "esp32", "--port", port, "erase_flash"],
        [
            esptool,
            "--chip",
            "esp32",
            "--port",
            port,
            "--baud",
            "460800",
            "write_flash",
            "-z",
            "0x1000",
            str(firmware),
        ],
    ]


# ---------------------------------------------------------------- luza.toml


def add_device(text: str, node: NewNode) -> str:
    """luza.toml with the node added to its table (or unchanged if it is already there as asked)."""
    try:
        cfg = configfile.parse(_toml(text))
    except cfgmod.ConfigError as exc:
        raise ProvisionError(f"luza.toml: {exc}; fix it first") from None
    table = cfg.table(node.table)
    if table is None:
        ids = ", ".join(t.id for t in cfg.tables) or "none"
        raise ProvisionError(
            f"no table {node.table!r} in luza.toml (tables: {ids}); add it with the installer"
        )
    have = cfg.device(node.device)
    if have is not None:
        if (have.table, have.role, have.pockets, have.seat) == (
            node.table,
            node.role,
            node.pockets,
            node.seat,
        ):
            return text
        raise ProvisionError(
            f"device {node.device!r} is already in luza.toml (table {have.table}, {have.role}); "
            "pick another id or edit luza.toml"
        )
    key = "pockets" if node.role == "pocket" else "cues"
    value = ("[" + ", ".join(map(str, node.pockets)) + "]") if node.role == "pocket" else str(node.seat)
    new = _insert(text, node.table, key, f"{node.device} = {value}")
    try:
        # the same checks as the hub: a pocket or seat already taken is refused here
        configfile.parse(_toml(new))
    except cfgmod.ConfigError as exc:
        raise ProvisionError(f"luza.toml would not be valid with {node.device}: {exc}") from None
    return new


def _toml(text: str) -> dict[str, object]:
    """luza.toml's tables as tomllib reads them: any TOML, checked afterwards by hub.configfile.parse."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProvisionError(f"luza.toml is not valid TOML ({exc})") from None


_TABLE_HEADER = re.compile(r"^\s*\[\[\s*tables\s*\]\]\s*$")
_SECTION = re.compile(r"^\s*\[")


def _insert(text: str, table: str, key: str, entry: str) -> str:
    """Add `entry` to the inline table `key = {…}` of the [[tables]] block whose id is `table`."""
    lines = text.splitlines()
    blocks = [i for i, line in enumerate(lines) if _TABLE_HEADER.match(line)]
    for start in blocks:
        end = next((j for j in range(start + 1, len(lines)) if _SECTION.match(lines[j])), len(lines))
        block = lines[start + 1 : end]
        if not any(re.match(rf'^\s*id\s*=\s*"{re.escape(table)}"\s*(#.*)?$', b) for b in block):
            continue
        for j in range(start + 1, end):
            m = re.match(rf"^(\s*{key}\s*=\s*\{{)(.*)\}}(\s*(#.*)?)$", lines[j])
            if m:
                inner = m.group(2).strip()
                lines[j] = f"{m.group(1)} {inner + ', ' if inner else ''}{entry} }}{m.group(3)}"
                return "\n".join(lines) + "\n"
        last = max(j for j in range(start, end) if lines[j].strip())  # after the block's last line
        lines.insert(last + 1, f"{key} = {{ {entry} }}")
        return "\n".join(lines) + "\n"
    raise ProvisionError(f'cannot find [[tables]] id = "{table}" in luza.toml; add the node there by hand')


# ---------------------------------------------------------------- the node's config.json


def node_config(
    node: NewNode, password: str, wifi: tuple[str, str], broker: tuple[str, int], tls: bool = False
) -> cfgmod.NodeSettings:
    """The node's config.json, checked by the firmware's own validate()."""
    from firmware import config as fw

    site = cfgmod.NodeSettings(
        role=node.role,
        table=node.table,
        device=node.device,
        wifi={"ssid": wifi[0], "password": wifi[1], "hostname": node.device},
        broker={
            "host": broker[0],
            "port": broker[1],
            "user": creds.device_user(node.table, node.device),
            "password": password,
            "tls": tls,
        },
    )
    if node.role == "pocket":
        if len(node.pockets) > len(pins.SLOTS):
            raise ProvisionError(f"a node serves at most {len(pins.SLOTS)} pockets")
        site["pockets"] = [
            cfgmod.NodePocket(
                pocket=p, upper=pins.SLOTS[i][0], lower=pins.SLOTS[i][1], colour=node.colour and i == 0
            )
            for i, p in enumerate(node.pockets)
        ]
    errors = fw.validate(fw.merge(fw.DEFAULTS, site))
    if errors:
        raise ProvisionError("the node's config is refused by the firmware: " + "; ".join(errors))
    return site


def write_private(path: Path, text: str) -> None:
    """Write a file only its owner can read (it holds a password)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)


def config_json(site: cfgmod.NodeSettings) -> str:
    return json.dumps(site, indent=2, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------- verification


@dataclass
class Seen:
    online: bool = False
    event: str | None = None  # kind of the first event
    fw: str = ""


def verify(
    host: str, port: int, password: str, node: NewNode, timeout: float, say: Callable[[str], None] = print
) -> Seen:
    """Send `identify` to the node and wait for its birth and one event, with the tool's login."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    seen, done = Seen(), threading.Event()
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=creds.TOOL_USER, protocol=mqtt.MQTTv5)
    c.username_pw_set(creds.TOOL_USER, password)

    def on_message(client: Any, userdata: Any, msg: Any) -> None:
        channel = msg.topic.rsplit("/", 1)[-1]
        parsed = protocol.parse(channel, msg.payload, node.device)
        if channel == "status" and getattr(parsed, "state", "") == "online":
            seen.online, seen.fw = True, getattr(parsed, "fw", "")
            client.publish(
                protocol.topic(node.table, node.device, "cmd"),
                protocol.encode_command("identify", 1, s=5),
                qos=1,
            )
        elif channel == "evt" and seen.event is None and not isinstance(parsed, Rejection):
            seen.event = getattr(parsed, "kind", "?")
        if seen.online and seen.event:
            done.set()

    c.on_message = on_message
    c.on_connect = lambda client, *a: client.subscribe(
        [(protocol.topic(node.table, node.device, ch), 1) for ch in ("status", "evt")]
    )
    try:
        c.connect(host, port)
    except OSError as exc:
        raise ProvisionError(f"cannot reach the broker at {host}:{port}: {exc}") from None
    c.loop_start()
    what = "drop a ball into the pocket" if node.role == "pocket" else "tap the cue tip firmly"
    say(
        f"waiting for {node.device}: it blinks when it is online; then {what} / "
        "ждём узел: он мигнёт, затем "
        f"{'бросьте шар в лузу' if node.role == 'pocket' else 'стукните наклейкой кия'}"
    )
    try:
        done.wait(timeout)
    finally:
        c.disconnect()
        c.loop_stop()
    return seen
