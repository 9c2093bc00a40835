"""Wording a session's questions for the referee and its alerts (hub.vocab.notices), in English and Russian.

A *question* is something the hub cannot settle from the evidence; it names the referee action that answers
it (`action`) and the answers offered. An *alert* says that sensing and the rules (or two sensors) disagree,
or that a part of the appliance is unwell; it is shown until dismissed or until its cause is gone.
This module words one finding or engine need; hub/reconcile/collect.py gathers a session's, afresh from its
state, so they never go stale; the yes/no questions' texts are hub/reconcile/confirm_questions.py.
docs/reconciliation.md lists every kind with its trigger.
"""

from __future__ import annotations

from hub.reconcile.confirm_questions import CONFIRM_QUESTIONS, FOUL_ANSWERS, SINGLE_ANSWERS
from hub.reconcile.report import Finding, question_id, rules_of
from hub.vocab.actions import action_for_need
from hub.vocab.notices import BEAMS, Alert, Question, pocket_name
from shared_rules.outcome import Need, NeedKind
from shared_rules.state import State

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
