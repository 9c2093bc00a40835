"""Search keys that ignore the alphabet: "ivan" finds "Иван Петров" and "Петров" finds "Petrov Ivan".

People type a name the way their keyboard lets them; the store keeps it as it was entered. Both sides are
folded to one Latin key: Cyrillic is romanised (a simple passport-like table), then the spellings
romanisations disagree on are merged (y/i, kh/h, x/ks, w/v, j/i), so "andrey", "andrei" and "Андрей" give the
same key. Pure: no I/O, used by the history search (hub/export/history.py) on both the
query and each stored name.
"""

from __future__ import annotations

CYRILLIC = {
    "а": "a",
    "б": "b",
    "в": "v",
    "г": "g",
    "д": "d",
    "е": "e",
    "ё": "e",
    "ж": "zh",
    "з": "z",
    "и": "i",
    "й": "i",
    "к": "k",
    "л": "l",
    "м": "m",
    "н": "n",
    "о": "o",
    "п": "p",
    "р": "r",
    "с": "s",
    "т": "t",
    "у": "u",
    "ф": "f",
    "х": "kh",
    "ц": "ts",
    "ч": "ch",
    "ш": "sh",
    "щ": "shch",
    "ъ": "",
    "ы": "y",
    "ь": "",
    "э": "e",
    "ю": "yu",
    "я": "ya",
    "і": "i",
    "ї": "i",
    "є": "e",
    "ґ": "g",
    "ў": "u",
}
# Latin spellings the romanisations of one Russian name disagree on, merged in this order
MERGE = (("kh", "h"), ("x", "ks"), ("w", "v"), ("j", "i"), ("y", "i"))


def to_latin(text: str) -> str:
    """`text` case-folded with its Cyrillic letters romanised ("Пётр Ильич" -> "petr ilich")."""
    return "".join(CYRILLIC.get(c, c) for c in text.casefold())


def search_key(text: str) -> str:
    """The alphabet-free key of a name or a query: a query matches a name when its
    key is inside the name's."""
    key = to_latin(text)
    for a, b in MERGE:
        key = key.replace(a, b)
    return key
