"""Seeded AI games are played the same, move for move: twice in one build (the same seeds and
iteration budgets give the same choices over whole games), and in the compiled build as in the pure
source (CI's compiled run plays each game in the pure source too, in a child process of the checkout).
Nothing is pinned: an AI that plays better plays its new moves alike everywhere."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

import amigos
from tests.ai.seeded_games import GAMES, record
from tests.conftest import INSTALLED
from tests.helpers import ROOT


def _same(now: dict[str, Any], then: dict[str, Any], what: str) -> None:
    for i, (step, expected) in enumerate(zip(now["steps"], then["steps"])):
        assert step == expected, f"{what}, decision {i}: {step} instead of {expected}"
    assert len(now["steps"]) == len(then["steps"]), what
    assert (now["digest"], now["points"]) == (then["digest"], then["points"]), what


@pytest.fixture(scope="module")
def pure_games() -> dict[tuple[int, str], dict[str, Any]]:
    """Every seeded game as the checkout's pure source plays it, in a child process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AMIGOS_TEST_INSTALLED": "0"}
    out = subprocess.run([sys.executable, "-m", "tests.ai.seeded_games"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=900, check=True).stdout
    games = [json.loads(line) for line in out.splitlines()]
    return {(g["seed"], g["variant"]): g for g in games}


@pytest.mark.parametrize("seed, variant, specs", GAMES)
def test_a_seeded_game_is_played_the_same_twice(seed, variant, specs):
    first = record(seed, variant, specs)
    assert first["agents"] == list(specs) and first["steps"]
    _same(record(seed, variant, specs), first, "played again")


@pytest.mark.skipif(not INSTALLED, reason="the compiled build's test (AMIGOS_TEST_INSTALLED=1)")
@pytest.mark.parametrize("seed, variant, specs", GAMES)
def test_the_compiled_build_plays_the_pure_sources_moves(seed, variant, specs, pure_games):
    assert amigos.COMPILED, "AMIGOS_TEST_INSTALLED is meant for the compiled build"
    _same(record(seed, variant, specs), pure_games[(seed, variant)], "compiled against pure")
