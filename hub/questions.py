"""Questions for the referee and alerts, with English and Russian texts (the referee panel is bilingual).

A *question* is something the hub cannot settle from the evidence; it names the referee action that answers
it (`action`) and the answers offered. An *alert* says that sensing and the rules (or two sensors) disagree, or
that a part of the appliance is unwell; it is shown until dismissed or until its cause is gone.
Both are built afresh from the session's state, so they never go stale. docs/reconciliation.md lists
every kind with its trigger.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from hub.assembler import Finding, question_id
from shared_rules.outcome import Need

POCKET_NAMES: dict[int, tuple[str, str]] = {
    1: ("head left corner", "левая угловая у дома"),
    2: ("head right corner", "правая угловая у дома"),
    3: ("middle left", "левая средняя"),
    4: ("middle right", "правая средняя"),
    5: ("foot left corner", "левая дальняя угловая"),
    6: ("foot right corner", "правая дальняя угловая"),
}
FOUL_ANSWERS = ("foul", "no_foul")
LATE_ANSWERS = ("return", "count", "new_shot")
CUE_BALL_RULE = {"classic": "classic 5.5", "combined": "combined 5.2", "dynamic": "dynamic 5.2",
                 "hundred": "hundred 8"}
NEED_ACTIONS = {"lag": "lag", "declaration": "declare", "choice": "choose", "ball_number": "identify",
                "cue_ball": "fact", "referee_decision": "decide"}


@dataclass(frozen=True)
class Question:
    """Something only the referee can settle. Answer it with the referee action `action`."""

    id: str
    kind: str
    action: str
    en: str
    ru: str
    shot: int | None = None
    item: str | None = None
    player: int | None = None
    options: tuple[str, ...] = ()
    default: str | None = None  # what the provisional state assumes meanwhile
    cite: str = ""

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["options"] = list(self.options)
        return d


@dataclass(frozen=True)
class Alert:
    """A disagreement or a health problem. `severity`: info, warning or error (error = scoring is held)."""

    id: str
    kind: str
    en: str
    ru: str
    shot: int | None = None
    item: str | None = None
    severity: str = "warning"
    cite: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def pocket_name(pocket: int | None) -> tuple[str, str]:
    en, ru = POCKET_NAMES.get(pocket or 0, ("?", "?"))
    return f"pocket {pocket} ({en})", f"луза {pocket} ({ru})"


def _name(players: tuple[str, str], seat: int | None) -> str:
    return players[seat] if seat in (0, 1) else "?"  # type: ignore[index]


def from_finding(f: Finding, variant: str, players: tuple[str, str], shooter: int,
                 on_table: tuple[int, ...]) -> Question | Alert:
    """Word one assembler finding for the panel."""
    pe, pr = pocket_name(f.pocket)
    n = f.shot
    qid = question_id(f.kind, f.item or "")
    if f.kind == "identify":
        rule = "classic 5.1" if variant == "classic" else "hundred 3"
        return Question(qid, f.kind, "identify", f"Shot {n}: which ball went into {pe}?",
                        f"Удар {n}: какой шар упал — {pr}?", n, f.item, None,
                        tuple(str(b) for b in on_table if b != 0 or variant == "hundred"), None, rule)
    if f.kind == "identify_colour":
        return Question(qid, f.kind, "identify", f"Shot {n}: what colour was the ball in {pe}?",
                        f"Удар {n}: какого цвета шар упал — {pr}?", n, f.item, None,
                        ("blue", "yellow", "black", "green", "red", "ivory"), None, "star 4.1")
    if f.kind == "late_drop":
        return Question(qid, f.kind, "confirm",
                        f"Shot {n}: a ball fell into {pe} long after the shot. A hanging ball (put it back, "
                        f"general §23), count it for shot {n}, or a new shot whose strike the cue sensor missed?",
                        f"Удар {n}: шар упал ({pr}) намного позже удара. Зависший шар (вернуть на место, "
                        f"общие правила §23), засчитать в удар {n} или это новый удар без отметки кия?",
                        n, f.item, None, LATE_ANSWERS, "return", "general 23")
    if f.kind == "double_hit":
        return Question(qid, f.kind, "confirm",
                        f"Shot {n}: the cue sensor felt two contacts. Was it a double hit (general §18)?",
                        f"Удар {n}: датчик кия отметил два касания. Двойной удар (общие правила §18)?",
                        n, f.item, shooter, FOUL_ANSWERS, "no_foul", "general 18")
    if f.kind == "early_start":
        return Question(qid, f.kind, "confirm",
                        f"Shot {n} was struck before the previous shot could have ended. Foul (general §14.2)?",
                        f"Удар {n} нанесён до завершения предыдущего. Штраф (общие правила §14.2)?",
                        n, f.item, shooter, FOUL_ANSWERS, "no_foul", "general 14.2")
    if f.kind == "out_of_turn":
        who, turn = _name(players, f.seat), _name(players, shooter)
        return Question(qid, f.kind, "confirm",
                        f"Shot {n}: the strike came from {who}'s cue, but it is {turn}'s turn. "
                        f"Interference with the opponent (general §28)?",
                        f"Удар {n}: удар кием игрока {who}, а очередь игрока {turn}. "
                        f"Вмешательство в игру соперника (общие правила §28)?",
                        n, f.item, f.seat, FOUL_ANSWERS, "no_foul", "general 28")
    return _alert_from_finding(f, variant, pe, pr)


def _alert_from_finding(f: Finding, variant: str, pe: str, pr: str) -> Alert:
    n, aid = f.shot, question_id(f.kind, f.item or "")
    if f.kind == "double_strike":
        return Alert(aid, f.kind, f"Shot {n}: two strikes within 50 ms were taken as one stroke.",
                     f"Удар {n}: два удара в пределах 50 мс засчитаны как один.", n, f.item, "info", "general 14")
    if f.kind == "pocket_mismatch":
        oe, orr = pocket_name(f.other)
        rule = "classic 5.4" if variant == "classic" else "hundred 4"
        return Alert(aid, f.kind, f"Shot {n}: a ball went into {pe}, but the call was {oe}.",
                     f"Удар {n}: шар упал ({pr}), а заказана была {orr}.", n, f.item, "warning", rule)
    if f.kind == "cue_ball_seen":
        return Alert(aid, f.kind, f"Shot {n}: the colour sensor saw the cue ball (yellow) go into {pe}.",
                     f"Удар {n}: датчик цвета видел, как биток (жёлтый) упал — {pr}.", n, f.item, "warning",
                     CUE_BALL_RULE.get(variant, ""))
    return Alert(aid, f.kind, f"Shot {n}: {f.kind}", f"Удар {n}: {f.kind}", n, f.item)


def from_need(need: Need, shot: int | None) -> Question:
    """A question from the rules engine's `Match.needs()`: its own texts, answered by the matching action."""
    options = tuple(need.options)
    return Question(f"need:{need.kind}:{need.player}", need.kind, NEED_ACTIONS.get(need.kind, need.kind),
                    need.en, need.ru, shot, None, need.player, options, None, "")


