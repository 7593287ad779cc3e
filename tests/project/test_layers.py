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

from tests.helpers import ROOT

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
    # platformdirs: the folder of match files, in the platform's user data folder (matches/folder.py).
    "matches": frozenset({"amigos", "ai", "matches", "msgpack", "matplotlib", "distributed", "openskill",
                          "platformdirs"}),
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


# -- one gate for what a player sees (issue 52) ------------------------------------------------------------

#: The modules that draw what a player sees on a terminal: the line prompt's board, the log's words, the
#: full screen's board, hand, card panel, log and end of game, the replay (full screen and printed).
#: They draw from the engine's observation (`amigos_cli.views.seen`), never from the position.
DRAWING = ("amigos_cli/views/seen.py", "amigos_cli/views/board.py", "amigos_cli/views/outcome.py",
           "amigos_cli/views/log.py", "amigos_cli/tui/board.py", "amigos_cli/tui/boardview.py",
           "amigos_cli/tui/cards.py", "amigos_cli/tui/ending.py", "amigos_cli/tui/gamelog.py",
           "amigos_cli/tui/replay.py", "amigos_cli/commands/replay.py")

#: The names of `GameState` that other objects of the screens have too, so an attribute of that name is
#: not the position's: the apps' ``names`` (the players' names); and ``observation``, the gate itself.
SHARED_NAMES = frozenset({"names", "observation"})

def position_names() -> frozenset[str]:
    """Every field, method and property of a position (`GameState`) but `SHARED_NAMES`."""
    from amigos.state import GameState
    return frozenset({n for n in dir(GameState) if not n.startswith("__")} | set(GameState.__slots__)) - SHARED_NAMES


def raw_reads(source: str) -> list[str]:
    """Where ``source`` reads a position itself: an import of ``amigos.state`` (but under ``if
    TYPE_CHECKING:``, for annotations), an attribute of a position's name (`position_names`), or a
    ``getattr`` of one."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    for node in ast.walk(tree):
        checking = isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        if checking:
            skipped |= {id(n) for n in ast.walk(node)}
    names = position_names()
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if a.name.startswith("amigos.state")]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module.startswith("amigos.state") or (node.module == "amigos" and any(a.name == "state" for a in node.names)):
                found.append(f"{node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Attribute) and node.attr in names:
            found.append(f"{node.lineno}: .{node.attr}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
              and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and node.args[1].value in names):
            found.append(f"{node.lineno}: getattr(..., {node.args[1].value!r})")
    return found


def test_the_raw_read_check_finds_what_a_screen_read_before():
    """The check itself, on lines the screens had before issue 52, and on what they do now."""
    assert {"loc", "owner", "cards", "hand", "deck", "in_play", "pool_of", "essences_on", "turned",
            "points_breakdown", "victory_points", "vp", "first_player", "phase", "round", "is_terminal",
            "current_player", "legal_groups", "n_players", "n_art"} <= position_names()
    old = ("from amigos.state import GameState\n"
           "def f(state, e, p):\n"
           "    mine = [x for x in range(len(state.loc)) if state.loc[x] == 5 and state.owner[x] == p]\n"
           "    return state.cards[e].name, state.points_breakdown(p), state.round, getattr(state, 'turned')\n")
    assert len(raw_reads(old)) == 8
    assert raw_reads("import amigos.state\nfrom amigos import state\n") == ["1: import amigos.state", "2: from amigos import ..."]
    now = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from amigos.state import GameState\n"
           "def f(view: GameState, names) -> str:\n    seen = look(view, 0)\n    return names[0] + str(seen.points(0))\n")
    assert raw_reads(now) == []


@pytest.mark.parametrize("module", DRAWING)
def test_no_drawing_module_reads_the_position(module):
    """Each drawing module draws through the gate (it imports `amigos.observe`, `amigos_cli.views.seen`,
    or the log's words, which read observations) and reads nothing of a position itself (`raw_reads`)."""
    source = (ROOT / module).read_text(encoding="utf-8")
    imported = {node.module.rpartition(".")[2] for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.ImportFrom) and node.module}
    assert imported & {"observe", "seen", "log", "outcome"}, f"{module} draws from no observation"
    found = raw_reads(source)
    assert not found, f"{module} reads the position itself (draw from a Seen instead):\n" + "\n".join(found)
