"""What the referee and the club see besides the score: a *question* (something only the referee can settle,
answered by the referee action it names) and an *alert* (sensing and the rules, or two sensors, disagree, or a
part of the appliance is unwell), with English and Russian texts; and the alerts that need no session to build
(the engine refused a shot, a stored action no longer fits, a beam jammed, a node went offline).
docs/reconciliation.md lists every kind with its trigger; hub.reconcile.questions builds a session's
questions and alerts from these."""

from __future__ import annotations

from dataclasses import dataclass

POCKET_NAMES: dict[int, tuple[str, str]] = {
    1: ("head left corner", "левая угловая у дома"),
    2: ("head right corner", "правая угловая у дома"),
    3: ("middle left", "левая средняя"),
    4: ("middle right", "правая средняя"),
    5: ("foot left corner", "левая дальняя угловая"),
    6: ("foot right corner", "правая дальняя угловая"),
}
BEAMS = {0: ("upper beam", "верхний луч"), 1: ("lower beam", "нижний луч")}


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


def pocket_name(pocket: int | None) -> tuple[str, str]:
    en, ru = POCKET_NAMES.get(pocket or 0, ("?", "?"))
    return f"pocket {pocket} ({en})", f"луза {pocket} ({ru})"


def device_alert(kind: str, device: str, en: str, ru: str, *where: object) -> Alert:
    """A warning about one device (its `item`), not about a shot; its id is the kind, the device and `where`
    (e.g. its pocket and beam), so the same trouble keeps the same id from one report to the next."""
    return Alert(":".join(map(str, (kind, device, *where))), kind, en, ru, None, device, "warning")


def engine_error(shot: int, en: str, ru: str) -> Alert:
    """The rules engine refused a shot: scoring is held at the shot before until the referee corrects it."""
    return Alert(
        f"engine:{shot}",
        "engine_error",
        f"Shot {shot} cannot be scored: {en} Correct the shot (identify, remove, foul) to go on.",
        f"Удар {shot} не может быть засчитан: {ru} Исправьте удар, чтобы продолжить.",
        shot,
        None,
        "error",
    )


def rejected_action(index: int, kind: str, en: str, ru: str) -> Alert:
    """A stored referee action that no longer fits after the match was re-derived (late events)."""
    return Alert(
        f"rejected:{index}",
        "rejected_action",
        f"The referee's '{kind}' no longer fits after late events were placed: {en}",
        f"Действие судьи '{kind}' больше не подходит после учёта запоздавших событий: {ru}",
        None,
        None,
        "warning",
    )


def jam(device: str, pocket: int | None, since_ms: int, beams: tuple[int, ...] = ()) -> Alert:
    pe, pr = pocket_name(pocket)
    en = " and ".join(BEAMS[b][0] for b in beams) or "sensor"
    ru = " и ".join(BEAMS[b][1] for b in beams) or "датчик"
    return device_alert(
        "jam",
        device,
        f"The {en} of {pe} is blocked (jam): balls in that pocket are not being seen. Clear the "
        f"pocket (a full net, a stuck ball, something over the beam).",
        f"{ru[0].upper() + ru[1:]} лузы заблокирован ({pr}): шары в этой лузе не видны. Освободите "
        f"лузу (полная сетка, застрявший шар, что-то закрывает луч).",
        pocket,
    )


def node_offline(device: str, role: str) -> Alert:
    what_en = "cue sensor" if role == "cue" else "pocket node"
    what_ru = "датчик кия" if role == "cue" else "узел лузы"
    return Alert(
        f"offline:{device}",
        "node_offline",
        f"The {what_en} '{device}' went offline during the match: its events will come late or not at "
        f"all; the referee enters what it misses.",
        f"{what_ru.capitalize()} '{device}' отключился во время партии: его события придут позже или не "
        f"придут; судья вводит пропущенное вручную.",
        None,
        device,
        "warning",
    )
