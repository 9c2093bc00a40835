"""`luza demo` on a screen: the locked-down broker, the hub, the web app and a virtual table playing match after
match until Ctrl-C, refereed by a script through the referee panel's own REST API.

    result = run_web_demo(list(VARIANTS), port=8000, matches=0)   # 0: until Ctrl-C (or `stop` is set)

What runs: a private Mosquitto with the installation's locked-down config and fresh demo logins (hub.deploy.broker,
hub.deploy), the hub (hub.service.hub) with its SQLite store, the web app (hub.web) on http://127.0.0.1:<port>,
and the virtual table (hub.virtual: pocket and cue nodes running the real firmware logic). Each match is started
and refereed through `hub.demo.client.PanelClient` with the demo PIN, exactly as a person's panel does; once a
person enters an action on the panel, the script stands by for the rest of that match (hub.demo.terminal.DemoPlayers).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hub.demo.client import PanelClient, PanelRefused
from hub.demo.terminal import PLAYERS, TABLE, DemoPlayers, Printer, demo_config, workspace
from hub.deploy.broker import Mosquitto, free_port
from hub.service.hub import Hub
from hub.virtual.table import VirtualTable
from hub.web.auth import PinStore
from hub.web.server import WebServer

DEMO_PIN = "2468"
PAUSE_S = 6.0  # wall seconds the win screen stays up before the next match
PLAYER_PAIRS = (PLAYERS, ("Анна", "Мария"), ("Sergei", "Dmitri"))


@dataclass
class WebDemoResult:
    matches: list[tuple[str, int | None, tuple[int, int], int]] = field(default_factory=list)  # variant, winner
    problem: str | None = None  # why a match did not finish (None if every one did)


def urls(base: str, table: str = TABLE) -> list[tuple[str, str]]:
    """What to open, in words: (label, URL)."""
    return [("wall board / табло", f"{base}/board/{table}"),
            ("referee panel / панель судьи", f"{base}/referee/{table}"),
            ("stream overlay / оверлей", f"{base}/overlay/{table}?lang=en"),
            ("club view / клуб", f"{base}/")]


def run_web_demo(variants: Sequence[str], speed: float = 2.0, seed: int | None = None, workdir: str | None = None,
                 host: str = "127.0.0.1", port: int = 8000, matches: int = 0, out: Callable[[str], None] = print,
                 stop: threading.Event | None = None, pause_s: float = PAUSE_S,
                 on_ready: Callable[[str], None] | None = None) -> WebDemoResult:
    """Serve the appliance on host:port and play `matches` matches (0: until `stop`), cycling `variants`."""
    stop = stop or threading.Event()
    rng = random.Random(seed)
    result = WebDemoResult()
    with workspace(workdir) as root:
        broker_port = free_port()
        db = root / "luza.db"
        broker = Mosquitto.locked(root / "broker", demo_config(f"mqtt://127.0.0.1:{broker_port}", db),
                                  port=broker_port).start()
        hub: Hub | None = None
        web: WebServer | None = None
        try:
            table = VirtualTable(("127.0.0.1", broker.port), root / "nodes", table=TABLE, speed=speed)
            broker.log_in_nodes(table)
            hub = Hub(demo_config(broker.hub_url, db), clock=table.vt.hub_ms).start(connect_timeout=10)
            hub.subscribe(Printer(out))
            PinStore(db).set(TABLE, DEMO_PIN)
            web = WebServer(hub, host, port).start()
            base = web.url
            out(f"Luza demo is running / демо запущено: {base}")
            for label, url in urls(base):
                out(f"  {label}: {url}")
            out(f"  referee PIN / PIN судьи: {DEMO_PIN}   (Ctrl-C stops / Ctrl-C — стоп)")
            if on_ready:
                on_ready(base)
            panel = PanelClient(base, TABLE, DEMO_PIN, label="demo")
            asyncio.run(_play(hub, table, panel, variants, rng, matches, stop, result, out, pause_s))
        finally:
            if web is not None:
                web.stop()
            if hub is not None:
                hub.stop()
            broker.stop()
    return result


async def _play(hub: Hub, table: VirtualTable, panel: PanelClient, variants: Sequence[str], rng: random.Random,
                matches: int, stop: threading.Event, result: WebDemoResult, out: Callable[[str], None],
                pause_s: float) -> None:
    await table.start()
    await table.synced()  # the hub's time exchange on each birth
    try:
        for n, variant in zip(itertools.count(1), itertools.cycle(variants), strict=False):
            if stop.is_set() or (matches and n > matches):
                return
            players = PLAYER_PAIRS[(n - 1) % len(PLAYER_PAIRS)]
            await asyncio.to_thread(panel.start_match, variant, players)
            await asyncio.to_thread(panel.act, {"kind": "lag", "winner": rng.randint(0, 1)})
            script = DemoPlayers(hub, table, variant, rng, referee=_PanelReferee(panel))
            await script.play(stop)
            board = script.board()
            if script.person:
                out(f"match {n}: refereed from the panel by {script.person!r} / судит человек с панели")
            if not script.live():
                out(f"match {n}: ended from the panel / партия завершена с панели")
                continue
            if not board.get("over"):
                if stop.is_set():
                    return
                result.problem = script.problem()
                await asyncio.to_thread(panel.act, {"kind": "end_match", "reason": "demo: shot limit"})
                continue
            result.matches.append((variant, board.get("winner"), tuple(board.get("scores") or (0, 0)),  # type: ignore[arg-type]
                                   script.shots))
            with contextlib.suppress(PanelRefused):  # no shot open: nothing to close
                await asyncio.to_thread(panel.act, {"kind": "close_shot"})
            await asyncio.to_thread(panel.act, {"kind": "end_match", "reason": "won"})
            await _pause(stop, pause_s)
    finally:
        await table.stop()


async def _pause(stop: threading.Event, seconds: float) -> None:
    """The win screen stays up a moment (wall time: it is for the people watching)."""
    deadline = time.monotonic() + seconds
    while not stop.is_set() and time.monotonic() < deadline:
        await asyncio.sleep(0.1)


class _PanelReferee:
    """DemoPlayers' referee interface over the panel client."""

    label = "demo"

    def __init__(self, panel: PanelClient) -> None:
        self.panel = panel

    def act(self, action: dict[str, object]) -> None:
        self.panel.act(action)
