"""The hub's update service: push a release to nodes, serve it to them, and give the go to swap.

- `push(devices, release)`: refused, per node, with a bilingual line when a match is in play on its table
  (nodes are updated between matches), when it is offline, unknown, already updating (its status says a
  download or a trial is under way: a second push waits for the first's end), or the hub's HTTP is not running
  (the node downloads from it); otherwise the `ota` command goes out (release id, the HTTP port, the host from
  [ota] host if set, else the node uses its broker host).
- The node downloads `/ota/<device>/<release>/manifest` (signed for it) and
  `/ota/<device>/<release>/f/<path>`, each with its own credential (hub.ota.keys); hub/web/routes_ota.py
  serves them through `manifest` and `file`.
- A node whose status says `staged` gets the go (`ota {do: swap}`) as soon as no match is in play on its
  table: at once, or when the match ends (`after_commit`, on the hub's worker after every commit).

It takes the hub's pieces as callables (the table's state, a device's registry row, the command sender) so
that it needs no import of the hub service.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypedDict

from hub.config import Config
from hub.ingest.registry import OtaStatus
from hub.ota.keys import Keys
from hub.ota.release import Release, ReleaseError, Releases, ReleaseView, signed_manifest

log = logging.getLogger("luza.ota")


class PushedView(TypedDict):
    """What a push did for one node, as the control socket answers it (hub.ota.control)."""

    device: str
    ok: bool
    code: str
    en: str
    ru: str
    release: str


class OtaView(TypedDict):
    """GET /api/ota (docs/web-api.md): the releases kept here, the firmware the hub would push, and whether
    nodes can download (the hub's web server is up)."""

    releases: list[ReleaseView]
    latest: str | None
    http: bool


class NodeRow(Protocol):
    """What the service reads of a node's registry entry (hub.ingest.registry.Device)."""

    @property
    def state(self) -> str: ...

    @property
    def ota(self) -> OtaStatus | None: ...


# A table's state JSON (the hub's `state(table)`, docs/table-view.schema.json): the service reads only whether
# its `match` is over, so any JSON object will do here.
TableState = Mapping[str, object]


@dataclass(frozen=True)
class Pushed:
    """What a push did for one node: `ok` (the command went out) or a refusal with `code` and en/ru lines."""

    device: str
    ok: bool
    code: str
    en: str
    ru: str
    release: str = ""

    def view(self) -> PushedView:
        return PushedView(
            device=self.device, ok=self.ok, code=self.code, en=self.en, ru=self.ru, release=self.release
        )


def match_in_play(state: TableState | None) -> bool:
    """A table state with a match that is not over (a held match is still in play)."""
    m = (state or {}).get("match")
    return isinstance(m, Mapping) and not m.get("over")


def _under_way(row: NodeRow) -> str | None:
    """What a node's status says is under way (a download, n/of files, or its trial), or None."""
    ota = row.ota
    if ota is None:
        return None
    st, rid = ota.get("st"), ota.get("r") or "?"
    if st == "fetch":
        return f"downloading {rid} {ota.get('n', 0)}/{ota.get('of', '?')}"
    if st == "trial":
        return f"trying {rid}"
    return None


class Ota:
    def __init__(
        self,
        config: Config,
        state: Callable[[str], TableState],
        device: Callable[[str], NodeRow | None],
        send: Callable[..., bool],
        keys: Keys | None = None,
    ) -> None:
        self.config = config
        self._state, self._device, self._send = state, device, send
        self.releases = Releases(config.ota.dir) if config.ota.dir else None
        self.keys = keys if keys is not None else Keys.load(config.ota.keys)
        # the web server's port (hub.web.server sets it): nodes download there
        self.http_port: int | None = None
        self.stats: Counter[str] = Counter()  # pushed, refused, swaps, served, denied
        self._staged: dict[str, str] = {}  # device -> staged release waiting for its go
        self._lock = threading.Lock()
        self._building = threading.Lock()

    # ------------------------------------------------------------ releases

    def release(self, rid: str | None = None, config: dict[str, object] | None = None) -> Release:
        """The release to push: a config change, the one named, or the hub's own firmware (built once; two
        pushes at once build it once)."""
        with self._building:
            return self._release(rid, config)

    def _release(self, rid: str | None, config: dict[str, object] | None) -> Release:
        if self.releases is None:
            raise ReleaseError(
                "no OTA folder: set [ota] dir in luza.toml", "нет папки обновлений: [ota] dir в luza.toml"
            )
        if config is not None:
            return self.releases.add_config(config)
        if rid:
            got = self.releases.get(rid)
            if got is None:
                known = ", ".join(r.id for r in self.releases.all()) or "none"
                raise ReleaseError(
                    f"no release {rid!r} on this hub (there are: {known})",
                    f"на хабе нет выпуска {rid!r} (есть: {known})",
                )
            return got
        return self.releases.add_tree()

    # ------------------------------------------------------------ push

    def push(
        self, devices: Sequence[str], rid: str | None = None, config: dict[str, object] | None = None
    ) -> list[Pushed]:
        """Send release `rid` (or `config`, a config change: Releases.add_config; by default the hub's own
        firmware) to `devices`. Nodes that cannot take it now are refused first, so nothing is built for them.
        ReleaseError: no such release."""
        checked = [(d, self._refusal(d, rid or "")) for d in devices]
        out = [r for _, r in checked if r is not None]
        ready = [d for d, r in checked if r is None]
        if ready:
            release = self.release(rid, config)
            out += [self._send_one(d, release) for d in ready]
        out.sort(key=lambda p: list(devices).index(p.device))
        for p in out:
            self.stats["pushed" if p.ok else "refused"] += 1
            (log.info if p.ok else log.warning)("update %s -> %s: %s", p.release or "-", p.device, p.en)
        return out

    def _refusal(self, device: str, rid: str) -> Pushed | None:
        dev = self.config.device(device)
        if dev is None:
            return Pushed(
                device,
                False,
                "unknown_device",
                f"no node {device!r} in luza.toml",
                f"узла {device!r} нет в luza.toml",
                rid,
            )
        if match_in_play(self._state(dev.table)):
            return Pushed(
                device,
                False,
                "match_in_play",
                f"table {dev.table} has a match in play: {device} is updated between matches; "
                "end the match, then push again",
                f"на столе {dev.table} идёт партия: {device} обновляется между партиями; "
                "завершите партию и повторите",
                rid,
            )
        row = self._device(device)
        if row is None or row.state != "online":
            return Pushed(
                device,
                False,
                "offline",
                f"{device} is not online; push again when it is",
                f"{device} не в сети; повторите, когда он подключится",
                rid,
            )
        busy = _under_way(row)
        if busy is not None:
            return Pushed(
                device,
                False,
                "busy",
                f"{device} is already updating ({busy}): push again once it says ok, rolled back or refused",
                f"{device} уже обновляется ({busy}): повторите, когда он сообщит ok, откат или отказ",
                rid,
            )
        if self.http_port is None:
            return Pushed(
                device,
                False,
                "no_http",
                "the hub's web server is not running (luza serve --http): nodes download updates from it",
                "веб-сервер хаба не запущен (luza serve --http): узлы скачивают обновления с него",
                rid,
            )
        return None

    def _send_one(self, device: str, release: Release) -> Pushed:
        args: dict[str, str | int | None] = {"r": release.id, "port": self.http_port}  # luza_wire/ota.py
        if self.config.ota.host:
            args["host"] = self.config.ota.host
        if not self._send(device, "ota", **args):
            return Pushed(
                device,
                False,
                "unreachable",
                "the hub has no link to the node now (no broker connection)",
                "у хаба сейчас нет связи с узлом (нет подключения к брокеру)",
                release.id,
            )
        return Pushed(
            device,
            True,
            "sent",
            f"{release.id} ({release.fw}) sent to {device}; it downloads and "
            "checks it, then restarts into it between matches",
            f"{release.id} ({release.fw}) отправлен на {device}; узел скачает и проверит его, затем "
            "перезапустится между партиями",
            release.id,
        )

    # ------------------------------------------------------------ the go to swap

    def after_commit(self, devices: Iterable[str]) -> None:
        """On the worker, after a commit: note nodes that have staged a release; give the go where no match is
        in play (a node staged during a match waits for its end)."""
        with self._lock:
            for device in devices:
                row = self._device(device)
                ota = row.ota if row is not None else None
                if ota is not None and ota.get("st") == "staged" and ota.get("r"):
                    self._staged[device] = ota["r"]
                else:
                    self._staged.pop(device, None)
            due = [(d, r) for d, r in self._staged.items() if self._idle(d)]
            for device, rid in due:
                del self._staged[device]
                if self._send(device, "ota", r=rid, do="swap"):
                    self.stats["swaps"] += 1
                    log.info("update %s: %s staged it; no match in play, so it restarts into it", rid, device)

    def _idle(self, device: str) -> bool:
        dev = self.config.device(device)
        return dev is not None and not match_in_play(self._state(dev.table))

    # ------------------------------------------------------------ serving the node

    def _allowed(
        self, device: str, rid: str, path: str, credential: str | None
    ) -> tuple[str, Release] | None:
        self.keys = self.keys.fresh()
        dev = self.config.device(device)
        release = self.releases.get(rid) if self.releases else None
        if dev is None or release is None or not self.keys.check(dev.table, device, path, credential):
            self.stats["denied"] += 1
            log.warning(
                "update download refused: %s for %r (unknown node or release, or not the node's credential)",
                path,
                device,
            )
            return None
        return dev.table, release

    def manifest(self, device: str, rid: str, path: str, credential: str | None) -> bytes | None:
        """The signed manifest for the node, or None (unknown node or release, or a wrong credential)."""
        got = self._allowed(device, rid, path, credential)
        if got is None:
            return None
        self.stats["served"] += 1
        return signed_manifest(got[1], got[0], device, self.keys)

    def file(self, device: str, rid: str, name: str, path: str, credential: str | None) -> Path | None:
        got = self._allowed(device, rid, path, credential)
        return got[1].file(name) if got is not None else None

    def view(self) -> OtaView:
        """For the club view and GET /api/ota: the releases kept here and what the hub would push."""
        rel = self.releases.all() if self.releases else []
        fw = [r for r in rel if r.kind == "fw"]
        return OtaView(
            releases=[r.view() for r in rel],
            latest=fw[-1].id if fw else None,
            http=self.http_port is not None,
        )
