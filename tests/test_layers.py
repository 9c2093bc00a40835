"""The hub's packages form layers, and imports only go down: a lower stage never reaches into a higher one.

The layers (docs/hub.md, "Layout"): 0 the hub's base modules and the virtual table, 1 the vocabulary (vocab),
2 store, 3 reconcile, 4 ingest and ota, 5 view (the read model), 6 service, 7 deploy, export and stats, 8
web, 9 demo, 10 commands and the CLI.
Imports inside functions count too: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

HUB = Path(__file__).resolve().parent.parent / "hub"
LAYERS = {
    "vocab": 1,
    "store": 2,
    "reconcile": 3,
    "ingest": 4,
    "ota": 4,
    "view": 5,
    "service": 6,
    "deploy": 7,
    "export": 7,
    "stats": 7,
    "web": 8,
    "demo": 9,
    "commands": 10,
    "cli": 10,
    "virtual": 0,
}
BASE = {"config", "configfile", "errors", "logs", "names", "translit", "steadyclock", "hubclock", "__init__"}


def layer_of(module: str) -> int:
    """The layer of a dotted module under hub (`hub.store.database` -> 2)."""
    parts = module.split(".")
    assert parts[0] == "hub"
    if len(parts) == 1 or parts[1] in BASE:
        return 0
    if parts[1] not in LAYERS:
        raise AssertionError(f"{module}: not in any layer; add its package to LAYERS and docs/hub.md")
    return LAYERS[parts[1]]


def hub_modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(HUB.rglob("*.py")):
        rel = path.relative_to(HUB.parent).with_suffix("")
        found.append((".".join(rel.parts), path))
    return found


def imports_of(path: Path, module: str) -> list[tuple[str, int]]:
    """Every hub module this file imports, with the line."""
    tree = ast.parse(path.read_text(), str(path))
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module
    out: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names if a.name.split(".")[0] == "hub"]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base]) if base else ".".join(up)
            if base.split(".")[0] != "hub":
                continue
            if base == "hub":  # from hub import config, ... : each name is a module
                out += [(f"hub.{a.name}", node.lineno) for a in node.names]
            else:
                out.append((base, node.lineno))
    return out


def test_every_hub_module_sits_in_a_layer() -> None:
    modules = hub_modules()
    assert len(modules) > 60
    for module, _ in modules:
        layer_of(module)


@pytest.mark.parametrize("module,path", hub_modules(), ids=lambda v: v if isinstance(v, str) else "")
def test_imports_only_go_down(module: str, path: Path) -> None:
    mine = layer_of(module)
    upward = [
        f"line {line}: {target} (layer {layer_of(target)})"
        for target, line in imports_of(path, module)
        if layer_of(target) > mine
    ]
    assert not upward, f"{module} (layer {mine}) imports a higher layer: " + "; ".join(upward)


def test_the_checker_sees_an_upward_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from hub.web.app import create_app\n")
    targets = imports_of(bad, "hub.store.bad")
    assert targets == [("hub.web.app", 2)]
    assert layer_of(targets[0][0]) > layer_of("hub.store.bad")
