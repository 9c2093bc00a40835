"""Repeated identical log lines are rate-limited: the first one goes out, the same line again within
`window_s` is only counted, and the next one after the window says how many were held back. A flood (a node
resending the same bad payload, a dismissed alert tapped a hundred times, a commit retried while the disk is
full) costs a line a minute, not a full disk of logs."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable

MAX_KEYS = 1000  # distinct lines remembered (the oldest forgotten first)


class RepeatFilter(logging.Filter):
    """A logging filter for handlers: identical (logger, level, message) lines at most once per `window_s`."""

    def __init__(self, window_s: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.window_s, self.clock = window_s, clock
        # key -> [since, held back]
        self._seen: OrderedDict[tuple[str, int, str], list[float]] = OrderedDict()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, record.getMessage())
        now = self.clock()
        seen = self._seen.get(key)
        if seen is not None and now - seen[0] < self.window_s:
            seen[1] += 1
            return False
        if seen is not None and seen[1]:
            record.msg = (
                f"{record.getMessage()} (and {int(seen[1])} more like it in the last {self.window_s:g} s)"
            )
            record.args = None
        self._seen[key] = [now, 0]
        self._seen.move_to_end(key)
        while len(self._seen) > MAX_KEYS:
            self._seen.popitem(last=False)
        return True


def install(handlers: Iterable[logging.Handler], window_s: float = 60.0) -> RepeatFilter:
    """Put one RepeatFilter on these handlers (the ones `luza serve` made with logging.basicConfig; a host
    that configured logging itself, such as a test runner, keeps its handlers as they are)."""
    f = RepeatFilter(window_s)
    for handler in handlers:
        handler.addFilter(f)
    return f
