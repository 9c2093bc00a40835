"""The yes/no questions a shot's finding asks the referee (answered with `confirm`): their English and Russian
texts, the answers each offers, the answer the provisional state assumes until then, the paragraph it cites;
and the check that refuses an answer the question does not offer. hub/reconcile/questions.py words them for
the panel; docs/reconciliation.md lists every kind with its trigger.
"""

from __future__ import annotations

from hub.reconcile.throat import TWO_ANSWERS
from hub.vocab.checks import RefereeInputError

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
