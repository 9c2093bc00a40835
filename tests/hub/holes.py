"""A hole in a node's sequence, the scenario tests/hub/ingest/test_gaps.py and
tests/hub/ingest/test_delivery.py share: a hub on a test clock with a Free match begun, and the head-pocket
node p-head with five balls numbered, of which only those named were sent (the others were "lost on the
way"; the test sends them late, or never)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

from hub import config
from hub.cli import main
from hub.service.hub import Hub
from tests.hub.nodes import Clock, Node
from tests.hub.service.test_service import T0, start_free_match
from tests.support.broker import Mosquitto


@dataclass(frozen=True)
class Hole:
    """The running scenario: `events[i]` is seq i + 1 of p-head (boot 1), a ball one second after the last."""

    hub: Hub
    clock: Clock
    match_id: int
    node: Node
    events: list[bytes]

    def replay(self, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
        """`luza replay` of the match: its exit code and what it printed."""
        capsys.readouterr()
        code = main(["replay", self.hub.config.store.path, "--match", str(self.match_id)])
        return code, capsys.readouterr().out


@contextmanager
def hole_in_sequence(
    cfg: config.Config,
    broker: Mosquitto,
    start: Callable[..., Hub],
    sent: Sequence[int],
    pockets: Sequence[int] = (1,),
) -> Iterator[Hole]:
    """Start a hub with `start` (the `hubs` fixture), begin the match, number five balls of p-head (into
    `pockets` in turn) and send those whose index is in `sent`; the node is closed at the end."""
    clock = Clock(T0)
    hub = start(cfg, clock=clock)
    match_id, _ = start_free_match(hub, clock)
    node = Node(broker.port, "t1", "p-head", "pocket")
    try:
        events = [
            node.event("pocket", T0 + 1000 + 1000 * i, p=pockets[i % len(pockets)], c="ivory")
            for i in range(5)
        ]
        for i in sent:
            node.send(events[i])
        yield Hole(hub, clock, match_id, node, events)
    finally:
        node.close()
