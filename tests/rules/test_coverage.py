"""Every paragraph declared by every registered variant, and every general paragraph, has a citing test."""

from __future__ import annotations

from shared_rules import VARIANTS
from tests.rules import coverage


def test_every_declared_paragraph_is_cited() -> None:
    gaps = coverage.missing()
    assert not gaps, "paragraphs without a test: " + ", ".join(f"{v} {p}" for v, p in gaps)


def test_citation_parsing_names_and_docstrings() -> None:
    paragraphs = {"general": {"12": "", "12.1": "", "21.1": ""}, "free": {"5.2": "", "A-F1": ""}}
    tests = [
        ("t.py", "test_general_12_1_bad_break", ""),
        ("t.py", "test_free_a_f1_dead_end", ""),
        ("t.py", "test_something", "Checks free 5.2, and general 21.1."),
        ("t.py", "test_general_120_is_not_12", ""),
    ]
    cited = coverage.citations(paragraphs, tests)
    assert cited[("general", "12.1")] == ["t.py::test_general_12_1_bad_break"]
    assert cited[("general", "12")] == []  # the longest declared paragraph wins; 120 is not 12
    assert cited[("free", "A-F1")] == ["t.py::test_free_a_f1_dead_end"]
    assert cited[("free", "5.2")] == ["t.py::test_something"]
    assert cited[("general", "21.1")] == ["t.py::test_something"]


def test_every_registered_variant_declares_paragraphs() -> None:
    for name, cls in VARIANTS.items():
        assert cls.PARAGRAPHS, f"{name} declares no paragraphs"
        assert coverage.declared()[name] == cls.PARAGRAPHS


def test_coverage_document_is_rendered_for_every_variant() -> None:
    text = coverage.render()
    for name in ["general", *VARIANTS]:
        assert f"## {name}" in text
