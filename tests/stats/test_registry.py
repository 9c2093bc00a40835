"""The player registry: a search in either alphabet, what a new player may be, a match that names its players
by id (refused for an id the registry does not hold, a merged id standing for the player it became), exports
that carry both the id and the name."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import jsonschema
import pytest

from hub.export import build, load
from hub.export.csvfile import rows
from hub.stats import registry
from hub.stats.registry import PlayerError
from hub.store.database import Store
from hub.store.players import Players
from hub.view import schema
from hub.vocab.checks import RefereeInputError
from tests.export.matchkit import Clock, Table, open_hub

PNG = "data:image/png;base64," + base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 32).decode()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "luza.db"


def names(found: list) -> list[str]:  # type: ignore[type-arg]
    return [p.name for p in found]


def test_search_finds_a_name_in_either_alphabet(db: Path) -> None:
    for name, extra in (
        ("Иван Петров", {}),
        ("Ivan Sidorov", {}),
        ("Пётр Иванов", {"nickname": "Петруха"}),
        ("Anna Kozlova", {"name_en": "Anna Kozlova"}),
        ("Сергей Кузнецов", {}),
    ):
        registry.add(db, {"name": name, **extra}, 1)
    reg = Players(db)
    assert names(reg.search("Петров")) == ["Иван Петров"]
    assert "Иван Петров" in names(reg.search("ivan"))
    # whole-word starts first
    assert names(reg.search("ivan")) == ["Ivan Sidorov", "Иван Петров", "Пётр Иванов"]
    assert names(reg.search("petrov ivan")) == ["Иван Петров"]  # every word, in any order
    assert names(reg.search("Анна")) == ["Anna Kozlova"]  # and back: a Latin name by Cyrillic
    assert names(reg.search("petruha")) == ["Пётр Иванов"]  # by the nickname
    assert names(reg.search("Sergey")) == ["Сергей Кузнецов"]  # y or i, as romanisations disagree
    assert reg.search("Сидоров Иван Петров") == [] and reg.search("   ") == []


def test_a_new_player_is_checked_and_romanised(db: Path) -> None:
    p = registry.add(db, {"name": "  Пётр\u202e  Ильич ", "club": "Луза", "photo": PNG}, 5)
    assert (p.name, p.name_en, p.club, p.created_ms) == ("Пётр Ильич", "Petr Ilich", "Луза", 5)
    assert registry.public(p)["photo"] is True and "photo_url" not in registry.public(p)
    assert registry.public(p, photo=True)["photo_url"] == PNG
    for fields, field in (
        ({"name": " "}, "name"),
        ({"name": "x" * 61}, "name"),
        ({"name": 5}, "name"),
        ({"name": "A", "photo": "data:image/gif;base64,R0lG"}, "photo"),
        # a JPEG called PNG
        ({"name": "A", "photo": "data:image/png;base64,/9j/4AAQ"}, "photo"),
        ({"name": "A", "photo": "data:image/png;base64," + "A" * 300_000}, "photo"),
    ):
        with pytest.raises(PlayerError) as exc:
            registry.check(fields)
        assert exc.value.field == field and exc.value.en and exc.value.ru


def view_schema() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(schema.FILE.read_text(encoding="utf-8")))


def test_the_views_player_ids_are_two_ids_or_null() -> None:
    """The table view types them (hub.view.match.MatchView, view version 4): two seats, each an id or null."""
    field = schema.content()["$defs"]["MatchView"]["properties"]["player_ids"]
    assert field["minItems"] == field["maxItems"] == 2
    assert {"integer", "null"} == {t["type"] for t in field["items"]["anyOf"]}
    assert "player_ids" in schema.content()["$defs"]["MatchView"]["required"]


def test_a_match_names_its_players_by_id(db: Path) -> None:
    clock = Clock()
    ivan = registry.add(db, {"name": "Иван Петров"}, clock.ms).id
    dup = registry.add(db, {"name": "Ivan Petrov"}, clock.ms).id
    sergei = registry.add(db, {"name": "Сергей Кузнецов"}, clock.ms).id
    registry.merge(db, dup, ivan, clock.ms)
    hub = open_hub(db, clock)
    try:
        t = Table(hub, clock)
        t.births()
        with pytest.raises(RefereeInputError) as exc:
            t.ref("new_match", variant="classic", players=["A", "B"], player_ids=[ivan, 77])
        assert (
            exc.value.field == "player_ids" and "no player 77" in exc.value.en and "игрока 77" in exc.value.ru
        )
        with pytest.raises(RefereeInputError) as exc:
            # the same person
            t.ref("new_match", variant="classic", players=["A", "B"], player_ids=[ivan, dup])
        assert "against themself" in exc.value.en
        with pytest.raises(RefereeInputError):
            t.ref("new_match", variant="classic", players=["A", "B"], player_ids=[0, None])
        assert hub.state("t1")["match"] is None  # nothing was started by the refusals
        t.ref("new_match", variant="classic", players=["Ivan Petrov", "Гость"], player_ids=[dup, None])
        assert hub.state("t1")["match"]["player_ids"] == [ivan, None]  # the merged id stands for Иван
        t.ref("lag", winner=0)
        t.wait(5000)
        t.strike(0)
        t.wait(15000)
        t.ref("end_match")
        hub.wait_idle()
        assert hub.state("t1")["last_match"]["player_ids"] == [ivan, None]
        assert not list(view_schema().iter_errors(hub.state("t1")))  # a typed field of the view (docs/)
    finally:
        hub.stop()
    hub = open_hub(db, clock)  # a restart: the last match's final board names them again, from the store
    try:
        assert hub.view("t1").last_match is not None and hub.view("t1").last_match.player_ids == [ivan, None]
    finally:
        hub.stop()
    s = Store(db, readonly=True)
    try:
        m = s.match(1)
        assert m is not None and m.player_ids == (ivan, None) and m.players == ("Ivan Petrov", "Гость")
        doc = build(load(s, 1))
    finally:
        s.close()
    assert doc["match"]["player_ids"] == [ivan, None] and doc["match"]["players"] == ["Ivan Petrov", "Гость"]
    assert [r["shooter_id"] for r in rows(doc)] == [ivan]
    assert sergei not in doc["match"]["player_ids"]
