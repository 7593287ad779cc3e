"""The AI's levels (``level:1`` ... ``level:5``, `ai.agents.LEVELS`) and the temperature that makes the
lower ones err as people do (``temper``: the move sampled by its searched chance, `MCTSAgent.tempered`)."""

from __future__ import annotations

from collections import Counter

import pytest

import amigos
from ai.agents import LEVELS, SpecError, make_agent, parse_spec
from ai.mcts import MCTSAgent
from amigos.config import GameConfig


def test_each_level_is_the_search_its_table_names_and_the_levels_grow_in_search():
    assert sorted(LEVELS) == [1, 2, 3, 4, 5]
    for n, spec in LEVELS.items():
        assert parse_spec(f"level:{n}") == parse_spec(spec)
    assert parse_spec("level:5") == parse_spec("mcts:time=1")  # (the top level is the default AI)
    iters = [parse_spec(LEVELS[n])[1].get("iters", 10**9) for n in sorted(LEVELS)]
    tempers = [parse_spec(LEVELS[n])[1].get("temper", 0.0) for n in sorted(LEVELS)]
    assert iters == sorted(iters) and tempers == sorted(tempers, reverse=True) and tempers[-1] == 0.0


@pytest.mark.parametrize("spec", ["level:0", "level:6", "level:", "level:two", "level:3,seed=1", "level"])
def test_a_level_that_is_none_is_refused_in_one_line(spec):
    with pytest.raises(SpecError) as refused:
        parse_spec(spec)
    assert "level:3" in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("bad", ["mcts:iters=10,temper=-0.1", "mcts:iters=10,temper=2", "mcts:iters=10,temper=x"])
def test_a_temperature_out_of_its_range_is_refused(bad):
    with pytest.raises(SpecError):
        parse_spec(bad)


def test_a_temperature_samples_the_searched_moves_by_their_chance():
    agent = make_agent("mcts:iters=10,temper=0.05", seed=3)
    assert isinstance(agent, MCTSAgent)
    groups = {("a",): [("a",)], ("b",): [("b",)], ("c",): [("c",)], ("d",): [("d",)]}
    stats = {("a",): (10, 6.0), ("b",): (10, 5.5), ("c",): (10, 2.0), ("d",): (0, 0.0)}  # chances .6, .55, .2
    picks = Counter(agent.tempered(groups, stats, ("a",)) for _ in range(4000))
    assert picks[("d",)] == 0  # (never searched: never played)
    assert 0.6 < picks[("a",)] / 4000 < 0.8 and 0.2 < picks[("b",)] / 4000 < 0.4  # (close moves: both)
    assert picks[("c",)] < 5  # (a far worse move: almost never, exp(-8) of the best's weight)
    cold = make_agent("mcts:iters=10,temper=0.001", seed=3)
    assert {cold.tempered(groups, stats, ("a",)) for _ in range(200)} == {("a",)}


@pytest.mark.parametrize("level", [1, 2])  # (level 3 is level 2 with more search and a cooler choice)
def test_a_level_plays_a_whole_game_legally_and_its_seed_repeats_it(level):
    def play(seed: int) -> list[int]:
        agents = [make_agent(f"level:{level}", seed=seed), make_agent("greedy")]
        state = amigos.deal(seed, GameConfig())
        moves = 0
        while not state.is_terminal():
            action = agents[state.current_player()].select(state)
            assert action in state.legal_actions()
            state.apply(action)
            moves += 1
        return state.victory_points() + [moves]

    first = play(4)
    assert first[:2] != [0, 0]
    if level == 1:  # (one level's game played twice: the seed repeats it)
        assert play(4) == first
