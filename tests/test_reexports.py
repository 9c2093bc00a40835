"""Every name has one home: it is imported from the module that defines it, never passed on by another.

A module that re-exports another's names (`from hub.vocab.inputs import SensorInput` in
hub/reconcile/table.py,
then `from hub.reconcile.table import SensorInput` elsewhere) hides where a thing lives, and keeps old homes
alive after a move: the reader opens the wrong file, and an import loop can hide behind the detour. This test
reads every module of the project's packages, the tests and the scripts with `ast` and fails on:
- `from M import N` where M is a project module and N is neither defined in M nor a submodule of it;
- a name in a module's `__all__` that the module does not define.

The one exception is a package's public face: an `__init__.py` that declares `__all__` (shared_rules, hub.web,
hub.export) may pass on its own submodules' names, to code outside the package; inside the package, import
from the defining module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.test_cycles import PACKAGES, ROOT, modules

IMPORTERS = ("hub", "shared_rules", "luza_wire", "firmware", "tests", "scripts")


def defined(tree: ast.Module) -> set[str]:
    """The names a module binds itself at its top level (under if/try/with too), not by importing them."""
    out: set[str] = set()

    def targets(node: ast.AST) -> None:
        for n in ast.walk(node):
            if isinstance(n, ast.Name):
                out.add(n.id)

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.add(node.name)
            elif isinstance(node, ast.Assign):
                for t in node.targets:
                    targets(t)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                targets(node.target)
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                targets(node.target)
                visit(node.body + node.orelse)
            elif isinstance(node, ast.If | ast.While):
                visit(node.body + node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body + node.orelse + node.finalbody)
                for h in node.handlers:
                    visit(h.body)
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                visit(node.body)

    visit(tree.body)
    return out


def exported(tree: ast.Module) -> list[tuple[str, int]]:
    """The names in the module's `__all__`, with the line."""
    for node in tree.body:
        if not isinstance(node, ast.Assign) or not isinstance(node.value, (ast.List, ast.Tuple)):
            continue
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return [
                (e.value, node.lineno)
                for e in node.value.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            ]
    return []


def is_face(path: Path, tree: ast.Module) -> bool:
    return path.name == "__init__.py" and bool(exported(tree))


def dotted(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def importers() -> list[Path]:
    skip = {".venv", "node_modules", ".stubs", "__pycache__"}
    return [
        p
        for top in IMPORTERS
        if (ROOT / top).is_dir()
        for p in sorted((ROOT / top).rglob("*.py"))
        if not skip & set(p.relative_to(ROOT).parts)
    ]


KNOWN = modules()
TREES = {name: ast.parse(path.read_text(), str(path)) for name, path in KNOWN.items()}
DEFINED = {name: defined(tree) for name, tree in TREES.items()}
FACES = {name for name, tree in TREES.items() if is_face(KNOWN[name], tree)}


def passed_on(path: Path, source: str | None = None) -> list[str]:
    """What this file takes from a module that does not define it: 'line N: from M import X' (or 'M.X' through
    a module bound to a name, `from hub.commands import firmware as fw` then `fw.build`)."""
    me = dotted(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    tree = ast.parse(path.read_text() if source is None else source, str(path))
    found: list[str] = []
    aliases: dict[str, str] = {}  # a local name -> the project module it is bound to

    def home(base: str) -> bool:
        """Whether names may be taken from `base` as if it defined them: a face, from outside its package."""
        return base in FACES and not (me == base or me.startswith(base + "."))

    def take(base: str, name: str, line: int, how: str) -> None:
        if name != "*" and f"{base}.{name}" not in KNOWN and name not in DEFINED[base] and not home(base):
            found.append(f"line {line}: {how}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases.update({a.asname: a.name for a in node.names if a.asname and a.name in KNOWN})
        if not isinstance(node, ast.ImportFrom):
            continue
        base = node.module or ""
        if node.level:
            up = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*up, base]) if base else ".".join(up)
        if base not in KNOWN:
            continue
        for alias in node.names:
            if f"{base}.{alias.name}" in KNOWN:
                aliases[alias.asname or alias.name] = f"{base}.{alias.name}"
            take(base, alias.name, node.lineno, f"from {base} import {alias.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            base = aliases[node.value.id]
            take(base, node.attr, node.lineno, f"{base}.{node.attr}")
    return sorted(set(found), key=lambda s: (int(s.split()[1].rstrip(":")), s))


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_the_scan_sees_the_project() -> None:
    files = {_rel(p) for p in importers()}
    assert {
        "hub/vocab/inputs.py",
        "hub/service/router.py",
        "tests/hub/tablekit.py",
        "shared_rules/variant.py",
    } <= files
    assert {"shared_rules", "hub.web", "hub.export"} <= FACES
    assert "SensorInput" in DEFINED["hub.vocab.inputs"]


@pytest.mark.parametrize("path", importers(), ids=_rel)
def test_names_come_from_their_home(path: Path) -> None:
    found = passed_on(path)
    assert not found, (
        f"{_rel(path)} imports names from a module that only passes them on (import each from "
        "the module that defines it): " + "; ".join(found)
    )


@pytest.mark.parametrize("name", sorted(n for n in KNOWN if n not in FACES), ids=str)
def test_all_lists_only_own_names(name: str) -> None:
    foreign = [f"line {line}: {n}" for n, line in exported(TREES[name]) if n not in DEFINED[name]]
    assert not foreign, f"{name}'s __all__ passes on names it does not define: " + "; ".join(foreign)


def test_the_checker_sees_a_re_export(tmp_path: Path) -> None:
    src = (
        "from typing import Any\nfrom hub.vocab.inputs import SensorInput\n__all__ = ['SensorInput', 'f']\n"
        "X: int = 1\nif X:\n    Y = 2\ndef f(): ...\n"
    )
    tree = ast.parse(src)
    assert defined(tree) == {"__all__", "X", "Y", "f"}
    assert [n for n, _ in exported(tree) if n not in defined(tree)] == ["SensorInput"]
    user = (
        "from hub.vocab import inputs\nfrom hub.vocab.inputs import SensorInput\n"
        "from hub.vocab.inputs import json, Event\nfrom shared_rules import Match\n"
        "from hub.vocab.inputs import nowhere\nfrom .inputs import RefereeAction, Mapping\n"
        "x = inputs.json, inputs.SensorInput\n"
    )
    assert passed_on(ROOT / "tests" / "probe.py", user) == [
        "line 3: from hub.vocab.inputs import Event",
        "line 3: from hub.vocab.inputs import json",
        "line 5: from hub.vocab.inputs import nowhere",
        "line 7: hub.vocab.inputs.json",
    ]
    inside = passed_on(ROOT / "hub" / "vocab" / "probe.py", user)
    assert inside[-2:] == ["line 6: from hub.vocab.inputs import Mapping", "line 7: hub.vocab.inputs.json"]
    assert passed_on(ROOT / "shared_rules" / "probe.py", "from shared_rules import Match\n") == [
        "line 1: from shared_rules import Match"
    ]  # inside its package, a face is no home


def test_the_packages_are_those_of_the_cycle_check() -> None:
    assert set(PACKAGES) <= set(IMPORTERS)
