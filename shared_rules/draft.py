"""A mutable working copy of a `State` that one input's rules write into, then freeze.

Rules code (general.py and the variants) changes a `Draft` and records each change as an `Effect` with its
`Reason`. Building one plain object per input, instead of chains of immutable copies, keeps the fold fast.
"""

from __future__ import annotations

from typing import TypeVar

from .errors import IllegalInputError
from .model import InHand
from .outcome import Effect, EffectKind, Reason
from .state import OVER, Held, Key, Mode, Pending, State

T = TypeVar("T")

# Effects are immutable values and repeat a lot (same kind, reason, player, ball): share them. Bounded, so a
# long-running hub keeps a few MB at most; past the bound effects are simply built each time.
_EFFECTS: dict[tuple[object, ...], Effect] = {}
_EFFECTS_MAX = 20_000


def effect(
    kind: EffectKind,
    reason: Reason,
    player: int | None = None,
    ball: int | None = None,
    amount: int | None = None,
    spot: str | None = None,
    detail: str | None = None,
) -> Effect:
    """The (shared) `Effect` with these fields."""
    # id(): kinds and reasons are long-lived constants and the cached effect keeps both alive.
    key = (id(kind), id(reason), player, ball, amount, spot, detail)  # ids: Enum.__hash__ is slow
    e = _EFFECTS.get(key)
    if e is None:
        e = Effect(kind, reason, player, ball, amount, spot, detail)
        if len(_EFFECTS) < _EFFECTS_MAX:
            _EFFECTS[key] = e
    return e


