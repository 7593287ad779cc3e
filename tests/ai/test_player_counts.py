"""A value network for three players or more (`ai.network`'s ``players``): its file says its count, the
evaluator uses it for games of that count only, and it shares a leaf's reward among every player."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import amigos
from ai.agents import make_agent
from ai.checkpoint import NetError
from ai.evaluator import NET, Evaluator, packaged_model, packaged_net
from ai.network import ValueNet
from ai.rewards import WIN_MARGIN, learned_rewards, net_rewards
from amigos.config import GameConfig
from amigos.determinize import determinize


def _net(players: int, seed: int = 5) -> ValueNet:
    net = ValueNet.initial(16, seed, base=True, features=True, linear=packaged_model())
    net.w2[:] = np.random.default_rng(seed).normal(0.0, 0.5, 16)
    net.info["players"] = players
    return net


def _position(players: int, seed: int = 3, moves: int = 60) -> amigos.GameState:
    state = amigos.deal(seed, GameConfig(players=players))
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_a_network_file_keeps_its_player_count_and_a_bad_count_is_refused(tmp_path):
    _net(3).save(tmp_path / "three.npz")
    assert ValueNet.load(tmp_path / "three.npz", packaged_model()).players == 3
    assert packaged_net().players == 2  # (files before the count: two players)
    bad = _net(3)
    bad.info["players"] = 7
    bad.save(tmp_path / "seven.npz")
    with pytest.raises(NetError, match="seven.npz: a value network for 7 players"):
        ValueNet.load(tmp_path / "seven.npz", packaged_model())


@pytest.mark.parametrize("players", [3, 4])
def test_a_leaf_s_reward_is_every_player_s_chance_from_their_own_view_shared_out(players):
    net = _net(players)
    state = _position(players)
    world = determinize(state, 0, 11)
    rewards = net_rewards(world, net, 0)
    odds = [net.probability(world, q) for q in range(players)]
    assert len(rewards) == players and sum(rewards) == pytest.approx(1.0)
    assert all(WIN_MARGIN / (players - 1) - 1e-9 <= r <= 1 - WIN_MARGIN + 1e-9 for r in rewards)
    order = sorted(range(players), key=lambda q: odds[q])
    assert sorted(range(players), key=lambda q: rewards[q]) == order  # (more chance, more reward)


def test_the_evaluator_uses_a_network_for_the_game_s_count_and_the_linear_value_elsewhere(tmp_path):
    three = _net(3)
    evaluator = Evaluator(NET, packaged_model(), packaged_net(), more=[three])
    assert evaluator.nets == {2: packaged_net(), 3: three}
    state = _position(3)
    world = determinize(state, 1, 4)
    assert evaluator.leaf(3, 1)(world) == net_rewards(world, three, 1)
    four = determinize(_position(4), 1, 4)
    assert evaluator.leaf(4, 1)(four) == learned_rewards(four, packaged_model())
    with pytest.raises(ValueError, match="two players"):
        Evaluator(NET, packaged_model(), three)
    three.save(tmp_path / "three.npz")
    agent = make_agent(f"mcts:iters=30,seed=2,net={tmp_path / 'three.npz'}")
    assert agent.evaluator.nets[3].players == 3 and agent.evaluator.nets[2] is packaged_net()
    action = agent.select(state)
    assert action in state.legal_actions()


@pytest.mark.slow  # (a training run: the pure build runs it; the compiled build, not again)
def test_a_run_for_three_players_plays_three_player_games_and_keeps_a_network_for_them(tmp_path):
    from training import neural as N
    from training.records import RecordError

    two = tmp_path / "two.npz"
    _net(2).save(two)
    work = tmp_path / "run"
    N.run(work, 1, 10, 1, 2, epochs=1, lux=0.0, start=two, players=3, log=lambda line: None, measure=3,
          measure_iters=5)
    assert ValueNet.load(work / "net-0.npz", packaged_model()).players == 3  # (started from a two-player one)
    net = ValueNet.load(work / "net-1.npz", packaged_model())
    assert net.players == 3 and net.info["games"] == 10
    measured = json.loads((work / "progress.jsonl").read_text().splitlines()[-1])["against_previous"]
    assert measured["games"] == 3 and measured["fair"] == round(1 / 3, 4) and 0 <= measured["points"] <= 3
    games = N.read_games(work, 0)
    assert all(len(game["result"]) == 3 and sum(game["result"]) == pytest.approx(1.0) for game in games)
    views = N.views_of(games[0])
    assert {view[2] for view in views} == {0, 1, 2} and len(views) % 3 == 0
    _, y = N.targets(net, N._compact([dict(game, views=N.views_of(game)) for game in games[:3]]), 0.7)
    assert ((0.0 <= y) & (y <= 1.0)).all()
    with pytest.raises(RecordError, match="not 2"):
        N.run(tmp_path / "again", 1, 20, 1, 1, seed_games=[work], log=lambda line: None)
    with pytest.raises(RecordError, match="3 players, not 2"):
        N.run(work, 2, 20, 1, 1, log=lambda line: None)  # (a run goes on with its own count)


def test_a_record_s_results_must_be_a_count_its_setup_may_have():
    from training.records import RecordError, neural_game

    record = {"seed": 1, "choices": [], "result": [1.0, 0.0, 0.0]}
    assert neural_game(record, "x") is record
    with pytest.raises(RecordError, match="Lux et Tenebrae"):
        neural_game(dict(record, result=[1.0, 0, 0, 0, 0]), "x")
    assert neural_game(dict(record, result=[1.0, 0, 0, 0, 0], expansions=["lux"]), "x")
    with pytest.raises(RecordError, match="its result"):
        neural_game(dict(record, result=[1.0]), "x")


def test_a_seat_against_the_others_plays_every_seat_of_a_full_table_on_each_deal():
    from matches.arena import seat_deal, seat_points, seated

    games = seat_deal(7, GameConfig(players=3), "greedy", "random")
    assert [g["seat"] for g in games] == [0, 1, 2] and all(len(g["vp"]) == 3 for g in games)
    assert seat_points(games) == sum(1 / len(g["winners"]) for g in games if g["seat"] in g["winners"])
    result = seated("greedy", "random", 2, GameConfig(players=3), seed=7)
    assert result["games"] == 6 and result["fair"] == pytest.approx(1 / 3)
    assert result["low"] <= result["rate"] <= result["high"] and result["rate"] == result["score"] / 6
    assert seated("greedy", "random", 2, GameConfig(players=3), seed=7) == result  # (a function of the seed)


def test_a_network_for_more_players_is_never_taken_for_the_two_player_one(tmp_path, monkeypatch):
    from ai import evaluator as V

    with pytest.raises(ValueError, match="two players"):
        Evaluator(NET, packaged_model(), packaged_net(), more=[_net(2)])
    _net(2).save(tmp_path / "value_net_3p.npz")  # (a file named for three players that is for two)
    monkeypatch.setattr(ValueNet, "packaged_path", staticmethod(lambda players=2: tmp_path / f"value_net_{players}p.npz"))
    V.packaged_wide.cache_clear()
    with pytest.raises(NetError, match="value_net_3p.npz: a value network for 2 players, not 3"):
        V.packaged_wide(3)
    V.packaged_wide.cache_clear()
