"""`luza demo`: the whole appliance on one machine with no hardware.

A private Mosquitto (hub.deploy.broker), a virtual table whose pocket and cue nodes run the real firmware
logic (hub.virtual), the hub service (hub.service.hub) with its SQLite store, and a scripted pair of players
with a demo referee who makes the calls a variant needs. The live scoreboard is printed in English and Russian
as the hub publishes it; the same state is retained on `luza/v1/demo/state` for any other screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import threading
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from hub import config, configfile
from hub.demo.client import PanelRefused
from hub.demo.referee import answers, plan_shot, their_call, unanswered
from hub.demo.shapes import Board, Referee, RefereeBody, board_of
from hub.demo.workdir import demo_clock, workspace
from hub.deploy.broker import Mosquitto, free_port
from hub.service.changes import Change
from hub.service.hub import Hub
from hub.virtual.table import Pot, Shot, VirtualTable
from hub.vocab.checks import RefereeInputError
from hub.vocab.inputs import RefereeAction
from shared_rules.opening import HandicapKind
from shared_rules.race_rules import RaceRulesJSON
from shared_rules.registry import find_variant
from shared_rules.state import State

log = logging.getLogger("luza.demo")

TABLE = "demo"
PLAYERS = ("Ivan", "Petr")
SHOT_GAP_MS = 4000.0  # virtual ms from one strike to the next
MAX_SHOTS = 400


@dataclass(frozen=True)
class DemoResult:
    winner: int | None
    scores: tuple[int, int]
    shots: int
    over: bool
    problem: str | None = None  # why the match did not finish (None if it did)
    frames: list[int] | None = None  # a race's frame score


def race_for(variant: str, race: RaceRulesJSON | None) -> RaceRulesJSON | None:
    """The race `luza demo --race/--break-rule/--handicap` asks for, as this variant can play it: a points or
    balls handicap the variant cannot give (general A-G5:
    Classic, 100 points, Star) is left out, with a warning."""
    handicap = race.get("handicap") if race else None
    if not race or not handicap:
        return race
    kind = handicap["kind"]
    if kind == "frames" or HandicapKind(kind) in find_variant(variant).HANDICAPS:
        return race
    log.warning("%s gives no %s handicap (general A-G5): played without it", variant, kind)
    return {**race, "handicap": None}


def demo_config(broker_url: str, db: Path, tele_login: Mapping[str, str] | None = None) -> config.Config:
    """The demo's luza.toml: one table, two pocket nodes of three pockets, two cue nodes; `tele_login`: the
    `[broker]` keys of the hub's telemetry connection (Mosquitto.tele_login), as on the Pi."""
    return configfile.parse(
        {
            "club": {"name": "Luza demo", "name_ru": "Демо «Луза»"},
            "broker": {
                "url": broker_url,
                "client_id": "luza-hub-demo",
                "reconnect_min_s": 1,
                "reconnect_max_s": 2,
                **(tele_login or {}),
            },
            "store": {"path": str(db)},
            "tables": [
                {
                    "id": TABLE,
                    "name": "Demo table / Демо-стол",
                    "pockets": {"pockets-123": [1, 2, 3], "pockets-456": [4, 5, 6]},
                    "cues": {"cue-a": 0, "cue-b": 1},
                }
            ],
        }
    )


def scoreboard_line(board: Board) -> str:
    """One line of the scoreboard, readable in a terminal: both languages, and the latest reason."""
    names = board.get("players") or list(PLAYERS)
    scores = board.get("scores") or [0, 0]
    line = f"{names[0]} {scores[0]} : {scores[1]} {names[1]}"
    race = board.get("race") or {}
    if race.get("race_to", 1) > 1:
        won = race.get("score") or [0, 0]
        line += (
            f"  · frame {race.get('frame')} / партия {race.get('frame')}, frames / партии {won[0]}:{won[1]}"
        )
    if board.get("over"):
        w = board.get("winner")
        line += f"  · won by / победил: {names[w]}" if w is not None else "  · over / окончена"
    else:
        line += f"  · to play / бьёт: {names[board.get('to_play', 0)]}"
    reasons = board.get("last_reasons") or []
    if reasons:
        last = reasons[-1]
        line += f"\n    {last.get('en', '')}\n    {last.get('ru', '')}"
    return line


class Printer:
    """Prints the table's scoreboard whenever the score, the turn or the result changes."""

    def __init__(self, out: Callable[[str], None]) -> None:
        self.out = out
        self._last: tuple[object, ...] | None = None
        self._lock = threading.Lock()

    def __call__(self, change: Change) -> None:
        board = board_of(change.state)
        key = (tuple(board.get("scores") or ()), board.get("to_play"), board.get("over"), board.get("winner"))
        with self._lock:
            if key != self._last:
                self._last = key
                self.out(scoreboard_line(board))


