"""The shot amendments: referee actions that change one shot's evidence (the shot is judged again)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from hub.vocab import checks as c
from hub.vocab.action_types import (
    FACT_NAMES,
    FACTS,
    Args,
    Ball,
    ColourName,
    ItemId,
    PocketNo,
    Seat,
    ShotAmendment,
    ShotNumber,
    ShotTarget,
    colour_of,
    fresh_id,
)
from hub.vocab.evidence import Identity, PocketEvidence, ShotEvidence
from shared_rules.errors import RulesError
from shared_rules.model import Declaration, DeclarationKind, Foul, Pocket
from shared_rules.outcome import NeedKind
from shared_rules.profile import GENERAL_FOULS, Fact, Profile
from shared_rules.registry import VARIANTS
from shared_rules.state import State
from shared_rules.variant import Variant


def own_fouls() -> frozenset[Foul]:
    """The fouls some variant adds to the general ones (shared_rules.profile); calling one in another variant
    is refused. Read from the registry when asked (a handful of variants),
    so a variant registered later counts."""
    return frozenset(f for v in VARIANTS.values() for f in v.PROFILE.fouls) - frozenset(GENERAL_FOULS)


class Call(BaseModel):
    """One call (заказ): a ball into a pocket; `kind` cue_ball = свояк (the cue ball into the pocket)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    ball: Ball | None = None
    pocket: PocketNo
    kind: Literal["object", "cue_ball"] = "object"
    method: Annotated[str, Field(max_length=200)] = ""


class DeclareAction(ShotAmendment):
    """A call for the next (or current) shot: `ball`+`pocket`, or `calls` (at most two; [] clears)."""

    kind: Literal["declare"]
    ball: Ball | None = None
    pocket: PocketNo | None = None
    method: Annotated[str | None, Field(max_length=200)] = None
    calls: Annotated[list[Call] | None, Field(max_length=2)] = None
    shot: ShotTarget = "next"
    answers: ClassVar[tuple[str, ...]] = (NeedKind.DECLARATION,)

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        if "calls" in a:
            calls = a["calls"]
            if not isinstance(calls, list) or len(calls) > 2:
                raise c.err(
                    "calls",
                    "must be a list of at most two calls (a double call); [] clears the call",
                    "нужен список не более чем из двух заказов (двойной заказ); [] снимает заказ",
                )
            out = [c.call(x, f"calls[{i}]") for i, x in enumerate(calls)]
        else:
            out = [c.call(a, "call")]
        return {"calls": out, "shot": c.target(a, "next")}

    def declarations(self) -> tuple[Declaration, ...]:
        return tuple(
            Declaration(x.ball or 0, Pocket(x.pocket), DeclarationKind(x.kind), x.method)
            for x in self.calls or ()
        )

    def refusal_from(self, rules: Variant, state: State) -> tuple[str, str] | None:
        """The variant's own check of calls (Classic 5.2: none on the break; Star 4.3: none at
        all; 100 points §4-§6: balls on the table), from the position the shot is played from; taking a
        call back is always fine."""
        calls = self.declarations()
        if not calls:
            return None
        try:
            rules.check_calls(state, calls)
        except RulesError as exc:
            return f"call refused: {exc.en}", f"заказ не принят: {exc.ru}"
        return None

    def amend(self, shot: ShotEvidence, at_ms: int) -> None:
        shot.declarations = self.declarations()


class IdentifyAction(ShotAmendment):
    """Name a pocketed ball (number, colour, or directly struck)."""

    kind: Literal["identify"]
    item: ItemId
    ball: Ball | None = None
    colour: ColourName | None = None
    direct: bool | None = None
    answers: ClassVar[tuple[str, ...]] = (NeedKind.BALL_NUMBER, NeedKind.BALL_COLOUR)

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        ball, colour = c.ball(a, "ball"), c.colour(a)
        if ball is None and colour is None and "direct" not in a:
            raise c.err(
                "ball",
                "give the ball number, its colour, or 'direct'",
                "укажите номер шара, его цвет или 'direct'",
            )
        return {
            "item": c.text(a, "item", limit=80),
            "ball": ball,
            "colour": colour,
            "direct": c.flag(a, "direct"),
        }

    def item_named(self) -> str | None:
        return self.item

    def amend(self, shot: ShotEvidence, at_ms: int) -> None:
        shot.identities[self.item] = Identity(self.ball, colour_of(self.colour), self.direct)


