"""A session's questions for the referee and its alerts (hub.vocab.notices), with English and Russian texts.

A *question* is something the hub cannot settle from the evidence; it names the referee action that answers
it (`action`) and the answers offered. An *alert* says that sensing and the rules (or two sensors) disagree,
or that a part of the appliance is unwell; it is shown until dismissed or until its cause is gone.
Both are built afresh from the session's state, so they never go stale. docs/reconciliation.md lists
every kind with its trigger.
"""

from __future__ import annotations

from typing import Any

from hub.reconcile.report import Finding, question_id, rules_of
from hub.reconcile.statuses import StepStatus
from hub.reconcile.throat import TWO_ANSWERS
from hub.vocab.actions import action_for_need
from hub.vocab.amendments import DeclareAction
from hub.vocab.checks import RefereeInputError
from hub.vocab.notices import (
    BEAMS,
    Alert,
    Question,
    engine_error,
    jam,
    node_offline,
    pocket_name,
    rejected_action,
)
from shared_rules.model import Declaration
from shared_rules.outcome import Need, NeedKind
from shared_rules.state import State

FOUL_ANSWERS = ("foul", "no_foul")
LATE_ANSWERS = ("return", "count", "new_shot")
SINGLE_ANSWERS = ("ball", "nothing")
CONFIRM_ANSWERS = {
    "late_drop": LATE_ANSWERS,
    "double_hit": FOUL_ANSWERS,
    "early_start": FOUL_ANSWERS,
    "out_of_turn": FOUL_ANSWERS,
    "shot_clock": FOUL_ANSWERS,
    "maybe_two": TWO_ANSWERS,
    "single_beam": SINGLE_ANSWERS,
}
# A pocket node's flags (hub/reconcile/throat.py) as alerts: severity, English, Russian ({p}:
# the pocket, {b}: the beam)
SENSOR_FLAGS = {
    "edges": (
        "warning",
        "{p} lost sensor signals (interference overflowed the node): if a ball went in, add it.",
        "{p}: датчик потерял сигналы (помехи переполнили узел): если шар упал, добавьте его вручную.",
    ),
    "single": (
        "warning",
        "only the other beam of {p} saw something pass ({b} not working): if a ball went in, add it.",
        "{p}: прохождение видел только один луч ({b} не работает): если шар упал, добавьте его.",
    ),
    "boot": (
        "warning",
        "the node of {p} restarted while a ball was in or just above the pocket throat: check the "
        "balls counted there (add one it missed, remove one it counted twice).",
        "{p}: узел перезапустился, когда шар был в горловине или над ней: проверьте, сколько шаров засчитано "
        "(добавьте пропущенный, уберите засчитанный дважды).",
    ),
    "full": (
        "info",
        "a ball rests in the throat of {p} (the net is full): it was counted once; empty the net.",
        "{p}: шар лежит в горловине (сетка полна), засчитан один раз; освободите сетку.",
    ),
    "noise": (
        "warning",
        "interference on the {b} of {p} (a flickering lamp or IR light?): shade the receiver.",
        "{p}: помехи на луче ({b}) — мерцающая лампа или ИК-свет? Затените приёмник.",
    ),
    "bounce": (
        "warning",
        "a ball bounced in the throat of {p}, which the sensor cannot tell from two balls close "
        "together (one may have jumped back out): check the balls counted there.",
        "{p}: шар отскочил в горловине, и датчик не отличает это от двух шаров подряд (один мог выскочить "
        "обратно): проверьте, сколько шаров засчитано.",
    ),
    "alone": (
        "warning",
        "a ball was counted in {p} on one beam alone (the {b} is dead or blind): check it, and "
        "remove it if no ball went in; fix the receiver.",
        "{p}: шар засчитан по одному лучу ({b} неисправен или закрыт): проверьте его и уберите, если шар не "
        "упал; почините приёмник.",
    ),
    "dead": (
        "warning",
        "the {b} of {p} has not seen the last passages: receiver dead, misaligned or dirty; "
        "from now on balls there are counted on the other beam alone (each with its own alert: check them); "
        "add any ball that went in before.",
        "{p}: {b} не видел последних прохождений — приёмник неисправен, сбит или загрязнён; теперь шары там "
        "считаются по другому лучу (каждый с отдельным предупреждением: проверьте их); шары, упавшие раньше, "
        "добавьте вручную.",
    ),
}
# The referee action that answers each kind of engine need (each action model says what it answers).
NEED_ACTIONS: dict[str, str] = {k: a for k in NeedKind if (a := action_for_need(k)) is not None}

