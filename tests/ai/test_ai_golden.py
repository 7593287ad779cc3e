"""The AI plays the golden games move for move: the same seeds and iteration budgets give the same
choices over whole games, in the pure source and in the compiled build alike
(`tests/regen_ai_golden.py` writes the golden file; it changes only with the AI's play)."""

from __future__ import annotations

import json

import pytest

from tests.regen_ai_golden import GAMES, GOLDEN, record

_GOLDEN = {(g["seed"], g["variant"]): g for g in json.loads(GOLDEN.read_text())}


@pytest.mark.parametrize("seed, variant, specs", GAMES)
def test_the_ai_plays_the_golden_game(seed, variant, specs):
    golden = _GOLDEN[(seed, variant)]
    assert golden["agents"] == list(specs)
    now = record(seed, variant, specs)
    for i, (step, expected) in enumerate(zip(now["steps"], golden["steps"])):
        assert step == expected, f"decision {i}: {step} instead of {expected}"
    assert len(now["steps"]) == len(golden["steps"])
    assert (now["digest"], now["points"]) == (golden["digest"], golden["points"])