class AddBallAction(ShotAmendment):
    """A ball the sensors missed."""

    kind: Literal["add_ball"]
    pocket: PocketNo
    ball: Ball | None = None
    colour: ColourName | None = None
    direct: bool | None = None
    shot: ShotTarget = "current"
    shot_number: ShotNumber | None = None

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return c.shot_number(
            a,
            {
                "pocket": c.pocket(a),
                "ball": c.ball(a, "ball"),
                "colour": c.colour(a),
                "direct": c.flag(a, "direct"),
                "shot": c.target(a, "current"),
            },
        )

    def amend(self, shot: ShotEvidence, at_ms: int) -> None:
        item = fresh_id(shot, f"ref-{at_ms}")
        shot.pockets.append(
            PocketEvidence(item, Pocket(self.pocket), at_ms, colour_of(self.colour), None, "referee")
        )
        if self.ball is not None or self.direct is not None:
            shot.identities[item] = Identity(self.ball, colour_of(self.colour), self.direct)


class JumpedAction(ShotAmendment):
    """A ball that jumped off the table."""

    kind: Literal["jumped"]
    ball: Ball | None = None
    colour: ColourName | None = None
    shot: ShotTarget = "current"
    shot_number: ShotNumber | None = None

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return c.shot_number(
            a, {"ball": c.ball(a, "ball"), "colour": c.colour(a), "shot": c.target(a, "current")}
        )

    def amend(self, shot: ShotEvidence, at_ms: int) -> None:
        shot.jumped.append((fresh_id(shot, f"jump-{at_ms}"), self.ball, colour_of(self.colour)))


class RemoveAction(ShotAmendment):
    """Take a sensed ball or strike out of the match (a false detection)."""

    kind: Literal["remove"]
    item: ItemId

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"item": c.text(a, "item", limit=80)}

    def item_named(self) -> str | None:
        return self.item

    def amend(self, shot: ShotEvidence, at_ms: int) -> None:
        shot.removed.add(self.item)


class FoulAction(ShotAmendment):
    """A foul only the referee sees (code such as `miss`, or its paragraph such as `5.3`); `on`=false withdraws it."""  # noqa: E501

    kind: Literal["foul"]
    foul: Annotated[str, Field(min_length=1, max_length=40)]
    on: bool = True
    offender: Seat | None = None
    shot: ShotTarget = "current"
    shot_number: ShotNumber | None = None

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return c.shot_number(
            a,
            {
                "foul": c.foul_name(a.get("foul")),
                "on": c.flag(a, "on", True),
                "offender": c.seat(a, "offender", required=False),
                "shot": c.target(a, "current"),
            },
        )

    def refusal_in(self, variant: str, profile: Profile) -> tuple[str, str] | None:
        """Another variant's own foul (Star 4.3, 100 points §12, Classic 5.5) is not one of this variant's."""
        foul = Foul[c.foul_name(self.foul).upper()]
        if not self.on or foul in profile.fouls or foul not in own_fouls():
            return None
        return (
            f"{foul.name.lower()} ({foul.value}) is not a foul of {variant}; its fouls: "
            f"{', '.join(f.name.lower() for f in profile.fouls)}",
            f"{foul.name.lower()} ({foul.value}) — не нарушение варианта {variant}; его нарушения: "
            f"{', '.join(f.name.lower() for f in profile.fouls)}",
        )

    def amend(self, shot: ShotEvidence, at_ms: int) -> None:
        foul = Foul[c.foul_name(self.foul).upper()]
        if self.on:
            shot.fouls[foul] = self.offender
        else:
            shot.fouls.pop(foul, None)


class FactAction(ShotAmendment):
    """A fact about a shot that only the referee sees (`FACTS` gives each one's type)."""

    kind: Literal["fact"]
    name: Literal[FACT_NAMES]  # type: ignore[valid-type]
    value: bool | int | ColourName | None = None
    shot: ShotTarget = "current"
    shot_number: ShotNumber | None = None
    answers: ClassVar[tuple[str, ...]] = (NeedKind.CUE_BALL, NeedKind.CUE_COLOUR)

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        name = a.get("name")
        if name not in FACTS:
            raise c.err(
                "name",
                f"unknown fact {name!r}; one of {', '.join(FACTS)}",
                f"неизвестный факт {name!r}; один из {', '.join(FACTS)}",
            )
        kind = FACTS[str(name)]
        value: object
        if kind == "ball":
            value = c.ball(a, "value")
        elif kind == "colour":
            value = c.colour(a, "value")
        elif kind == "count":
            value = c.count(a, "value")
        else:
            value = c.flag(a, "value", None if kind == "bool" else False)
        return c.shot_number(a, {"name": name, "value": value, "shot": c.target(a, "current")})

    def refusal_in(self, variant: str, profile: Profile) -> tuple[str, str] | None:
        """A fact this variant's shots never need (its profile lists them); taking one back is always fine."""
        if self.value in (None, False) or Fact(self.name) in profile.facts:
            return None
        names = ", ".join(f.value for f in profile.referee_facts)
        return (
            f"fact {self.name!r} does not apply in {variant}; its facts: {names}",
            f"факт {self.name!r} не относится к варианту {variant}; его факты: {names}",
        )

    def amend(self, shot: ShotEvidence, at_ms: int) -> None:
        shot.facts[str(self.name)] = self.value


