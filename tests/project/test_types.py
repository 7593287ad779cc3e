"""The program type-checks: ``mypy`` over amigos/, ai/, matches/, training/ and amigos_cli/ (configured in
pyproject.toml, every function annotated) reports no error."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers import ROOT

pytestmark = pytest.mark.slow  # a whole mypy run


def test_the_program_type_checks():
    pytest.importorskip("mypy")
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-1000:]
