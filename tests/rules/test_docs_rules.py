"""Every rule paragraph the project cites resolves to a paragraph of docs/rules/, the project's own rules.

A citation names a variant and a paragraph: in a `Reason` (`Reason("general", "29.1", ...)`, a module's
`_r("5.6", ...)`, a variant's own `Foul` such as `"star 4.3"`), in a variant's `PARAGRAPHS`, in text
(`classic 5.6`, `general §23`, `100 points §4`, `docs/rules/hundred.md §14`) or as an ambiguity id (`A-C4`).
Each page of docs/rules/ is named after its variant (`general.md`, `classic.md`, ...) and marks each paragraph
with an anchor `<a id="5.6"></a>`, so `docs/rules/classic.md#5.6` is the paragraph the engine means by
`classic 5.6`.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from shared_rules import VARIANTS, general
from shared_rules.outcome import Reason

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
ENGINE = ROOT / "shared_rules"
# Text that cites rules: the engine, the hub (questions, alerts, hints), the docs and the rules tests.
TEXT = [
    ENGINE,
    ROOT / "hub",
    ROOT / "docs",
    ROOT / "README.md",
    ROOT / "tests" / "rules",
    ROOT / "dashboard" / "js",
]

ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
NAMES = ("general", *sorted(VARIANTS))
PARA = r"(\d+(?:\.\d+)*)"
CITES = [
    re.compile(rf"\b({'|'.join(NAMES)}) §?{PARA}"),  # classic 5.6, general §23
    re.compile(rf"\b(100) points §{PARA}"),  # 100 points §4 (the variant called hundred)
    re.compile(rf"docs/rules/({'|'.join(NAMES)})\.md(?:#| §){PARA}"),  # docs/rules/classic.md §5.6
]
# A variant's own foul carries "<variant> <paragraph>" as its value; 100 points' is written "100 12".
ALIASES = {"100": "hundred"}
AMBIGUITY = re.compile(r"\bA-(?:100-\d+|[A-Z]\d+)\b")
RANGE = re.compile(r"\bA-(100-|[A-Z])(\d+)\.\.(?:A-)?(?:100-|[A-Z])?(\d+)")  # A-S1..A-S8, A-100-1..12


def anchors() -> dict[str, set[str]]:
    """page name (its variant) -> the paragraph anchors it holds."""
    return {p.stem: set(ANCHOR.findall(p.read_text(encoding="utf-8"))) for p in sorted(RULES.glob("*.md"))}


def _text_files() -> Iterator[Path]:
    for base in TEXT:
        if base.is_file():
            yield base
            continue
        for p in sorted(base.rglob("*")):
            if p.suffix in (".py", ".md", ".js") and RULES not in p.parents and p != Path(__file__):
                yield p


def _ranges(text: str) -> Iterator[str]:
    """The ids a range such as `A-S1..A-S8` or `A-100-1..12` names."""
    for m in RANGE.finditer(text):
        for n in range(int(m.group(2)), int(m.group(3)) + 1):
            yield f"A-{m.group(1)}{n}"


def text_citations() -> set[tuple[str, str, str]]:
    """(variant, paragraph, where) of every citation written in text; variant "*" for an ambiguity id."""
    out = set()
    for path in _text_files():
        where = str(path.relative_to(ROOT))
        text = path.read_text(encoding="utf-8")
        for rx in CITES:
            for m in rx.finditer(text):
                out.add((ALIASES.get(m.group(1), m.group(1)), m.group(2), where))
        for amb in {*AMBIGUITY.findall(text), *_ranges(text)}:
            out.add(("*", amb, where))
    return out


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _reason_calls(path: Path, helper: str | None) -> Iterator[tuple[str | None, str | None, str | None]]:
    """(variant, paragraph, ambiguity) of every `Reason(...)` and `_r(...)` call with literal arguments."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        args = list(node.args)
        if node.func.id == "Reason" and len(args) >= 2:
            variant, args = _literal(args[0]), args[1:]
        elif node.func.id == "_r" and helper is not None and args:
            variant = helper
        else:
            continue
        amb = (
            args[3]
            if len(args) >= 4
            else next((k.value for k in node.keywords if k.arg == "ambiguity"), None)
        )
        yield variant, _literal(args[0]), _literal(amb)


