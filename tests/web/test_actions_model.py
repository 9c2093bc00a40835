"""hub.vocab.actions is the one definition of the referee actions: each kind's model checks its own fields,
has a category and says how it applies; and an unexpected error in a route is a bilingual 503, never a 500."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from hub.vocab.action_types import FACT_NAMES, FACTS, Category, EngineAction, MatchControl, ShotAmendment
from hub.vocab.actions import ACTION_MODELS, fields_of, kinds_of
from hub.vocab.checks import RefereeInputError
from hub.vocab.referee import ACTION_KINDS, validate


def test_the_kinds_are_the_models_each_in_one_category() -> None:
    assert tuple(ACTION_MODELS) == ACTION_KINDS and tuple(FACTS) == FACT_NAMES
    bases = {Category.SHOT: ShotAmendment, Category.ENGINE: EngineAction, Category.MATCH: MatchControl}
    for category, base in bases.items():
        assert all(issubclass(ACTION_MODELS[k], base) for k in kinds_of(category))
    assert sorted(k for c in Category for k in kinds_of(c)) == sorted(ACTION_KINDS)
    assert kinds_of(Category.ENGINE) == ("lag", "choose", "interference", "concede", "decide")


@pytest.mark.parametrize("kind", list(ACTION_MODELS))
def test_every_model_field_is_known_to_its_validator(kind: str) -> None:
    for name in fields_of(kind):
        try:
            validate(kind, {name: None})
        except RefereeInputError as exc:
            assert "has no field" not in exc.en, exc.en


@pytest.mark.parametrize("kind", list(ACTION_MODELS))
def test_a_field_outside_the_model_is_refused(kind: str) -> None:
    with pytest.raises(RefereeInputError) as exc:
        validate(kind, {"elbow": 1})
    assert exc.value.code == "malformed" and exc.value.field == "elbow"
    assert (
        f"'{kind}' has no field 'elbow'" in exc.value.en
        and f"у действия '{kind}' нет поля 'elbow'" in exc.value.ru
    )


def test_an_unexpected_error_is_a_bilingual_503(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    hub = client.app.state.luza.hub  # type: ignore[attr-defined]

    def broken() -> list[dict[str, object]]:
        raise RuntimeError("a bug")

    monkeypatch.setattr(hub, "devices", broken)
    r = client.get("/api/devices")
    assert r.status_code == 503
    assert r.json() == {
        "error": {
            "code": "internal",
            "field": None,
            "en": "internal error of the hub (see its log); nothing was confirmed",
            "ru": "внутренняя ошибка хаба (см. журнал); ничего не подтверждено",
        }
    }