# The yes/no questions a finding asks (answered with `confirm`): English, Russian ({n} the shot, {pe}/{pr} the
# pocket), the answers, the default the provisional state assumes, the paragraph,
# whether it concerns the shooter.
CONFIRM_QUESTIONS: dict[str, tuple[str, str, tuple[str, ...], str, str, bool]] = {
    "late_drop": (
        "Shot {n}: a ball fell into {pe} long after the shot. A hanging ball (put it back, general §23), "
        "count it for shot {n}, or a new shot whose strike the cue sensor missed?",
        "Удар {n}: шар упал ({pr}) намного позже удара. Зависший шар (вернуть на место, общие правила "
        "§23), засчитать в удар {n} или это новый удар без отметки кия?",
        LATE_ANSWERS,
        "return",
        "general 23",
        False,
    ),
    "maybe_two": (
        "Shot {n}: the sensor of {pe} saw something longer than one ball. One ball or two?",
        "Удар {n}: датчик ({pr}) видел что-то длиннее одного шара. Один шар или два?",
        TWO_ANSWERS,
        "one",
        "",
        False,
    ),
    "double_hit": (
        "Shot {n}: the cue sensor felt two contacts. Was it a double hit (general §18)?",
        "Удар {n}: датчик кия отметил два касания. Двойной удар (общие правила §18)?",
        FOUL_ANSWERS,
        "no_foul",
        "general 18",
        True,
    ),
    "early_start": (
        "Shot {n} was struck before the previous shot could have ended. Foul (general §14.2)?",
        "Удар {n} нанесён до завершения предыдущего. Штраф (общие правила §14.2)?",
        FOUL_ANSWERS,
        "no_foul",
        "general 14.2",
        True,
    ),
    "shot_clock": (
        "Shot {n} was struck after its time ran out ({s} s on the shot clock). The rules set no penalty "
        "for the time itself: a foul for slow play (general §26) if the regulation says so?",
        "Удар {n} нанесён после истечения времени ({s} с на часах). Правила не штрафуют само время: "
        "штраф за замедленную игру (общие правила §26), если так требует регламент?",
        FOUL_ANSWERS,
        "no_foul",
        "general 26",
        True,
    ),
}


def check_answer(question: str, answer: str) -> None:
    """Refuse an answer (`confirm`) that the question does not offer."""
    allowed = CONFIRM_ANSWERS.get(question.partition(":")[0], ())
    if answer not in allowed:
        raise RefereeInputError(
            f"answer {answer!r} does not fit question {question!r} (answers: {', '.join(allowed) or 'none'})",
            f"ответ {answer!r} не подходит к вопросу {question!r} (ответы: {', '.join(allowed) or 'нет'})",
            "answer",
        )


def _name(players: tuple[str, str], seat: int | None) -> str:
    return players[seat] if seat in (0, 1) else "?"  # type: ignore[index]


