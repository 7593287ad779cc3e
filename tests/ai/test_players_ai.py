"""The agents at three to five players: one value per seat summing to 1 (`ai.rewards`), every agent
playing whole games, and the search preferring what wins (issue 38's AI)."""

from __future__ import annotations

import math
import random

import pytest

import amigos
from ai.agents import make_agent
from ai.evaluator import packaged_model
from ai.features import player_features
from ai.learned import progress
from ai.rewards import WIN_MARGIN, chances, final_rewards, learned_rewards, rewards, unfinished_reward, unfinished_rewards
from amigos.config import GameConfig


def _positions(players: int, seed: int, lux: bool = False, every: int = 7):
    s = amigos.deal(seed, GameConfig(players=players, expansions=("lux",) if lux else ()))
    rng = random.Random(seed)
    k = 0
    while not s.is_terminal():
        if k % every == 0 and s.round >= 1:
            yield s.clone()
        s.apply(rng.choice(s.legal_actions()))
        k += 1
    yield s


@pytest.mark.parametrize("players,lux", [(2, False), (3, False), (4, False), (5, True)])
def test_every_value_gives_each_seat_a_reward_and_they_sum_to_one(players, lux):
    lost_most = WIN_MARGIN / (players - 1)
    model = packaged_model()
    for s in _positions(players, 3, lux):
        for learned, r in ((True, learned_rewards(s, model)), (False, rewards(s))):
            assert len(r) == players and math.isclose(sum(r), 1.0, abs_tol=1e-9)
            assert all(0.0 <= x <= 1.0 for x in r)
            if not s.is_terminal() and learned:
                # between a lost game's most and a won game's least
                assert all(lost_most - 1e-9 <= x <= 1 - WIN_MARGIN + 1e-9 for x in r)
        if s.is_terminal():
            assert final_rewards(s) == learned_rewards(s, model)


def test_with_two_players_the_chances_are_the_two_player_value():
    model = packaged_model()
    for s in _positions(2, 5):
        if s.is_terminal():
            continue
        rows = player_features(s)
        g = progress(rows)
        share = chances(model.scores(rows, g))
        assert share[0] == pytest.approx(model.probability(rows, 0, g), abs=1e-9)
        assert unfinished_rewards(share) == pytest.approx([unfinished_reward(share[0]), unfinished_reward(share[1])])


def test_a_player_scored_higher_gets_the_larger_share():
    share = chances([1.0, 0.0, -1.0])
    assert share[0] > share[1] > share[2] and math.isclose(sum(share), 1.0)
    assert chances([500.0, 0.0, 0.0])[0] == pytest.approx(1.0)  # (no overflow)


@pytest.mark.parametrize("spec", ["mcts:iters=40,seed=2", "greedy", "random", "expectimax:depth=1",
                                  "mcts:iters=20,value=net,seed=1,net={net}", "mcts:iters=20,solo=0,seed=1"])
@pytest.mark.parametrize("players,variant,lux", [(3, "standard", False), (4, "draft", False),
                                                 (3, "first_game", False), (5, "standard", True)])
def test_every_agent_plays_whole_games_of_three_to_five(spec, players, variant, lux, tmp_path):
    from ai.network import ValueNet
    ValueNet.initial(8, 1).save(tmp_path / "n.npz")  # (value=net falls back to the linear value anyway)
    spec = spec.format(net=tmp_path / "n.npz")
    s = amigos.deal(11, GameConfig(variant, players=players, expansions=("lux",) if lux else ()))
    agents = [make_agent(spec, seed=p) for p in range(players)]
    decisions = 0
    while not s.is_terminal():
        legal = s.legal_actions()
        action = legal[0] if len(legal) == 1 else agents[s.current_player()].select(s)
        assert action in legal
        s.apply(action)
        decisions += 1
        assert decisions < 20000
    assert s.winners()
