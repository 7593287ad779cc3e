"""What tests in every folder share: where the repository, the tests and their data are."""

from __future__ import annotations

from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[1]  # the repository
TESTS: Final = ROOT / "tests"
DATA: Final = TESTS / "data"
