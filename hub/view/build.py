"""The one way a table's view is made: `table_view` from the table's live session, the device registry and the
hub's alerts; `match_view` for one match (the live one, or the last one's final board). `stored` is the part
of a match view the store keeps beside the match, which `luza replay` and the
exports compare with a refold.

The builders hand typed parts to the view: the engine's, the session's and the screens' fields
(`EngineFields`, `SessionFields`, `ScreenFields`: TypedDicts of the view models' own field types), which
`MatchView` validates into one model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hub.config import Config
from hub.ingest import suspects
from hub.ingest.registry import Registry
from hub.reconcile.frames import Frames
from hub.reconcile.table import TableSession
from hub.store.matches import StoredBoardJSON
from hub.view.devices import table_devices
from hub.view.match import MatchView, SessionView
from hub.view.race import race_view
from hub.view.screen import screen_fields, section_fields
from hub.view.session import SessionFields, session_fields
from hub.view.shot import QuestionView
from hub.view.table import TableView
from hub.vocab.alerts import HubAlert
from luza_wire import protocol

STORED = set(SessionView.model_fields)
# what the store keeps of a question: the session's own
# (the screen's labels and a suspect ball's facts are not)
STORED_QUESTION = set(QuestionView.model_fields) - {"choices", "balls", "pocket", "reason"}


@dataclass(frozen=True)
class LiveMatch:
    """A table's match in play, as the view needs it: its session, when it started, the cue pairing."""

    session: TableSession
    match_id: int
    started_ms: int | None
    cues: Mapping[str, int]
    questions: Sequence[QuestionView] = ()  # the hub's own questions about it (hub.ingest.suspects)
    frames: Frames | None = None  # its race (the frames before the one in play); None: a single frame
    player_ids: tuple[int | None, int | None] = (None, None)  # the registry's players (hub/store/players.py)


def match_view(
    s: TableSession,
    started_ms: int | None = None,
    ended_ms: int | None = None,
    extra_questions: Sequence[QuestionView] = (),
    frames: Frames | None = None,
    player_ids: Sequence[int | None] = (None, None),
) -> MatchView:
    """The view of a session's match: the engine's, the session's and the screens' fields; `extra_questions`
    (the hub's, about evidence the session does not hold) come after the session's own. `frames`: the race
    whose frame in play `s` is (None: a single frame, a race to 1); `player_ids`: the match's players in the
    registry, as stored with it (the session knows only their names)."""
    fields = stored_fields(s, frames)
    screen = screen_fields(s, fields, started_ms, ended_ms, list(extra_questions))
    sections = section_fields(s.match.variant, s.match.state)
    return MatchView.model_validate({**fields, **screen, **sections, "player_ids": list(player_ids)})


def table_view(
    config: Config,
    registry: Registry,
    table_id: str,
    cursor: int,
    live: LiveMatch | None,
    last_match: MatchView | None,
    alerts: Sequence[HubAlert],
    now_ms: int,
) -> TableView:
    """A table's view at hub time `now_ms`: its live match (or None), the final board of its last match, the
    hub's alerts (typed: hub.vocab.alerts), its devices. Its `rev` and `boot` are 0 and "" until the hub
    stamps it (hub.service.hub: `view.model_copy(update=...)`, when it publishes the change)."""
    t = config.table(table_id)
    board = None
    if live is not None:
        board = match_view(live.session, live.started_ms, None, live.questions, live.frames, live.player_ids)
    return TableView(
        v=protocol.STATE_VERSION,
        table=table_id,
        name=t.name if t else table_id,
        club=config.club,
        cursor=cursor,
        match_id=live.match_id if live else None,
        match=board,
        last_match=last_match,
        alerts=list(alerts),
        devices=table_devices(
            config, registry, table_id, live.session if live else None, live.cues if live else {}, now_ms
        ),
        rev=0,
        boot="",
        hub_ms=now_ms,
    )


def stored(view: MatchView) -> StoredBoardJSON:
    """What the store keeps of a match view (`luza replay` compares a refold with it): the engine's and the
    session's fields, the session's own questions without their screen labels."""
    out = view.model_dump(mode="json", include=STORED)
    out["questions"] = [
        q.model_dump(mode="json", include=STORED_QUESTION) for q in view.questions if q.kind != suspects.KIND
    ]
    return out


def stored_fields(s: TableSession, frames: Frames | None = None) -> SessionFields:
    """The SessionView's fields: the session's and its race's (`frames`; None: a single frame)."""
    return session_fields(s, race_view(frames if frames is not None else Frames(), s))


def scoreboard(s: TableSession, frames: Frames | None = None) -> StoredBoardJSON:
    """The stored form of a session's match, as JSON (tests, `luza replay`, the exports' verification): the
    same as `stored(match_view(s, frames=frames))`, without making the screens' fields. `frames`: the race
    whose frame in play `s` is (None: a single frame)."""
    return SessionView.model_validate(stored_fields(s, frames)).model_dump(mode="json")
