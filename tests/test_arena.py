"""The strength harness: seat-swapped pairs, the Wilson interval, and splitting a run by pairs."""

import pytest

from ai.arena import play_game, score_for, strength, wilson
from amigos.adjudicate import ROUND_LIMIT


def test_wilson_interval_known_values():
    low, high = wilson(159, 200)
    assert (round(low, 3), round(high, 3)) == (0.734, 0.845)
    assert wilson(200, 200)[1] == 1.0 and wilson(0, 10)[0] == 0.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_score_counts_a_shared_win_half():
    assert score_for({"winners": [0]}, 0) == 1.0
    assert score_for({"winners": [0, 1]}, 1) == 0.5
    assert score_for({"winners": [1]}, 0) == 0.0


def test_a_game_reports_its_result():
    r = play_game(5, "standard", ["random", "random"])
    assert r["winners"] and r["decisions"] > 0 and len(r["vp"]) == 2
    assert max(r["vp"]) >= 10 or r["rounds"] > 0
    # Both seats had real choices, and forced moves (one legal action) are not counted as choices.
    assert all(c > 0 for c in r["chose"]) and sum(r["chose"]) < r["decisions"]


def test_splitting_a_run_by_pairs_plays_the_same_deals():
    whole = strength("greedy", "random", 6, seed=3)
    parts = [strength("greedy", "random", 2, seed=3, first=i) for i in range(3)]
    assert whole["games"] == 6
    assert whole["score"] == sum(p["score"] for p in parts)
    assert whole["low"] <= whole["rate"] <= whole["high"]


def test_pairs_swap_seats_on_one_deal():
    # The same deterministic agent in both seats: each seat's game is the same game, so the pair scores
    # exactly one point whoever wins it.
    r = strength("greedy", "greedy", 2, seed=9)
    assert r["score"] == pytest.approx(1.0)


def test_a_game_that_never_ends_is_adjudicated_at_the_round_limit():
    # Two greedy players on this deal hoard essences and pass forever; the arena stops the game after
    # the round limit and ranks the players as a victory check would, as a match does.
    r = play_game(15282502483002881163, "standard", ["greedy", "greedy"])
    assert r["adjudicated"] and r["rounds"] == ROUND_LIMIT + 1
    best = max(r["vp"])
    assert r["winners"] and all(r["vp"][p] == best for p in r["winners"])
