"""The history search's transliteration (hub/translit.py): a name is found in either alphabet."""

from __future__ import annotations

import pytest

from hub.translit import search_key, to_latin


def found(query: str, name: str) -> bool:
    return search_key(query) in search_key(name)


def test_romanises_cyrillic_and_folds_case() -> None:
    assert to_latin("Иван Петров") == "ivan petrov"
    assert to_latin("Щукин Жорж Ёлкин") == "shchukin zhorzh elkin"
    assert to_latin("IVAN") == "ivan"


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("ivan", "Иван Петров"),
        ("Петров", "Ivan Petrov"),
        ("petrov", "Иван Петров"),
        ("Иван", "ivan petrov"),
        ("andrey", "Андрей"),
        ("andrei", "Андрей"),
        ("Андрей", "Andrey Smirnov"),
        ("alexandr", "Александр"),
        ("khabib", "Хабиб"),
        ("habib", "Хабиб"),
        ("yuri", "Юрий"),
        ("", "Иван"),
    ],
)
def test_a_name_is_found_in_either_alphabet(query: str, name: str) -> None:
    assert found(query, name)


@pytest.mark.parametrize(
    ("query", "name"), [("ivan", "Сергей Кузнецов"), ("Петров", "Ivan Sidorov"), ("petra", "Пётр")]
)
def test_other_names_are_not_found(query: str, name: str) -> None:
    assert not found(query, name)
