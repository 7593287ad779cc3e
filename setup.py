"""The build: the engine and the search's hot modules compiled with mypyc, else the pure source.

``pip install .`` compiles `COMPILED_MODULES` with mypyc into C extensions beside the pure modules
(an extension is imported before a ``.py`` of the same name).  It installs the pure source alone,
with a one-line notice, when ``AMIGOS_PURE`` is set (to anything but ``0``), when no C compiler or
Python headers are found, or when compiling fails.  An editable install (``pip install -e .``) is
always pure, so an edit is never shadowed by a stale compiled module.  Which build runs is
``amigos.COMPILED``.  Everything else about the project is in pyproject.toml.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The engine (a game's rules, its state and chance) and the search (MCTS, its leaf values and the
# heuristics it calls at every node): where the time of play and of search goes.
COMPILED_MODULES = [
    "amigos/actions.py", "amigos/adjudicate.py", "amigos/apply.py", "amigos/cards.py", "amigos/codes.py",
    "amigos/determinize.py", "amigos/draft.py", "amigos/essences.py", "amigos/flow.py", "amigos/legal.py",
    "amigos/observe.py", "amigos/payments.py", "amigos/rng.py", "amigos/state.py",
    "ai/encoding.py", "ai/evaluate.py", "ai/features.py", "ai/heuristics.py", "ai/leaf.py", "ai/learned.py",
    "ai/expectimax.py", "ai/halving.py", "ai/mcts.py", "ai/network.py", "ai/rewards.py", "ai/value.py",
]
# The setup.py commands that build extensions; the others (egg_info, dist_info, editable_wheel,
# develop, ...) only describe the project or make the pure editable install.
BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "install", "bdist"}


def notice(message: str) -> None:
    print(f"amigos: {message}", file=sys.stderr)


def why_pure() -> str | None:
    """The reason this build installs the pure source only, or None to compile."""
    if os.environ.get("AMIGOS_PURE", "0") not in ("", "0"):
        return "AMIGOS_PURE is set: installing the pure Python source"
    if os.name != "nt":  # (on Windows, MSVC is found by setuptools itself; a failure falls back below)
        compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
        if not compiler or shutil.which(compiler[0]) is None:
            return "no C compiler found: installing the pure Python source (slower search)"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h) found: installing the pure Python source (slower search)"
    return None


def compiled_extensions() -> list[Any]:
    """mypyc's extensions for `COMPILED_MODULES`, or [] (with a notice) for a pure build."""
    if not BUILD_COMMANDS.intersection(sys.argv[1:]):
        return []
    for lib in Path("build").glob("lib*"):  # (pip builds in the source tree and keeps build/ between installs)
        remove_compiled(lib)
    reason = why_pure()
    if reason is None:
        try:
            from mypyc.build import mypycify
            return list(mypycify(COMPILED_MODULES, opt_level="3"))
        except (SystemExit, Exception) as exc:  # noqa: BLE001 (any failure, mypy's errors too: build pure)
            reason = f"mypyc could not compile ({type(exc).__name__}): installing the pure Python source"
    notice(reason)
    return []


def remove_compiled(lib: Path) -> None:
    """Delete every compiled module of ours from the build folder ``lib``, so that none is shipped by
    a build that did not make it (an earlier build's, or a failed one's)."""
    for found in [*lib.glob("*__mypyc*"), *(lib / "amigos").glob("*.so"), *(lib / "amigos").glob("*.pyd"),
                  *(lib / "ai").glob("*.so"), *(lib / "ai").glob("*.pyd")]:
        found.unlink()


class BuildExtOrPure(build_ext):
    """build_ext that falls back to the pure source when the C compiler fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 (a compiler error of any kind: the .py files remain)
            notice(f"compiling failed ({type(exc).__name__}: {exc}); installing the pure Python source")
            remove_compiled(Path(self.build_lib))
            self.extensions = []
            self.distribution.ext_modules = []

    def get_outputs(self) -> list[str]:
        return super().get_outputs() if self.extensions else []


if __name__ == "__main__":  # (as setuptools runs it; tests import the functions above)
    setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": BuildExtOrPure})
