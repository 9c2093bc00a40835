"""Balls the referee is asked about: pocket events stored with an impossible time (hub.ingest.timecheck).

Such an event is never folded into play, so a ball that really fell would be missing from the score. When it
matters — a pocket event of a table's live match — the referee panel shows a question on the shot that was
being played when the hub received it, kept within the shots of the same node's events just before and after
it by seq (its time is what cannot be trusted; its node's order can) (`suspect:<device>/<boot>/<seq>`, action
`add_ball`, answers `add` and
`ignore`): `add` is the referee's `add_ball` for that pocket and shot, `ignore` a `dismiss_alert` of the
question's id. The question goes when either is stored (a ball the referee added to that pocket of that
shot answers it), and comes back with the match after a hub restart (it is rebuilt from the log).
A strike with an impossible time only raises the table's `impossible_time` alert: the next strike or the
referee closes the shot anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypedDict

from hub.ingest.timecheck import REASONS
from hub.reconcile.table import TableSession
from hub.store.database import Store
from hub.store.suspects import pockets as suspect_pockets
from hub.vocab.action_types import Args
from hub.vocab.evidence import ShotEvidence
from hub.vocab.inputs import SensorInput
from hub.vocab.notices import pocket_name

KIND: Final = "impossible_time"
DEPTH = 50  # the latest shots searched for a suspect event's neighbours in its node's order
ANSWERS = {"add": ("Add the ball", "Добавить шар"), "ignore": ("No ball fell", "Шар не падал")}


class Label(TypedDict):
    en: str
    ru: str


class Choice(TypedDict):
    value: str
    label: Label


class SuspectQuestion(TypedDict):
    """A suspect ball's question as the scoreboard's `questions` entry carries it (hub.view.shot.QuestionView:
    the fields of every question, hub.vocab.notices.Question, then a suspect ball's own)."""

    id: str  # suspect:<device>/<boot>/<seq>
    kind: Literal["impossible_time"]
    action: Literal["add_ball"]
    en: str
    ru: str
    shot: int | None
    item: str
    player: None
    options: list[str]
    default: str
    cite: str
    pocket: int
    reason: str  # hub.ingest.timecheck's code
    choices: list[Choice]
    balls: list[int]


@dataclass(frozen=True)
class SuspectBall:
    """A pocket event stored with an impossible time: its item id, pocket,
    hub receipt time and reason code."""

    item: str
    pocket: int
    received_ms: int
    code: str


class SuspectBalls:
    """Each table's suspect pocket events of its live match, and the questions they raise."""

    def __init__(self) -> None:
        self._by_table: dict[str, list[SuspectBall]] = {}

    def load(self, store: Store, table: str, match_id: int) -> None:
        """Start a (new or rebuilt) match of a table: its suspect pocket events from the log."""
        self._by_table[table] = [
            SuspectBall(f"{p.device}/{p.boot}/{p.seq}", int(p.pocket), int(p.received_ms), str(p.code))
            for p in suspect_pockets(store, match_id)
            if isinstance(p.pocket, int)
        ]

    def add(self, table: str, inp: SensorInput, code: str) -> None:
        """A pocket event of the table's live match was just stored flagged
        (other kinds are not asked about)."""
        e = inp.event
        pocket = e.fields.get("pocket")
        if e.kind == "pocket" and isinstance(pocket, int):
            item = f"{e.device}/{e.boot}/{e.seq}"
            self._by_table.setdefault(table, []).append(SuspectBall(item, pocket, inp.received_ms, code))

    def questions(self, table: str, session: TableSession) -> list[SuspectQuestion]:
        """The open questions (as the scoreboard's `questions` entries) for a table's live `session`."""
        balls = self._by_table.get(table)
        if not balls:
            return []  # the usual case: no cost per published state
        out = []
        shots = [s for s in (*session.shots, session.assembler.open) if s is not None]
        for ball in balls:
            qid = f"suspect:{ball.item}"
            shot = between(session, ball.item, shot_at(shots, ball.received_ms))
            if qid in session.dismissed or added(shot, ball.pocket):
                continue
            out.append(question(qid, ball, shot.number if shot is not None else None))
        return out


def shot_at(shots: Sequence[ShotEvidence], at_ms: int) -> ShotEvidence | None:
    """The shot being played at hub time `at_ms`: the last one opened by then (else the first)."""
    opened = [(s.opened_at, s) for s in shots if not s.voided and s.opened_at is not None]
    before = [(t, s) for t, s in opened if t <= at_ms]
    if before:
        return max(before, key=lambda ts: ts[0])[1]
    return min(opened, key=lambda ts: ts[0])[1] if opened else None


def between(session: TableSession, item: str, shot: ShotEvidence | None) -> ShotEvidence | None:
    """The shot a suspect event belongs to as far as its own node's order tells: not before the shot of the
    node's previous event of the boot (by seq), not after the shot of its next one; `shot` (by receipt) within
    that. Its time cannot place it among the other nodes' events, but its seq does among its node's. Looks at
    the latest `DEPTH` shots (one pass over their evidence:
    a question costs the same at shot 10 as at shot 1,500)."""
    device, boot, seq = item.rsplit("/", 2)
    prefix, n = f"{device}/{boot}/", int(seq)
    before = after = None  # (seq, shot) of the nearest events of the node either side, in play
    for s in reversed(session.assembler.shots[-DEPTH:]):
        if s.voided:
            continue
        for i in s.items():
            if not i.startswith(prefix):
                continue
            k = int(i[len(prefix) :])
            if k < n and (before is None or k > before[0]):
                before = (k, s)
            elif k > n and (after is None or k < after[0]):
                after = (k, s)
    if before is not None and (shot is None or shot.number < before[1].number):
        return before[1]
    if after is not None and (shot is None or shot.number > after[1].number):
        return after[1]
    return shot


def added(shot: ShotEvidence | None, pocket: int) -> bool:
    """Has the referee added a ball to this pocket of this shot?"""
    return shot is not None and any(p.source == "referee" and int(p.pocket) == pocket for p in shot.pockets)


def question(qid: str, ball: SuspectBall, shot: int | None) -> SuspectQuestion:
    """The panel's question for one suspect ball (with its answers' labels, as the scoreboard gives them)."""
    pe, pr = pocket_name(ball.pocket)
    why_en, why_ru = REASONS.get(ball.code, (ball.code, ball.code))
    on_en = f"Shot {shot}: " if shot is not None else ""
    on_ru = f"Удар {shot}: " if shot is not None else ""
    return SuspectQuestion(
        id=qid,
        kind=KIND,
        action="add_ball",
        en=f"{on_en}the node reported a ball into {pe} with an impossible time ({why_en}: {ball.item}); it "
        "was not counted. Did a ball fall there? Add it, or say no ball fell.",
        ru=f"{on_ru}узел сообщил о шаре — {pr} — с невозможным временем ({why_ru}: {ball.item}); он не "
        "засчитан. Шар упал? Добавьте его или отметьте, что шар не падал.",
        shot=shot,
        item=ball.item,
        player=None,
        options=list(ANSWERS),
        default="ignore",
        cite="",
        pocket=ball.pocket,
        reason=ball.code,
        choices=[Choice(value=v, label=Label(en=en, ru=ru)) for v, (en, ru) in ANSWERS.items()],
        balls=[],
    )


def answer(q: SuspectQuestion, value: str) -> tuple[str, Args]:
    """The referee action that answers a suspect-ball question with `value` (what the panel sends)."""
    if value == "add":
        args: Args = {"pocket": q["pocket"]}
        if q.get("shot") is not None:
            args["shot_number"] = q["shot"]
        return "add_ball", args
    return "dismiss_alert", {"alert": q["id"]}
