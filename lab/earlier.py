"""Agents of an earlier commit's `ai` package, playing on today's engine: the other side of a strength
run against an earlier version (``lab/against_commit.py``, ``lab/evaluate.py``).

The earlier package travels inside the builder as a tar archive (``git archive COMMIT ai``, about
60 KB), so that every process that builds agents (a local worker process, or a Dask worker on another
machine, which has today's amigos installed but not the commit) can: each unpacks it once, into a
temporary folder of its own removed at exit, and imports it as ``ai_then`` from there (the package
is loaded from its folder: nothing is put on ``sys.path``; its modules import one another relatively).
One process holds one earlier package at a time (its modules stay imported).
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import importlib.util
import io
import shutil
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ai.agent import Agent
from ai.agents import make_agent

if TYPE_CHECKING:
    from amigos.state import GameState

#: The name the earlier `ai` package is imported under (today's is `ai`).
PACKAGE = "ai_then"

# Per process: the archive's digest -> the folder it is unpacked in.
_UNPACKED: dict[str, str] = {}


class EarlierAgents:
    """Builds an agent from a spec, ``make(spec, seed=...)``: by the archived earlier `ai` package when
    the spec starts with ``prefix`` (e.g. ``"1088fd9:"``, removed before the earlier package reads the
    spec), else by today's `make_agent`.  Picklable by reference, archive included."""

    def __init__(self, archive: bytes, prefix: str) -> None:
        self.archive = archive
        self.prefix = prefix

    def __call__(self, spec: str, seed: int | None = None) -> Agent:
        if not spec.startswith(self.prefix):
            return make_agent(spec, seed=seed)
        folder = unpack(self.archive)
        _old_engine_names()
        _import_package(Path(folder) / PACKAGE)
        earlier = importlib.import_module(f"{PACKAGE}.agents")
        return Adapted(earlier.make_agent(spec[len(self.prefix):], seed=seed))


def _import_package(folder: Path) -> None:
    """Import the package in ``folder`` as `PACKAGE` (once a process: the one imported first stays); its
    submodules are then found in its folder by the import system."""
    if PACKAGE in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(PACKAGE, folder / "__init__.py",
                                                  submodule_search_locations=[str(folder)])
    if spec is None or spec.loader is None:
        raise ImportError(f"no package {PACKAGE} in {folder}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[PACKAGE] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[PACKAGE]
        raise


def _old_engine_names() -> None:
    """Give `amigos.state` the codes it re-exported when an earlier `ai` was written (it imports them
    from there; today they are only in `amigos.codes`)."""
    import amigos.codes
    import amigos.state
    for name in dir(amigos.codes):
        if name.isupper() and not hasattr(amigos.state, name):
            setattr(amigos.state, name, getattr(amigos.codes, name))


def unpack(archive: bytes) -> str:
    """The folder (of this process) where ``archive`` (a tar of an ``ai/`` folder) is unpacked as
    `PACKAGE`; unpacked on the first call, removed when the process exits."""
    digest = hashlib.sha256(archive).hexdigest()
    if digest not in _UNPACKED:
        folder = tempfile.mkdtemp(prefix="amigos-ai-then-")
        atexit.register(shutil.rmtree, folder, True)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            try:
                tar.extractall(folder, filter="data")
            except TypeError:  # Python before 3.11.4: no extraction filters (the archive is our own)
                tar.extractall(folder)
        (Path(folder) / "ai").rename(Path(folder) / PACKAGE)
        _UNPACKED[digest] = folder
    return _UNPACKED[digest]


class Adapted:
    """An object with ``select(state)`` and ``info`` as an `Agent`: its own ``observe``, ``reseed`` and
    ``close`` when it has them, else nothing; it is not told a search's progress."""

    player: Any

    def __init__(self, player: Any) -> None:
        self.player = player

    @property
    def info(self) -> dict:
        info: dict = self.player.info
        return info

    def select(self, state: GameState, progress: Callable[[int], None] | None = None) -> tuple:
        action: tuple = self.player.select(state)
        return action

    def observe(self, state: GameState, action: tuple) -> None:
        observe = getattr(self.player, "observe", None)
        if observe is not None:
            observe(state, action)

    def reseed(self, seed: int) -> None:
        reseed = getattr(self.player, "reseed", None)
        if reseed is not None:
            reseed(seed)

    def close(self) -> None:
        close = getattr(self.player, "close", None)
        if close is not None:
            close()