class Draft:
    """The state being built for one input. Fields mirror `State`; sequences are lists here."""

    __slots__ = (
        "_base",
        "breaker",
        "debts",
        "decision",
        "draw",
        "effects",
        "extra",
        "frame",
        "hand",
        "hand_rule",
        "held",
        "in_hand",
        "is_break",
        "mode",
        "off_table",
        "on_table",
        "pending",
        "placed",
        "pocketed",
        "run",
        "scores",
        "shelves",
        "shots",
        "to_play",
        "variant",
        "visit",
        "winner",
    )

    def __init__(self, s: State) -> None:
        self._base = s  # what freeze() shares its unchanged parts with
        self.variant = s.variant
        self.on_table = list(s.on_table)
        self.shelves = [list(s.shelves[0]), list(s.shelves[1])]
        self.scores = [s.scores[0], s.scores[1]]
        self.to_play = s.to_play
        self.hand = s.hand
        self.in_hand = s.in_hand
        self.hand_rule = s.hand_rule
        self.is_break = s.is_break
        self.mode: Mode = s.mode
        self.pending: Pending | None = s.pending
        self.debts = [s.debts[0], s.debts[1]]
        self.placed = list(s.placed)
        self.pocketed = list(s.pocketed)
        self.off_table = list(s.off_table)
        self.winner = s.winner
        self.draw = s.draw
        self.decision = s.decision
        self.breaker = s.breaker
        self.visit = s.visit
        self.run = s.run
        self.shots = s.shots
        self.frame = s.frame
        self.extra: dict[str, object] = dict(s.extra) if s.extra else {}
        self.held: Held | None = s.held
        self.effects: list[Effect] = []

    def freeze(self) -> State:
        """The new immutable state. Parts equal to the state the draft started from are that state's own
        tuples, so a long match's states share what did not change (memory, not meaning:
        the values are the same)."""
        b = self._base
        shelves = (_same(tuple(self.shelves[0]), b.shelves[0]), _same(tuple(self.shelves[1]), b.shelves[1]))
        return State(
            self.variant,
            _same(tuple(sorted(self.on_table)), b.on_table),
            _same(shelves, b.shelves),
            _same((self.scores[0], self.scores[1]), b.scores),
            self.to_play,
            self.hand,
            self.in_hand,
            self.hand_rule,
            self.is_break,
            self.mode,
            self.pending,
            _same((self.debts[0], self.debts[1]), b.debts),
            _same(tuple(self.placed), b.placed),
            _same(tuple(self.pocketed), b.pocketed),
            _same(tuple(self.off_table), b.off_table),
            self.winner,
            self.draw,
            self.decision,
            self.breaker,
            self.visit,
            self.run,
            self.shots,
            self.frame,
            _same(tuple(sorted(self.extra.items())), b.extra) if self.extra else (),
            self.held,
        )

    # -- recording ---------------------------------------------------------------------------------------

    def emit(
        self,
        kind: EffectKind,
        reason: Reason,
        player: int | None = None,
        ball: int | None = None,
        amount: int | None = None,
        spot: str | None = None,
        detail: str | None = None,
    ) -> None:
        """Record one effect of this input."""
        self.effects.append(effect(kind, reason, player, ball, amount, spot, detail))

    # -- ball moves --------------------------------------------------------------------------------------

    def take_from_table(self, ball: int) -> None:
        """Remove `ball` from the table (it is going somewhere else); IllegalInputError if it is not there."""
        try:
            self.on_table.remove(ball)
        except ValueError:
            raise IllegalInputError(f"ball {ball} is not on the table", f"шара {ball} нет на столе") from None

    def to_shelf(self, player: int, ball: int, reason: Reason, points: int = 1) -> None:
        """Put `ball` (already off the table) on `player`'s shelf and add `points` to their score."""
        self.shelves[player].append(ball)
        self.emit(EffectKind.TO_SHELF, reason, player=player, ball=ball)
        if points:
            self.add_score(player, points, reason)

    def add_score(self, player: int, points: int, reason: Reason) -> None:
        """Add `points` (may be negative) to `player`'s score."""
        self.scores[player] += points
        self.emit(EffectKind.SCORE, reason, player=player, amount=points)

    def to_hand(self, ball: int, where: InHand, player: int, reason: Reason, rule: str = "") -> None:
        """`ball` (already off the table) goes in hand for `player`, to be played from `where`."""
        self.hand = ball
        self.in_hand = where
        self.hand_rule = rule
        self.emit(EffectKind.IN_HAND, reason, player=player, ball=ball, detail=where.value)

    def clear_hand_rule(self) -> None:
        """No ball in hand and no restriction on the next shot."""
        self.in_hand = InHand.NONE
        self.hand_rule = ""

    # -- turn --------------------------------------------------------------------------------------------

    def keep_turn(self, reason: Reason) -> None:
        """The series rule: the shooter plays again."""
        self.emit(EffectKind.TURN_KEPT, reason, player=self.to_play)

    def pass_turn(self, to: int, reason: Reason) -> None:
        """A new visit begins for `to` (who may be the same player, e.g. after the opponent's foul)."""
        self.to_play = to
        self.visit += 1
        self.run = 0
        self.emit(EffectKind.TURN_PASSED, reason, player=to)

    def win(self, player: int, reason: Reason) -> None:
        """`player` wins: the match is over and nothing stays pending."""
        self.winner = player
        self.mode = OVER
        self.pending = None
        self.held = None
        self.emit(EffectKind.WON, reason, player=player)

    def set_extra(self, key: Key[T], value: T | None) -> None:
        """Set a variant-specific value (hashable); None removes it."""
        if value is None:
            self.extra.pop(key, None)
        else:
            self.extra[key] = value

    def get(self, key: Key[T]) -> T | None:
        """A variant-specific value (None if not set)."""
        return self.extra.get(key)  # type: ignore[return-value]

    def take(self, key: Key[T]) -> T | None:
        """A variant-specific value, removed (None if it was not set)."""
        return self.extra.pop(key, None)  # type: ignore[return-value]


def _same(new: T, old: T) -> T:
    """`old` if it equals `new` (share the unchanged tuple), else `new`."""
    return old if new == old else new
