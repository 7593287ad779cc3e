"""Card-by-card rule scenarios of our own (self-contained, no dependency on ../shared).

Every ``*.json`` file in ``tests/scenarios/official`` is played through ``Bridge(ruleset="official")``
and every file in ``tests/scenarios/reference`` through ``Bridge(ruleset="reference")``.  The files
use the scenario format of the engine protocol (steps, chance steps, assertions, ``ActionFails``).
Files in ``reference`` exist only where the reference engine's reading differs from the official
rules (cards/DIFFERENCES.md rows 1-5); each is the twin of an ``official`` file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amigos.bridge import Bridge
from tests.conformance.harness import run_scenario, scenario_files

ROOT = Path(__file__).resolve().parent / "scenarios"
RULESETS = ("official", "reference")


def _params() -> list:
    params = []
    for ruleset in RULESETS:
        folder = ROOT / ruleset
        if not folder.is_dir():
            continue
        for path in scenario_files(folder):
            params.append(pytest.param(ruleset, path, id=f"{ruleset}/{path.name}"))
    return params


@pytest.fixture(scope="module")
def bridges() -> dict:
    return {ruleset: Bridge(ruleset=ruleset) for ruleset in RULESETS}


def test_scenario_folders_present():
    assert any((ROOT / r).is_dir() for r in RULESETS), f"no scenario folders under {ROOT}"


@pytest.mark.parametrize("ruleset,path", _params())
def test_card_scenario(bridges, ruleset, path):
    scenario = json.loads(path.read_text(encoding="utf-8"))
    result = run_scenario(bridges[ruleset], scenario, path.name)
    if result.skipped:
        pytest.fail(f"{ruleset}/{path.name} was skipped by the harness: {result.message}", pytrace=False)
    if not result.passed:
        description = scenario.get("description", "")
        pytest.fail(f"[{ruleset} ruleset] {result.describe()}"
                    + (f"\n  scenario: {description}" if description else ""), pytrace=False)