class LocalReferee:
    """The demo referee acting on the hub directly (`Hub.submit`): used where no web app runs."""

    label = "demo"

    def __init__(self, hub: Hub, retries: int = 3) -> None:
        self.hub, self.retries = hub, retries
        self._run, self._n = uuid.uuid4().hex[:8], 0

    def act(self, action: RefereeBody) -> None:
        """Submit with a uid of its own; a commit that takes too long is waited
        for again with the same uid."""
        self._n += 1
        request = {**action, "by": self.label, "uid": f"{self.label}-{self._run}-{self._n}"}
        for attempt in range(self.retries + 1):
            try:
                self.hub.submit(TABLE, request)
                return
            except TimeoutError:
                if attempt == self.retries:
                    raise


class DemoPlayers:
    """Two scripted players and a demo referee (hub.demo.referee): the player in turn strikes and usually pots
    the ball the referee called (Classic, 100 points) or the colour the player needs (Star). The referee acts
    through `referee.act(action)`: the hub directly, or the web panel's REST API (hub.demo.client).

    `person()` names whoever else has the table's panel right now (None: nobody). While someone does, the
    scripted referee stands by and the players wait for that person's answers (a call, a ball's number, the
    lag) before each strike, as players wait for a referee. Without `person`, someone else's referee action in
    the match counts, for the rest of the match (the terminal demo, where no panel runs)."""

    def __init__(
        self,
        hub: Hub,
        table: VirtualTable,
        variant: str,
        rng: random.Random,
        referee: Referee | None = None,
        person: Callable[[], str | None] | None = None,
    ) -> None:
        """Plays the table's live match, every frame of a race: `next_frame` once a frame is won."""
        self.hub, self.table, self.variant, self.rng = hub, table, variant, rng
        # what the variant wants (profile, scoring balls): never its name
        self.rules = find_variant(variant)()
        self.referee = referee or LocalReferee(hub)
        self._person = person or self._acted_in_match
        self.shots = 0
        # referee actions the hub refused (a script defect: reported, not hidden)
        self.refused: list[str] = []
        self.person: str | None = None  # who last had the panel, once someone did
        session = hub.session(TABLE)  # the match these players play (not the next one a person starts)
        self.match_id = session.match_id if session is not None else None
        self._stop = threading.Event()

    def board(self) -> Board:
        return board_of(self.hub.state(TABLE))

    def _state(self) -> State:
        session = self.hub.session(TABLE)
        return session.match.state if session is not None else self.rules.initial_state()

    def _submit(self, action: RefereeBody) -> None:
        if self.taken_over():
            return
        try:
            self.referee.act(action)
        except (RefereeInputError, PanelRefused) as exc:
            self.refused.append(f"{action.get('kind')}: {exc}")

    def taken_over(self) -> bool:
        """True while someone other than the demo referee has the table (see the class docstring)."""
        who = self._person()
        if who is not None:
            self.person = who
        return who is not None

    def _acted_in_match(self) -> str | None:
        """Who, other than the demo referee, entered a referee action in the live
        match (sticky: the first)."""
        if self.person is None:
            session = self.hub.session(TABLE)
            for inp in session.log if session is not None else ():
                by = inp.args.get("by") if isinstance(inp, RefereeAction) else None
                if by and by != self.referee.label:
                    return str(by)
        return self.person

    async def _wait_for_person(self) -> None:
        """While a person referees, the next strike waits until the panel's questions are answered (or the
        person leaves the table to the script, or the demo stops)."""
        while not self._stop.is_set() and self.live() and self.board().get("questions") and self.taken_over():
            await asyncio.sleep(0.2)

    def _referee(self, called: int | None, colour: str | None = None) -> None:
        """Answer what the panel asks after the shot (ball numbers, a lag, a choice), a few rounds at most."""
        for _ in range(4):
            if self.taken_over():
                return
            self.hub.wait_idle(5)
            todo = answers(self.board(), called, self.rng, colour)
            if not todo:
                return
            for action in todo:
                self._submit(action)

    async def shot(self) -> None:
        await asyncio.to_thread(self._referee, None)  # e.g. the lag of Classic's 70:70 decider (5.7)
        await self._wait_for_person()
        if self._stop.is_set() or not self.live():
            return
        board = self.board()
        player = "ab"[int(board.get("to_play", 0))]
        plan = plan_shot(self.rules, await asyncio.to_thread(self._state), board, self.rng)
        if self.taken_over():  # the person makes the call (or not): the player goes for the ball they called
            plan = their_call(self.rules, plan, board)
        elif plan.call is not None:  # Classic 5.2, 100 points §4: call, then shoot
            await asyncio.to_thread(
                self._submit, {"kind": "declare", "ball": plan.call, "pocket": plan.pocket}
            )
            await self.table.vt.until(self.table.vt.ms() + 1000)
        start = self.table.vt.ms()
        balls = (
            (Pot(plan.pocket, self.rng.uniform(600, 1500), plan.colour, rattle=self.rng.random() < 0.2),)
            if plan.pot
            else ()
        )
        await self.table.play([Shot(0, player, balls=balls)])
        await self.table.vt.until(start + SHOT_GAP_MS)
        await asyncio.to_thread(self._referee, plan.call, plan.colour if plan.pot else None)
        self.shots += 1

    async def run(self, stop: threading.Event) -> None:
        await self.table.start()
        await self.table.synced()  # the hub's time exchange on each birth
        try:
            await self.play(stop)
        finally:
            await self.table.stop()

    async def play(self, stop: threading.Event) -> None:
        """Play the table's live match until it is over, frame after frame (or `stop`, or MAX_SHOTS)."""
        self._stop = stop
        while not stop.is_set() and self.shots < MAX_SHOTS and self.live() and not self.over():
            if self.board().get("over"):  # a frame of the race is won: the referee starts the next one
                if not await asyncio.to_thread(self._next_frame):
                    break
                continue
            await self.shot()

    def over(self) -> bool:
        """The match is over: its race is won (a single frame: the frame), or abandoned."""
        board = self.board()
        race = board.get("race") or {}
        return bool(race.get("over")) if race else bool(board.get("over"))

    def _next_frame(self) -> bool:
        """Start the race's next frame; False if it did not start (refused, listed in `refused`, or a person
        has the panel and decides when)."""
        if self.taken_over():  # the person at the panel starts the next frame (or ends the match)
            self._stop.wait(0.2)
            return True
        frame = (self.board().get("race") or {}).get("frame")
        self._submit({"kind": "next_frame"})
        self.hub.wait_idle(5)
        if (self.board().get("race") or {}).get("frame") == frame:
            return False
        self._referee(None)  # the new frame may want a lag
        return True

    def live(self) -> bool:
        """This match is still in play on the table (a person may have ended it, or started another, from the
        panel)."""
        session = self.hub.session(TABLE)  # the worker's, ahead of the published state by a commit at most
        return session is not None and session.match_id == self.match_id

    def problem(self) -> str | None:
        """Why the match did not finish, in words a person can act on (None if it did)."""
        board = self.board()
        if self.over():
            return None
        why = f"the match did not finish in {self.shots} shots (limit {MAX_SHOTS})"
        waiting = unanswered(board)
        if waiting:
            why += "; still waiting for: " + "; ".join(waiting)
        if self.refused:
            why += "; refused referee actions: " + "; ".join(self.refused[-3:])
        return why


