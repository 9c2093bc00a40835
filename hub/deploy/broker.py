"""A private Mosquitto broker: own config, free port on 127.0.0.1, persistence in a given folder.

Used by `luza demo` (the appliance with no broker to start by hand) and by every test that needs a broker.
`stop()`/`start()` keep the persistence folder, so a restart keeps persistent sessions and queued QoS 1
messages, as a real broker restart does.

`Mosquitto.locked(workdir, config)` is the appliance's own locked-down broker: the config, password file and
ACL the Pi installer writes (hub.deploy.broker_config), with fresh demo credentials for the hub (and its
telemetry connection), every node of `config`, the admin tool and a `demo` screen, listening on 127.0.0.1
only. `hub_url` carries the hub's login, `tele_login` the telemetry connection's luza.toml keys;
`login(table, device)` is a node's (user, password); `log_in_nodes(virtual_table)` logs a VirtualTable's nodes
in. `Mosquitto(workdir)` alone is an open broker (older tests).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hub.config import Config
    from hub.deploy.credentials import Credentials


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Mosquitto:
    def __init__(
        self,
        workdir: Path,
        port: int | None = None,
        users: dict[str, str] | None = None,
        acl: str | None = None,
        locked: tuple[Config, Credentials] | None = None,
        persistence: bool = True,
        own_group: bool = False,
    ) -> None:
        exe = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        if not os.path.exists(exe):
            raise RuntimeError(
                "Mosquitto is not installed: run scripts/setup, "
                "or apt-get install mosquitto mosquitto-clients"
            )
        self.exe = exe
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.users = users
        self.acl = acl
        # False: a restart (or SIGKILL) forgets every session and queued message
        self.persistence = persistence
        # True: a process group of its own, so a terminal's Ctrl-C (SIGINT to the whole foreground group)
        # reaches only its owner, who disconnects its clients and then stops it (`luza demo`);
        # a test's broker shares ours
        self.own_group = own_group
        self.proc: subprocess.Popen[bytes] | None = None
        self.conf = self.workdir / "mosquitto.conf"
        self.config: Config | None = None
        self.credentials: Credentials | None = None
        if users is not None or acl is not None or locked is None:
            self._write_config()
        else:
            self._write_locked(*locked)

    @classmethod
    def locked(
        cls,
        workdir: Path,
        config: Config,
        port: int | None = None,
        credentials: Credentials | None = None,
        own_group: bool = False,
    ) -> Mosquitto:
        """The installation's locked-down broker for the nodes of `config`
        (new demo credentials unless given)."""
        from hub.deploy import credentials as creds

        return cls(
            workdir, port, locked=(config, creds.ensure(credentials, config, ["demo"])), own_group=own_group
        )

    @property
    def hub_url(self) -> str:
        """The broker URL with the hub's user and password (for luza.toml's broker.url)."""
        assert self.credentials is not None, "an open broker has no logins"
        from hub.deploy.credentials import HUB_USER

        return f"mqtt://{HUB_USER}:{self.credentials.hub}@127.0.0.1:{self.port}"

    @property
    def tele_login(self) -> dict[str, str]:
        """luza.toml's `[broker]` keys of the hub's telemetry connection (hub.ingest.mqtt), as the installer
        writes them."""
        assert self.credentials is not None, "an open broker has no logins"
        from hub.deploy.credentials import TELE_USER

        return {"tele_username": TELE_USER, "tele_password": self.credentials.tele}

    def login(self, table: str, device: str) -> tuple[str, str]:
        """A node's (user, password) on the locked-down broker."""
        assert self.credentials is not None, "an open broker has no logins"
        from hub.deploy.credentials import device_user

        user = device_user(table, device)
        return user, self.credentials.devices[user]

    def log_in_nodes(self, table: Any) -> None:
        """Give every node of a hub.virtual VirtualTable its own login,
        as `luza provision` does on a real one."""
        for node in table.nodes:
            node.transport.user, node.transport.password = self.login(table.table, node.device)

    def _write_locked(self, config: Config, credentials: Credentials) -> None:
        from hub.deploy import broker_config as bc

        self.config, self.credentials = config, credentials
        data = self.workdir / "data"
        data.mkdir(exist_ok=True)
        layout = bc.Layout(
            port=self.port,
            host="127.0.0.1",
            data_dir=f"{data}/",
            passwd=str(self.workdir / "passwd"),
            acl=str(self.workdir / "acl"),
            log=f"file {self.workdir / 'mosquitto.log'}",
            pid_file=None,
            run_as="root" if os.geteuid() == 0 else None,
            autosave_s=1,
        )
        Path(layout.passwd).write_text(bc.passwd_text(credentials))
        Path(layout.acl).write_text(bc.acl_text(config, credentials))
        self.conf.write_text(bc.mosquitto_conf(layout, bc.queue_limits(config)))

    @property
    def url(self) -> str:
        """The broker's address, without any login (safe to print); `hub_url` carries the hub's."""
        return f"mqtt://127.0.0.1:{self.port}"

    def _write_config(self) -> None:
        data = self.workdir / "data"
        data.mkdir(exist_ok=True)
        lines = [
            "user root",
            f"listener {self.port} 127.0.0.1",
            f"persistence {'true' if self.persistence else 'false'}",
            f"persistence_location {data}/",
            "autosave_interval 1",
            f"log_dest file {self.workdir / 'mosquitto.log'}",
            "log_type error",
            "log_type warning",
            "max_queued_messages 100000",
            "set_tcp_nodelay true",  # else Nagle + delayed ACK hold small messages (commands, events) ~40 ms
        ]
        if self.users is None:
            lines.append("allow_anonymous true")
        else:
            pwfile = self.workdir / "passwd"
            pwfile.write_text("")
            for user, pw in self.users.items():
                subprocess.run(["mosquitto_passwd", "-b", str(pwfile), user, pw], check=True)
            lines += ["allow_anonymous false", f"password_file {pwfile}"]
        if self.acl is not None:
            aclfile = self.workdir / "acl"
            aclfile.write_text(self.acl)
            lines.append(f"acl_file {aclfile}")
        self.conf.write_text("\n".join(lines) + "\n")

    def start(self, timeout: float = 10.0) -> Mosquitto:
        assert self.proc is None, "already running"
        self.proc = subprocess.Popen(
            [self.exe, "-c", str(self.conf)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            process_group=0 if self.own_group else None,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                self.proc = None
                raise RuntimeError(f"mosquitto exited at start: {err.strip()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"mosquitto did not listen on port {self.port} within {timeout} s")

    def stop(self) -> None:
        """Graceful stop: Mosquitto saves its persistence file."""
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def kill(self) -> None:
        """SIGKILL: no goodbye, as a power cut."""
        if self.proc is None:
            return
        self.proc.kill()
        self.proc.wait()
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def __enter__(self) -> Mosquitto:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