def from_finding(
    f: Finding, variant: str, players: tuple[str, str], shooter: int, state: State
) -> Question | Alert:
    """Word one assembler finding for the panel (the variant's profile says which rule each one cites)."""
    pe, pr = pocket_name(f.pocket)
    n = f.shot
    qid = question_id(f.kind, f.item or "")
    rules = rules_of(variant)
    if f.kind == "identify":
        return Question(
            qid,
            f.kind,
            "identify",
            f"Shot {n}: which ball went into {pe}?",
            f"Удар {n}: какой шар упал — {pr}?",
            n,
            f.item,
            None,
            tuple(str(b) for b in rules.unnamed_candidates(state)),
            None,
            rules.PROFILE.cite(rules.PROFILE.identity_rule),
        )
    if f.kind == "identify_colour":
        return Question(
            qid,
            f.kind,
            "identify",
            f"Shot {n}: what colour was the ball in {pe}?",
            f"Удар {n}: какого цвета шар упал — {pr}?",
            n,
            f.item,
            None,
            rules.colour_options(state),
            None,
            rules.PROFILE.cite(rules.PROFILE.identity_rule),
        )
    if f.kind == "single_beam":  # issue 19: a beam that missed a passage is named with it (docs/firmware.md)
        return single_beam_question(f, qid, pe, pr)
    asked = CONFIRM_QUESTIONS.get(f.kind)
    if asked is not None:
        en, ru, answers, default, cite, by_shooter = asked
        return Question(
            qid,
            f.kind,
            "confirm",
            en.format(n=n, pe=pe, s=f.other),
            ru.format(n=n, pr=pr, s=f.other),
            n,
            f.item,
            shooter if by_shooter else None,
            answers,
            default,
            cite,
        )
    if f.kind == "out_of_turn":
        who, turn = _name(players, f.seat), _name(players, shooter)
        return Question(
            qid,
            f.kind,
            "confirm",
            f"Shot {n}: the strike came from {who}'s cue, but it is {turn}'s turn. "
            f"Interference with the opponent (general §28)?",
            f"Удар {n}: удар кием игрока {who}, а очередь игрока {turn}. "
            f"Вмешательство в игру соперника (общие правила §28)?",
            n,
            f.item,
            f.seat,
            FOUL_ANSWERS,
            "no_foul",
            "general 28",
        )
    return _alert_from_finding(f, variant, pe, pr)


def single_beam_question(f: Finding, qid: str, pe: str, pr: str) -> Question:
    """Only one beam of a pocket saw a passage as short as a falling ball's: the other (named) did not see it.
    The node counted nothing; "ball" counts one in that pocket for this shot."""
    missed = f.other if f.other is not None else 1
    be, br = BEAMS.get(missed, ("beam", "луч"))
    seen_en, seen_ru = BEAMS.get(1 - missed, ("beam", "луч"))
    return Question(
        qid,
        f.kind,
        "confirm",
        f"Shot {f.shot}: the {seen_en} of {pe} saw something pass, the {be} did not (not working?). "
        f"Did a ball go in?",
        f"Удар {f.shot}: {seen_ru} ({pr}) видел прохождение, а {br} — нет (неисправен?). Шар упал?",
        f.shot,
        f.item,
        None,
        SINGLE_ANSWERS,
        "nothing",
        "",
    )


def _alert_from_finding(f: Finding, variant: str, pe: str, pr: str) -> Alert:
    n, aid = f.shot, question_id(f.kind, f.item or "")
    if f.kind == "double_strike":
        return Alert(
            aid,
            f.kind,
            f"Shot {n}: two strikes within 50 ms were taken as one stroke.",
            f"Удар {n}: два удара в пределах 50 мс засчитаны как один.",
            n,
            f.item,
            "info",
            "general 14",
        )
    if f.kind == "pocket_mismatch":
        oe, orr = pocket_name(f.other)
        rule = rules_of(variant).PROFILE.cite(rules_of(variant).PROFILE.call_mismatch_rule)
        return Alert(
            aid,
            f.kind,
            f"Shot {n}: a ball went into {pe}, but the call was {oe}.",
            f"Удар {n}: шар упал ({pr}), а заказана была {orr}.",
            n,
            f.item,
            "warning",
            rule,
        )
    if f.kind == "cue_ball_seen":
        return Alert(
            aid,
            f.kind,
            f"Shot {n}: the colour sensor saw the cue ball (yellow) go into {pe}.",
            f"Удар {n}: датчик цвета видел, как биток (жёлтый) упал — {pr}.",
            n,
            f.item,
            "warning",
            rules_of(variant).PROFILE.cite(rules_of(variant).PROFILE.cue_ball_pocketed_rule),
        )
    if f.kind == "ball_out":
        return Alert(
            aid,
            f.kind,
            f"Shot {n}: a ball came back out of {pe}; it is no longer counted.",
            f"Удар {n}: шар выскочил обратно ({pr}) и больше не засчитан.",
            n,
            f.item,
            "warning",
        )
    flag = SENSOR_FLAGS.get(f.kind.removeprefix("sensor_"))
    if flag is not None:
        be, br = BEAMS.get(f.other if f.other is not None else -1, ("beam", "луч"))
        en = flag[1].format(p=pe, b=be)
        ru = flag[2].format(p=pr, b=br)
        return Alert(aid, f.kind, f"Shot {n}: {en}", f"Удар {n}: {ru}", n, f.item, flag[0])
    return Alert(aid, f.kind, f"Shot {n}: {f.kind}", f"Удар {n}: {f.kind}", n, f.item)


