"""No class declares another's attributes: every attribute a class annotates, it sets itself.

A class that only annotates `config: Config` or `live: dict[...]` (with no value) and never assigns them is a
piece of another class sawn off to fit the line cap: it reads state some other class sets, and stubs that
class's methods to call them (hub/service/matches.py's MatchDesk did, for the Router, until issue 21). Split
by job instead: each part owns its state and takes its collaborators in `__init__`.

Declarative classes are exempt, since their annotations are their fields: dataclasses, Protocols, NamedTuples,
TypedDicts, pydantic models, and their subclasses (followed through the project's own classes by name). This
test reads hub/, shared_rules/, luza_wire/ and firmware/ with `ast`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.test_cycles import PACKAGES, ROOT

DECLARATIVE = {"Protocol", "NamedTuple", "TypedDict", "BaseModel", "Enum", "StrEnum", "IntEnum"}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):
        return _name(node.value)
    if isinstance(node, ast.Call):
        return _name(node.func)
    return ""


def classes(
    root: Path = ROOT, packages: tuple[str, ...] = PACKAGES
) -> dict[str, list[tuple[Path, ast.ClassDef]]]:
    found: dict[str, list[tuple[Path, ast.ClassDef]]] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.ClassDef):
                    found.setdefault(node.name, []).append((path, node))
    return found


def declarative(cls: ast.ClassDef, known: dict[str, list[tuple[Path, ast.ClassDef]]], seen: set[str]) -> bool:
    if any(_name(d) == "dataclass" for d in cls.decorator_list):
        return True
    for base in cls.bases:
        name = _name(base)
        if name in DECLARATIVE:
            return True
        if (
            name in known
            and name not in seen
            and any(declarative(c, known, seen | {name}) for _, c in known[name])
        ):
            return True
    return False


def borrowed(cls: ast.ClassDef) -> list[str]:
    """The names the class annotates without a value and never assigns (`self.x = ...`) in its own methods."""
    bare = [
        s.target.id
        for s in cls.body
        if isinstance(s, ast.AnnAssign)
        and s.value is None
        and isinstance(s.target, ast.Name)
        and _name(s.annotation) != "ClassVar"
    ]
    assigned: set[str] = set()
    for node in ast.walk(cls):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for t in targets:
            for n in ast.walk(t):
                if (
                    isinstance(n, ast.Attribute)
                    and isinstance(n.value, ast.Name)
                    and n.value.id in ("self", "cls")
                ):
                    assigned.add(n.attr)
    return [n for n in bare if n not in assigned]


KNOWN = classes()
CASES = sorted(
    (path.relative_to(ROOT).as_posix(), cls.name, cls) for items in KNOWN.values() for path, cls in items
)


def test_the_scan_sees_the_classes() -> None:
    assert {"Router", "Matches", "RefereeDesk", "DeviceDesk", "EvidenceDesk", "Variant"} <= set(KNOWN)
    assert len(CASES) > 200


@pytest.mark.parametrize("where,name,cls", CASES, ids=[f"{w}:{n}" for w, n, _ in CASES])
def test_a_class_sets_what_it_declares(where: str, name: str, cls: ast.ClassDef) -> None:
    if declarative(cls, KNOWN, {name}):
        return
    taken = borrowed(cls)
    assert not taken, (
        f"{where}: class {name} declares {', '.join(taken)} but never sets them: another class's "
        "state (own it, or take the collaborator in __init__)"
    )


def test_the_checker_sees_a_desk_on_borrowed_state(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "a.py").write_text(
        "from dataclasses import dataclass\nfrom typing import ClassVar, Protocol\n"
        "class Desk:\n    config: dict\n    live: dict\n    name: ClassVar[str] = 'x'\n"
        "    def f(self):\n        self.live = {}\n"
        "@dataclass\nclass Row:\n    id: int\n"
        "class Model(Base):\n    pass\nclass Base(Protocol):\n    x: int\n"
        "class Own:\n    cache: dict\n    def __init__(self):\n        self.cache: dict = {}\n"
    )
    known = classes(tmp_path, ("pkg",))
    assert borrowed(known["Desk"][0][1]) == ["config"]
    assert declarative(known["Row"][0][1], known, {"Row"})
    assert declarative(known["Model"][0][1], known, {"Model"})
    assert not declarative(known["Own"][0][1], known, {"Own"}) and borrowed(known["Own"][0][1]) == []
