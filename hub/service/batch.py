"""What one transaction of the worker did (`Batch`), to be acted on after its commit, and the answer to a
referee action sent again (`Replayed`), and what a referee caller gets (`RefereeReply`). Below the router and
the desks it routes to, which all fill a batch (hub.service.router, matches, referee, devices, evidence)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import NewType

from hub.view.table import TableStateJSON

RefereeReply = NewType("RefereeReply", TableStateJSON)
"""What a referee caller gets once its action is committed (`Hub.submit`; the control socket's answer is made
from it): the table's state after the commit; for an action sent again under a uid already stored
(`Replayed.reply`), that state with the first answer's `cursor` and `match_id` and `"replayed": true`
(docs/hub.md, "Idempotent actions")."""


@dataclass(frozen=True)
class Replayed:
    """The answer to a referee action sent again with a uid already stored: where the first one went."""

    table_id: str
    cursor: int | None
    match_id: int | None

    def reply(self, state: TableStateJSON) -> RefereeReply:
        """The caller's answer: the table's `state` now, with where the first one went."""
        return RefereeReply({**state, "cursor": self.cursor, "match_id": self.match_id, "replayed": True})


@dataclass
class Batch:
    """What one transaction did, to be acted on after its commit."""

    touched: set[str] = field(default_factory=set)
    acks: list[Callable[[], None]] = field(default_factory=list)
    # (the caller's future, the table whose state answers it | where a resent action went | the refusal)
    replies: list[tuple[Future[RefereeReply], str | Replayed | BaseException]] = field(default_factory=list)
    births: list[tuple[str, str, object]] = field(default_factory=list)  # (table, device, its link)
    # clock offsets stored
    clocks: dict[tuple[str, int], tuple[int, int | None]] = field(default_factory=dict)
    devices: set[str] = field(default_factory=set)
    broken: set[str] = field(default_factory=set)
    counts: Counter[str] = field(default_factory=Counter)
    latencies: list[int] = field(default_factory=list)  # received_ms of the sensor events applied
    events: set[tuple[str, int]] = field(default_factory=set)  # (device, boot) whose events were settled
    dups: set[tuple[str, int]] = field(default_factory=set)  # (device, boot) that sent one again
