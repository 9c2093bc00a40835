"""The variants a match can be started with, their options labelled for the start form (GET /api/variants)."""

from __future__ import annotations

from typing import Any

import shared_rules  # noqa: F401  (registers every variant)
from hub.reconcile.action_types import FACTS
from hub.reconcile.options import option_label
from shared_rules.variant import VARIANTS


def _option(name: str, default: object) -> dict[str, Any]:
    en, ru = option_label(name)
    kind = "bool" if isinstance(default, bool) else "int" if isinstance(default, int) else "choice"
    return {"name": name, "label": {"en": en, "ru": ru}, "type": kind, "default": default, "choices": None}


def variants() -> list[dict[str, Any]]:
    """Every registered variant with its default target, labelled options and profile (what the screens need)."""
    out = []
    for name, cls in VARIANTS.items():
        p = cls.PROFILE
        out.append({"id": name, "title": {"en": cls.title_en, "ru": cls.title_ru},
                    "target": int(cls.OPTIONS["target"]),  # type: ignore[call-overload]
                    "options": [_option(k, v) for k, v in cls.OPTIONS.items()],
                    "profile": {"identity": p.identity.value, "fixed_cue_ball": p.fixed_cue_ball, "calls": p.calls,
                                "facts": sorted(f.value for f in p.facts),
                                # what the referee panel offers: the fouls it may call and the facts it sets
                                "fouls": [{"code": f.name.lower(), "paragraph": f.value} for f in p.fouls],
                                "referee_facts": [{"name": f.value, "type": FACTS.get(f.value, "flag")}
                                                  for f in p.referee_facts]}})
    return out
