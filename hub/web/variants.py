"""The variants a match can be started with, their options labelled for the start form (GET /api/variants)."""

from __future__ import annotations

from typing import Any

import shared_rules  # noqa: F401  (registers every variant)
from shared_rules.variant import VARIANTS

OPTION_LABELS: dict[str, tuple[str, str]] = {
    "target": ("Points (balls) to win", "Очков (шаров) для победы"),
    "break_min_balls_to_cushion": ("Break: balls to reach a cushion", "Разбой: шаров до борта"),
    "incorrect_break_rebreak": ("Incorrect break: re-break", "Неправильный разбой: перебить"),
    "require_correct_completion": ("Require correct completion of a shot", "Требовать правильного завершения удара"),
    "classic_break_balls_count": ("Balls pocketed on the break count", "Шары, забитые с разбоя, засчитываются"),
    "dynamic_penalty_shot_adds_point": ("Penalty shot adds a point", "Штрафной удар добавляет очко"),
    "star_other_ball_keeps_turn": ("Another colour pocketed keeps the turn", "Чужой цвет в лузе сохраняет ход"),
    "star_foul_joker_off_table": ("Joker pocketed on a foul leaves the game", "Джокер, забитый при фоле, выбывает"),
    "hundred_bonus_may_take_ten": ("The bonus may take #10", "Бонусом можно взять №10"),
    "hundred_debt_counter": ("Count several debts", "Считать несколько долгов"),
    "hundred_jumped_ball_foul": ("A jumped ball is a foul", "Выскочивший шар — штраф"),
}


def _option(name: str, default: object) -> dict[str, Any]:
    en, ru = OPTION_LABELS.get(name, (name.replace("_", " "), name.replace("_", " ")))
    kind = "bool" if isinstance(default, bool) else "int" if isinstance(default, int) else "choice"
    return {"name": name, "label": {"en": en, "ru": ru}, "type": kind, "default": default, "choices": None}


def variants() -> list[dict[str, Any]]:
    """Every registered variant with its default target and labelled options."""
    out = []
    for name, cls in VARIANTS.items():
        out.append({"id": name, "title": {"en": cls.title_en, "ru": cls.title_ru},
                    "target": int(cls.OPTIONS["target"]),  # type: ignore[call-overload]
                    "options": [_option(k, v) for k, v in cls.OPTIONS.items()]})
    return out