def in_play(hub: Hub) -> str | None:
    """The variant of the table's match if one is in play: after a restart on the same --workdir, the match
    the hub rebuilt from the store, which the demo resumes rather than refusing to start another."""
    session, frames = hub.session(TABLE), hub.frames(TABLE)
    if session is None or frames is None or (session.match.state.over and frames.shown_decided(session)):
        return None
    return str(session.variant)


def run_demo(
    variant: str,
    speed: float = 4.0,
    seed: int | None = None,
    workdir: str | None = None,
    out: Callable[[str], None] = print,
    stop: threading.Event | None = None,
    race: RaceRulesJSON | None = None,
    shot_clock: dict[str, int] | None = None,
) -> DemoResult:
    """Play one match on the virtual table through broker, firmware logic, hub and rules engine."""
    stop = stop or threading.Event()
    rng = random.Random(seed)
    # stopped in reverse, each even if one fails
    with workspace(workdir) as root, contextlib.ExitStack() as running:
        port, db = free_port(), root / "luza.db"
        broker = Mosquitto.locked(
            root / "broker", demo_config(f"mqtt://127.0.0.1:{port}", db), port=port, own_group=True
        ).start()
        running.callback(broker.stop)  # last: the hub says goodbye to it first
        out(f"broker / брокер: {broker.url}   store / база: {root / 'luza.db'}")
        table = VirtualTable(("127.0.0.1", broker.port), root / "nodes", table=TABLE, speed=speed)
        broker.log_in_nodes(table)  # the installation's locked-down broker: every node has its own login
        hub = Hub(demo_config(broker.hub_url, db, broker.tele_login), clock=demo_clock(table, db)).start(
            connect_timeout=5
        )
        running.callback(hub.stop)
        hub.subscribe(Printer(out))
        resumed = in_play(hub)
        if resumed is None:
            hub.new_match(TABLE, variant, PLAYERS, race=race_for(variant, race), shot_clock=shot_clock)
            hub.submit(TABLE, {"kind": "lag", "winner": rng.randint(0, 1)})
        else:
            out(
                f"resuming match {hub.state(TABLE).get('match_id')} from the store / продолжаю партию из базы"
            )
        players = DemoPlayers(hub, table, resumed or variant, rng)
        asyncio.run(players.run(stop))
        hub.wait_idle(10)
        board = players.board()
        final = board.get("race") or {}
        scores = board.get("scores") or [0, 0]
        return DemoResult(
            final.get("winner", board.get("winner")),
            (scores[0], scores[1]),
            players.shots,
            players.over(),
            players.problem(),
            final.get("score"),
        )
