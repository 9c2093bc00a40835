"""`luza provision`: a new node from USB to the table (see hub.deploy.provision and docs/install.md).

    sudo luza provision --table t1 --device p3 --pockets 3 --wifi-ssid Club --wifi-password …
    --broker-host 192.168.1.10 sudo luza provision --table t1 --device cue-a --cue-seat 0 …

Finds the ESP32, optionally flashes MicroPython, adds the node to luza.toml, the credentials and the broker
(reloading it), copies the firmware and the node's config.json with mpremote, then waits for the node's birth,
blinks it and waits for a test event.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from hub.config import NodeSettings

if TYPE_CHECKING:
    from hub.deploy.broker_config import Tls
    from hub.deploy.provision import NewNode
    from hub.deploy.render import Options


def register(sub: Any) -> None:
    p = sub.add_parser(
        "provision",
        help="set a new node up: flash, configure, add to the table and the broker",
        description="A new node from USB to the table. / Подключение нового узла.",
    )
    p.add_argument("--table", required=True, help="table id in luza.toml")
    p.add_argument("--device", required=True, help="the node's id, e.g. p3 or cue-a (a-z, 0-9, '-')")
    role = p.add_mutually_exclusive_group(required=True)
    role.add_argument("--pockets", help="pocket node: the pockets it serves, e.g. 3 or 1,2")
    role.add_argument("--cue-seat", type=int, choices=(0, 1), help="cue node: the player seat 0 or 1")
    p.add_argument("--no-colour", action="store_true", help="the pocket node has no TCS34725")
    p.add_argument("--wifi-ssid", required=True)
    p.add_argument("--wifi-password", default="")
    p.add_argument(
        "--broker-host", required=True, help="the Pi's address on the club Wi-Fi, as the node sees it"
    )
    p.add_argument("--broker-port", type=int, default=None, help="default 1883 (8883 with --tls)")
    p.add_argument("--tls", action="store_true", help="the node uses the TLS listener")
    p.add_argument("--port", help="the node's serial port (default: the one ESP32 found on USB)")
    p.add_argument(
        "--micropython", metavar="FIRMWARE.bin", help="erase and flash this MicroPython image first"
    )
    p.add_argument("--root", default="/", help="installation root (default /; tests use a folder)")
    p.add_argument(
        "--no-copy", action="store_true", help="do not copy firmware/config (write config.json only)"
    )
    p.add_argument("--out", help="also keep the node's config.json here")
    p.add_argument(
        "--timeout", type=float, default=120.0, help="seconds to wait for the node's birth and event"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hub.deploy.provision import ProvisionError

    try:
        return _run(args)
    except ProvisionError as exc:
        print(f"luza provision: {exc}", file=sys.stderr)
        return 1


def _node(args: argparse.Namespace) -> NewNode:
    from hub.deploy.provision import NewNode, ProvisionError
    from luza_wire import frame

    if not frame.valid_id(args.device) or not frame.valid_id(args.table):
        raise ProvisionError("--table and --device: use 1-32 of a-z, 0-9 and '-', e.g. p3")
    if args.pockets is None:
        return NewNode(args.table, args.device, "cue", seat=args.cue_seat)
    try:
        pockets = tuple(int(x) for x in args.pockets.split(","))
    except ValueError:
        raise ProvisionError(f"--pockets {args.pockets!r}: pocket numbers 1-6, e.g. 3 or 1,2") from None
    return NewNode(args.table, args.device, "pocket", pockets=pockets, colour=not args.no_colour)


def _run(args: argparse.Namespace) -> int:
    from hub.deploy import provision as pv

    node = _node(args)
    port = args.port
    if port is None:
        found = pv.find_ports()
        if not found:
            raise pv.ProvisionError(pv.no_board_message())
        if len(found) > 1:
            raise pv.ProvisionError(
                "several ESP32 boards on USB ("
                + ", ".join(p.device for p in found)
                + "): unplug the others or give --port"
            )
        port = found[0].device
    if args.micropython:
        _flash_micropython(port, Path(args.micropython))
    print(f"board on {port}: {pv.probe(port)}")
    site, tool_pw, host, mqtt_port = _register(args, node)
    with tempfile.TemporaryDirectory() as tmp:
        cfg_path = Path(args.out) if args.out else Path(tmp) / "config.json"
        pv.write_private(cfg_path, pv.config_json(site))
        if not args.no_copy:
            _copy(port, cfg_path)
    seen = pv.verify(host, mqtt_port, tool_pw, node, args.timeout)
    if not seen.online:
        raise pv.ProvisionError(
            f"{node.device} did not come online in {args.timeout:g} s: check the Wi-Fi name "
            f"and password and that {args.broker_host} is the Pi's address (docs/install.md)"
        )
    if seen.event is None:
        raise pv.ProvisionError(
            f"{node.device} is online (firmware {seen.fw}) but sent no event: check the beams "
            "or the accelerometer wiring (hardware/wiring.md)"
        )
    print(
        f"{node.device} is on table {node.table}: online, test event '{seen.event}' received / узел подключён"
    )
    print("restart the hub to put it into play / перезапустите хаб: sudo systemctl restart luza-hub")
    return 0


def _register(args: argparse.Namespace, node: NewNode) -> tuple[NodeSettings, str, str, int]:
    """luza.toml, the credentials and the broker files; the broker reloads. Returns the node's config.json."""
    from hub import configfile
    from hub.deploy import credentials as creds
    from hub.deploy import provision as pv
    from hub.deploy import render

    opts = render.Options(root=Path(args.root))
    toml = render.under(opts.root, opts.paths.config)
    cpath = render.under(opts.root, opts.paths.etc + "/credentials.json")
    current = creds.load(cpath)
    if not toml.exists() or current is None:
        raise pv.ProvisionError(
            f"no installation under {args.root} ({toml}): run hardware/pi/install.sh first"
        )
    toml.write_text(pv.add_device(toml.read_text(), node))
    cfg = configfile.load(toml)
    c = creds.ensure(current, cfg, sorted(current.screens))
    creds.save(c, cpath)
    port = cfg.broker.port
    tls = _installed_tls(opts)
    written = render.write(
        opts.root, render.broker_files(render.Options(root=opts.root, port=port, tls=tls), cfg, c)
    )
    if written:
        _reload_broker()
    mqtt_port = args.broker_port or (8883 if args.tls else 1883)
    site = pv.node_config(
        node,
        c.devices[creds.device_user(node.table, node.device)],
        (args.wifi_ssid, args.wifi_password),
        (args.broker_host, mqtt_port),
        args.tls,
    )
    host = urlsplit(cfg.broker.url).hostname or "127.0.0.1"
    return site, c.tool, host, port


