"""The layer rule of DESIGN.md, checked on every module's imports (parsed with ``ast``).

    amigos_cli/ -> matches, ai, amigos, typer, rich, textual, textual_serve, aiohttp, msgpack   (the only layer that prints)
    training/   -> matches, ai, amigos, numpy, typer and rich (its command line)   (self-play and fitting: beside the CLI)
    matches/    -> ai, amigos, msgpack (match files), matplotlib (a tournament's charts; optional),
                   distributed (Dask, optional: only the cluster runner, imported lazily),
                   openskill (the ratings of tournaments of games of three players or more)
    ai/         -> amigos, numpy (the neural value)   (agents only)
    amigos/     -> standard library only
    lab/        evaluations and experiments, run as ``python -m lab.NAME``: not installed, and no package
                and no test imports it (the data its tests share are under tests/data/)

Every layer may also use the standard library. Imports inside functions count too.
"""

from __future__ import annotations

import ast
import fnmatch
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OURS = ("amigos", "ai", "matches", "training", "amigos_cli")
STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}

#: Top-level packages each layer may import besides the standard library.
ALLOWED: dict[str, frozenset[str]] = {
    "amigos": frozenset({"amigos"}),
    # numpy: the neural value's arithmetic (ai/network.py).
    "ai": frozenset({"amigos", "ai", "numpy"}),
    # msgpack: match files are written and read by this layer (DESIGN.md, "Match files").  matplotlib:
    # the tournament's charts (matches/charts.py), the optional plots extra, imported only to draw one.
    # distributed: the optional cluster runner (matches/runner.py), imported only to connect to one.
    # openskill: the ratings of tournaments of games of three players or more (matches/tournament.py).
    "matches": frozenset({"amigos", "ai", "matches", "msgpack", "matplotlib", "distributed", "openskill"}),
    # typer, rich: amigos-train is a Typer app as amigos is (training/cli.py, training/commands/), with a progress bar.
    "training": frozenset({"amigos", "ai", "matches", "training", "numpy", "typer", "rich"}),
    "amigos_cli": frozenset({"amigos", "ai", "matches", "amigos_cli", "typer", "rich", "textual", "textual_serve", "aiohttp", "msgpack"}),
}

#: Layers that must never print (printing belongs to amigos_cli).
SILENT = ("amigos", "ai", "matches")  # (training is a command of its own: it reports its progress)


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


def test_nothing_imports_the_lab_and_it_is_not_installed():
    """The lab is a package of scripts (``python -m lab.NAME``) that imports the program, never the other
    way: no module of the packages or of the tests imports it, and the build does not install it."""
    paths = [path for pkg in (*OURS, "tests") for path in modules(pkg)]
    bad = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        bad += [f"{path.relative_to(ROOT)}:{line} imports lab" for top, line in sorted(imported_tops(tree)) if top == "lab"]
    assert not bad, "\n".join(bad)
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    installed = setup["packages"]["find"]["include"]
    assert installed and not [p for p in installed if fnmatch.fnmatch("lab", p) or fnmatch.fnmatch("lab.puzzles", p)]


def test_checker_catches_violations():
    """The checker itself: a third-party import and a deep relative import are told apart."""
    tree = ast.parse("import os\nfrom rich.text import Text\nfrom . import x\ndef f():\n    import numpy\n")
    tops = {top for top, _ in imported_tops(tree)}
    assert tops == {"os", "rich", "numpy"}


def _engine_imports(path: Path) -> set[str]:
    """The engine modules ``path`` (in amigos/) imports when it runs: relative imports anywhere in it,
    inside functions too, but not those only for the type checker (under ``if TYPE_CHECKING:``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    checking_only = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            checking_only |= {id(n) for n in ast.walk(node)}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and id(node) not in checking_only:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found |= {alias.name for alias in node.names}
    return found


def test_the_engine_modules_import_one_another_without_a_cycle():
    """The rules modules (apply, flow, legal, draft, ...) never need the state module or each other
    in a circle: each can be read, tested and compiled on its own."""
    graph = {path.stem: _engine_imports(path) for path in modules("amigos") if path.stem != "__init__"}
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError("import cycle: " + " -> ".join(path[path.index(module):] + [module]))
        if module in done or module not in graph:
            return
        for child in sorted(graph[module]):
            visit(child, path + [module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
