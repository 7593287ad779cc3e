"""The root's moves cut to the model of choices' likeliest (`ai.mcts`'s ``shortlist=K``, ``policy=FILE``)."""

from __future__ import annotations

import pytest

from ai.agents import SpecError, make_agent
from ai.checkpoint import NetError
from ai.futile import useful
from ai.mcts import group
from ai.policy import PolicyNet
from amigos.actions import macro_key

from .test_evaluator import choices_with_ways


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("policy") / "p.npz"
    net = PolicyNet.initial(16, 3)
    net.u[:] = net.v[:, 0] * 40  # (moves far apart: a clear ranking)
    net.save(path)
    return str(path)


def test_the_root_searches_only_the_moves_the_policy_rates_likeliest(policy_file):
    policy = PolicyNet.load(policy_file)
    cut = 0
    for world, _ in choices_with_ways(8):
        player = world.current_player()
        agent = make_agent(f"mcts:iters=200,seed=4,shortlist=3,policy={policy_file}")
        groups = useful(world, group(world, True))  # (the moves the agent weighs: futile ones left out)
        moves = list(dict.fromkeys(macro_key(v[0]) for v in groups.values()))
        if len(moves) <= 3:
            continue
        logits = policy.logits(world, moves, player)
        best = {moves[i] for i in sorted(range(len(moves)), key=lambda i: -logits[i])[:3]}
        kept = agent.likely(world, groups, player, agent.policy)
        assert {macro_key(v[0]) for v in kept.values()} == best
        assert all(kept[k] == groups[k] for k in kept)  # (each kept move keeps its ways and purchases)
        action = agent.select(world)
        if agent.info.get("iterations"):
            assert macro_key(action) in best
            cut += 1
    assert cut >= 3
    assert make_agent(f"mcts:iters=5,shortlist=3,policy={policy_file}").policy is not None
    assert make_agent("mcts:iters=5").policy is None


def test_a_missing_or_bad_policy_file_or_a_policy_without_a_shortlist_is_refused(tmp_path, policy_file):
    with pytest.raises(NetError, match="no such file"):
        make_agent(f"mcts:iters=5,shortlist=4,policy={tmp_path / 'none.npz'}")
    (tmp_path / "bad.npz").write_bytes(b"not a network")
    with pytest.raises(NetError, match="bad.npz"):
        make_agent(f"mcts:iters=5,shortlist=4,policy={tmp_path / 'bad.npz'}")
    with pytest.raises(SpecError, match="shortlist"):
        make_agent(f"mcts:iters=5,policy={policy_file}")
    with pytest.raises(SpecError, match="shortlist"):
        make_agent("mcts:iters=5,shortlist=-1")


def test_a_shortlist_of_one_plays_the_likeliest_move_without_searching(policy_file):
    policy = PolicyNet.load(policy_file)
    world, _ = next((w, v) for w, v in choices_with_ways(8) if len(useful(w, group(w, True))) > 2)
    player = world.current_player()
    moves = list(dict.fromkeys(macro_key(v[0]) for v in useful(world, group(world, True)).values()))
    logits = policy.logits(world, moves, player)
    agent = make_agent(f"mcts:iters=200,seed=4,solo=0,shortlist=1,policy={policy_file}")
    action = agent.select(world)
    assert agent.info["iterations"] == 0 and macro_key(action) == moves[int(max(range(len(moves)), key=lambda i: logits[i]))]
    assert "root" not in agent.info  # (a cut search's visits are no training target)
