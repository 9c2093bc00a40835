"""`luza calibrate`: teach a pocket node one ball colour
(the node's `calibrate` command, see docs/install.md).

    sudo luza calibrate --table t1 --device p3 --pocket 3 --colour ivory [--balls 5]

Sends the command with the admin tool's broker login, then shows each calibration ball as the node reports it
(`calib` events) until it has them all; the node learns the colour's centroid and keeps it in its config.json.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from luza_wire import protocol


def register(sub: Any) -> None:
    p = sub.add_parser(
        "calibrate",
        help="teach a pocket node's colour sensor one ball colour",
        description="Colour calibration of one pocket: drop N balls of one colour. / "
        "Калибровка цвета: бросьте в лузу N шаров одного цвета.",
    )
    p.add_argument("--table", required=True)
    p.add_argument("--device", required=True, help="the pocket node")
    p.add_argument("--pocket", type=int, required=True, choices=range(1, 7), metavar="1-6")
    p.add_argument("--colour", required=True, choices=protocol.COLOURS)
    p.add_argument("--balls", type=int, default=5, help="how many balls to learn from (1-50, default 5)")
    p.add_argument("--root", default="/", help="installation root (default /)")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for all the balls")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hub import config as cfgmod
    from hub import configfile
    from hub.deploy import credentials as creds
    from hub.deploy import render

    if not 1 <= args.balls <= 50:
        print("luza calibrate: --balls must be 1..50", file=sys.stderr)
        return 2
    opts = render.Options(root=Path(args.root))
    try:
        cfg = configfile.load(render.under(opts.root, opts.paths.config))
        c = creds.load(render.under(opts.root, opts.paths.etc + "/credentials.json"))
    except (cfgmod.ConfigError, creds.CredentialsError, PermissionError) as exc:
        print(f"luza calibrate: {exc} (run it with sudo on the Pi)", file=sys.stderr)
        return 2
    dev = cfg.device(args.device)
    if c is None or dev is None or dev.table != args.table or dev.role != "pocket":
        print(
            f"luza calibrate: no pocket node {args.device!r} on table {args.table!r} in luza.toml "
            "(luza provision adds it)",
            file=sys.stderr,
        )
        return 2
    got = _calibrate(urlsplit(cfg.broker.url).hostname or "127.0.0.1", cfg.broker.port, c.tool, args)
    if got < args.balls:
        print(
            f"luza calibrate: {got} of {args.balls} balls seen in {args.timeout:g} s; is the node online and "
            "the colour sensor wired (hardware/wiring.md)?",
            file=sys.stderr,
        )
        return 1
    print(f"{args.colour} learned for pocket {args.pocket} / цвет запомнен")
    return 0


def _calibrate(host: str, port: int, password: str, args: argparse.Namespace) -> int:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from hub.deploy.credentials import TOOL_USER

    seen, done = [0], threading.Event()
    evt = protocol.topic(args.table, args.device, "evt")

    def on_connect(client: Any, *a: Any) -> None:
        client.subscribe(evt, qos=1)
        client.publish(
            protocol.topic(args.table, args.device, "cmd"),
            protocol.encode_command("calibrate", 1, p=args.pocket, col=args.colour, n=args.balls),
            qos=1,
        )
        print(
            f"drop {args.balls} {args.colour} ball(s) into pocket {args.pocket}, one at a time / "
            f"бросьте {args.balls} шар(а) в лузу {args.pocket}"
        )

    def on_message(client: Any, userdata: Any, msg: Any) -> None:
        parsed = protocol.parse("evt", msg.payload, args.device)
        if getattr(parsed, "kind", None) == "calib" and parsed.get("pocket") == args.pocket:
            seen[0] += 1
            print(f"  ball {seen[0]}/{args.balls}: reading {parsed.get('rgb')}")
            if seen[0] >= args.balls:
                done.set()

    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=TOOL_USER, protocol=mqtt.MQTTv5)
    c.username_pw_set(TOOL_USER, password)
    c.on_connect, c.on_message = on_connect, on_message
    try:
        c.connect(host, port)
    except OSError as exc:
        print(f"luza calibrate: cannot reach the broker at {host}:{port}: {exc}", file=sys.stderr)
        return 0
    c.loop_start()
    try:
        done.wait(args.timeout)
    finally:
        c.disconnect()
        c.loop_stop()
    return seen[0]