class ConfirmAction(ShotAmendment):
    """Answer a question (its id) with one of its options."""

    kind: Literal["confirm"]
    question: Annotated[str, Field(min_length=1, max_length=120)]
    answer: Annotated[str, Field(min_length=1, max_length=40)]

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        return {"question": c.text(a, "question", limit=120), "answer": c.text(a, "answer", limit=40)}

    def item_named(self) -> str | None:
        return self.question.partition(":")[2]  # a question id is `<kind>:<item>`

    def amend(self, shot: ShotEvidence, at_ms: int) -> None:
        shot.answers[self.question] = self.answer


WITHDRAWN = ("answer", "identity", "removal")


class WithdrawAction(ShotAmendment):
    """Take back one earlier tap on a shot, as a new input (the log keeps both): `answer` — a `confirm` answer
    (`question`), asked again; `identity` — a ball's `identify` (`item`), the sensors' reading again; `removal` — a
    ball taken out with `remove` (`item`), counted again. The other taps have their own way back: a call is
    `declare` with `calls: []`, a foul `foul` with `on: false`, a fact `fact` with `value: null`, a ball the referee
    added `remove`, an engine input (lag, choice, decision) `undo`."""  # noqa: E501

    kind: Literal["withdraw"]
    what: Literal["answer", "identity", "removal"]
    item: ItemId | None = None
    question: Annotated[str | None, Field(min_length=1, max_length=120)] = None

    @classmethod
    def check(cls, a: Mapping[str, object]) -> Args:
        what = a.get("what")
        if what not in WITHDRAWN:
            raise c.err(
                "what",
                f"must be one of {', '.join(WITHDRAWN)}, got {what!r}",
                f"нужно одно из {', '.join(WITHDRAWN)}, получено {what!r}",
            )
        if what == "answer":
            if a.get("item") is not None:
                raise c.err(
                    "item",
                    "an answer is named by its question (`question`), not by an item",
                    "ответ называется вопросом (`question`), а не элементом",
                )
            return {"what": what, "question": c.text(a, "question", limit=120)}
        if a.get("question") is not None:
            raise c.err(
                "question",
                f"a {what} is named by its ball's item id (`item`), not by a question",
                f"для '{what}' нужен элемент шара (`item`), а не вопрос",
            )
        return {"what": what, "item": c.text(a, "item", limit=80)}

    def item_named(self) -> str | None:
        return self.item if self.item is not None else (self.question or "").partition(":")[2]

    def refusal_on(self, shot: ShotEvidence) -> tuple[str, str] | None:
        """Only a tap that was made can be taken back; an answer that cut a shot of
        its own cannot (cuts.py)."""
        n, q, item = shot.number, str(self.question), str(self.item)
        if self.what == "answer" and q not in shot.answers:
            return (
                f"shot {n} has no answer to question {q!r} to take back",
                f"в ударе {n} нет ответа на вопрос {q!r}, снимать нечего",
            )
        if self.what == "answer" and shot.answers[q] == "new_shot":  # that shot is the way back: undo it
            return (
                f"the answer 'new shot' to {q!r} made a shot of its own; undo that shot instead",
                f"ответ «новый удар» на вопрос {q!r} создал отдельный удар; отмените этот удар",
            )
        if self.what == "identity" and item not in shot.identities:
            return (
                f"shot {n}: ball {item!r} was not named by the referee; nothing to take back",
                f"удар {n}: шар {item!r} судья не называл, снимать нечего",
            )
        if self.what == "removal" and item not in shot.removed:
            return (
                f"shot {n}: {item!r} was not removed; nothing to put back",
                f"удар {n}: {item!r} не убирали, возвращать нечего",
            )
        return None

    def amend(self, shot: ShotEvidence, at_ms: int) -> None:
        if self.what == "answer":
            shot.answers.pop(str(self.question), None)
        elif self.what == "identity":
            shot.identities.pop(str(self.item), None)
        else:
            shot.removed.discard(str(self.item))
