"""Card-by-card rule scenarios of our own (self-contained, no dependency on ../shared).

Every ``*.json`` file in ``tests/scenarios/official`` is played through ``Bridge(ruleset="official")``,
every file in ``tests/scenarios/reference`` through ``Bridge(ruleset="reference")`` and every file in
``tests/scenarios/lux`` (the *Lux et Tenebrae* expansion's cards and rulings, ``"expansions": ["lux"]``)
through ``Bridge(ruleset="official", expansions=("lux",))``.  The files use the scenario format of the
engine protocol (steps, chance steps, assertions, ``ActionFails``), plus the expansion's steps (``Bank``;
``VictoryReact``'s ``count_as``).  Files in ``reference`` exist only where the reference engine's reading
differs from the official rules (cards/DIFFERENCES.md rows 1-5); each is the twin of an ``official`` file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amigos.bridge import Bridge
from tests.conformance.harness import run_scenario, scenario_files

ROOT = Path(__file__).resolve().parent / "scenarios"
# folder -> (ruleset, expansions) of the bridge its scenarios are played through
FOLDERS = {"official": ("official", ()), "reference": ("reference", ()), "lux": ("official", ("lux",))}


def _params() -> list:
    params = []
    for name in FOLDERS:
        folder = ROOT / name
        if not folder.is_dir():
            continue
        for path in scenario_files(folder):
            params.append(pytest.param(name, path, id=f"{name}/{path.name}"))
    return params


@pytest.fixture(scope="module")
def bridges() -> dict:
    return {name: Bridge(ruleset=ruleset, expansions=expansions) for name, (ruleset, expansions) in FOLDERS.items()}


def test_scenario_folders_present():
    assert any((ROOT / name).is_dir() for name in FOLDERS), f"no scenario folders under {ROOT}"


@pytest.mark.parametrize("folder,path", _params())
def test_card_scenario(bridges, folder, path):
    scenario = json.loads(path.read_text(encoding="utf-8"))
    result = run_scenario(bridges[folder], scenario, path.name)
    if result.skipped:
        pytest.fail(f"{folder}/{path.name} was skipped by the harness: {result.message}", pytrace=False)
    if not result.passed:
        description = scenario.get("description", "")
        pytest.fail(f"[{folder}] {result.describe()}"
                    + (f"\n  scenario: {description}" if description else ""), pytrace=False)
