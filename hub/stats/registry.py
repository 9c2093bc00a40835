"""The player registry as people use it (the panel, the club view, `luza players`): what a new player's fields
must be, the Latin spelling made from a Cyrillic name when none is given, merges worded in Russian and
English. The rows themselves are hub/store/players.py's.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

# pydantic (FastAPI's response models) reads TypedDicts only from typing_extensions' on Python < 3.12
from typing import NotRequired

from typing_extensions import TypedDict

from hub.errors import MALFORMED, NOT_FOUND, REFUSED, Refusal
from hub.names import clean_name
from hub.store.players import MergeRefused, PlayerRow, Players
from hub.translit import to_latin

MAX_NAME = 60  # as a match's player name (hub/vocab/new_match.py, `players`)
MAX_FIELD = 60
MAX_PHOTO = 200_000  # bytes of the photo's data: URL (a small portrait, not a camera original)
PHOTO = re.compile(r"^data:image/(png|jpeg|webp);base64,([A-Za-z0-9+/=]+)$")
MAGIC = {"png": b"\x89PNG", "jpeg": b"\xff\xd8\xff", "webp": b"RIFF"}
CYRILLIC = re.compile(r"[\u0400-\u04ff]")


class PlayerError(Refusal):
    """A player that cannot be added or merged; `field` names what is wrong."""

    def __init__(self, en: str, ru: str, field: str | None = None, code: str = MALFORMED) -> None:
        super().__init__(en, ru, field, code)


@dataclass(frozen=True)
class NewPlayer:
    """A new player's fields, checked: the name as entered, its Latin spelling, nickname, club, photo."""

    name: str
    name_en: str
    nickname: str = ""
    club: str = ""
    photo: str | None = None


def romanised(name: str) -> str:
    """A Latin spelling of a Cyrillic name ("Иван Петров" -> "Ivan Petrov"); a Latin name as it is."""
    if not CYRILLIC.search(name):
        return name
    return " ".join(w[:1].upper() + w[1:] for w in to_latin(name).split())


def _text(value: object, field: str, required: bool = False) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise PlayerError(f"{field}: must be text", f"{field}: нужен текст", field)
    text = " ".join(clean_name(value).split())
    if required and not text:
        raise PlayerError(f"{field}: must not be empty", f"{field}: не может быть пустым", field)
    if len(text) > MAX_NAME:
        raise PlayerError(
            f"{field}: at most {MAX_NAME} characters", f"{field}: не больше {MAX_NAME} символов", field
        )
    return text


def _photo(value: object) -> str | None:
    if value in (None, ""):
        return None
    m = PHOTO.match(value) if isinstance(value, str) else None
    bad = PlayerError(
        "photo: a data: URL of a PNG, JPEG or WebP image (data:image/jpeg;base64,...)",
        "photo: нужен data: URL картинки PNG, JPEG или WebP (data:image/jpeg;base64,...)",
        "photo",
    )
    if m is None or not isinstance(value, str):
        raise bad
    if len(value) > MAX_PHOTO:
        raise PlayerError(
            f"photo: at most {MAX_PHOTO // 1000} kB", f"photo: не больше {MAX_PHOTO // 1000} кБ", "photo"
        )
    try:
        data = base64.b64decode(m.group(2), validate=True)
    except (binascii.Error, ValueError):
        raise bad from None
    if not data.startswith(MAGIC[m.group(1)]):
        raise bad
    return value


class PlayerPublic(TypedDict):
    """A player as the API and the CLI show it (`GET /api/players`, `luza players list --json`)."""

    id: int
    name: str
    name_en: str
    nickname: str
    club: str
    photo: bool  # whether there is one
    created_ms: int
    merged_into: int | None
    photo_url: NotRequired[str | None]  # the photo's data: URL, only where asked for (it can be large)


def check(fields: Mapping[str, object]) -> NewPlayer:
    """A new player from what was typed, any JSON or the CLI's arguments (PlayerError naming the field
    otherwise): each field is checked for its type here."""
    name = _text(fields.get("name"), "name", required=True)
    name_en = _text(fields.get("name_en"), "name_en") or romanised(name)
    return NewPlayer(
        name,
        name_en,
        _text(fields.get("nickname"), "nickname"),
        _text(fields.get("club"), "club"),
        _photo(fields.get("photo")),
    )


def public(p: PlayerRow, photo: bool = False) -> PlayerPublic:
    """A player as the API and the CLI show it (the photo itself only if asked: it can be large)."""
    out: PlayerPublic = {
        "id": p.id,
        "name": p.name,
        "name_en": p.name_en,
        "nickname": p.nickname,
        "club": p.club,
        "photo": p.photo is not None,
        "created_ms": p.created_ms,
        "merged_into": p.merged_into,
    }
    if photo:
        out["photo_url"] = p.photo
    return out


def add(db: str | Path, fields: Mapping[str, object], now_ms: int) -> PlayerRow:
    new = check(fields)
    return Players(db).add(new.name, new.name_en, new.nickname, new.club, new.photo, now_ms)


def not_found(player_id: object) -> PlayerError:
    return PlayerError(
        f"no player {player_id} in the registry", f"игрока {player_id} нет в реестре", "player", NOT_FOUND
    )


def merge(db: str | Path, duplicate: int, into: int, now_ms: int) -> int:
    """Merge `duplicate` into `into` (hub/store/players.py); the number of matches moved, or PlayerError."""
    try:
        return Players(db).merge(duplicate, into, now_ms)
    except MergeRefused as exc:
        if exc.reason == "unknown":
            raise not_found(exc.player) from None
        if exc.reason == "same":
            raise PlayerError(
                "a player cannot be merged into themself", "игрока нельзя объединить с самим собой", "into"
            ) from None
        if exc.reason == "merged":
            raise PlayerError(
                f"player {exc.player} was merged already; merge into the player it became",
                f"игрок {exc.player} уже объединён; объединяйте с тем, в кого он вошёл",
                "duplicate",
                REFUSED,
            ) from None
        raise PlayerError(
            f"players {duplicate} and {into} played each other (match {exc.match}): two people, not one",
            f"игроки {duplicate} и {into} играли друг с другом (партия {exc.match}): это два разных человека",
            "into",
            REFUSED,
        ) from None
