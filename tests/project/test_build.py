"""The build: pure where asked or where it cannot compile, and the checkout always pure.

(That ``pip install .`` compiles where it can is checked by CI, which installs a compiled build
into a second venv, checks ``amigos.COMPILED`` and runs the engine and AI tests against it.)
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import amigos
from tests.conftest import INSTALLED
from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # pip installs of the checkout (and a compile of it)


# pip builds in the source tree (ROOT/build, the egg-info): two installs at once, as from two pytest-xdist
# workers or two test runs in one checkout, would build over each other; they take turns on this lock.
BUILD_LOCK = Path(tempfile.gettempdir()) / f"amigos-tests-build-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:16]}.lock"


def _install_to(target: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``pip install .`` of the checkout into ``target`` (no dependencies), one at a time."""
    with open(BUILD_LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # (let go when the file is closed)
        return subprocess.run(
            [sys.executable, "-m", "pip", "install", "-v", "--no-deps", "--target",
             str(target), str(ROOT)], capture_output=True, text=True, env={**os.environ, **env}, timeout=600)


def _extensions(target: Path) -> list[Path]:
    return [p for package in ("amigos", "ai") for p in (target / package).glob("*.so")]


def test_amigos_pure_installs_the_pure_source_with_a_notice(tmp_path: Path) -> None:
    done = _install_to(tmp_path, AMIGOS_PURE="1")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "amigos: AMIGOS_PURE is set: installing the pure Python source" in done.stdout + done.stderr
    assert (tmp_path / "amigos" / "state.py").exists() and not _extensions(tmp_path)


def test_without_a_c_compiler_the_install_is_pure_with_a_notice(tmp_path: Path) -> None:
    done = _install_to(tmp_path, CC="/nonexistent/cc", AMIGOS_PURE="0")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "amigos: no C compiler found" in done.stdout + done.stderr
    assert (tmp_path / "amigos" / "state.py").exists() and not _extensions(tmp_path)


def test_a_compiler_that_fails_installs_the_pure_source_and_no_stale_extension(tmp_path: Path) -> None:
    """mypyc writes the C, the C compiler fails: pure, and nothing compiled is shipped, not even what
    an earlier build left in the source tree's build folder."""
    done = _install_to(tmp_path, CC="false", AMIGOS_PURE="0")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "amigos: compiling failed" in done.stdout + done.stderr
    assert (tmp_path / "amigos" / "state.py").exists() and not _extensions(tmp_path)
    assert not list(tmp_path.glob("*__mypyc*"))


@pytest.mark.skipif(INSTALLED, reason="tests the checkout's own build")
def test_the_checkout_runs_the_pure_source() -> None:
    """An editable install (and pytest in the checkout) runs the .py files: no stale extension can
    shadow an edit."""
    assert not amigos.COMPILED
    assert Path(amigos.__file__ or "").parent == ROOT / "amigos"
    assert not [p for package in ("amigos", "ai", "matches", "amigos_cli") for p in (ROOT / package).glob("*.so")]


def test_the_version_line_names_the_build(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "amigos_cli.app", "--version"], capture_output=True,
                          text=True, timeout=60, cwd=tmp_path)  # (not the checkout: the build under test)
    build = "compiled with mypyc" if amigos.COMPILED else "pure Python"
    assert done.stdout.strip().endswith(f"({build})"), done.stdout + done.stderr