def engine_error(shot: int, en: str, ru: str) -> Alert:
    """The rules engine refused a shot: scoring is held at the shot before until the referee corrects it."""
    return Alert(f"engine:{shot}", "engine_error",
                 f"Shot {shot} cannot be scored: {en} Correct the shot (identify, remove, foul) to go on.",
                 f"Удар {shot} не может быть засчитан: {ru} Исправьте удар, чтобы продолжить.",
                 shot, None, "error")


def rejected_action(index: int, kind: str, en: str, ru: str) -> Alert:
    """A stored referee action that no longer fits after the match was re-derived (late events)."""
    return Alert(f"rejected:{index}", "rejected_action",
                 f"The referee's '{kind}' no longer fits after late events were placed: {en}",
                 f"Действие судьи '{kind}' больше не подходит после учёта запоздавших событий: {ru}",
                 None, None, "warning")


def jam(device: str, pocket: int | None, since_ms: int) -> Alert:
    pe, pr = pocket_name(pocket)
    return Alert(f"jam:{device}:{pocket}", "jam",
                 f"The sensor of {pe} is blocked (jam): balls in that pocket are not being seen. Clear the pocket.",
                 f"Датчик лузы заблокирован ({pr}): шары в этой лузе не видны. Освободите лузу.",
                 None, device, "warning")


def node_offline(device: str, role: str) -> Alert:
    what_en = "cue sensor" if role == "cue" else "pocket node"
    what_ru = "датчик кия" if role == "cue" else "узел лузы"
    return Alert(f"offline:{device}", "node_offline",
                 f"The {what_en} '{device}' went offline during the match: its events will come late or not at "
                 f"all; the referee enters what it misses.",
                 f"{what_ru.capitalize()} '{device}' отключился во время партии: его события придут позже или не "
                 f"придут; судья вводит пропущенное вручную.", None, device, "warning")
