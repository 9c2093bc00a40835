"""No import cycle among the project's own modules (`shared_rules/`, `luza_wire/`, `hub/`, `firmware/`).

A cycle means two modules are one piece of code in two files (a class sawn in two to fit the line cap, or a
helper that reaches back into its caller): neither can be read, tested or imported alone, and the order they
load in decides whether the program starts. Imports inside functions count too (a lazy import is still a
dependency), and so do those under `if TYPE_CHECKING:`: they never run, but a loop through one is still two
modules that cannot be understood apart (the hub's last three loops, removed in issue 21, were all of that
kind). The graph spans the four packages, so a loop that crosses from one into another is found as well.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("shared_rules", "luza_wire", "hub", "firmware")


def modules(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Every module of the packages, by dotted name (a package by its own name:
    `hub.web` is hub/web/__init__.py)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def imports_of(module: str, path: Path, known: dict[str, Path]) -> dict[str, int]:
    """The known modules this file imports (at module level or in a function), each with its first line."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: dict[str, int] = {}

    def add(target: str, line: int) -> None:
        if target in known and target != module:
            out.setdefault(target, line)

    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base]) if base else ".".join(up)
            # `from pkg import mod` imports the module pkg.mod; otherwise a name of pkg
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                add(sub if sub in known else base, node.lineno)
    return out


def graph(known: dict[str, Path]) -> dict[str, dict[str, int]]:
    return {m: imports_of(m, p, known) for m, p in known.items()}


def cycles(edges: dict[str, dict[str, int]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative): each holds a loop."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[frozenset[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def describe(component: frozenset[str], edges: dict[str, dict[str, int]]) -> str:
    """The imports inside one loop, with their lines: what to cut."""
    inside = [
        f"{a} -> {b} (line {line})"
        for a in sorted(component)
        for b, line in sorted(edges[a].items())
        if b in component
    ]
    return "; ".join(inside)


def test_the_packages_are_all_seen() -> None:
    found = modules()
    assert {m.split(".")[0] for m in found} == set(PACKAGES)
    assert "shared_rules.variant" in found and "hub.service.router" in found and "firmware.node" in found
    assert "luza_wire.frame" in found


def test_no_import_cycle() -> None:
    edges = graph(modules())
    new = cycles(edges)  # none allowed (issue 21 removed the hub's last three)
    assert not new, "import cycles (cut one import of each; see this file's docstring): " + " | ".join(
        describe(c, edges) for c in new
    )


def test_the_checker_sees_loops_through_a_function_and_through_type_checking(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import B\n")
    (pkg / "b.py").write_text("def f():\n    from pkg.sub import c\n    return c\nB = 1\n")
    (pkg / "sub" / "c.py").write_text("import pkg.a\n")
    (pkg / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import e\n")
    (pkg / "e.py").write_text("from . import d\n")
    known = modules(tmp_path, ("pkg",))
    edges = graph(known)
    assert edges["pkg.b"] == {"pkg.sub.c": 2}
    assert edges["pkg.d"] == {"pkg.e": 3}
    found = sorted(cycles(edges), key=len)
    assert found == [frozenset({"pkg.d", "pkg.e"}), frozenset({"pkg.a", "pkg.b", "pkg.sub.c"})]
    assert "pkg.b -> pkg.sub.c (line 2)" in describe(found[1], edges)
