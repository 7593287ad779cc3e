"""Engine speed (pytest-benchmark): ``python -m pytest benchmarks/test_engine.py --benchmark-only``.

- a whole uniform-random 2-player game (``random.Random(seed)`` choices, ``apply_unchecked``), decisions
  per game in ``extra_info``;
- one ``legal_actions()`` + ``apply_unchecked()`` step from a mid-game position (a fresh clone each round);
- ``clone()`` of a mid-game state.
"""

from __future__ import annotations

import random

import pytest
from bench_positions import mid_game, random_game


@pytest.mark.parametrize("variant", ["standard", "first_game", "draft"])
def test_random_game(benchmark, variant):
    seeds = iter(range(10**9))
    decisions = []

    def one_game():
        seed = next(seeds)
        n = random_game(seed, variant)
        decisions.append(n)
        return n

    benchmark.pedantic(one_game, rounds=30, iterations=1, warmup_rounds=0)
    benchmark.extra_info["variant"] = variant
    benchmark.extra_info["games"] = len(decisions)
    benchmark.extra_info["decisions_per_game_mean"] = sum(decisions) / len(decisions)
    benchmark.extra_info["decisions_per_game_max"] = max(decisions)
    stats = getattr(benchmark, "stats", None)
    if stats is not None:  # absent under --benchmark-disable
        benchmark.extra_info["decisions_per_second"] = round(sum(decisions) / stats.stats.total)


@pytest.fixture(scope="module")
def mid():
    s = mid_game(seed=3)
    assert not s.is_terminal() and s.round >= 3 and not s.stack
    return s


def test_step_from_mid_game(benchmark, mid):
    rng = random.Random(0)

    def setup():
        return (mid.clone(), rng), {}

    def step(s, r):
        legal = s.legal_actions()
        s.apply_unchecked(legal[r.randrange(len(legal))])

    benchmark.pedantic(step, setup=setup, rounds=2000, iterations=1, warmup_rounds=10)
    benchmark.extra_info["round"] = mid.round
    benchmark.extra_info["legal_actions"] = len(mid.clone().legal_actions())


def test_clone_mid_game(benchmark, mid):
    c = benchmark(mid.clone)
    assert c.digest() == mid.digest()
    benchmark.extra_info["entities"] = len(mid.loc)
