"""`luza devices`: the device registry as the hub last stored it (online/offline,
last seen, fw, battery, …)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from hub.ingest.registry import OtaStatus


def register(sub: Any) -> None:
    p = sub.add_parser(
        "devices",
        help="list the nodes: online, last seen, firmware, battery, RSSI, rejections, their last update",
        description="List the nodes the hub knows. / Список узлов.",
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument(
        "--config", help="luza.toml (its store.path is read; configured nodes never seen are shown)"
    )
    src.add_argument("--db", help="the hub's SQLite database")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=run)


def _age(ms: int | None) -> str:
    if ms is None:
        return "never"
    s = max(0, int(time.time() - ms / 1000))
    return f"{s}s ago" if s < 120 else f"{s // 60}m ago" if s < 7200 else f"{s // 3600}h ago"


def update(ota: OtaStatus | None) -> str:
    """A node's over-the-air update in one cell: `ok 0.1.1-1f2e3d4c`,
    `fetch 3/27 0.1.1-…`, `refused … (hash …)`."""
    if not ota:
        return "-"
    text = f"{ota.get('st')} " + (
        f"{ota.get('n', 0)}/{ota.get('of', '?')} " if ota.get("st") == "fetch" else ""
    )
    text += ota.get("r") or ota.get("to") or ""
    return text + (f" ({ota['err']})" if ota.get("err") else "")


def run(args: argparse.Namespace) -> int:
    from hub import config as cfgmod
    from hub import configfile
    from hub.ingest.registry import Registry
    from hub.store.database import Store

    try:
        cfg = configfile.load(args.config) if args.config else cfgmod.Config()
        store = Store(args.db or cfg.store.path, readonly=True)
    except (cfgmod.ConfigError, FileNotFoundError, OSError) as exc:
        print(f"luza devices: {exc}", file=sys.stderr)
        return 2
    devices = Registry(cfg, store.devices(), store.rejected_counts()).snapshot()
    if args.json:
        print(json.dumps(devices, ensure_ascii=False, indent=2))
        return 0
    cols = (
        "device",
        "table",
        "role",
        "state",
        "last seen",
        "fw",
        "boot",
        "battery",
        "rssi",
        "outbox",
        "rejected",
        "update",
    )
    rows = [cols]
    for d in devices:
        rej = ", ".join(f"{k}:{v}" for k, v in sorted(d["rejected"].items())) or "-"
        rows.append(
            (
                d["id"] or "(no device)",
                d["table_id"] or "?",
                d["role"] or "?",
                d["state"],
                _age(d["last_seen_ms"]),
                d["fw"] or "-",
                str(d["boot"] if d["boot"] is not None else "-"),
                "-" if d["battery"] is None else f"{d['battery']:.2f} V",
                "-" if d["rssi"] is None else f"{d['rssi']:.0f} dBm",
                "-" if d["outbox"] is None else str(d["outbox"]),
                rej,
                update(d.get("ota")),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(cols))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    return 0
