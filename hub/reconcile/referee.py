"""Referee actions: the kinds the panel may send, and their validation with errors a person can act on.

A referee action is an input like any sensor event: it is stored, then folded into the match by
`hub.reconcile.table.TableSession`. This module only checks the *shape* of an action and normalises its arguments to
plain JSON values (so the store can keep them as they are); whether the action is possible in the current
position is the session's and the rules engine's business.

Every error names the field and says what would be accepted, in English and Russian.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hub.reconcile.actions import ACTION_MODELS, FACT_NAMES, fields_of
from shared_rules.model import Colour, Foul

Args = dict[str, Any]


MALFORMED, UNKNOWN_TABLE, NO_MATCH, REFUSED, UNAVAILABLE = "malformed", "unknown_table", "no_match", "refused", \
    "unavailable"
ERROR_CODES = (MALFORMED, UNKNOWN_TABLE, NO_MATCH, REFUSED, UNAVAILABLE)


class RefereeInputError(ValueError):
    """A referee action that cannot be taken: malformed, or impossible in the current position.

    `field` names the offending argument (or "kind"); `en`/`ru` are the messages for the panel. `code` is the
    category an API maps to a status: malformed (400), unknown_table (404), no_match (409), refused (409, the
    rules or the session refuse it here), unavailable (503, the hub could not store it).
    """

    def __init__(self, en: str, ru: str | None = None, field: str | None = None, code: str = REFUSED) -> None:
        super().__init__(en)
        self.en = en
        self.ru = ru or en
        self.field = field
        self.code = code


COLOURS = tuple(c.value for c in Colour)
FOUL_CODES = {f.name.lower(): f for f in Foul}
SHOT_TARGETS = ("current", "next")

# Facts about a shot that only the referee sees, with their type (ShotReport field names).
FACTS: dict[str, str] = {
    "cue_ball": "ball",
    "cue_colour": "colour",
    "first_contact": "ball",
    "first_contact_colour": "colour",
    "cushions": "count",
    "centre_crossing": "bool",
    "break_balls_to_cushion": "count",
    "as_called": "bool",
    "carom_on_ten": "flag",
    "rokambol_on_ten": "flag",
    "touched_ten": "flag",
    "snookered": "flag",
    "ten_off_spot": "flag",
    "centre_spot_taken": "flag",
}


def _err(field: str, en: str, ru: str) -> RefereeInputError:
    return RefereeInputError(f"{field}: {en}", f"{field}: {ru}", field, MALFORMED)


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _seat(args: Mapping[str, object], name: str, required: bool = True) -> int | None:
    x = args.get(name)
    if x is None and not required:
        return None
    if not _is_int(x) or x not in (0, 1):
        raise _err(name, f"must be the seat 0 or 1, got {x!r}", f"нужно место игрока 0 или 1, получено {x!r}")
    return int(x)  # type: ignore[call-overload]


def _ball(args: Mapping[str, object], name: str, required: bool = False) -> int | None:
    x = args.get(name)
    if x is None and not required:
        return None
    if not _is_int(x) or not 0 <= x <= 15:  # type: ignore[operator]
        raise _err(name, f"must be a ball number 0..15 (0 = the special ball), got {x!r}",
                   f"нужен номер шара 0..15 (0 — особый шар), получено {x!r}")
    return int(x)  # type: ignore[call-overload]


def _pocket(args: Mapping[str, object], name: str = "pocket") -> int:
    x = args.get(name)
    if not _is_int(x) or not 1 <= x <= 6:  # type: ignore[operator]
        raise _err(name, f"must be a pocket 1..6 (1, 2 head corners; 3, 4 middle; 5, 6 foot corners), got {x!r}",
                   f"нужна луза 1..6 (1, 2 — угловые у дома; 3, 4 — средние; 5, 6 — дальние угловые), "
                   f"получено {x!r}")
    return int(x)  # type: ignore[call-overload]


def _colour(args: Mapping[str, object], name: str = "colour") -> str | None:
    x = args.get(name)
    if x is None:
        return None
    if x not in COLOURS:
        raise _err(name, f"must be one of {', '.join(COLOURS)}, got {x!r}",
                   f"нужен один из цветов {', '.join(COLOURS)}, получено {x!r}")
    return str(x)


def _bool(args: Mapping[str, object], name: str, default: bool | None = None) -> bool | None:
    x = args.get(name, default)
    if x is None or isinstance(x, bool):
        return x
    raise _err(name, f"must be true or false, got {x!r}", f"нужно true или false, получено {x!r}")


def _text(args: Mapping[str, object], name: str, required: bool = True, limit: int = 200) -> str:
    x = args.get(name, None if required else "")
    if not isinstance(x, str) or (required and not x.strip()) or len(x) > limit:
        raise _err(name, f"must be a non-empty text of at most {limit} characters, got {x!r}",
                   f"нужен непустой текст не длиннее {limit} символов, получено {x!r}")
    return x


def _shot_number(args: Mapping[str, object], out: Args) -> Args:
    """Amendments may name a shot already played (`shot_number`) instead of the current one."""
    n = args.get("shot_number")
    if n is not None:
        if not _is_int(n) or not 1 <= n <= 100_000:  # type: ignore[operator]
            raise _err("shot_number", f"must be the number of a shot played (1 or more), got {n!r}",
                       f"нужен номер сыгранного удара (от 1), получено {n!r}")
        out["shot_number"] = int(n)  # type: ignore[call-overload]
    return out


def _target(args: Mapping[str, object], default: str) -> str:
    x = args.get("shot", default)
    if x not in SHOT_TARGETS:
        raise _err("shot", f"must be 'current' (the shot being played) or 'next', got {x!r}",
                   f"нужно 'current' (текущий удар) или 'next' (следующий), получено {x!r}")
    return str(x)


def _call(d: object, where: str) -> Args:
    if not isinstance(d, Mapping):
        raise _err(where, "each call must be an object {ball, pocket, kind, method}",
                   "каждый заказ — объект {ball, pocket, kind, method}")
    kind = d.get("kind", "object")
    if kind not in ("object", "cue_ball"):
        raise _err(f"{where}.kind", f"must be 'object' or 'cue_ball' (свояк), got {kind!r}",
                   f"нужно 'object' (чужой) или 'cue_ball' (свояк), получено {kind!r}")
    ball = _ball(d, "ball", required=kind == "object")
    return {"ball": 0 if ball is None else ball, "pocket": _pocket(d), "kind": kind,
            "method": _text(d, "method", required=False)}


# ---------------------------------------------------------------- one validator per action kind


def _v_declare(a: Mapping[str, object]) -> Args:
    if "calls" in a:
        calls = a["calls"]
        if not isinstance(calls, list) or len(calls) > 2:
            raise _err("calls", "must be a list of at most two calls (a double call); [] clears the call",
                       "нужен список не более чем из двух заказов (двойной заказ); [] снимает заказ")
        out = [_call(c, f"calls[{i}]") for i, c in enumerate(calls)]
    else:
        out = [_call(a, "call")]
    return {"calls": out, "shot": _target(a, "next")}


def _v_identify(a: Mapping[str, object]) -> Args:
    ball, colour = _ball(a, "ball"), _colour(a)
    if ball is None and colour is None and "direct" not in a:
        raise _err("ball", "give the ball number, its colour, or 'direct'",
                   "укажите номер шара, его цвет или 'direct'")
    return {"item": _text(a, "item", limit=80), "ball": ball, "colour": colour, "direct": _bool(a, "direct")}


def _v_add_ball(a: Mapping[str, object]) -> Args:
    return _shot_number(a, {"pocket": _pocket(a), "ball": _ball(a, "ball"), "colour": _colour(a),
                            "direct": _bool(a, "direct"), "shot": _target(a, "current")})


def _v_jumped(a: Mapping[str, object]) -> Args:
    return _shot_number(a, {"ball": _ball(a, "ball"), "colour": _colour(a), "shot": _target(a, "current")})


def _v_foul(a: Mapping[str, object]) -> Args:
    code = a.get("foul")
    name = None
    if isinstance(code, str):
        low = code.strip().lower()
        name = low if low in FOUL_CODES else next((n for n, f in FOUL_CODES.items() if f.value == code), None)
    if name is None:
        raise _err("foul", f"unknown foul {code!r}; one of {', '.join(FOUL_CODES)} (or its paragraph, e.g. '5.3')",
                   f"неизвестное нарушение {code!r}; одно из {', '.join(FOUL_CODES)} (или пункт, напр. '5.3')")
    return _shot_number(a, {"foul": name, "on": _bool(a, "on", True), "offender": _seat(a, "offender", required=False),
                            "shot": _target(a, "current")})


def _v_fact(a: Mapping[str, object]) -> Args:
    name = a.get("name")
    if name not in FACTS:
        raise _err("name", f"unknown fact {name!r}; one of {', '.join(FACTS)}",
                   f"неизвестный факт {name!r}; один из {', '.join(FACTS)}")
    kind, value = FACTS[str(name)], a.get("value")
    if kind == "ball":
        value = _ball(a, "value")
    elif kind == "colour":
        value = _colour(a, "value")
    elif kind == "count":
        if value is not None and (not _is_int(value) or not 0 <= value <= 50):  # type: ignore[operator]
            raise _err("value", f"must be a count 0..50 or null, got {value!r}",
                       f"нужно число 0..50 или null, получено {value!r}")
    else:
        value = _bool(a, "value", None if kind == "bool" else False)
    return _shot_number(a, {"name": name, "value": value, "shot": _target(a, "current")})


def _v_item(a: Mapping[str, object]) -> Args:
    return {"item": _text(a, "item", limit=80)}


def _v_confirm(a: Mapping[str, object]) -> Args:
    return {"question": _text(a, "question", limit=120), "answer": _text(a, "answer", limit=40)}


def _v_choose(a: Mapping[str, object]) -> Args:
    return {"player": _seat(a, "player"), "option": _text(a, "option", limit=60), "ball": _ball(a, "ball"),
            "colour": _colour(a)}


def _v_decide(a: Mapping[str, object]) -> Args:
    return {"option": _text(a, "option", limit=60), "winner": _seat(a, "winner", required=False)}


def _v_new_match(a: Mapping[str, object]) -> Args:
    players = a.get("players")
    if (not isinstance(players, list | tuple) or len(players) != 2
            or not all(isinstance(p, str) and p.strip() and len(p) <= 60 for p in players)):
        raise _err("players", "must be two player names (1..60 characters each)",
                   "нужны два имени игроков (от 1 до 60 символов)")
    options = a.get("options", {})
    if not isinstance(options, Mapping):
        raise _err("options", "must be an object of variant parameters, e.g. {\"target\": 71}",
                   "нужен объект параметров партии, напр. {\"target\": 71}")
    cues = a.get("cues") or {}
    if (not isinstance(cues, Mapping) or len(cues) > 8
            or not all(isinstance(d, str) and _is_int(s) and s in (0, 1) for d, s in cues.items())):
        raise _err("cues", "must pair cue nodes with seats, e.g. {\"cue-a\": 0, \"cue-b\": 1}",
                   "нужны пары датчик кия — место игрока, напр. {\"cue-a\": 0, \"cue-b\": 1}")
    out = {"variant": _text(a, "variant", limit=20), "players": list(players), "options": dict(options)}
    if cues:
        out["cues"] = dict(cues)
    return out


def _v_none(a: Mapping[str, object]) -> Args:
    return {}


VALIDATORS: dict[str, Callable[[Mapping[str, object]], Args]] = {
    "lag": lambda a: {"winner": _seat(a, "winner")},
    "declare": _v_declare,
    "identify": _v_identify,
    "add_ball": _v_add_ball,
    "jumped": _v_jumped,
    "remove": _v_item,
    "foul": _v_foul,
    "fact": _v_fact,
    "confirm": _v_confirm,
    "choose": _v_choose,
    "open_shot": _v_none,
    "close_shot": _v_none,
    "undo": _v_none,
    "interference": lambda a: {"restore": _bool(a, "restore", True)},
    "concede": lambda a: {"player": _seat(a, "player")},
    "decide": _v_decide,
    "dismiss_alert": lambda a: {"alert": _text(a, "alert", limit=120)},
    "new_match": _v_new_match,
    "end_match": lambda a: {"reason": _text(a, "reason", required=False)},
}
ACTION_KINDS: tuple[str, ...] = tuple(ACTION_MODELS)
"""Every action kind the referee panel may send (hub.reconcile.actions defines each; docs/reconciliation.md)."""
assert set(VALIDATORS) == set(ACTION_MODELS) and tuple(FACTS) == FACT_NAMES, "hub.reconcile.actions and the validators differ"

# Actions that become an input of the rules engine of their own (the others amend shots or the session).
ENGINE_ACTIONS = ("lag", "choose", "interference", "concede", "decide")


def validate(kind: object, args: Mapping[str, object]) -> Args:
    """Check one action's arguments; return them normalised to plain JSON values. Raises RefereeInputError."""
    if kind not in VALIDATORS:
        raise RefereeInputError(f"kind: unknown referee action {kind!r}; one of {', '.join(ACTION_KINDS)}",
                                f"kind: неизвестное действие судьи {kind!r}; одно из {', '.join(ACTION_KINDS)}",
                                "kind", MALFORMED)
    if not isinstance(args, Mapping):
        raise RefereeInputError("args: must be an object", "args: нужен объект", "args", MALFORMED)
    known = fields_of(str(kind))
    for name in args:
        if name not in known and name != "by" and not (kind == "declare" and name == "kind"):  # the call's kind
            raise _err(str(name), f"'{kind}' has no field {name!r}; its fields: {', '.join(known) or 'none'}",
                       f"у действия '{kind}' нет поля {name!r}; его поля: {', '.join(known) or 'нет'}")
    out = VALIDATORS[str(kind)](args)
    if args.get("by") is not None:
        out["by"] = _text(args, "by", limit=40)  # who entered it (the panel's token label)
    return out
