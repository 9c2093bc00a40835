"""Helpers of the installation tests: a real Mosquitto running the installer's files,
and waiting on a condition."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path
from typing import Any

from tests.support.broker import Mosquitto


def installed_broker(root: Path, tmp: Path, port: int) -> Mosquitto:
    """A real Mosquitto running the installer's files from `root` (paths and port moved into `tmp`)."""
    conf = (root / "etc/mosquitto/mosquitto.conf").read_text()
    conf = conf.replace("/etc/mosquitto/luza/", f"{root}/etc/mosquitto/luza/")
    conf = conf.replace("/var/lib/mosquitto/", f"{tmp}/data/").replace(
        "log_dest syslog", f"log_dest file {tmp}/log"
    )
    conf = re.sub(r"^pid_file .*$", "", conf, flags=re.M) + ("user root\n" if os.geteuid() == 0 else "")
    (tmp / "data").mkdir(parents=True, exist_ok=True)
    (tmp / "m.conf").write_text(conf)
    broker = Mosquitto(tmp / "w", port=port)
    broker.conf = tmp / "m.conf"
    return broker.start()


async def until(cond: Any, what: str, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not cond():
        assert loop.time() < deadline, what
        await asyncio.sleep(0.02)