def engine_citations() -> set[tuple[str, str, str]]:
    """(variant, paragraph, where) the engine itself cites: reasons, fouls and declared paragraphs."""
    out = {("general", p, "general.PARAGRAPHS") for p in general.PARAGRAPHS}
    for name, cls in VARIANTS.items():
        out |= {(name, p, f"{cls.__name__}.PARAGRAPHS") for p in cls.PARAGRAPHS}
    out |= {
        (ALIASES.get(r.variant, r.variant), r.paragraph, "general.FOUL_REASONS")
        for r in general.FOUL_REASONS.values()
    }
    for path in sorted(ENGINE.glob("*.py")):
        module = importlib.import_module(f"shared_rules.{path.stem}")
        helper = getattr(module, "_r", None)
        variant = helper("", "", "").variant if callable(helper) else None
        where = str(path.relative_to(ROOT))
        for v, p, amb in _reason_calls(path, variant):
            if v is not None and p is not None and not p.startswith("A-"):
                out.add((v, p, where))
            if amb is not None:
                out.add(("*", amb, where))
        for value in vars(module).values():  # module constants built some other way
            if isinstance(value, Reason):
                out.add((value.variant, value.paragraph, where))
    return out


def coverage_citations() -> set[tuple[str, str, str]]:
    """(variant, paragraph) of every row of docs/rules-coverage.md (made from the declared paragraphs)."""
    out, variant = set(), None
    for line in (ROOT / "docs" / "rules-coverage.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            variant = line[3:].strip()
        elif variant and line.startswith("| ") and not line.startswith(("| paragraph", "|---")):
            cell = line.split("|")[1].strip()
            out.add((variant, re.sub(r"^\[([^\]]+)\]\(.*\)$", r"\1", cell), "docs/rules-coverage.md"))
    return out


def unresolved(cited: set[tuple[str, str, str]], pages: dict[str, set[str]]) -> list[str]:
    everywhere = set().union(*pages.values()) if pages else set()
    bad = []
    for variant, paragraph, where in sorted(cited, key=lambda c: (c[2], c[0], c[1])):
        ok = paragraph in everywhere if variant == "*" else paragraph in pages.get(variant, set())
        if not ok:
            bad.append(f"{where}: {variant if variant != '*' else 'ambiguity'} {paragraph}")
    return bad


def test_every_variant_and_the_general_rules_have_a_page() -> None:
    pages = anchors()
    assert set(NAMES) <= set(pages), f"docs/rules/ lacks pages for {sorted(set(NAMES) - set(pages))}"
    for name in ("README", "glossary"):
        assert name in pages, f"docs/rules/{name}.md is missing"


def test_every_paragraph_the_engine_cites_is_in_docs_rules() -> None:
    bad = unresolved(engine_citations(), anchors())
    assert not bad, "cited by the engine but not in docs/rules/:\n" + "\n".join(bad)


def test_every_paragraph_cited_in_text_is_in_docs_rules() -> None:
    bad = unresolved(text_citations() | coverage_citations(), anchors())
    assert not bad, "cited in text but not in docs/rules/:\n" + "\n".join(bad)


def test_the_coverage_page_links_each_paragraph_to_docs_rules() -> None:
    text = (ROOT / "docs" / "rules-coverage.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(rules/(\w+)\.md#([^)]+)\)", text)
    assert len(links) == len(coverage_citations())
    assert not unresolved({(v, p, "docs/rules-coverage.md") for v, p in links}, anchors())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "see classic 5.6, general §23 and 100 points §4.",
            {("classic", "5.6"), ("general", "23"), ("hundred", "4")},
        ),
        ("docs/rules/hundred.md §14 and docs/rules/star.md#4.3.1", {("hundred", "14"), ("star", "4.3.1")}),
        ("general 29.1(4)", {("general", "29.1")}),
    ],
)
def test_citations_are_read_from_text(text: str, expected: set[tuple[str, str]]) -> None:
    found = {(m.group(1), m.group(2)) for rx in CITES for m in rx.finditer(text)}
    assert {(ALIASES.get(v, v), p) for v, p in found} == expected


def test_ambiguity_ranges_name_each_id() -> None:
    assert set(_ranges("A-S1..A-S3 and A-100-1..12")) == {
        "A-S1",
        "A-S2",
        "A-S3",
        *(f"A-100-{n}" for n in range(1, 13)),
    }
    assert set(_ranges("A-C2..A-C4")) == {"A-C2", "A-C3", "A-C4"}


def test_a_missing_anchor_is_reported() -> None:
    pages = {"classic": {"5.6"}, "general": {"20"}}
    cited = {("classic", "5.6", "x"), ("classic", "5.7", "y"), ("*", "A-C4", "z"), ("general", "20", "w")}
    assert unresolved(cited, pages) == ["y: classic 5.7", "z: ambiguity A-C4"]
