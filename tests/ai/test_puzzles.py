"""The puzzle suite (`matches.puzzles`, ``tests/data/puzzles/*.json``; scored by ``python -m
lab.puzzles``): every puzzle is a real choice whose answers are legal moves, and the scorer tells a
solving move from a failing one."""

from __future__ import annotations

import subprocess
import sys

import pytest

import amigos
from matches.puzzles import is_best, load_puzzles, matches, position_of, score
from tests.helpers import DATA, ROOT

PUZZLES = load_puzzles(DATA / "puzzles")


def test_the_suite_has_enough_puzzles_with_distinct_ids():
    assert len(PUZZLES) >= 1
    assert len({p["id"] for p in PUZZLES}) == len(PUZZLES)


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p["id"] for p in PUZZLES])
def test_a_puzzle_is_a_real_choice_with_legal_answers(puzzle):
    assert puzzle["why"].strip() and puzzle["source"].strip() and puzzle["best"]
    state = position_of(puzzle)
    legal = state.legal_actions()
    steps = [amigos.action_json(state, a) for a in legal]
    for pattern in puzzle["best"]:
        assert any(matches(pattern, step) for step in steps), f"no legal move matches {pattern}"
    best = [a for a in legal if is_best(puzzle, state, a)]
    assert len(state.legal_groups()) >= 2 and len(best) < len(legal), "every move solves it"


def test_matches_takes_every_key_of_the_pattern():
    step = {"__type__": "PlaceArtifact", "artifact_name": "Nightingale", "pay": {"life": 1, "calm": 1}}
    assert matches({"__type__": "PlaceArtifact", "artifact_name": "Nightingale"}, step)
    assert matches({"pay": {"life": 1, "calm": 1}}, step)
    assert not matches({"pay": {"life": 1}}, step)
    assert not matches({"__type__": "Pass"}, step)


def test_the_scorer_counts_solving_moves():
    puzzle = PUZZLES[0]
    state = position_of(puzzle)
    solving = next(a for a in state.legal_actions() if is_best(puzzle, state, a))
    failing = next(a for a in state.legal_actions() if not is_best(puzzle, state, a))
    assert is_best(puzzle, state, solving) and not is_best(puzzle, state, failing)
    result = score([puzzle], "random", seeds=4)
    assert result["total"] == 1 and 0 <= result["solved"] <= 1
    assert len(result["results"]) == 4
    assert all(r["solved"] == is_best(puzzle, state, _named(state, r["move"])) for r in result["results"])


def _named(state, text):
    return next(a for a in state.legal_actions() if amigos.action_text(state, a) == text)


def test_move_values_prints_every_look_at_a_puzzle_s_moves(tmp_path):
    """``python -m lab.move_values`` (the lab is run, never imported here), from a folder holding only
    the lab, so that it runs on the build these tests import (a compiled install's, or the checkout's)."""
    (tmp_path / "lab").symlink_to(ROOT / "lab")

    def move_values(*args):
        return subprocess.run([sys.executable, "-m", "lab.move_values", *args], cwd=tmp_path, capture_output=True,
                              text=True, timeout=600)
    done = move_values("great-pyramid-not-the-blind-top-1", "--iters", "60", "--reply-iters", "20", "--worlds", "3",
                       "--reply-worlds", "2", "--top", "2")
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr
    assert lines[0].split() == ["visits", "root", "value", "reply", "move"]
    assert len(lines) == 3
    for line in lines[1:]:
        visits, root, value, reply = line.split()[:4]
        assert int(visits) > 0 and all(0.0 <= float(v) <= 1.0 for v in (root, value, reply))
    assert move_values("no-such-puzzle").returncode == 2
