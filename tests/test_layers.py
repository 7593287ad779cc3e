"""The layer rule of DESIGN.md, checked on every module's imports (parsed with ``ast``).

    amigos_cli/ -> matches, ai, amigos, typer, rich, textual, textual_serve, msgpack   (the only layer that prints)
    matches/    -> ai, amigos, msgpack (match files)
    ai/         -> amigos
    amigos/     -> standard library only

Every layer may also use the standard library. Imports inside functions count too.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OURS = ("amigos", "ai", "matches", "amigos_cli")
STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}

#: Top-level packages each layer may import besides the standard library.
ALLOWED: dict[str, frozenset[str]] = {
    "amigos": frozenset({"amigos"}),
    "ai": frozenset({"amigos", "ai"}),
    # msgpack: match files are written and read by this layer (DESIGN.md, "Match files").
    "matches": frozenset({"amigos", "ai", "matches", "msgpack"}),
    "amigos_cli": frozenset({"amigos", "ai", "matches", "amigos_cli", "typer", "rich", "textual", "textual_serve", "msgpack"}),
}

#: Layers that must never print (printing belongs to amigos_cli).
SILENT = ("amigos", "ai", "matches")


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def imported_tops(tree: ast.AST) -> set[tuple[str, int]]:
    """(top-level package, line) for every absolute import in ``tree``."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add((alias.name.split(".")[0], node.lineno))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add((node.module.split(".")[0], node.lineno))
    return found


def all_modules() -> list[tuple[str, Path]]:
    return [(pkg, path) for pkg in OURS for path in modules(pkg)]


def test_layers_have_modules():
    assert modules("amigos"), "the engine package has no module to check"


@pytest.mark.parametrize("layer", OURS)
def test_imports_point_down(layer):
    bad = []
    for path in modules(layer):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for top, line in sorted(imported_tops(tree)):
            if top in STDLIB or top in ALLOWED[layer]:
                continue
            bad.append(f"{path.relative_to(ROOT)}:{line} imports {top}")
    assert not bad, f"layer {layer} may import only stdlib + {sorted(ALLOWED[layer])}:\n" + "\n".join(bad)


@pytest.mark.parametrize("layer", SILENT)
def test_no_print_outside_cli(layer):
    bad = []
    for path in modules(layer):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno} calls print()")
    assert not bad, "only amigos_cli prints:\n" + "\n".join(bad)


def test_checker_catches_violations():
    """The checker itself: a third-party import and a deep relative import are told apart."""
    tree = ast.parse("import os\nfrom rich.text import Text\nfrom . import x\ndef f():\n    import numpy\n")
    tops = {top for top, _ in imported_tops(tree)}
    assert tops == {"os", "rich", "numpy"}
