"""`luza serve --config luza.toml`: run the hub against a real Mosquitto
(and serial ports) until SIGTERM/SIGINT."""

from __future__ import annotations

import argparse
import dataclasses
import logging
import signal
import sys
import threading
from typing import Any

from hub import config as cfgmod
from hub import configfile


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="run the hub: MQTT and serial ingest, store, scoreboard state",
        description="Run the hub until stopped (SIGTERM or Ctrl-C). / Запустить хаб.",
    )
    p.add_argument("--config", required=True, help="path to luza.toml (see docs/hub.md)")
    p.add_argument(
        "--serial",
        action="append",
        default=[],
        metavar="PORT",
        help="also read JSON lines from this serial port (e.g. /dev/ttyUSB0); may be repeated",
    )
    p.add_argument("--db", help="override store.path")
    p.add_argument(
        "--control",
        metavar="PATH",
        help="take referee actions as JSON lines on this Unix socket (mode 0600; see `luza referee`)",
    )
    p.add_argument(
        "--http",
        metavar="HOST:PORT",
        help="serve the web app (boards, referee panel, REST, WebSockets) on HOST:PORT, e.g. 127.0.0.1:8000",
    )
    p.add_argument(
        "--public-url",
        metavar="URL",
        help="the hub's address as phones on the club network reach it, e.g. http://192.168.1.10:8000: "
        "the board's QR code points the referee's phone there (default: the address the board "
        "used, which on the Pi's own kiosk is 127.0.0.1)",
    )
    p.add_argument("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    before = list(logging.getLogger().handlers)
    logging.basicConfig(
        level=args.log_level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    from hub.logs import install

    install([h for h in logging.getLogger().handlers if h not in before])  # identical lines once a minute
    try:
        cfg = configfile.load(args.config)
    except cfgmod.ConfigError as exc:
        print(f"luza serve: {exc}", file=sys.stderr)
        return 2
    if args.serial or args.db:
        ingest = dataclasses.replace(cfg.ingest, serial=cfg.ingest.serial + tuple(args.serial))
        store = dataclasses.replace(cfg.store, path=args.db) if args.db else cfg.store
        cfg = cfgmod.replace(cfg, ingest=ingest, store=store)
    args.db = cfg.store.path  # named in a one-line error about the database (hub.errors)
    from hub.service.hub import Hub  # imported late: `luza --help` must not need the whole hub

    if args.http:
        from hub.web.server import parse_address

        try:
            http = parse_address(args.http)
        except ValueError as exc:
            print(f"luza serve: {exc}", file=sys.stderr)
            return 2

    done = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: done.set())
    from hub.deploy.sdnotify import Watchdog

    hub = Hub(cfg)
    hub.start(connect_timeout=5.0)
    control = None
    web = None
    watchdog = Watchdog(hub)  # systemd (luza-hub.service): READY, then the watchdog while the hub is healthy
    try:
        if args.control:
            from hub.service.control import ControlError, ControlServer

            try:
                control = ControlServer(hub, args.control).start()
            except ControlError as exc:
                print(f"luza serve: {exc}", file=sys.stderr)
                return 2
        if args.http:
            from hub.web.server import WebServerError, serve_in_thread
            from hub.web.settings import WebSettings

            try:
                web = serve_in_thread(hub, *http, settings=WebSettings(public_url=args.public_url))
            except WebServerError as exc:
                print(f"luza serve: {exc}", file=sys.stderr)
                return 2
            logging.getLogger("luza.serve").info("web app at %s", web.url)
        logging.getLogger("luza.serve").info(
            "serving %d table(s), store %s, broker %s", len(cfg.tables), cfg.store.path, cfg.broker.url
        )
        watchdog.start()
        done.wait()
    finally:
        watchdog.stop()
        if web is not None:  # first: requests under way are answered while the hub still runs
            web.stop()
        if control is not None:
            control.stop()
        hub.stop()
    return 0
