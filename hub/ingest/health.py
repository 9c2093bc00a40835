"""Sensor health from the nodes' telemetry counters (luza_wire.telemetry.TELE_COUNTERS): alerts a referee or a
club owner can act on, in Russian and English.

    beam_dead       one beam of a pocket has blocked 5+ times and the other never (receiver dead, misaligned,
                    dirty or unplugged): balls there may go uncounted
    beam_noisy      50+ chatter pulses between two telemetry reports (a flickering lamp or IR source)
    edges_dropped   the node's edge ring overflowed since it booted (interference while its loop stalled)
    pocket_silent   a pocket's beams stood still while the table's other pockets blocked 40+ times (about 20
                    balls): a beam pair that sees nothing, or a node on the wrong pocket

`Health` keeps, per table and pocket, where the others' count stood when the pocket last moved; everything
else is computed from the registry's latest counters and the ones before them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from hub.vocab.notices import BEAMS, Alert, device_alert, pocket_name

DEAD_MIN_BLOCKS = 5
NOISY_GLITCHES = 50
SILENT_BLOCKS = 40


@dataclass(frozen=True)
class NodeCounters:
    """What health needs of one pocket node: its pockets, latest counters, and the previous report's."""

    device: str
    pockets: tuple[int, ...]
    now: Mapping[str, Any]
    before: Mapping[str, Any]


def _blocks(c: Mapping[str, Any], pocket: int) -> tuple[int, int] | None:
    u, lo = c.get(f"bu{pocket}"), c.get(f"bl{pocket}")
    return (int(u), int(lo)) if isinstance(u, int | float) and isinstance(lo, int | float) else None


def node_alerts(n: NodeCounters) -> list[Alert]:
    """The alerts one node's own counters raise."""
    out: list[Alert] = []
    for p in n.pockets:
        b = _blocks(n.now, p)
        if b is None:
            continue
        for beam in (0, 1):
            if b[1 - beam] >= DEAD_MIN_BLOCKS and b[beam] == 0:
                out.append(_dead(n.device, p, beam, b[1 - beam]))
    glitch, before = n.now.get("glitch"), n.before.get("glitch")
    if (
        isinstance(glitch, int | float)
        and glitch - (before if isinstance(before, int | float) else 0) >= NOISY_GLITCHES
    ):
        out.append(_noisy(n.device, n.pockets, int(glitch - (before or 0))))
    edrop = n.now.get("edrop")
    if isinstance(edrop, int | float) and edrop > 0:
        pe, pr = _pockets(n.pockets)
        out.append(
            device_alert(
                "edges_dropped",
                n.device,
                f"The node of {pe} lost {int(edrop)} beam signals since it started (interference while it "
                f"was busy): a ball may have been missed. Find the interference; a restart clears this.",
                f"Узел ({pr}) потерял {int(edrop)} сигналов лучей с момента запуска (помехи, пока он был "
                f"занят): шар мог быть пропущен. Найдите источник помех; перезапуск сбросит счётчик.",
            )
        )
    return out


def _dead(device: str, pocket: int, beam: int, other: int) -> Alert:
    pe, pr = pocket_name(pocket)
    en, ru = BEAMS[beam]
    return device_alert(
        "beam_dead",
        device,
        f"The {en} of {pe} has not blocked once while the other beam blocked {other} times: its "
        f"receiver is dead, misaligned, dirty or unplugged. Balls there may go uncounted: watch that "
        f"pocket.",
        f"{ru.capitalize()} ({pr}) ни разу не перекрылся, а другой — {other} раз: приёмник "
        f"неисправен, сбит, загрязнён или отключён. Шары в этой лузе могут не засчитываться: следите "
        f"за ней.",
        pocket,
        beam,
    )


def _noisy(device: str, pockets: Iterable[int], pulses: int) -> Alert:
    pe, pr = _pockets(pockets)
    return device_alert(
        "beam_noisy",
        device,
        f"The beams of {pe} flickered {pulses} times since the last report (a flickering lamp or an "
        f"IR source shining into a receiver): shade the receivers or move the lamp.",
        f"Лучи ({pr}) мерцали {pulses} раз с прошлого отчёта (мерцающая лампа или ИК-источник "
        f"светит в приёмник): затените приёмники или переставьте лампу.",
    )


def _pockets(pockets: Iterable[int]) -> tuple[str, str]:
    names = [pocket_name(p) for p in pockets]
    return ", ".join(n[0] for n in names) or "?", ", ".join(n[1] for n in names) or "?"


class Health:
    """Remembers, per (table, pocket), its block count and the others' total when it last moved."""

    def __init__(self) -> None:
        self._marks: dict[tuple[str, int], tuple[int, int]] = {}

    def table_alerts(self, table: str, nodes: Iterable[NodeCounters]) -> list[Alert]:
        """Every health alert of one table's pocket nodes (call on each telemetry report)."""
        nodes = list(nodes)
        out = [a for n in nodes for a in node_alerts(n)]
        blocks: dict[int, tuple[str, int]] = {}
        for n in nodes:
            for p in n.pockets:
                b = _blocks(n.now, p)
                if b is not None:
                    blocks[p] = (n.device, b[0] + b[1])
        total = sum(v for _d, v in blocks.values())
        for p, (device, mine) in sorted(blocks.items()):
            others = total - mine
            mark = self._marks.get((table, p))
            if mark is None or mark[0] != mine or others < mark[1]:  # it moved (or the others restarted)
                self._marks[(table, p)] = (mine, others)
            elif others - mark[1] >= SILENT_BLOCKS:
                out.append(_silent(device, p, others - mark[1]))
        return out


def _silent(device: str, pocket: int, others: int) -> Alert:
    pe, pr = pocket_name(pocket)
    return device_alert(
        "pocket_silent",
        device,
        f"The beams of {pe} have seen nothing while the other pockets' beams blocked {others} times: "
        f"check its beams and that the node is on the right pocket. Enter balls there by hand "
        f"meanwhile.",
        f"Лучи ({pr}) ничего не видят, а лучи других луз перекрывались {others} раз: проверьте лучи "
        f"и что узел стоит на своей лузе. Пока вводите шары этой лузы вручную.",
        pocket,
    )
