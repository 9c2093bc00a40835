"""The labels of the rule options (`Variant.OPTIONS`) in English and Russian: one home for the start form
(GET /api/variants), the scoresheet and any other place that names an option."""

from __future__ import annotations

OPTION_LABELS: dict[str, tuple[str, str]] = {
    "target": ("Points (balls) to win", "Очков (шаров) для победы"),
    "break_min_balls_to_cushion": ("Break: balls to reach a cushion", "Разбой: шаров до борта"),
    "incorrect_break_rebreak": ("Incorrect break: re-break", "Неправильный разбой: перебить"),
    "require_correct_completion": (
        "Require correct completion of a shot",
        "Требовать правильного завершения удара",
    ),
    "classic_break_balls_count": (
        "Balls pocketed on the break count",
        "Шары, забитые с разбоя, засчитываются",
    ),
    "dynamic_penalty_shot_adds_point": ("Penalty shot adds a point", "Штрафной удар добавляет очко"),
    "star_other_ball_keeps_turn": (
        "Another colour pocketed keeps the turn",
        "Чужой цвет в лузе сохраняет ход",
    ),
    "star_foul_joker_off_table": (
        "Joker pocketed on a foul leaves the game",
        "Джокер, забитый при фоле, выбывает",
    ),
    "hundred_bonus_may_take_ten": ("The bonus may take #10", "Бонусом можно взять №10"),
    "hundred_debt_counter": ("Count several debts", "Считать несколько долгов"),
    "hundred_jumped_ball_foul": ("A jumped ball is a foul", "Выскочивший шар — штраф"),
}


def option_label(name: str) -> tuple[str, str]:
    """(English, Russian) label of a rule option; an unknown one reads as its name."""
    plain = name.replace("_", " ")
    return OPTION_LABELS.get(name, (plain, plain))
