"""Score sums over a match's committed outcomes, kept every `STRIDE` outcomes, so the board's history of the
last shots costs the rows it shows, not the match (hub/view/screen.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from shared_rules.outcome import Outcome

STRIDE = 32

Deltas = Callable[[Outcome], Sequence[int]]


class RunningScores:
    """Sums of `deltas` (the score change of one outcome, per seat) checked by identity: a rewind replaces
    only a suffix of the engine's outcomes, so only sums from there are made again."""

    def __init__(self) -> None:
        # (the last outcome of a stride, the sums up to it)
        self._kept: list[tuple[Outcome, tuple[int, int]]] = []

    def before(self, outs: Sequence[Outcome], k: int, deltas: Deltas) -> tuple[int, int]:
        """The sums over `outs[:k]`."""
        kept = self._kept
        n = min(len(kept), len(outs) // STRIDE)
        while n and kept[n - 1][0] is not outs[n * STRIDE - 1]:
            n -= 1
        del kept[n:]
        while len(kept) < k // STRIDE:
            at = len(kept) * STRIDE
            kept.append(
                (outs[at + STRIDE - 1], _sum(kept[-1][1] if kept else (0, 0), outs[at : at + STRIDE], deltas))
            )
        done = k // STRIDE
        return _sum(kept[done - 1][1] if done else (0, 0), outs[done * STRIDE : k], deltas)


def _sum(start: tuple[int, int], outs: Sequence[Outcome], deltas: Deltas) -> tuple[int, int]:
    a, b = start
    for out in outs:
        d = deltas(out)
        a, b = a + d[0], b + d[1]
    return a, b
