"""The search's speed (pytest-benchmark): ``python -m pytest benchmarks/test_search.py --benchmark-only``.

MCTS iterations a second in one process and in two workers at a mid-game position, with the linear
learned value and with the network (the default) at the six fixed positions of `SEARCH_POSITIONS`
(their ratio is the README's "81% of the linear value's"), determinisation, and expectimax.
"""

from __future__ import annotations

import pytest
from bench_positions import SEARCH_POSITIONS, search_position

from ai.agents import make_agent
from ai.evaluator import default_evaluator
from ai.expectimax import Expectimax
from ai.mcts import Settings, search
from amigos.determinize import Determinizer, determinize


@pytest.fixture(scope="module")
def position():
    return search_position()


def test_mcts_iterations_one_process(benchmark, position):
    agent = make_agent("mcts:iters=300,seed=1")
    benchmark.pedantic(agent.select, args=(position,), rounds=5, iterations=1)
    _per_second(benchmark, 300)


def test_mcts_iterations_two_workers(benchmark, position):
    agent = make_agent("mcts:iters=600,workers=2,seed=1")
    agent.select(position)  # start the worker processes outside the measurement
    benchmark.pedantic(agent.select, args=(position,), rounds=5, iterations=1)
    _per_second(benchmark, 600)
    agent.close()


def test_determinize(benchmark, position):
    p = position.current_player()
    seeds = iter(range(10**9))
    benchmark(lambda: determinize(position, p, next(seeds)))


def test_deal_from_a_prepared_determinizer(benchmark, position):
    """What a search iteration pays: the observation is worked out once per search."""
    deal = Determinizer(position, position.current_player()).deal
    seeds = iter(range(10**9))
    benchmark(lambda: deal(next(seeds)))


def test_expectimax_depth2(benchmark, position):
    s = position.clone_offering_chance()
    benchmark.pedantic(lambda: Expectimax(2).search(s, s.current_player()), rounds=5, iterations=1)


@pytest.fixture(scope="module")
def positions():
    return [search_position(seed, steps) for seed, steps in SEARCH_POSITIONS]


@pytest.mark.parametrize("value", ["linear", "net"])
def test_search_iterations_at_six_positions(benchmark, positions, value):
    """2,000 iterations at each of the six positions, one process, no rollout: the learned values' search."""
    evaluator = default_evaluator(value)
    settings = Settings()

    def six() -> int:
        return sum(search(s, s.current_player(), 2000, None, 1, settings, evaluator=evaluator)[1] for s in positions)

    done = benchmark.pedantic(six, rounds=2, iterations=1, warmup_rounds=0)
    assert done == 2000 * len(positions)
    _per_second(benchmark, done)


def _per_second(benchmark, iterations: int) -> None:
    """Note a call's iterations and their rate (the rate is absent under --benchmark-disable)."""
    benchmark.extra_info["iterations_per_call"] = iterations
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["iterations_per_second"] = round(iterations / stats.stats.mean)
