"""The builders' typed parts (hub.view.engine/session/screen) name exactly the view models' fields: a field
added to a view model and not to its builder's TypedDict (or the reverse) fails here, not on the first
board."""

from __future__ import annotations

from typing import get_type_hints

from hub.view.engine import EngineFields
from hub.view.match import EngineView, MatchView, SessionView
from hub.view.screen import ScreenFields, sections
from hub.view.session import SessionFields


def test_the_engine_fields_are_the_engine_views() -> None:
    assert list(get_type_hints(EngineFields)) == list(EngineView.model_fields)


def test_the_session_fields_are_the_session_views() -> None:
    assert list(get_type_hints(SessionFields)) == list(SessionView.model_fields)


def test_the_screen_fields_and_sections_are_the_rest_of_the_match_views() -> None:
    """MatchView = SessionView's fields (questions relabelled by the screens), the screens', the variants'
    sections and the registry's player ids (hub.view.build.match_view)."""
    own = set(MatchView.model_fields) - set(SessionView.model_fields)
    screen = set(get_type_hints(ScreenFields))
    six = {"star", "hundred", "classic"}  # the sections of the six variants (a variant added later: an extra)
    assert (screen - {"questions"}) | six | {"player_ids"} == own
    assert "questions" in SessionView.model_fields and six <= set(sections())
