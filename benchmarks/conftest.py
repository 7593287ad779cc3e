"""The benchmarks measure whichever build the interpreter imports: the checkout's pure source (run
from the repository: ``python -m pytest benchmarks --benchmark-only``) or a compiled install (run
from elsewhere with that venv's python: ``cd / && VENV/bin/python -m pytest REPO/benchmarks
--benchmark-only -p no:cacheprovider``).  The build is in the header and in the saved results'
``machine_info``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import amigos


def _build() -> str:
    kind = "compiled with mypyc" if amigos.COMPILED else "pure Python"
    return f"{kind}, from {Path(amigos.__file__ or '').parent}"


def pytest_report_header() -> str:
    return f"amigos: {_build()}"


def pytest_benchmark_update_machine_info(config: Any, machine_info: dict) -> None:
    machine_info["amigos_build"] = _build()