# asked although not blocking (ball identities are asked per ball)
ASKED_NEEDS = frozenset({NeedKind.DECLARATION})


def asked(need: Need) -> bool:
    """Is this need a question for the referee? The others are shown with the scoreboard's `needs`.

    A held shot's ball number or colour (`NeedKind.held`) is asked per pocketed ball (`identify`, answered on
    the shot's evidence), never through the engine's need, so that the answer stays with the ball it names
    when the match is re-derived."""
    return (need.blocking or need.kind in ASKED_NEEDS) and not NeedKind(need.kind).held


def out_of_turn_alert(f: Finding, players: tuple[str, str], shooter: int) -> Alert:
    """Sensing disagrees with the turn: a strike from the cue of the player who is
    not to play (general 28)."""
    who, turn = _name(players, f.seat), _name(players, shooter)
    return Alert(
        question_id("strike_out_of_turn", f.item or ""),
        "strike_out_of_turn",
        f"Shot {f.shot}: the strike came from {who}'s cue, but it is {turn}'s turn.",
        f"Удар {f.shot}: удар кием игрока {who}, а очередь игрока {turn}.",
        f.shot,
        f.item,
        "warning",
        "general 28",
    )


def from_need(need: Need, shot: int | None) -> Question:
    """A question from the rules engine's `Match.needs()`: its own texts, answered by the matching action."""
    options = tuple(need.options)
    return Question(
        f"need:{need.kind}:{need.player}:{shot}",
        need.kind,
        NEED_ACTIONS.get(need.kind, need.kind),
        need.en,
        need.ru,
        shot,
        None,
        need.player,
        options,
        None,
        "",
    )


# ---------------------------------------------------------------- collecting a session's questions and alerts
# `s` is a hub.reconcile.table.TableSession (not imported: the session imports this module).

QUESTION_FINDINGS = frozenset(
    {
        "identify",
        "identify_colour",
        "late_drop",
        "double_hit",
        "early_start",
        "out_of_turn",
        "maybe_two",
        "single_beam",
        "shot_clock",
    }
)
# asked until answered, on any shot
LASTING = frozenset({"identify", "identify_colour", "late_drop", "maybe_two", "single_beam"})


def _recent_assemblies(s: Any) -> list[tuple[Any, bool]]:
    """(assembly, recent) for every judged shot, plus the open shot's provisional one."""
    out: list[tuple[Any, bool]] = []
    live = s.shot_steps_shown()  # the last two shots and those with findings: flat in the match's length
    recent = {st.shot.number for st in live[-2:]}
    for st in live:
        if st.assembly is not None and st.shot.closed_at is not None:
            out.append((st.assembly, st.shot.number in recent))
    prov = s.provisional()
    if prov is not None and prov.assembly is not None:
        out.append((prov.assembly, True))
    return out


def _shooter_of(assembly: Any) -> int:
    return int(assembly.report.shooter)


def _findings(s: Any, questions: bool) -> list[Question | Alert]:
    out: list[Question | Alert] = []
    state = s.match.state
    for assembly, recent in _recent_assemblies(s):
        for f in assembly.findings:
            if not questions and recent and f.kind == "out_of_turn":
                out.append(out_of_turn_alert(f, s.players, _shooter_of(assembly)))  # and a question below
            if (f.kind in QUESTION_FINDINGS) != questions:
                continue
            if questions and not recent and f.kind not in LASTING:
                continue
            if not questions and not recent:
                continue
            out.append(from_finding(f, s.variant, s.players, _shooter_of(assembly), state))
    return out


