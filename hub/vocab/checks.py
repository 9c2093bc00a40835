"""The refusal of a referee action, and the checks of one action's values with messages a person can act on.

Every message names the field and says what would be accepted, in English and Russian. The action models of
`hub.vocab.actions` use these to check and normalise their arguments.
"""

from __future__ import annotations

from collections.abc import Mapping

from hub.errors import MALFORMED, Refusal
from hub.vocab.action_types import Args
from shared_rules.model import Colour, Foul


class RefereeInputError(Refusal):
    """A referee action that cannot be taken: malformed, or impossible in the current position.

    Its `body` (hub.errors.ErrorBody) is what every channel answers: `field` names the offending argument (or
    "kind"); `en`/`ru` are the messages for the panel; `code` (hub.errors) is the category an API maps to a
    status: malformed (400), unknown_table (404), no_match (409), refused (409, the rules or the session refuse it
    here), unavailable (503, the hub could not store it).
    """  # noqa: E501


COLOURS = tuple(c.value for c in Colour)
FOUL_CODES = {f.name.lower(): f for f in Foul}
SHOT_TARGETS = ("current", "next")


def err(field: str, en: str, ru: str) -> RefereeInputError:
    """A malformed value of `field`."""
    return RefereeInputError(f"{field}: {en}", f"{field}: {ru}", field, MALFORMED)


def is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def seat(args: Mapping[str, object], name: str, required: bool = True) -> int | None:
    x = args.get(name)
    if x is None and not required:
        return None
    if not isinstance(x, int) or isinstance(x, bool) or x not in (0, 1):
        raise err(name, f"must be the seat 0 or 1, got {x!r}", f"нужно место игрока 0 или 1, получено {x!r}")
    return x


def ball(args: Mapping[str, object], name: str, required: bool = False) -> int | None:
    x = args.get(name)
    if x is None and not required:
        return None
    if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= 15:
        raise err(
            name,
            f"must be a ball number 0..15 (0 = the special ball), got {x!r}",
            f"нужен номер шара 0..15 (0 — особый шар), получено {x!r}",
        )
    return x


def pocket(args: Mapping[str, object], name: str = "pocket") -> int:
    x = args.get(name)
    if not isinstance(x, int) or isinstance(x, bool) or not 1 <= x <= 6:
        raise err(
            name,
            f"must be a pocket 1..6 (1, 2 head corners; 3, 4 middle; 5, 6 foot corners), got {x!r}",
            f"нужна луза 1..6 (1, 2 — угловые у дома; 3, 4 — средние; 5, 6 — дальние угловые), "
            f"получено {x!r}",
        )
    return x


def colour(args: Mapping[str, object], name: str = "colour") -> str | None:
    x = args.get(name)
    if x is None:
        return None
    if x not in COLOURS:
        raise err(
            name,
            f"must be one of {', '.join(COLOURS)}, got {x!r}",
            f"нужен один из цветов {', '.join(COLOURS)}, получено {x!r}",
        )
    return str(x)


def flag(args: Mapping[str, object], name: str, default: bool | None = None) -> bool | None:
    x = args.get(name, default)
    if x is None or isinstance(x, bool):
        return x
    raise err(name, f"must be true or false, got {x!r}", f"нужно true или false, получено {x!r}")


def text(args: Mapping[str, object], name: str, required: bool = True, limit: int = 200) -> str:
    x = args.get(name, None if required else "")
    if not isinstance(x, str) or (required and not x.strip()) or len(x) > limit:
        raise err(
            name,
            f"must be a non-empty text of at most {limit} characters, got {x!r}",
            f"нужен непустой текст не длиннее {limit} символов, получено {x!r}",
        )
    return x


def count(args: Mapping[str, object], name: str) -> int | None:
    x = args.get(name)
    if x is not None and (not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= 50):
        raise err(
            name, f"must be a count 0..50 or null, got {x!r}", f"нужно число 0..50 или null, получено {x!r}"
        )
    return x


def shot_number(args: Mapping[str, object], out: Args) -> Args:
    """Amendments may name a shot already played (`shot_number`) instead of the current one."""
    n = args.get("shot_number")
    if n is not None:
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 100_000:
            raise err(
                "shot_number",
                f"must be the number of a shot played (1 or more), got {n!r}",
                f"нужен номер сыгранного удара (от 1), получено {n!r}",
            )
        out["shot_number"] = n
    return out


def target(args: Mapping[str, object], default: str) -> str:
    x = args.get("shot", default)
    if x not in SHOT_TARGETS:
        raise err(
            "shot",
            f"must be 'current' (the shot being played) or 'next', got {x!r}",
            f"нужно 'current' (текущий удар) или 'next' (следующий), получено {x!r}",
        )
    return str(x)


def call(d: object, where: str) -> Args:
    if not isinstance(d, Mapping):
        raise err(
            where,
            "each call must be an object {ball, pocket, kind, method}",
            "каждый заказ — объект {ball, pocket, kind, method}",
        )
    kind = d.get("kind", "object")
    if kind not in ("object", "cue_ball"):
        raise err(
            f"{where}.kind",
            f"must be 'object' or 'cue_ball' (свояк), got {kind!r}",
            f"нужно 'object' (чужой) или 'cue_ball' (свояк), получено {kind!r}",
        )
    b = ball(d, "ball", required=kind == "object")
    return {
        "ball": 0 if b is None else b,
        "pocket": pocket(d),
        "kind": kind,
        "method": text(d, "method", required=False),
    }


def foul_name(code: object) -> str:
    """A foul by its name (`miss`) or its paragraph (`5.3`) -> its name."""
    name = None
    if isinstance(code, str):
        low = code.strip().lower()
        name = low if low in FOUL_CODES else next((n for n, f in FOUL_CODES.items() if f.value == code), None)
    if name is None:
        raise err(
            "foul",
            f"unknown foul {code!r}; one of {', '.join(FOUL_CODES)} (or its paragraph, e.g. '5.3')",
            f"неизвестное нарушение {code!r}; одно из {', '.join(FOUL_CODES)} (или пункт, напр. '5.3')",
        )
    return name
