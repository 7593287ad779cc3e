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

import pytest

from amigos.bridge import Bridge
from tests.conformance.harness import run_scenario, scenario_files
from tests.helpers import TESTS

ROOT = TESTS / "scenarios"
# folder -> (ruleset, expansions) of the bridge its scenarios are played through
FOLDERS = {"official": ("official", ()), "reference": ("reference", ()), "lux": ("official", ("lux",))}


def _params() -> list:
    params = []
    for name in FOLDERS:
        folder = ROOT / name
        if not folder.is_dir():
            continue  # (collects none of its files: test_scenario_folder_is_present fails for it, loudly)
        for path in scenario_files(folder):
            params.append(pytest.param(name, path, id=f"{name}/{path.name}"))
    return params


@pytest.fixture(scope="module")
def bridges() -> dict:
    return {name: Bridge(ruleset=ruleset, expansions=expansions) for name, (ruleset, expansions) in FOLDERS.items()}


@pytest.mark.parametrize("name", FOLDERS)
def test_scenario_folder_is_present(name):
    """Every folder is there and holds scenarios: a missing or empty one is a failure, never a quiet run
    of no tests (test_card_scenario collects the files it finds, and none for a folder that is gone)."""
    folder = ROOT / name
    assert folder.is_dir(), f"the scenario folder {folder} is missing"
    files = scenario_files(folder)
    assert files, f"the scenario folder {folder} holds no *.json scenarios"
    collected = [p for p in _params() if p.values[0] == name]
    assert [p.values[1] for p in collected] == files


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
