"""The puzzles' ``mistakes`` (`matches.puzzles`, ``tests/data/puzzles/*.json``): the moves each puzzle's
``why`` names as wrong, as patterns of the same form as ``best``; every one is a legal move of the
position and none is a solving move."""

from __future__ import annotations

import pytest

import amigos
from matches.puzzles import load_puzzles, matches, position_of
from tests.helpers import DATA

PUZZLES = load_puzzles(DATA / "puzzles")

#: How many puzzles name at least one wrong move (two say only that the other moves can wait).
WITH_MISTAKES = 42


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p["id"] for p in PUZZLES])
def test_the_mistakes_are_legal_moves_that_do_not_solve_the_puzzle(puzzle):
    mistakes = puzzle["mistakes"]
    assert isinstance(mistakes, list)
    state = position_of(puzzle, seed=0)
    steps = [amigos.action_json(state, a) for a in state.legal_actions()]
    best = [step for step in steps if any(matches(pattern, step) for pattern in puzzle["best"])]
    for pattern in mistakes:
        assert isinstance(pattern, dict) and pattern, f"not a pattern: {pattern!r}"
        assert any(matches(pattern, step) for step in steps), f"no legal move matches {pattern}"
        solving = [step for step in best if matches(pattern, step)]
        assert not solving, f"{pattern} matches the solving move {solving[0]}"


def test_most_puzzles_name_a_mistake():
    assert sum(bool(p["mistakes"]) for p in PUZZLES) >= WITH_MISTAKES
