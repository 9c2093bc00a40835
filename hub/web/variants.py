"""The variants a match can be started with, their options labelled for the start form (GET /api/variants)."""

from __future__ import annotations

import shared_rules  # noqa: F401  (registers every variant)
from hub.reconcile.options import option_label
from hub.vocab.action_types import FACTS
from hub.web.schemas import (
    Label,
    OptionType,
    RefereeFact,
    RefereeFoul,
    VariantOption,
    VariantOut,
    VariantProfile,
)
from shared_rules.model import Foul
from shared_rules.registry import VARIANTS
from shared_rules.variant import Variant


def _option(name: str, default: object) -> VariantOption:
    en, ru = option_label(name)
    kind: OptionType = (
        "bool" if isinstance(default, bool) else "int" if isinstance(default, int) else "choice"
    )
    return VariantOption(name=name, label=Label(en=en, ru=ru), type=kind, default=default, choices=None)


def foul_name(text: str) -> str:
    """The foul's name in the engine's words: 'foul 29.1(8): push or press shot' -> 'Push or press shot'."""
    head, sep, rest = text.partition(": ")
    name = rest if sep and head.split(" ")[0] in ("foul", "штраф") else text
    return name[:1].upper() + name[1:]


def _foul(cls: type[Variant], foul: Foul) -> RefereeFoul:
    """A foul as every screen names it: the rule the variant's FOUL effect cites and the engine's words for it
    (the panel's button, the board's flash and the shot's reasons say the same)."""
    r = cls.foul_reason(foul)
    return RefereeFoul(
        code=foul.name.lower(), paragraph=foul.value, cite=r.cite(), en=foul_name(r.en), ru=foul_name(r.ru)
    )


def variants() -> list[VariantOut]:
    """Every registered variant with its default target,
    labelled options and profile (what the screens need)."""
    return [_variant(name, cls) for name, cls in VARIANTS.items()]


def _variant(name: str, cls: type[Variant]) -> VariantOut:
    p = cls.PROFILE
    return VariantOut(
        id=name,
        title=Label(en=cls.title_en, ru=cls.title_ru),
        target=int(cls.OPTIONS["target"]),  # type: ignore[call-overload]
        options=[_option(k, v) for k, v in cls.OPTIONS.items()],
        profile=VariantProfile(
            identity=p.identity.value,
            fixed_cue_ball=p.fixed_cue_ball,
            calls=p.calls,
            facts=sorted(f.value for f in p.facts),
            # what the referee panel offers: the fouls it may call and the facts it sets
            fouls=[_foul(cls, f) for f in p.fouls],
            # every foul its shots can carry (the sensors' too), named for the board
            foul_names=[_foul(cls, f) for f in Foul if cls.foul_reason(f).variant in ("general", name)],
            referee_facts=[
                RefereeFact(name=f.value, type=FACTS.get(f.value, "flag")) for f in p.referee_facts
            ],
        ),
    )
