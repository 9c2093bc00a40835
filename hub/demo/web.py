"""`luza demo` on a screen: the locked-down broker, the hub, the web app and a virtual table playing match
after match until Ctrl-C, refereed by a script through the referee panel's own REST API.

    result = run_web_demo(list(VARIANTS), port=8000, matches=0)   # 0: until Ctrl-C (or `stop` is set)

What runs: a private Mosquitto with the installation's locked-down config and fresh demo logins
(hub.deploy.broker, hub.deploy), the hub (hub.service.hub) with its SQLite store, the web app (hub.web) on
http://127.0.0.1:<port>, and the virtual table (hub.virtual: pocket and cue nodes running the real firmware
logic). Each match is started and refereed through `hub.demo.client.PanelClient` with the demo PIN,
exactly as a person's panel does.

Why the loop looks at the table rather than counting matches: the table may hold a match the demo did not
start. After a restart on the same --workdir the hub rebuilt the match in play from the store, and the demo
resumes it (starting another would be refused). A person who signed into the panel (`Presence`: a referee
token not the demo's, issued or presented within PERSON_IDLE_S) has the table: the script's referee stands by,
the virtual players wait for the person's answers, and no match is started for them;
a person idle that long gives it back.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from hub.demo.client import PanelClient, PanelRefused
from hub.demo.shapes import RefereeBody
from hub.demo.terminal import (
    PLAYERS,
    TABLE,
    DemoPlayers,
    Printer,
    demo_config,
    in_play,
    race_for,
)
from hub.demo.workdir import demo_clock, workspace
from hub.deploy.broker import Mosquitto, free_port
from hub.service.hub import Hub
from hub.virtual.table import VirtualTable
from hub.web.auth import CLUB, PinStore, Tokens
from hub.web.server import WebServer
from shared_rules.race_rules import RaceRulesJSON

DEMO_PIN = "2468"
DEMO_CLUB_PIN = "1357"  # the club view's sign-in (Blink a node; the heavy exports)
PAUSE_S = 6.0  # wall seconds the win screen stays up before the next match
# a person's panel untouched this long (no sign-in, no tap): the demo takes the table back
PERSON_IDLE_S = 300.0
PLAYER_PAIRS = (PLAYERS, ("Анна", "Мария"), ("Sergei", "Dmitri"))


@dataclass
class WebDemoResult:
    # variant, winner
    matches: list[tuple[str, int | None, tuple[int, int], int]] = field(default_factory=list)
    problem: str | None = None  # why a match did not finish (None if every one did)


def urls(base: str, table: str = TABLE) -> list[tuple[str, str]]:
    """What to open, in words: (label, URL)."""
    return [
        ("wall board / табло", f"{base}/board/{table}"),
        ("referee panel / панель судьи", f"{base}/referee/{table}"),
        ("stream overlay / оверлей", f"{base}/overlay/{table}?lang=en"),
        ("club view / клуб", f"{base}/"),
    ]


def run_web_demo(
    variants: Sequence[str],
    speed: float = 2.0,
    seed: int | None = None,
    workdir: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    matches: int = 0,
    out: Callable[[str], None] = print,
    stop: threading.Event | None = None,
    pause_s: float = PAUSE_S,
    on_ready: Callable[[str], None] | None = None,
    person_idle_s: float = PERSON_IDLE_S,
    race: RaceRulesJSON | None = None,
    shot_clock: dict[str, int] | None = None,
) -> WebDemoResult:
    """Serve the appliance on host:port and play `matches` matches (0: until `stop`), cycling `variants`;
    `race`: each match is a race ({race_to, break_rule, handicap}, as `luza demo --race` builds it);
    `shot_clock`: each match runs the shot clock ({limit_s, extensions}, `luza demo --shot-clock`)."""
    stop = stop or threading.Event()
    rng = random.Random(seed)
    result = WebDemoResult()
    # stopped in reverse, each even if one fails
    with workspace(workdir) as root, contextlib.ExitStack() as running:
        broker_port = free_port()
        db = root / "luza.db"
        broker = Mosquitto.locked(
            root / "broker",
            demo_config(f"mqtt://127.0.0.1:{broker_port}", db),
            port=broker_port,
            own_group=True,
        ).start()
        running.callback(broker.stop)  # last: the hub says goodbye to it first (no "lost the broker")
        table = VirtualTable(("127.0.0.1", broker.port), root / "nodes", table=TABLE, speed=speed)
        broker.log_in_nodes(table)
        hub = Hub(demo_config(broker.hub_url, db, broker.tele_login), clock=demo_clock(table, db)).start(
            connect_timeout=10
        )
        running.callback(hub.stop)
        hub.subscribe(Printer(out))
        PinStore(db).set(TABLE, DEMO_PIN)
        PinStore(db).set(CLUB, DEMO_CLUB_PIN)
        web = WebServer(hub, host, port).start()
        running.callback(web.stop)
        base = web.url
        out(f"Luza demo is running / демо запущено: {base}")
        for label, url in urls(base):
            out(f"  {label}: {url}")
        out(
            f"  referee PIN / PIN судьи: {DEMO_PIN}   club PIN / PIN клуба: {DEMO_CLUB_PIN}   "
            "(Ctrl-C stops / Ctrl-C — стоп)"
        )
        if on_ready:
            on_ready(base)
        panel = PanelClient(base, TABLE, DEMO_PIN, label="demo")
        person = Presence(web.app.state.luza.tokens, panel, person_idle_s)
        asyncio.run(
            _Demo(
                hub,
                table,
                panel,
                itertools.cycle(variants),
                rng,
                matches,
                stop,
                result,
                out,
                pause_s,
                person,
                race,
                shot_clock,
            ).run()
        )
    return result


class Presence:
    """Who besides the demo has the table's panel: the label of a referee token other than the demo client's
    own, issued or presented within `idle_s` (hub.web.auth.Tokens.last_use), else None. Signing in with the
    PIN, or any tap, counts; only watching does not."""

    def __init__(self, tokens: Tokens, panel: PanelClient, idle_s: float) -> None:
        self.tokens, self.panel, self.idle_s = tokens, panel, idle_s

    def __call__(self) -> str | None:
        token = self.tokens.last_use(TABLE, exclude=self.panel.tokens)
        if token is None or self.tokens.clock() - token.used > self.idle_s:
            return None
        return token.label


@dataclass
class _Demo:
    """The demo's loop over the table: resume the match in play, else stand by for a person, else close the
    finished match and start the next one."""

    hub: Hub
    table: VirtualTable
    panel: PanelClient
    variants: Iterator[str]
    rng: random.Random
    matches: int
    stop: threading.Event
    result: WebDemoResult
    out: Callable[[str], None]
    pause_s: float
    person: Callable[[], str | None]
    race: RaceRulesJSON | None = None  # each match a race (luza demo --race)
    shot_clock: dict[str, int] | None = None  # each match with the shot clock (luza demo --shot-clock)
    seen: int = 0  # matches played through: finished, ended from the panel, or cut at the shot limit
    started: int = 0  # matches the demo started
    standing_by: str | None = None  # the person the demo stands by for (printed once)

    async def run(self) -> None:
        await self.table.start()
        await self.table.synced()  # the hub's time exchange on each birth
        try:
            if in_play(self.hub) is not None:
                self.out(
                    f"resuming match {self.hub.state(TABLE).get('match_id')} from the store / "
                    "продолжаю партию из базы"
                )
            while not self.stop.is_set() and not (self.matches and self.seen >= self.matches):
                await self.step()
        finally:
            await self.table.stop()

    async def step(self) -> None:
        board = self.hub.state(TABLE).get("match")
        who = self.person()
        if in_play(self.hub) is not None:
            await self.play_live()
        elif who is not None:
            if self.standing_by != who:
                self.standing_by = who
                self.out(
                    f"{who!r} has the referee panel: the demo stands by / на панели судьи человек: демо ждёт"
                )
            await asyncio.sleep(0.2)  # until the person starts a match, or leaves the table to the demo
        elif board is not None:
            await self.close()  # finished (or cannot go on) and nobody ended it
        else:
            await self.start_next()

    async def play_live(self) -> None:
        variant = in_play(self.hub)
        script = DemoPlayers(
            self.hub,
            self.table,
            str(variant),
            self.rng,
            referee=_PanelReferee(self.panel),
            person=self.person,
        )
        await script.play(self.stop)
        n = script.match_id
        if script.person:
            self.out(f"match {n}: refereed from the panel by {script.person!r} / судит человек с панели")
        board = script.board()
        if not script.live():
            self.out(f"match {n}: ended from the panel / партия завершена с панели")
            self.seen += 1
        elif script.over():
            scores = board.get("scores") or [0, 0]
            won = (board.get("race") or {}).get("winner", board.get("winner"))
            self.result.matches.append((script.variant, won, (scores[0], scores[1]), script.shots))
            self.seen += 1
            if self.person() is None:
                await self.close()
                await _pause(self.stop, self.pause_s)
        elif not self.stop.is_set() and self.person() is None:  # the shot limit: say why, then the next match
            self.result.problem = script.problem()
            self.seen += 1
            await self.close("demo: shot limit")

    async def close(self, reason: str = "won") -> None:
        """End the table's match (close its last shot first); a person who ended it first is no error."""
        with contextlib.suppress(PanelRefused):  # no shot open: nothing to close
            await asyncio.to_thread(self.panel.act, {"kind": "close_shot"})
        try:
            await asyncio.to_thread(self.panel.act, {"kind": "end_match", "reason": reason})
        except PanelRefused:
            if self.hub.state(TABLE).get("match") is not None:
                raise

    async def start_next(self) -> None:
        players = PLAYER_PAIRS[self.started % len(PLAYER_PAIRS)]
        if self.standing_by is not None:
            self.out(
                f"{self.standing_by!r} has left the panel idle: the demo plays on / панель судьи свободна: "
                "демо продолжает"
            )
            self.standing_by = None
        variant = next(self.variants)
        try:
            await asyncio.to_thread(
                self.panel.start_match, variant, players, None, race_for(variant, self.race), self.shot_clock
            )
        except PanelRefused:
            if self.hub.state(TABLE).get("match") is None:
                raise
            return  # a person started one at the same moment: theirs is played
        self.started += 1
        with contextlib.suppress(PanelRefused):  # a person answered the lag first
            await asyncio.to_thread(self.panel.act, {"kind": "lag", "winner": self.rng.randint(0, 1)})


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

    def act(self, action: RefereeBody) -> None:
        self.panel.act(action)
