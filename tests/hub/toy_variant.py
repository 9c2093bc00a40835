"""A toy seventh variant, registered only by the tests that play it through the hub (issue 13 item 1).

«Игрушечная пирамида» (Toy pyramid): the yellow cue ball (0) and six white balls 1..6 that look alike, worth
their numbers. Before every shot a ball and a pocket are called; the called ball in the called pocket counts,
and so does every ball that fell with it; a ball that falls without the called one is spotted and the turn
passes. First to 10. Its profile says all the hub needs: balls are told apart by number, the cue ball is
fixed, shots carry calls, and which of its paragraphs to cite. Nothing in hub/ names it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar

from shared_rules import VARIANTS, register
from shared_rules.draft import Draft
from shared_rules.model import ShotReport
from shared_rules.outcome import Need, NeedKind, Reason
from shared_rules.profile import GENERAL_FACTS, BallIdentity, Fact, Profile
from shared_rules.resolve import ShotFacts
from shared_rules.state import State
from shared_rules.variant import Variant

NAME = "toy"


def _r(paragraph: str, en: str, ru: str) -> Reason:
    return Reason(NAME, paragraph, en, ru)


R_GOAL = _r("1", "the first to 10 points wins", "первым набравший 10 очков выигрывает")
R_IDENTIFY = _r(
    "2", "a ball's number is its score: the shot waits for it", "номер шара — это очки: удар ждёт его"
)
R_CALL = _r("3", "call a ball and a pocket before the shot", "перед ударом закажите шар и лузу")
R_COUNT = _r(
    "3", "the called ball went in as called: every ball counts", "заказанный шар сыгран: засчитываются все"
)
R_UNCALLED = _r(
    "3", "the call failed: the balls are spotted, the turn passes", "заказ не выполнен: шары выставляются"
)
R_CUE = _r("4", "the cue ball must not be pocketed", "биток забивать нельзя")


class Toy(Variant):
    """The toy variant: see the module docstring."""

    name = NAME
    title_en = "Toy pyramid"
    title_ru = "Игрушечная пирамида"
    BALLS = (0, 1, 2, 3, 4, 5, 6)
    PARAGRAPHS: ClassVar[dict[str, str]] = {
        "1": "first to 10",
        "2": "numbers score",
        "3": "calls",
        "4": "cue ball",
    }
    OPTIONS: ClassVar[dict[str, object]] = {**Variant.OPTIONS, "target": 10}
    R_GOAL = R_GOAL
    PROFILE = Profile(
        identity=BallIdentity.NUMBER,
        calls=True,
        facts=GENERAL_FACTS | {Fact.DECLARATIONS},
        identity_rule=R_IDENTIFY,
        call_mismatch_rule=R_UNCALLED,
        cue_ball_pocketed_rule=R_CUE,
    )

    def shot_needs(self, state: State) -> tuple[Need, ...]:
        balls = tuple(str(b) for b in state.on_table if b != 0)
        return (
            *super().shot_needs(state),
            Need(NeedKind.DECLARATION, state.to_play, R_CALL.text("en"), R_CALL.text("ru"), options=balls),
        )

    def on_legal(self, d: Draft, s: ShotReport, f: ShotFacts) -> None:
        made = any(
            c.ball == b and c.pocket == p
            for c in s.declarations
            for b, p in zip(f.pocketed, f.pockets, strict=True)
        )
        if not made:
            self.spot(d, f.pocketed)
            d.pass_turn(1 - s.shooter, R_UNCALLED)
            return
        for b in f.pocketed:
            d.to_shelf(s.shooter, b, R_COUNT, points=b)
        d.keep_turn(R_COUNT)

    def ball_value(self, ball: int) -> int:
        return ball

    def board_facts(self, state: State) -> dict[str, Any] | None:
        return {"left": sum(b for b in state.on_table)}


@contextmanager
def registered(cls: type[Toy] = Toy) -> Iterator[type[Toy]]:
    """The toy variant (or a subclass under its own name) registered for the duration, and gone afterwards, so
    other tests see the six."""
    from hub.reconcile.report import rules_of

    register(cls)
    try:
        yield cls
    finally:
        VARIANTS.pop(cls.name, None)
        rules_of.cache_clear()