def _needs(s: Any) -> list[Question]:
    asm = s.assembler
    open_shot = asm.open
    blocked = next((st.shot.number for st in s.blocked_steps() if st.shot is not None), None)
    held = blocked is not None
    nxt = len(asm.shots) + 1
    pending = {"declare"} if pending_calls(asm) else set()  # a call cleared again ([]) asks again
    out: list[Question] = []
    prov = s.provisional()
    if held or open_shot is None or prov is None:
        target = blocked if blocked is not None else (open_shot.number if open_shot is not None else nxt)
        for need in s.match.needs():
            if not asked(need):
                continue
            if need.kind == "declaration" and "declare" in pending and not held:
                continue
            out.append(from_need(need, target))
        return out
    for need in s.match.needs():  # needs of the position before the open shot: does the shot supply them?
        if not need.before_shot or not asked(need):
            continue
        if need.kind == "declaration" and open_shot.declarations:
            continue
        fact = NeedKind(need.kind).fact
        if fact is not None and open_shot.facts.get(fact) is not None:
            continue  # the open shot carries the fact (cue_ball, cue_colour)
        if NeedKind(need.kind).held:
            continue  # asked per ball by the assembler's findings
        out.append(from_need(need, open_shot.number))
    for need in prov.needs:
        if not asked(need):
            continue
        if need.before_shot and need.kind == "declaration" and "declare" in pending:
            continue
        out.append(from_need(need, open_shot.number if not need.before_shot else nxt))
    return out


def collect_questions(s: Any) -> tuple[Question, ...]:
    """Every open question of a session: the evidence's, then the rules engine's needs."""
    seen: dict[str, Question] = {}
    for q in [*_findings(s, True), *_needs(s)]:
        if isinstance(q, Question) and q.id not in seen and (q.id[:5] != "need:" or q.kind in NEED_ACTIONS):
            seen[q.id] = q
    return tuple(seen.values())


def collect_alerts(s: Any) -> tuple[Alert, ...]:
    """Every alert of a session that the referee has not dismissed."""
    out: list[Alert] = [a for a in _findings(s, False) if isinstance(a, Alert)]
    waiting = any(n.blocking for n in s.match.needs())  # held for a lag/choice/decision: the question says so
    for st in s.blocked_steps():
        if (
            st.status == StepStatus.BLOCKED
            and st.shot is not None
            and st.error
            and not waiting
            and not _asks_identity(st.assembly)
        ):
            out.append(engine_error(st.shot.number, *st.error))
    prov = s.provisional()
    open_shot = s.assembler.open
    if (
        prov is not None
        and prov.error is not None
        and open_shot is not None
        and not waiting
        and not _asks_identity(prov.assembly)
    ):
        out.append(engine_error(open_shot.number, *prov.error))
    for index, kind, en, ru in s.refused:
        out.append(rejected_action(index, kind, en, ru))
    beams = getattr(s, "jam_beams", {})
    for (device, pocket), since in sorted(s.jams.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
        out.append(jam(device, pocket, since, beams.get((device, pocket), ())))
    if s.assembler.shots and not s.ended:
        for device, role in sorted(s.offline.items()):
            out.append(node_offline(device, role))
    out.extend(getattr(s, "health", ()))  # sensor health from telemetry (hub/ingest/health.py)
    dismissed = s.dismissed
    unique = {a.id: a for a in out if a.id not in dismissed}
    return tuple(unique.values())


def _asks_identity(assembly: Any) -> bool:
    """The shot waits for ball numbers or colours: its `identify` questions say so (no error alert too)."""
    return assembly is not None and any(f.kind in ("identify", "identify_colour") for f in assembly.findings)


def pending_calls(asm: Any) -> tuple[Declaration, ...]:
    """The calls made for the next shot (the latest `declare` for it wins; `calls: []` took them back)."""
    last = next((a for a in reversed(asm.pending_next) if isinstance(a, DeclareAction)), None)
    return last.declarations() if last is not None else ()