def _installed_tls(opts: Options) -> Tls | None:
    """The TLS files the installer made, if it made any (so a re-render keeps the TLS listener)."""
    from hub.deploy import broker_config as bc
    from hub.deploy import render

    etc = opts.paths.etc
    if render.under(opts.root, etc + "/tls/server.crt").exists():
        return bc.Tls(f"{etc}/tls/ca.crt", f"{etc}/tls/server.crt", f"{etc}/tls/server.key")
    return None


def _reload_broker() -> None:
    """SIGHUP: Mosquitto re-reads its password file and ACL (no one is disconnected)."""
    if shutil.which("systemctl") and Path("/run/systemd/system").is_dir():
        subprocess.run(["systemctl", "reload", "mosquitto"], check=False)
    else:
        print("reload the broker so it reads the new password and ACL: systemctl reload mosquitto")


def _flash_micropython(port: str, image: Path) -> None:
    from hub.deploy import provision as pv

    esptool = shutil.which("esptool.py") or shutil.which("esptool")
    if esptool is None:
        raise pv.ProvisionError("esptool is not installed: pip install 'luza[device]'")
    if not image.is_file():
        raise pv.ProvisionError(
            f"{image}: no such MicroPython image (download ESP32_GENERIC from micropython.org)"
        )
    for cmd in pv.esptool_commands(port, image, esptool):
        print(" ".join(cmd))
        if subprocess.run(cmd).returncode != 0:
            raise pv.ProvisionError(
                f"esptool failed on {port}: hold BOOT while it connects, or try another cable"
            )


def _copy(port: str, cfg_path: Path) -> None:
    from hub.commands.firmware import DEFAULT_OUT, flash_commands
    from hub.deploy import provision as pv
    from hub.ota.build import build

    mpremote = shutil.which("mpremote")
    if mpremote is None:
        raise pv.ProvisionError("mpremote is not installed: pip install 'luza[device]'")
    build(DEFAULT_OUT, log=lambda s: None)
    cmd = flash_commands(port, DEFAULT_OUT, cfg_path, mpremote)
    if subprocess.run(cmd).returncode != 0:
        raise pv.ProvisionError(f"copying the firmware to {port} failed: " + " ".join(cmd))
