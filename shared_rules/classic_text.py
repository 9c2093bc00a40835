"""The reasons (English and Russian) the Classic pyramid cites: docs/rules/classic.md, A-C2..A-C7."""

from __future__ import annotations

from .outcome import Reason


def _r(paragraph: str, en: str, ru: str, ambiguity: str | None = None) -> Reason:
    return Reason("classic", paragraph, en, ru, ambiguity)


R_GOAL = _r(
    "1", "the first to reach the target (71 points) wins", "первым набравший 71 очко (или более) выигрывает"
)
R_CONCEDE = _r("1", "conceded: the opponent wins", "сдался: победа соперника")
R_CUE_ONLY = _r(
    "2", "only the yellow cue ball may be struck with the cue", "кием бьют только по битку (жёлтому шару)"
)
R_VALUE = _r("5.1", "the ball scores its number", "шар приносит очки по своему номеру")
R_ACE = _r("5.1", "the ace (#1) scores 11", "сыгранная единица (туз) приносит 11 очков")
R_LAST_BALL = _r(
    "5.1",
    "the last object ball has gone: +10 to the shooter, once",
    "сыгран последний прицельный шар: +10 очков, один раз",
    "A-C3",
)
R_CALL = _r(
    "5.2",
    "call an object ball on the table and a pocket before the shot",
    "перед ударом закажите прицельный шар на столе и лузу",
)
R_CALLED = _r(
    "5.3",
    "the called ball went into the called pocket: every ball pocketed on the shot counts; shoot again",
    "заказанный шар сыгран в заказанную лузу: засчитываются все забитые шары; удар продолжается",
)
R_WITH_CALLED = _r(
    "5.3",
    "an uncalled ball fell with the called one: it counts too",
    "незаказанный шар упал вместе с заказанным: он тоже засчитывается",
    "A-C5",
)
R_UNCALLED = _r(
    "5.4",
    "the called ball did not go into the called pocket: the balls that fell are spotted, no score, the turn "
    "passes (no foul)",
    "заказанный шар не сыгран в заказанную лузу: упавшие шары выставляются, очков нет, "
    "ход переходит (без штрафа)",
)
R_NO_CALL = _r(
    "5.4",
    "a shot without a call: the balls that fell are uncalled and spotted, no score, "
    "the turn passes (no foul)",
    "удар без заказа: упавшие шары не заказаны и выставляются, очков нет, ход переходит (без штрафа)",
)
R_NO_POT = _r("5.4", "nothing pocketed: the turn passes", "ничего не забито: ход переходит к сопернику")
R_CUE_POCKETED = _r("5.5", "foul: the cue ball went into a pocket", "штраф: биток упал в лузу")
R_PENALTY_SHOT = _r(
    "5.5",
    "the cue ball fell or jumped: the opponent plays a penalty shot from hand from the house (general 21)",
    "биток упал в лузу или выскочил: соперник производит штрафной удар с руки из дома (п.21)",
)
R_PENALTY = _r(
    "5.6", "foul: −5 to the offender, +5 to the opponent", "штраф: −5 очков нарушителю, +5 сопернику"
)
R_NEGATIVE = _r(
    "5.6", "the offender's score is below zero: allowed", "счёт нарушителя ниже нуля: допускается", "A-C6"
)
R_DECIDER = _r(
    "5.7",
    "70:70: the last pocketed ball goes back on the foot spot (the scores stay 70:70); a lag decides who "
    "plays, from hand from the house; the next ball pocketed wins, a foul loses",
    "70:70: последний забитый шар выставляется на заднюю отметку (счёт остаётся 70:70); право удара — "
    "розыгрышем, с руки из дома; до забитого шара или штрафа",
    "A-C2",
)
R_DECIDER_LAG = _r(
    "5.7",
    "decider lag won: this player plays from hand from the house",
    "розыгрыш выигран: игрок бьёт с руки из дома",
    "A-C2",
)
R_DECIDER_POT = _r(
    "5.7", "the decider ball is pocketed: the shooter wins", "шар решающего удара забит: победа", "A-C2"
)
R_DECIDER_FOUL = _r(
    "5.7",
    "a foul in the 70:70 decider: the offender loses",
    "штраф при счёте 70:70: нарушитель проигрывает",
    "A-C2",
)
R_DECIDER_RERACK = _r(
    "5.7",
    "the decider goes on after the re-rack: a lag, then from hand from the house (not a break)",
    "решающий розыгрыш продолжается: розыгрыш права удара, затем с руки из дома (не начальный удар)",
    "A-C2",
)
R_COMPLETION = _r(
    "5.8",
    "every shot but the break must be correctly completed (general 20); veterans' events may waive it",
    "любой удар, кроме начального, должен быть завершён по п.20 (у ветеранов может быть отменено)",
)
R_BREAK_COUNTS = _r(
    "A-C4",
    "balls pocketed on a correct break count for the breaker, who plays on",
    "шары, забитые правильным начальным ударом, засчитываются, разбивающий продолжает",
    "A-C4",
)
R_BREAK_SPOTTED = _r(
    "A-C4",
    "no call on the break: balls pocketed on it are spotted, the turn passes (classic_break_balls_count off)",
    "на разбое нет заказа: забитые шары выставляются, ход переходит "
    "(параметр classic_break_balls_count выключен)",
    "A-C4",
)
R_SPOTTING = _r(
    "6",
    "incorrectly pocketed, uncalled and jumped object balls are spotted (general 25)",
    "неправильно забитые, незаказанные и выскочившие прицельные шары выставляются (п.25)",
)
R_SPOT_ORDER = _r(
    "6",
    "several balls to spot: the referee chooses the order; proposed: the order they fell",
    "несколько шаров к выставлению: порядок выбирает судья; предложен порядок падения",
    "A-C7",
)
R_IDENTIFY = _r(
    "5.1",
    "a ball's number decides the score: the shot is held until the referee names it",
    "от номера шара зависит счёт: удар ждёт, пока судья назовёт номер",
)
