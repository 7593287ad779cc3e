"""Which build the tests exercise.

By default the checkout's own source (pytest puts the repository first on ``sys.path``).  With
``AMIGOS_TEST_INSTALLED=1`` the installed packages instead, e.g. a compiled ``pip install .`` in
another venv: CI runs the engine, AI and conformance tests that way against the mypyc build.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALLED = os.environ.get("AMIGOS_TEST_INSTALLED", "0") not in ("", "0")


def _import_installed() -> None:
    """Import the four packages from site-packages, hiding the checkout while they load (the tests'
    own package, ``tests``, still imports from the checkout afterwards)."""
    saved = sys.path[:]
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT]
    try:
        for name in ("amigos", "ai", "matches", "amigos_cli"):
            if name in sys.modules:
                raise RuntimeError(f"{name} was imported from the checkout before conftest ran")
            __import__(name)
    finally:
        sys.path[:] = saved
    found = Path(sys.modules["amigos"].__file__ or "").resolve()
    if found.parent == ROOT / "amigos":  # (a venv inside the checkout, as CI's, is fine)
        raise RuntimeError(f"AMIGOS_TEST_INSTALLED: amigos is imported from the checkout ({found})")


if INSTALLED:
    _import_installed()


def pytest_report_header() -> str:
    import amigos
    build = "compiled with mypyc" if amigos.COMPILED else "pure Python"
    return f"amigos: {build}, from {Path(amigos.__file__ or '').parent}"


#: The folder of match files while the tests run (`matches.folder.MATCHES_ENV`), set before any test module
#: is imported, so that an environment a module copies for its subprocesses at import (``ENV = dict(os.environ,
#: ...)``) never points them at the user's own folder; each test then has a folder of its own (`_own_matches`).
_SESSION_MATCHES: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _SESSION_MATCHES
    _SESSION_MATCHES = tempfile.mkdtemp(prefix="amigos-test-matches-")
    os.environ["AMIGOS_MATCHES"] = _SESSION_MATCHES


def pytest_unconfigure(config: pytest.Config) -> None:
    if _SESSION_MATCHES is not None:
        shutil.rmtree(_SESSION_MATCHES, ignore_errors=True)


@pytest.fixture(autouse=True)
def _own_matches(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test has a folder of match files of its own (never the user's data folder: a `play` without
    --save saves there); the subprocesses it starts inherit it."""
    monkeypatch.setenv("AMIGOS_MATCHES", str(tmp_path_factory.mktemp("matches", numbered=True) / "matches"))


@pytest.fixture(autouse=True)
def _own_settings(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test has a settings folder of its own (never the user's `amigos_cli.settings` file); the
    subprocesses it starts inherit it."""
    monkeypatch.setenv("AMIGOS_CONFIG", str(tmp_path_factory.mktemp("config")))
