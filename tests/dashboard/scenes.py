"""Every variant's busiest screens, for the layout, language and accessibility checks of the dashboard: one
real Hub (no broker: payloads fed as MQTT delivers them, tests/export/matchkit's way) on a script clock, two
tables per variant with 40-character names in both alphabets — one at the break (the rack to set, the cue ball
in hand, the call offered), one in play (scripted shots as the demo plays them, a referee's foul, an open shot
held for the referee with a ball to name).
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hub import config, configfile
from hub.demo.referee import answers, plan_shot
from hub.ingest.mqtt import RawMessage
from hub.service.hub import Hub
from luza_wire import protocol
from shared_rules.registry import VARIANTS

START_MS = 1_794_668_400_000  # a fixed clock: the screens do not depend on today
VARIANT_IDS = tuple(VARIANTS)  # every registered variant
# Long names in both alphabets (40 characters and more): the board, the panel and the overlay must fit them.
PLAYERS = ("Константин Константинопольский-Щедринский", "Maximilian Alexander Worthington-Smythe")
CLUB = "Бильярдный клуб «Луза» на Петроградской"
POCKETS = {1: "pk12", 2: "pk12", 3: "pk34", 4: "pk34", 5: "pk56", 6: "pk56"}


IDLE, ENDED = "idle", "ended"  # a table with no match (the start form, the board's QR), one just ended


def table_ids() -> list[str]:
    return [*(f"{v}-{stage}" for v in VARIANT_IDS for stage in ("break", "play")), IDLE, ENDED]


def scene_config(db: Path) -> config.Config:
    tables = [
        {
            "id": t,
            "name": f"Стол {i + 1} · Зал у окна",
            "cues": {f"{t}-cue-a": 0, f"{t}-cue-b": 1},
            "pockets": {f"{t}-pk12": [1, 2], f"{t}-pk34": [3, 4], f"{t}-pk56": [5, 6]},
        }
        for i, t in enumerate(table_ids())
    ]
    return configfile.parse(
        {"club": {"name": CLUB, "name_ru": CLUB}, "store": {"path": str(db)}, "tables": tables}
    )


@dataclass
class Clock:
    ms: int = START_MS

    def __call__(self) -> int:
        return self.ms


@dataclass
class Scenes:
    """Plays the tables of `scene_config` on `hub` (its clock `clock`)."""

    hub: Hub
    clock: Clock
    seq: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def _feed(self, table: str, kind: str, device: str, **fields: object) -> None:
        dev = f"{table}-{device}"
        self.seq[dev] += 1
        payload = protocol.encode_event(kind, dev, 1, self.seq[dev], self.clock.ms, **fields)
        self.hub.feed(RawMessage("mqtt", protocol.topic(table, dev, "evt"), payload, self.clock.ms))

    def births(self, table: str) -> None:
        for dev in ("pk12", "pk34", "pk56", "cue-a", "cue-b"):
            role = "cue" if dev.startswith("cue") else "pocket"
            payload = protocol.encode_status("online", 1, fw="0.3.1", ip="10.0.0.2", role=role)
            self.hub.feed(
                RawMessage("mqtt", protocol.topic(table, f"{table}-{dev}", "status"), payload, self.clock.ms)
            )

    def ref(self, table: str, kind: str, **args: object) -> None:
        self.hub.submit(table, {"kind": kind, **args})

    def shot(self, table: str, seat: int, pocket: int | None, colour: str | None) -> None:
        """A stroke and (if `pocket`) a ball falling 0.8 s later;
        the shot is left open (the hub closes it)."""
        self._feed(table, "strike", "cue-a" if seat == 0 else "cue-b", pk=2.5, dbl=False)
        if pocket is not None:
            self.clock.ms += 800
            self._feed(
                table, "pocket", POCKETS[pocket], p=pocket, c=colour, cf=0.93 if colour else None, dur=40
            )

    def board(self, table: str) -> dict[str, Any]:
        return dict(self.hub.state(table).get("match") or {})

    def start(self, table: str, variant: str) -> None:
        self.births(table)
        self.hub.new_match(table, variant, PLAYERS)
        self.ref(table, "lag", winner=0)
        self.clock.ms += 5000

    def play(self, table: str, variant: str, shots: int, rng: random.Random) -> None:
        """`shots` scripted shots (hub.demo.referee: the call, the pot, the referee's answers); the fourth is
        called a foul by the referee (push)."""
        rules = VARIANTS[variant]()
        for n in range(shots):
            self.hub.wait_idle()
            session = self.hub.session(table)
            assert session is not None
            board = self.board(table)
            plan = plan_shot(rules, session.match.state, board, rng)
            if plan.call is not None:
                self.ref(table, "declare", ball=plan.call, pocket=plan.pocket)
                self.clock.ms += 1000
            self.shot(table, int(board.get("to_play", 0)), plan.pocket if plan.pot else None, plan.colour)
            if n == 3:
                self.clock.ms += 500
                self.hub.wait_idle()
                self.ref(table, "foul", foul="push")
            self.clock.ms += 15000  # the hub settles and closes the shot
            self.hub.wait_idle()
            for action in answers(self.board(table), plan.call, rng, plan.colour if plan.pot else None):
                self.ref(table, action.pop("kind"), **action)

    def held(self, table: str) -> None:
        """An open shot with a ball whose identity the sensors did not give: the referee is asked (the board
        shows the held banner where the variant names its balls)."""
        board = self.board(table)
        self.shot(table, int(board.get("to_play", 0)), 3, None)
        self.clock.ms += 2000
        self.hub.wait_idle()

    def play_all(self, seed: int = 20) -> None:
        rng = random.Random(seed)
        for variant in VARIANT_IDS:
            self.start(f"{variant}-break", variant)
            self.start(f"{variant}-play", variant)
            self.play(f"{variant}-play", variant, 7, rng)
            self.held(f"{variant}-play")
        self.births(IDLE)
        self.start(ENDED, "classic")
        self.play(ENDED, "classic", 5, rng)
        self.ref(ENDED, "end_match")
        self.hub.wait_idle()


# ---------------------------------------------------------------- the pages of the scenes, in a browser

PIN = "2468"  # every table's referee PIN
CLUB_PIN = "97531"  # the club's (manager's) PIN
PAGES = {"board": "/board/{t}", "panel": "/referee/{t}", "overlay": "/overlay/{t}", "club": "/"}
HD, FULL_HD, PHONE = (
    {"width": 1280, "height": 720},
    {"width": 1920, "height": 1080},
    {"width": 390, "height": 844},
)


@dataclass
class SceneWeb:
    """The scenes' hub served over real HTTP and WebSocket; `tokens` a referee token per table."""

    hub: Hub
    base: str
    tokens: dict[str, str] = field(default_factory=dict)

    def token(self, table: str) -> str:
        if table not in self.tokens:
            import httpx

            r = httpx.post(
                f"{self.base}/api/tables/{table}/token", json={"pin": PIN, "label": "test"}, timeout=30
            )
            r.raise_for_status()
            self.tokens[table] = r.json()["token"]
        return self.tokens[table]


def new_page(browser: Any, viewport: dict[str, int], web: SceneWeb | None = None) -> Any:
    """A page collecting its script errors (`page.errors`); with `web`, signed in to every table's panel."""
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    if web is not None:
        tokens = {f"luza.token.{t}": web.token(t) for t in table_ids()}
        page.add_init_script(
            f"for (const [k, v] of Object.entries({tokens!r})) sessionStorage.setItem(k, v);"
        )
    return page


def open_scene(
    browser: Any,
    web: SceneWeb,
    kind: str,
    table: str,
    lang: str | None,
    viewport: dict[str, int],
    signed_in: bool = True,
    query: str = "",
    page: Any = None,
) -> Any:
    """A page of a scene, live (its socket open and a state shown); the panel signed in unless told not to.
    `page` (from `new_page`) is reused: going to another address costs less than a new page."""
    if page is None:
        page = new_page(browser, viewport, web if signed_in else None)
    params = "&".join(p for p in (f"lang={lang}" if lang else "", query) if p)
    page.goto(web.base + PAGES[kind].format(t=table) + (f"?{params}" if params else ""))
    page.wait_for_function(
        "document.body.dataset.online === '1' && document.body.dataset.rev !== undefined"
        if kind != "club"
        else "document.body.dataset.online === '1'",
        timeout=15_000,
    )
    page.evaluate("document.fonts.ready")
    if kind == "panel":
        page.wait_for_selector("#main > *", timeout=15_000)
    return page
