"""AI speed: MCTS iterations per second (one process, two workers), determinisation, the bench search."""

import random

import pytest

import amigos
from ai.agents import make_agent
from ai.expectimax import Expectimax
from amigos.determinize import Determinizer, determinize


def mid_game(seed=3, steps=30):
    s = amigos.new_game(seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        legal = s.legal_actions()
        s.apply(legal[rnd.randrange(len(legal))])
    while len(s.legal_actions()) < 3:
        s.apply(s.legal_actions()[0])
    return s


@pytest.fixture(scope="module")
def position():
    return mid_game()


def test_mcts_iterations_one_process(benchmark, position):
    agent = make_agent("mcts:iters=300,seed=1")
    benchmark.pedantic(agent.select, args=(position,), rounds=5, iterations=1)
    benchmark.extra_info["iterations_per_call"] = 300
    benchmark.extra_info["iterations_per_second"] = 300 / benchmark.stats.stats.mean


def test_mcts_iterations_two_workers(benchmark, position):
    agent = make_agent("mcts:iters=600,workers=2,seed=1")
    agent.select(position)  # start the worker processes outside the measurement
    benchmark.pedantic(agent.select, args=(position,), rounds=5, iterations=1)
    benchmark.extra_info["iterations_per_call"] = 600
    benchmark.extra_info["iterations_per_second"] = 600 / benchmark.stats.stats.mean
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
